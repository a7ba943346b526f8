// SHA-1 and CRC32 of byte buffers, the two checksums ROM databases (No-Intro, GoodNES) list.
// Computed by maintained libraries (OpenSSL, zlib), never by hand-rolled code.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace nestris {

// Upper-case hex, 40 digits: the form ROM databases print.
std::string sha1_hex(std::span<const uint8_t> data);
uint32_t crc32_of(std::span<const uint8_t> data);
// Upper-case hex, 8 digits.
std::string crc32_hex(uint32_t crc);

}  // namespace nestris
