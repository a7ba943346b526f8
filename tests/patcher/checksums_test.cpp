#include "checksums.hpp"
#include "patcher/support.hpp"
#include "portable_checksums.hpp"

#include <catch2/catch.hpp>
#include <openssl/evp.h>

using namespace nestris;
using namespace nestris::test;

TEST_CASE("checksums: the WebAssembly build's SHA-1 and CRC32 agree with OpenSSL and zlib") {
    const std::string abc = "abc";
    const std::span<const uint8_t> abc_bytes(reinterpret_cast<const uint8_t*>(abc.data()), abc.size());
    CHECK(portable::sha1_hex(abc_bytes) == "A9993E364706816ABA3E25717850C26C9CD0D89D");  // FIPS 180 example
    CHECK(portable::sha1_hex({}) == "DA39A3EE5E6B4B0D3255BFEF95601890AFD80709");
    CHECK(portable::crc32_of(abc_bytes) == 0x352441C2);
    std::mt19937 rng(77);
    for (size_t n = 0; n < 300; ++n) {  // every length around the 64-byte blocks and the padding
        const auto data = random_bytes(rng, n);
        INFO(n);
        CHECK(portable::sha1_hex(data) == sha1_hex(data));
        CHECK(portable::crc32_of(data) == crc32_of(data));
    }
    for (int round = 0; round < 20; ++round) {
        const auto data = random_bytes(rng, 1 + rng() % 70000);
        CHECK(portable::sha1_hex(data) == sha1_hex(data));
        CHECK(portable::crc32_of(data) == crc32_of(data));
    }
}

TEST_CASE("checksums: the portable MD5 (FCEUX movies' ROM checksum) agrees with OpenSSL") {
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
        CHECK(portable::md5(data) == openssl_md5(data));
    }
    const auto big = random_bytes(rng, 40976);  // a Tetris-sized image
    CHECK(portable::md5(big) == openssl_md5(big));
}
