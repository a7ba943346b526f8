// Helpers shared by the patcher tests: random data, scratch directories (support/), an IPS applier written
// independently of patcher/ips.cpp, and synthetic ROM images (never the game's bytes).
#pragma once

#include "tests/support/scratch_dir.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace nestris::test {

inline std::vector<uint8_t> random_bytes(std::mt19937& rng, size_t n) {
    std::vector<uint8_t> out(n);
    for (uint8_t& b : out) b = static_cast<uint8_t>(rng());
    return out;
}

// The simplest IPS applier that can be: straight from the format description, no validation
// beyond what the test needs. Used to check patches without trusting apply_ips.
inline std::vector<uint8_t> minimal_apply(std::vector<uint8_t> file, const std::vector<uint8_t>& ips) {
    REQUIRE(ips.size() >= 8);
    REQUIRE(std::memcmp(ips.data(), "PATCH", 5) == 0);
    size_t p = 5;
    for (;;) {
        REQUIRE(p + 3 <= ips.size());
        const size_t offset = size_t{ips[p]} << 16 | size_t{ips[p + 1]} << 8 | ips[p + 2];
        p += 3;
        if (offset == 0x454F46) break;
        REQUIRE(p + 2 <= ips.size());
        size_t size = size_t{ips[p]} << 8 | ips[p + 1];
        p += 2;
        bool rle = false;
        if (size == 0) {
            REQUIRE(p + 3 <= ips.size());
            size = size_t{ips[p]} << 8 | ips[p + 1];
            rle = true;
            p += 2;
        }
        if (file.size() < offset + size) file.resize(offset + size, 0);
        for (size_t i = 0; i < size; ++i) file[offset + i] = rle ? ips[p] : ips[p + i];
        p += rle ? 1 : size;
    }
    if (p + 3 == ips.size()) file.resize(size_t{ips[p]} << 16 | size_t{ips[p + 1]} << 8 | ips[p + 2]);
    else REQUIRE(p == ips.size());
    return file;
}

// The 16-byte header of Tetris (USA), written from the iNES format: "NES" $1A, 2 x 16 KiB PRG,
// 2 x 8 KiB CHR, flags 6 = mapper 1 in the high nibble. (A header, not a byte of the game.)
inline std::vector<uint8_t> tetris_header_bytes() {
    return {'N', 'E', 'S', 0x1A, 2, 2, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0};
}

inline std::vector<uint8_t> concat(std::vector<uint8_t> a, const std::vector<uint8_t>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

}  // namespace nestris::test
