// The one hex formatter: upper-case digits, as ROM databases, the 6502 world and this project's
// messages write them. Every message, report and generated file that shows a number in hex
// goes through these.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace nestris {

namespace detail {
// The digits of v, at least `digits` of them, after the prefix (none or '$'), made in one buffer.
inline std::string hex_text(uint64_t v, int digits, char prefix) {
    static constexpr char kDigits[] = "0123456789ABCDEF";
    char text[17];
    int at = 17;
    while (at > 1 && (17 - at < digits || v != 0 || at == 17)) {  // from the lowest digit up
        text[--at] = kDigits[v & 15];
        v >>= 4;
    }
    if (prefix) text[--at] = prefix;
    return std::string(text + at, text + 17);
}
}  // namespace detail

// v in at least `digits` upper-case hex digits (more when v needs them): hex_digits(0x1F, 4) = "001F".
inline std::string hex_digits(uint64_t v, int digits) { return detail::hex_text(v, digits, 0); }

// "$001F": an address or a byte as the 6502 world writes it.
inline std::string hex(uint64_t v, int digits) { return detail::hex_text(v, digits, '$'); }

// Every byte as two digits, no separator.
inline std::string hex_bytes(std::span<const uint8_t> bytes) {
    std::string s;
    s.reserve(bytes.size() * 2);
    for (const uint8_t b : bytes) s += hex_digits(b, 2);
    return s;
}

}  // namespace nestris
