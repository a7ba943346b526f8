#include "cart_image.hpp"

#include <catch2/catch.hpp>

#include <cstring>

using namespace nestris;

TEST_CASE("the shipped cartridge lies inside the free-space map") {
    const CartImage& cart = shipped_cart();
    REQUIRE_FALSE(cart.rom_segments().empty());
    for (const CartSegment* seg : cart.rom_segments()) {
        bool inside = false;
        for (const CartRegion& r : cart.regions)
            if (!r.is_ram && seg->address >= r.start && seg->address + seg->bytes.size() <= r.start + r.size)
                inside = true;
        INFO(seg->name);
        CHECK(inside);
        CHECK(seg->address >= 0x8000);
    }
    for (const CartRegion& r : cart.regions) CHECK(r.used <= r.size);
}

TEST_CASE("the shipped cartridge carries its signature and game addresses") {
    const CartImage& cart = shipped_cart();
    const uint16_t sig = cart.require("nestris_signature");
    const uint16_t id = cart.require("nestris_build_id");
    CHECK(id > sig);
    bool found = false;
    for (const CartSegment* seg : cart.rom_segments()) {
        if (sig >= seg->address && sig < seg->address + seg->bytes.size()) {
            found = std::memcmp(seg->bytes.data() + (sig - seg->address), "NESTRIS-AI", 10) == 0;
        }
    }
    CHECK(found);
    CHECK(cart.require("tetriminoX") == 0x40);
    CHECK(cart.require("playfield") == 0x0400);
}
