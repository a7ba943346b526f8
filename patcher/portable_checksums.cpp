#include "portable_checksums.hpp"

#include "checksums.hpp"

#include <array>
#include <cstdio>

namespace nestris::portable {
namespace {

uint32_t rotl(uint32_t x, int n) { return x << n | x >> (32 - n); }

void sha1_block(std::array<uint32_t, 5>& h, const uint8_t* block) {
    uint32_t w[80];
    for (int i = 0; i < 16; ++i)
        w[i] = uint32_t{block[4 * i]} << 24 | uint32_t{block[4 * i + 1]} << 16 | uint32_t{block[4 * i + 2]} << 8 |
               block[4 * i + 3];
    for (int i = 16; i < 80; ++i) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; ++i) {
        uint32_t f, k;
        if (i < 20) f = (b & c) | (~b & d), k = 0x5A827999;
        else if (i < 40) f = b ^ c ^ d, k = 0x6ED9EBA1;
        else if (i < 60) f = (b & c) | (b & d) | (c & d), k = 0x8F1BBCDC;
        else f = b ^ c ^ d, k = 0xCA62C1D6;
        const uint32_t t = rotl(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = rotl(b, 30);
        b = a;
        a = t;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
}

std::array<uint32_t, 256> crc_table() {
    std::array<uint32_t, 256> t{};
    for (uint32_t n = 0; n < 256; ++n) {
        uint32_t c = n;
        for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        t[n] = c;
    }
    return t;
}

}  // namespace

std::string sha1_hex(std::span<const uint8_t> data) {
    std::array<uint32_t, 5> h{0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    size_t whole = data.size() / 64 * 64;
    for (size_t i = 0; i < whole; i += 64) sha1_block(h, data.data() + i);
    // The tail, a 1 bit, zeros, and the length in bits (big endian) fill one or two blocks.
    uint8_t tail[128] = {};
    const size_t rest = data.size() - whole;
    for (size_t i = 0; i < rest; ++i) tail[i] = data[whole + i];
    tail[rest] = 0x80;
    const size_t tail_size = rest < 56 ? 64 : 128;
    const uint64_t bits = static_cast<uint64_t>(data.size()) * 8;
    for (int i = 0; i < 8; ++i) tail[tail_size - 1 - i] = static_cast<uint8_t>(bits >> (8 * i));
    for (size_t i = 0; i < tail_size; i += 64) sha1_block(h, tail + i);
    static const char digits[] = "0123456789ABCDEF";
    std::string hex;
    for (uint32_t word : h)
        for (int shift = 28; shift >= 0; shift -= 4) hex += digits[(word >> shift) & 15];
    return hex;
}

uint32_t crc32_of(std::span<const uint8_t> data) {
    static const std::array<uint32_t, 256> table = crc_table();
    uint32_t c = 0xFFFFFFFFu;
    for (uint8_t byte : data) c = table[(c ^ byte) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

}  // namespace nestris::portable

namespace nestris {

// checksums.hpp's formatting, here because it needs no library: native and WebAssembly builds
// share this one definition.
std::string crc32_hex(uint32_t crc) {
    char text[9];
    std::snprintf(text, sizeof text, "%08X", crc);
    return text;
}

}  // namespace nestris
