// Cartridge-in-the-loop: the shipped AI bytes, playing the game model, press exactly the buttons
// the reference AI presses, frame by frame, and the games stay identical. The idle time of each
// frame varies (10 000 to 50 000 cycles) so the NMI interrupts the task at every kind of point;
// whether the cartridge keeps up with the real game's idle time is a benchmark figure.
#include "ai_player.hpp"
#include "cart_loop.hpp"
#include "power_on.hpp"

#include <catch2/catch.hpp>

using namespace nestris;

namespace {

void same_game(uint32_t seed, uint8_t level, int frames) {
    GameState reference = seeded_game(seed, level);
    ai::AiPlayer ai;
    tools::CartLoopOptions options;
    options.idle_cycles = 30'000;
    options.idle_jitter = 20'000;
    tools::CartridgeInTheLoop cart(reference, options);
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

// The task's steps: the NMI comes in the middle of one and the game waits for its end, so no
// step may be long enough to delay the game's next frame. The game's own work in a frame (NMI and
// main loop) is at most ~15 900 cycles (measure-idle, original game): with steps of at most
// 7 000 cycles, ~6 900 of the 29 780 remain in the worst frame.
TEST_CASE("the AI task's steps stay within their budget") {
    constexpr uint64_t kStepBudget = 7000;
    for (const auto& [seed, level] : {std::pair<uint32_t, uint8_t>{11, 19}, {12, 29}, {13, 18}}) {
        GameState start = seeded_game(seed, level);
        tools::CartLoopOptions options;
        options.idle_cycles = 19'500;
        options.idle_jitter = 5'000;
        options.measure_steps = true;
        tools::CartridgeInTheLoop cart(start, options);
        for (int f = 0; f < 1500 && cart.state().status == GameStatus::Playing && !is_topped_out(cart.state()); ++f)
            cart.frame();
        INFO("seed " << seed << " level " << int(level) << ": longest step " << cart.stats().max_step << " cycles, from $"
                     << std::hex << cart.stats().max_step_from << " to $" << cart.stats().max_step_to);
        CHECK(cart.stats().frames > 1000);
        CHECK(cart.stats().max_step <= kStepBudget);
        CHECK(cart.stats().max_step > 1000);  // (the steps were timed)
    }
}
