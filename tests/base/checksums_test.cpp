#include "base/checksums.hpp"
#include "tests/patcher/support.hpp"

#include <catch2/catch.hpp>
#include <openssl/evp.h>
#include <zlib.h>

using namespace nestris;
using namespace nestris::test;

namespace {

// The independent references: OpenSSL's SHA-1 and MD5, zlib's CRC32.
std::string openssl_sha1_hex(std::span<const uint8_t> data) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    REQUIRE(EVP_Digest(data.data(), data.size(), digest, &n, EVP_sha1(), nullptr) == 1);
    REQUIRE(n == 20);
    static const char digits[] = "0123456789ABCDEF";
    std::string text;
    for (unsigned int i = 0; i < n; ++i) {
        text += digits[digest[i] >> 4];
        text += digits[digest[i] & 15];
    }
    return text;
}

uint32_t zlib_crc32(std::span<const uint8_t> data) {
    return static_cast<uint32_t>(::crc32(::crc32(0L, Z_NULL, 0), data.data(), static_cast<uInt>(data.size())));
}

}  // namespace

TEST_CASE("checksums: SHA-1 and CRC32 agree with OpenSSL and zlib") {
    const std::string abc = "abc";
    const std::span<const uint8_t> abc_bytes(reinterpret_cast<const uint8_t*>(abc.data()), abc.size());
    CHECK(sha1_hex(abc_bytes) == "A9993E364706816ABA3E25717850C26C9CD0D89D");  // FIPS 180 example
    CHECK(sha1_hex({}) == "DA39A3EE5E6B4B0D3255BFEF95601890AFD80709");
    CHECK(crc32_of(abc_bytes) == 0x352441C2);
    CHECK(crc32_hex(0x0352441C) == "0352441C");
    std::mt19937 rng(77);
    for (size_t n = 0; n < 300; ++n) {  // every length around the 64-byte blocks and the padding
        const auto data = random_bytes(rng, n);
        INFO(n);
        CHECK(sha1_hex(data) == openssl_sha1_hex(data));
        CHECK(crc32_of(data) == zlib_crc32(data));
    }
    for (int round = 0; round < 20; ++round) {
        const auto data = random_bytes(rng, 1 + rng() % 70000);
        CHECK(sha1_hex(data) == openssl_sha1_hex(data));
        CHECK(crc32_of(data) == zlib_crc32(data));
    }
}

TEST_CASE("checksums: MD5 (FCEUX movies' ROM checksum) agrees with OpenSSL") {
    auto openssl_md5 = [](std::span<const uint8_t> data) {
        std::array<uint8_t, 16> out{};
        unsigned int n = 0;
        REQUIRE(EVP_Digest(data.data(), data.size(), out.data(), &n, EVP_md5(), nullptr) == 1);
        REQUIRE(n == 16);
        return out;
    };
    std::mt19937 rng(78);
    for (size_t n = 0; n < 300; ++n) {  // every length around the 64-byte blocks and the padding
        const auto data = random_bytes(rng, n);
        INFO(n);
        CHECK(md5(data) == openssl_md5(data));
    }
    const auto big = random_bytes(rng, 40976);  // a Tetris-sized image
    CHECK(md5(big) == openssl_md5(big));
}
