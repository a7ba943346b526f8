#include "checksums.hpp"

#include <openssl/evp.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace nestris {

std::string sha1_hex(std::span<const uint8_t> data) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    // EVP_Digest is OpenSSL's one-shot interface; the low-level SHA1_* calls are deprecated.
    if (EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha1(), nullptr) != 1 || length != 20)
        throw std::runtime_error("OpenSSL could not compute a SHA-1");
    static const char digits[] = "0123456789ABCDEF";
    std::string hex;
    for (unsigned int i = 0; i < length; ++i) {
        hex += digits[digest[i] >> 4];
        hex += digits[digest[i] & 15];
    }
    return hex;
}

uint32_t crc32_of(std::span<const uint8_t> data) {
    uLong crc = ::crc32(0L, Z_NULL, 0);
    // zlib takes a 32-bit length: feed large buffers in pieces.
    while (!data.empty()) {
        const size_t n = std::min<size_t>(data.size(), 1u << 30);
        crc = ::crc32(crc, data.data(), static_cast<uInt>(n));
        data = data.subspan(n);
    }
    return static_cast<uint32_t>(crc);
}

}  // namespace nestris
