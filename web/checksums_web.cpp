// checksums.hpp for the WebAssembly build: OpenSSL and zlib are not there, so the plain C++
// versions (patcher/portable_checksums), which the native tests check against them, stand in.
#include "checksums.hpp"
#include "portable_checksums.hpp"

namespace nestris {

// (crc32_hex is defined once, in portable_checksums.cpp, for both builds.)
std::string sha1_hex(std::span<const uint8_t> data) { return portable::sha1_hex(data); }
uint32_t crc32_of(std::span<const uint8_t> data) { return portable::crc32_of(data); }

}  // namespace nestris
