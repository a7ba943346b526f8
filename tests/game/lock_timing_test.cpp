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

TEST_CASE("real game: the model's dispatch windows are the traced ones, the preview shown and hidden") {
    auto roms = game_roms_or_skip();
    if (!roms) return;
    for (const bool preview : {true, false}) {
        game::LockSetup setup;
        setup.level = 100;  // the frame fits: every window is run
        setup.preview = preview;
        for (uint8_t k = 0; k <= 4; ++k) {
            setup.lines_cleared = k;
            const game::LockTiming t = game::trace_lock(roms->original, setup);
            INFO((preview ? "shown, " : "hidden, ") << int(k) << " lines");
            REQUIRE(t.crash_window_starts.size() == 8 * 9);
            for (std::size_t w = 0; w < 8; ++w) {
                const uint32_t shift = preview ? 0 : kPreviewStagingCycles;
                CHECK(t.crash_window_starts[w * 9] == kDispatchWindows[w].first - shift);
                CHECK(t.crash_window_starts[w * 9 + 8] == kDispatchWindows[w].last - shift);
            }
        }
    }
}

// An AI game from a model-made state at level 203, where the scoring frames with lines outlast
// their NMI: each scoring frame of a measured kind (frame_time.hpp, ai_pre_loop) takes
// the kind's cycles before its loop, and none crashes that the windows did not forecast.
TEST_CASE("real game: the AI's scoring frames from level 128 take their kind's cycles before the loop") {
    auto roms = game_roms_or_skip();
    if (!roms) return;
    game::MenuWalk walk;
    walk.title_wait = 7;
    const game::AiGameTimes g = game::trace_ai_game_locks(roms->patched, shipped_cart(), walk, 8000,
                                                          game::ModelStart{203, 8, {}});
    uint64_t checked = 0, lagged = 0;
    for (const game::ScoringFrame& f : g.frames) {
        const std::optional<AiScoringKind> kind = game::ai_kind_of(f);
        if (!kind) continue;
        const std::optional<CycleRange> r = ai_pre_loop(*kind);
        INFO("level " << int(f.level) << ", " << int(f.lines_cleared) << " lines, pre " << f.pre);
        REQUIRE(r);
        CHECK(f.pre >= r->first);
        CHECK(f.pre <= r->last);
        if (f.crashed) CHECK(ai_scoring_nmi_landing(f.level, *kind, f.preview_shown, 0).crash == Maybe::May);
        ++checked;
        lagged += !f.landed.empty();
    }
    INFO(checked << " frames checked, " << lagged << " lagged");
    CHECK(checked >= 50);
    CHECK(lagged >= 10);
}
