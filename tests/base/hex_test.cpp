#include "base/hex.hpp"

#include <catch2/catch.hpp>

#include <array>

using namespace nestris;

TEST_CASE("hex: the one formatter pads to the digits asked and never cuts a number") {
    CHECK(hex_digits(0, 2) == "00");
    CHECK(hex_digits(0, 0) == "0");
    CHECK(hex_digits(0x1F, 4) == "001F");
    CHECK(hex_digits(0x12345, 4) == "12345");
    CHECK(hex_digits(0xFFFFFFFFFFFFFFFFull, 2) == "FFFFFFFFFFFFFFFF");
    CHECK(hex(0xAB, 2) == "$AB");
    CHECK(hex(0x8005, 4) == "$8005");
    const std::array<uint8_t, 3> bytes{0x00, 0xAB, 0x10};
    CHECK(hex_bytes(bytes) == "00AB10");
    CHECK(hex_bytes({}) == "");
}
