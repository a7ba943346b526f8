// BPS patches (the beat format, byuu 2012): read, apply strictly, and write the one kind this
// project ships (a ROM whose size stays the same, with some bytes replaced).
//
// The format: "BPS1", then three numbers (source size, target size, metadata size), the metadata,
// then actions until the last 12 bytes, which hold the CRC32s of the source, the target and the
// patch before them (little endian). A number is written 7 bits a byte, low first, the top bit
// marking the last byte, and one subtracted after each byte that is not the last (so every
// number has one encoding). An action is a number: (length - 1) << 2 | kind, where the kind is
//   0 SourceRead: copy `length` bytes of the source at the target's write position;
//   1 TargetRead: `length` bytes follow in the patch;
//   2 SourceCopy: a signed number (|d| << 1 | sign) moves the source cursor, then copy from it;
//   3 TargetCopy: the same with the target cursor, copying bytes already written (may overlap).
// An applier checks all three CRC32s: the patch, the source before applying, the target after.
#pragma once

#include "patcher/ips.hpp"

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace nestris {

struct BpsError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The largest file a BPS may describe here (a NES ROM is far smaller): keeps every size and
// cursor in range, so a hostile patch cannot ask for gigabytes.
inline constexpr uint64_t kBpsMaxFileSize = 64ull << 20;

struct BpsHeader {
    uint64_t source_size = 0, target_size = 0;
    std::string metadata;
    uint32_t source_crc32 = 0, target_crc32 = 0, patch_crc32 = 0;
    uint32_t actions = 0;          // actions in the patch
    uint64_t literal_bytes = 0;    // bytes carried by TargetRead actions
};

// Reads and checks a patch: its structure (every action within the target, cursors within
// their files, the actions filling the target exactly) and its own CRC32. Throws BpsError
// naming the byte offset of the first problem.
BpsHeader parse_bps(std::span<const uint8_t> patch);

// Applies a patch, checking the source's size and CRC32 before and the target's after. Throws
// BpsError saying which check failed.
std::vector<uint8_t> apply_bps(std::span<const uint8_t> source, std::span<const uint8_t> patch);

// The BPS equivalent of an IPS patch applied to a source of `source_size` bytes (the same size
// after; no truncation, no growth): SourceRead for the bytes it keeps, TargetRead for the
// bytes the IPS writes. It needs no byte of the source, only its CRC32 and the target's.
// Throws BpsError when the IPS writes past `source_size` or truncates.
std::vector<uint8_t> bps_from_ips(const IpsPatch& ips, uint64_t source_size, uint32_t source_crc32,
                                  uint32_t target_crc32, std::string_view metadata = {});

}  // namespace nestris
