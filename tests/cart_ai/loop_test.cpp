// Cartridge-in-the-loop: the shipped AI bytes, playing the game model, press exactly the buttons
// the reference AI presses, frame by frame, and the games stay identical. (A generous idle budget
// here: whether the cartridge keeps up with the real game's idle time is a benchmark figure.)
#include "ai_player.hpp"
#include "cart_loop.hpp"
#include "power_on.hpp"

#include <catch2/catch.hpp>

using namespace nestris;

namespace {

void same_game(uint32_t seed, uint8_t level, int frames) {
    GameState reference = seeded_game(seed, level);
    ai::AiPlayer ai;
    tools::CartridgeInTheLoop cart(reference, tools::CartLoopOptions{400'000, 2});
    int pieces = 0;
    for (int f = 0; f < frames && reference.status == GameStatus::Playing && !is_topped_out(reference); ++f) {
        const uint8_t want = ai.buttons(view_of(reference));
        const uint8_t before = reference.playState;
        step(reference, want);
        const uint8_t got = cart.frame();
        INFO("seed " << seed << " level " << int(level) << " frame " << f << " piece " << pieces);
        REQUIRE(int(got) == int(want));
        REQUIRE(cart.state() == reference);
        if (before != play_state::Lock && reference.playState == play_state::Lock) ++pieces;
    }
    CHECK(pieces > 10);
    CHECK(cart.stats().late_pieces == 0);
    CHECK(cart.stats().redone_searches == 0);  // every prediction of the board came true
    CHECK(cart.stats().max_stack <= 12);
}

}  // namespace

TEST_CASE("cartridge in the loop plays the reference's game, level 19") { same_game(7, 19, 2500); }
TEST_CASE("cartridge in the loop plays the reference's game, level 29") { same_game(8, 29, 1500); }
TEST_CASE("cartridge in the loop plays the reference's game, level 5 (soft drop)") { same_game(9, 5, 2500); }
