#include "game/tetris_map.hpp"
#include "patcher/cart_image.hpp"

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
    // The assembler's view of tetris.inc agrees with the C++ side's generated copy.
    CHECK(cart.require("tetriminoX") == tetris::tetriminoX);
    CHECK(cart.require("playfield") == tetris::playfield);
    CHECK(cart.require("game_waitForVblank_loop") == tetris::game_waitForVblank_loop);
    CHECK(cart.require("PLAY_STATE_CURTAIN") == tetris::PLAY_STATE_CURTAIN);
}
