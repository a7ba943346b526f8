// The game's time at a lock, on the real game (TETRIS_ROM; skipped without): the model's score
// loop takes the game's cycles, and a lock whose work outlasts the frame is seen for what it is
// (lag, or a crash when the NMI lands in a jump-table dispatch). See MODEL.md "Time".
#include "tools/harness/lock_timing.hpp"
#include "ai-reference/ai/ai_crash_rule.hpp"
#include "ai-reference/model/frame_time.hpp"
#include "tests/game/game_support.hpp"

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

// AI games from model-made states that it loses at levels 253 and 254: its last locks leave
// blocks in row 5. Between each such lock and its scoring frame the cartridge sets the preview the
// rule wants for row 5's first block (row5_preview_hidden: hidden there for columns 3 and 4), each
// such frame takes its kind's cycles (the music's scan shorter by the column: row5_scan_sooner),
// its first lag NMI lands where the model has it, outside the windows (with the rule's margin
// below 254), and the game tops out.
// (`measure-lock tetris.nes --ai-game 3000 --from-level L --first-seed S --title-wait T`; since
// build CCCE0F86 (the row term's own step at one row a frame) seed 15's from 253 at title wait 0,
// lost at 253 after 3 row-5 locks, and seed 6's at title wait 29, lost at 254 after 3; of seeds
// 1-30 from 253 at title waits 0, 5, 13 and 29 (check-identity --ai-games 1 --frames 3000), 7
// games end within 3 000 frames, each after 3-5 locks in row 5. Builds 48A885A8 to 876F8D77: seed
// 30's at title wait 29 and seed 13's from 253 at title wait 5, lost at 254: with the
// retuned tables at one row a frame no game at title wait 0 locked a block in row 5 (seeds 1-30
// from 253, all past the rebirth; seeds 31-70 from 252, 253 and 254); at title waits 5, 13, 29
// and 41, seeds 1-15 from 253, four games lose with row-5 locks. Builds 574D0D87 to A9182931: seed 1's from 253, as seed 29's
// from 252 before.)
TEST_CASE("real game: after a lock with a block in row 5 the cartridge sets the preview by its column, and the frame takes its kind's cycles") {
    auto roms = game_roms_or_skip();
    if (!roms) return;
    struct Lost {
        int level, seed, title_wait;
    };
    for (const Lost& at : {Lost{253, 15, 0}, Lost{253, 6, 29}}) {
        game::MenuWalk walk;
        walk.title_wait = at.title_wait;
        const game::AiGameTimes g = game::trace_ai_game_locks(
            roms->patched, shipped_cart(), walk, 3000,
            game::ModelStart{static_cast<uint8_t>(at.level), static_cast<uint64_t>(at.seed), {}});
        INFO("from level " << at.level << ", seed " << at.seed);
        uint64_t row5 = 0;
        for (const game::ScoringFrame& f : g.frames) {
            if (f.row5_first_block == kRow5Empty) continue;
            const std::optional<AiScoringKind> kind = game::ai_kind_of(f);
            INFO("level " << int(f.level) << ", " << int(f.lines_cleared) << " lines, row 5 from column "
                          << int(f.row5_first_block) << ", pre " << f.pre);
            REQUIRE(kind);
            const std::optional<CycleRange> r = ai_pre_loop(*kind);
            REQUIRE(r);
            CHECK(f.pre >= r->first);
            CHECK(f.pre <= r->last);
            const std::optional<bool> hidden = ai::row5_preview_hidden(f.level, f.row5_first_block);
            REQUIRE(hidden);
            CHECK(f.preview_shown == !*hidden);
            // (below 254 the rule is safe for every column and piece; at 254 the lock at column 4
            // may crash with the margin either way, and does not)
            if (f.level < 254) CHECK(ai_scoring_nmi_landing(f.level, *kind, f.preview_shown, kAiRuleMargin).crash == Maybe::No);
            CHECK(ai_scoring_nmi_landing(f.level, *kind, f.preview_shown, 0).crash == Maybe::No);
            CHECK_FALSE(f.crashed);
            ++row5;
        }
        CHECK(row5 >= 3);
        CHECK(g.end == game::AiGameTimes::End::Curtain);
    }
}

TEST_CASE("stalls_of: the runs of lag NMIs in frames in a row, from the given length") {
    using Lag = game::AiGameTimes::Lag;
    const std::vector<Lag> lags = {{10, 6, 161, 0x8C4B}, {11, 6, 161, 0}, {12, 6, 161, 0},  // 3 in a row
                                   {20, 5, 161, 0x9C4E},                                     // 1
                                   {30, 6, 162, 0x8C3D}, {31, 6, 162, 0},                    // 2
                                   {33, 6, 162, 0x8C57}, {34, 6, 162, 0}, {35, 6, 162, 0}, {36, 6, 163, 0}};
    const std::vector<game::Stall> three = game::stalls_of(lags, 3);
    REQUIRE(three.size() == 2);
    CHECK(three[0].first_frame == 10);
    CHECK(three[0].frames == 3);
    CHECK(three[0].pc == 0x8C4B);
    CHECK(three[1].first_frame == 33);
    CHECK(three[1].frames == 4);
    CHECK(three[1].level == 162);
    CHECK(game::stalls_of(lags, 1).size() == 4);
    CHECK(game::stalls_of(lags, 5).empty());
    CHECK(game::stalls_of({}, 1).empty());
}

// A lag NMI in the sprite loader's loop (from the store of its pointer) leaves the buttons the
// poll read as its pointer's high byte: with none held it reads the zero page and the stack to a
// $FF, which frameCounter becomes within 256 frames, and the picture stalls that long (from level
// 158, seed 1, at title wait 0: 190 frames from frame 2 494 with build CCCE0F86; builds before it
// stalled in every long game, up to 254 frames, at levels 161-176). In an AI game ai_poll leaves
// the pointer at $C0xx there (A and B held, SPRITE_LOADER_STOP_BUTTONS), which the game's bytes
// end within 10 records: the NMIs land in the loader and the frame goes on.
// (`measure-lock tetris.nes --ai-game 20000 --ai-games 6 --from-level 158 --first-seed 1`
// lists the stalls of 3 or more frames.)
TEST_CASE("real game: a lag NMI in an AI game's sprite loader stalls no picture") {
    auto roms = game_roms_or_skip();
    if (!roms) return;
    const game::AiGameTimes g = game::trace_ai_game_locks(roms->patched, shipped_cart(), {.level = 19, .title_wait = 0},
                                                          4000, game::ModelStart{158, 1, {}});
    REQUIRE(g.end == game::AiGameTimes::End::FramesRanOut);
    uint64_t in_loader = 0;
    for (const game::AiGameTimes::Lag& l : g.lags) in_loader += game::in_sprite_loader_window(l.pc);
    INFO(g.lags.size() << " lag NMIs, " << in_loader << " in the sprite loader, level " << int(g.level));
    CHECK(in_loader >= 3);
    CHECK(game::stalls_of(g.lags, 3).empty());
}
