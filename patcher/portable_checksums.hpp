// SHA-1, CRC32 and MD5 in plain C++, for the WebAssembly build, which has neither OpenSSL nor zlib.
// Native builds use the libraries (checksums.hpp); tests/patcher/checksums_test.cpp checks that
// these agree with them on known vectors and on random data of every length around the blocks.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace nestris::portable {

// Upper-case hex, 40 digits (FIPS 180-4).
std::string sha1_hex(std::span<const uint8_t> data);
// The CRC-32 of zlib, PNG and the ROM databases (reflected polynomial $EDB88320).
uint32_t crc32_of(std::span<const uint8_t> data);
// MD5 (RFC 1321): FCEUX names a movie's ROM by it. Only here: no native counterpart is needed.
std::array<uint8_t, 16> md5(std::span<const uint8_t> data);

}  // namespace nestris::portable
