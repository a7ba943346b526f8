// SHA-1, CRC32 and MD5 of byte buffers: SHA-1 and CRC32 are the two checksums ROM databases
// (No-Intro, GoodNES) list, MD5 is how FCEUX names a movie's ROM. One implementation, in plain
// C++, for every build: the WebAssembly page has neither OpenSSL nor zlib, so the native build
// uses the same code. tests/base/checksums_test.cpp checks it against OpenSSL and zlib (the
// maintained libraries, as independent references) on known vectors and on random data of
// every length around the blocks.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace nestris {

// Upper-case hex, 40 digits: the form ROM databases print (FIPS 180-4).
std::string sha1_hex(std::span<const uint8_t> data);
// The CRC-32 of zlib, PNG and the ROM databases (reflected polynomial $EDB88320).
uint32_t crc32_of(std::span<const uint8_t> data);
// Upper-case hex, 8 digits.
std::string crc32_hex(uint32_t crc);
// MD5 (RFC 1321): FCEUX names a movie's ROM by it.
std::array<uint8_t, 16> md5(std::span<const uint8_t> data);

}  // namespace nestris
