#include "base/error_text.hpp"

#include <cstdint>

namespace nestris {
namespace {

// The length of the well-formed UTF-8 sequence at the start of `s` (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF), or 0 when there is none.
size_t utf8_sequence(std::string_view s) {
    const auto byte = [&](size_t i) { return static_cast<uint8_t>(s[i]); };
    const uint8_t b0 = byte(0);
    size_t n = 0;
    uint8_t lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        n = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        n = 3;
        if (b0 == 0xE0) lo = 0xA0;
        if (b0 == 0xED) hi = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        n = 4;
        if (b0 == 0xF0) lo = 0x90;
        if (b0 == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (s.size() < n || byte(1) < lo || byte(1) > hi) return 0;
    for (size_t i = 2; i < n; ++i)
        if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
    // U+0080-U+009F are the C1 controls (CSI among them): escaped like the C0 ones.
    if (n == 2 && b0 == 0xC2 && byte(1) <= 0x9F) return 0;
    return n;
}

void append_escaped(std::string& out, uint8_t b) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    out += "\\x";
    out += kHex[b >> 4];
    out += kHex[b & 15];
}

}  // namespace

std::string printable(std::string_view text, size_t max_chars) {
    std::string out;
    size_t chars = 0, at = 0;
    while (at < text.size()) {
        if (chars == max_chars) {
            out += "...";
            break;
        }
        const uint8_t b = static_cast<uint8_t>(text[at]);
        if (b >= 0x20 && b < 0x7F) {
            out += static_cast<char>(b);
            ++at;
        } else if (const size_t n = b >= 0x80 ? utf8_sequence(text.substr(at)) : 0; n > 0) {
            out.append(text.substr(at, n));
            at += n;
        } else {
            append_escaped(out, b);
            ++at;
        }
        ++chars;
    }
    return out;
}

std::string quoted_excerpt(std::string_view text) {
    std::string out = "'";  // built in place: GCC 12 warns (-Wrestrict, wrongly) on "'" + std::string&&
    out += printable(text, kMaxQuoted);
    out += '\'';
    return out;
}

}  // namespace nestris
