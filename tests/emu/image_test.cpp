// The picture the commands write: scaled up pixel by pixel (play --png-scale).
#include "emu-test/image.hpp"

#include <catch2/catch.hpp>

using nestris::emu::Image;
using nestris::emu::scaled;

TEST_CASE("image: scaled makes each pixel a square of the factor's side") {
    Image small(2, 1);
    small.pixel(0, 0)[0] = 10;  // red 10 at the left, blue 200 at the right
    small.pixel(1, 0)[2] = 200;
    const Image big = scaled(small, 3);
    REQUIRE(big.width == 6);
    REQUIRE(big.height == 3);
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 6; ++x) {
            INFO("x " << x << " y " << y);
            CHECK(big.pixel(x, y)[0] == (x < 3 ? 10 : 0));
            CHECK(big.pixel(x, y)[1] == 0);
            CHECK(big.pixel(x, y)[2] == (x < 3 ? 0 : 200));
        }
    CHECK(scaled(small, 1) == small);
}
