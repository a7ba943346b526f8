// The game's time at a lock, on the real game (TETRIS_ROM; skipped without): the model's score
// loop takes the game's cycles, and a lock whose work outlasts the frame is seen for what it is
// (lag, or a crash when the NMI lands in a jump-table dispatch). See MODEL.md "Time".
#include "ai-reference/model/frame_time.hpp"
#include "tests/game/game_support.hpp"
#include "tools/harness/lock_timing.hpp"

#include <catch2/catch.hpp>

#include <random>

using namespace nestris;
using namespace nestris::test;

namespace {

uint8_t bcd(unsigned v) { return static_cast<uint8_t>((v / 10 % 10) << 4 | (v % 10)); }

}  // namespace

TEST_CASE("real game: the model's score loop takes the game's cycles, score by score") {
    auto roms = game_roms_or_skip();
    if (!roms) return;
    std::mt19937 rng(30);
    for (int i = 0; i < 24; ++i) {
        game::LockSetup setup;
        setup.level = static_cast<uint8_t>(rng() % 120);  // the loop stays inside its frame
        setup.lines_cleared = static_cast<uint8_t>(rng() % 5);
        const unsigned score = rng() % 1'000'000;
        setup.score = {bcd(score), bcd(score / 100), bcd(score / 10'000)};
        INFO("level " << int(setup.level) << ", " << int(setup.lines_cleared) << " lines, score " << score);
        const game::LockTiming t = game::trace_lock(roms->original, setup);
        REQUIRE(t.scored);
        CHECK_FALSE(t.crashed);
        CHECK(t.landed.empty());
        const ScoreLoopWork w = score_loop_work(setup.level, setup.lines_cleared, setup.score);
        CHECK(t.loop == w.cycles);
        CHECK(t.score_after == w.score);
    }
}

TEST_CASE("real game: a lock whose work outlasts the frame lags, and crashes when the NMI lands in a dispatch") {
    auto roms = game_roms_or_skip();
    if (!roms) return;
    game::LockSetup setup;
    // Level 29: the whole frame fits, and the dispatches after the loop are where measure-lock
    // says (the same 8 windows for every count of lines).
    setup.level = 29;
    const game::LockTiming fits = game::trace_lock(roms->original, setup);
    CHECK(fits.landed.empty());
    CHECK_FALSE(fits.crashed);
    REQUIRE(fits.crash_window_starts.size() == 8 * 9);  // 9 instructions in each of 8 dispatches
    CHECK(fits.crash_window_starts.front() == 1529);
    // Level 255, no line: 256 additions end 28 223 cycles into the frame; the NMI comes in
    // the dispatches that follow and the game jumps into RAM.
    setup.level = 255;
    const game::LockTiming crash = game::trace_lock(roms->original, setup);
    CHECK(crash.crashed);
    CHECK(crash.crash_pc < 0x8000);
    REQUIRE(crash.landed.size() == 1);
    CHECK(game::in_dispatch_crash_window(crash.landed[0].pc));
    CHECK(crash.pre + crash.loop + fits.crash_window_starts.front() <= crash.landed[0].at);
    // Level 200, a tetris: the NMI lands inside the loop (a lag frame), the game goes on.
    setup.lines_cleared = 4;
    setup.level = 200;
    const game::LockTiming lag = game::trace_lock(roms->original, setup);
    CHECK_FALSE(lag.crashed);
    REQUIRE(lag.landed.size() == 1);
    CHECK(lag.landed[0].pc >= 0x9C37);
    CHECK(lag.landed[0].pc < 0x9C98);
}
