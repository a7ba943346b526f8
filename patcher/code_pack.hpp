// The packed form of the cartridge's RAM code: what nestris-asm stores in ROM and the cartridge's
// unpacker (asm/unpack.s) writes out into PRG-RAM in the legal screen's idle time.
//
// The stream is an LZ77 code of bits and bytes read in one order: a bit buffer byte is taken
// from the stream whenever its 8 bits are used up, and raw bytes come from the same stream
// between them. Tokens (after a match or at the start, state A; after a literal run, state B):
//   0 gamma(n) byte*n          a literal run of n bytes (state A only; then state B)
//   0 gamma(n)                 a match of n bytes at the last offset (state B only; then A)
//   1 gamma(h+1) byte(l) gamma(n-1)
//                              a match of n >= 2 bytes at offset (h*256 + l + 1) back; then A
//   1 gamma(JUMP) byte byte    the stream goes on at that address (little endian); then A
//   1 gamma(END)               the end
// gamma(v), v = 1..255: for each bit of v after its leading 1, from the top, a 0 then the bit;
// then a 1. The last offset starts at 1. Every value fits 8 bits, so the 6502 needs no 16-bit
// counts; runs and matches over 255 bytes are split.
//
// The ROM's free space is many regions: the stream is laid out in chunks, one a region, each
// (but the last) ended by a JUMP to the next.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace nestris {

struct CodePackError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Gamma values in a new offset's place (its high byte + 1): small, as a jump comes once a chunk
// (11 bits); the offsets reach 60 * 256 bytes back, past PRG-RAM's 8 KiB. asm/unpack.s has them
// too (PACK_JUMP, PACK_END; tests/cart checks that they agree).
inline constexpr unsigned kPackJump = 63;
inline constexpr unsigned kPackEnd = 62;
inline constexpr unsigned kPackMaxOffsetHigh = kPackEnd - 2;

// Where a chunk of the stream may go: a CPU address and the bytes free there.
struct StreamRoom {
    std::string region;
    uint16_t address = 0;
    uint32_t free = 0;
};

struct PackChunk {
    std::string region;
    uint16_t address = 0;
    std::vector<uint8_t> bytes;
};

// The stream of `data` in the rooms, in their order (a room too small for a token and a jump is
// skipped). Throws CodePackError when it does not fit, or when the data has more than 254 bytes
// in a row with no repeat of 2 bytes (random bytes; code and tables always have repeats).
std::vector<PackChunk> pack_code(std::span<const uint8_t> data, const std::vector<StreamRoom>& rooms);

// The stream as one run (no jumps), for measuring.
std::vector<uint8_t> pack_code(std::span<const uint8_t> data);

// Reads a stream from `read` (a CPU address -> byte), starting at `start`, as the cartridge
// does; throws CodePackError on a malformed stream or one that writes more than `limit` bytes.
std::vector<uint8_t> unpack_code(const std::function<uint8_t(uint16_t)>& read, uint16_t start, size_t limit);

}  // namespace nestris
