// The free-space map and the AI's RAM, proven on the original game (TETRIS_ROM; skipped without):
// every read, write and execute of the original over long runs of every screen (legal, title,
// menus, the demo, A-Type and B-Type games at many levels with line clears, level-ups, pauses,
// resets, top-outs and curtains, high-score entry, endings), by the driver of tools/game_harness.
#include "ai-reference/model/random_movie.hpp"
#include "game/tetris_map.hpp"
#include "tests/game/game_support.hpp"
#include "tools/harness/fidelity.hpp"
#include "tools/harness/game_driver.hpp"
#include "tools/harness/model_start.hpp"

#include <algorithm>
#include <array>
#include <tuple>

#include <catch2/catch.hpp>

#include <iostream>

using namespace nestris;
using namespace nestris::test;

namespace {

struct TraceRun {
    std::vector<game::AccessSite> sites;
    std::vector<game::ForeignEntry> foreign;
    game::GameDriver::Stats stats;
};

// The hook-freed code spans of the original: the poll routine from its entry to the end of
// demoButtonsTable_indexIncr, and the demo branch of the piece pick.
struct DemoCode {
    uint16_t poll_first, poll_last, pick_first, pick_last;
    bool contains(uint16_t pc) const {
        return (pc >= poll_first && pc <= poll_last) || (pc >= pick_first && pc <= pick_last);
    }
};
DemoCode demo_code() {
    const CartImage& cart = shipped_cart();
    return {tetris::game_pollControllerButtons, region_last(cart.region("FREED_9DB0")),
            tetris::game_chooseNextTetrimino_demo, tetris::game_chooseNextTetrimino_demo_end};
}

TraceRun trace_original(const game::GameRoms& roms, uint64_t seed, uint64_t frames) {
    const CartImage& cart = shipped_cart();
    std::vector<game::WatchedRange> watched = free_rom_ranges();
    for (const CartRegion& r : cart.regions)
        if (r.is_ram) watched.push_back({r.start, region_last(r), r.name});
    const DemoCode d = demo_code();
    game::AccessTrace trace(watched, {{d.poll_first, d.poll_last, {d.poll_first}, "demo playback"},
                                      {d.pick_first, d.pick_last, {d.pick_first}, "demo piece pick"}});
    emu::Nes nes(roms.original);
    trace.attach(nes);
    game::DriverOptions options;
    options.seed = seed;
    options.watch_demo = true;
    game::GameDriver driver(options);
    for (uint64_t f = 0; f < frames; ++f) {
        nes.set_buttons(driver.next(nes));
        nes.run_frame();
    }
    return {trace.sites(), trace.foreign_entries(), driver.stats()};
}

void check_trace(const TraceRun& run) {
    const DemoCode d = demo_code();
    for (const game::AccessSite& s : run.sites) {
        INFO(s.describe());
        if (s.range.rfind("FREE_", 0) == 0) {
            FAIL_CHECK("the original game touches a free region");
        } else if (s.range.rfind("FREED_", 0) == 0 || s.range == "DEMO_TABLES") {
            // The demo's playback and piece pick (the old poll code runs in the NMI every frame),
            // reached only by falling through their entries, reading the demo's tables in the
            // demo: all of it gone from the patched game.
            CHECK(d.contains(s.pc));
            if (s.range == "DEMO_TABLES") {
                CHECK(s.kind == game::kRead);
                CHECK(s.game_mode == tetris::GAME_MODE_DEMO);
            }
        } else if (s.range == "AI_RAM7") {
            FAIL_CHECK("the original game touches $0755-$07FF (not even its power-on clear does)");
        } else if (s.range.rfind("AI_", 0) == 0) {
            // Only the power-on clear of $0000-$06FF writes them, once.
            const CartRegion& r = shipped_cart().region(s.range);
            CHECK(s.kind == game::kWrite);
            CHECK(s.first_frame < 3);
            CHECK(s.count == region_last(r) - r.start + 1u);
        } else {
            FAIL_CHECK("unexpected range " << s.range);
        }
    }
    for (const game::ForeignEntry& e : run.foreign)
        FAIL_CHECK(e.span << " entered from $" << std::hex << e.from << " at $" << e.to);
    // The run must have seen what it claims to cover.
    const auto& st = run.stats;
    std::cout << "driver: " << st.games << " games (" << st.b_type_games << " B-Type), " << st.demos << " demos, "
              << st.pauses << " pauses, " << st.resets << " resets, " << st.curtains << " curtains, "
              << st.high_score_entries << " high-score entries, " << st.endings << " endings, level up to "
              << st.max_level << "\n";
    for (const game::AccessSite& s : run.sites)
        if (s.range.rfind("AI_", 0) == 0) std::cout << "  " << s.describe() << "\n";
    CHECK(st.games >= 10);
    CHECK(st.b_type_games >= 1);
    CHECK(st.demos >= 1);
    CHECK(st.pauses >= 5);
    CHECK(st.curtains >= 3);
    CHECK(st.max_level >= 15);
}

}  // namespace

TEST_CASE("real game: the original never touches the free ROM nor the AI's RAM during play (run 1)") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    const TraceRun run = trace_original(*roms, 3, 75'000);
    check_trace(run);
    CHECK(run.stats.high_score_entries >= 1);
}

// The driver plays some of its games with the reference AI, so what a seed covers changes with
// the weights: check_trace fails when a run no longer sees what it claims to (seed 8 reached only
// level 11 with the weights of 2026-11-25; seed 2 saw 1 curtain once the AI held its preview
// (issue 31); seed 4 reaches level 16, with 3 resets, 7 curtains and 3 endings).
TEST_CASE("real game: the original never touches the free ROM nor the AI's RAM during play (run 2)") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    const TraceRun run = trace_original(*roms, 4, 75'000);
    check_trace(run);
}

// The level's digits (levelDisplayTable,x) and colours (colorTable + 4 * the level "mod 10",
// where the mod stops at once for levels 138-255 because its test is signed) are read with the
// level as the index: from level 30 they read the bytes after their tables. A game at each level
// 0-255 (a model-made state written into the game's RAM, fidelity.hpp) renders both at its start,
// and locks and clears with the score at 999 999: none of it may read a free region.
TEST_CASE("real game: the original reads no free ROM at any level (0-255: the level's digits and colours)") {
    const auto file = tetris_rom_or_skip();
    if (!file) return;
    std::vector<uint8_t> levels(256);
    for (unsigned l = 0; l < 256; ++l) levels[l] = static_cast<uint8_t>(l);
    const std::vector<FidelityGame> games = stacked_fidelity_games(256, 300, 31, levels, true);
    game::AccessTrace trace(free_rom_ranges());
    uint64_t ok = 0;
    std::array<bool, 256> seen{};
    for (const FidelityGame& g : games) {
        // A game that crashed (levels ~157-173, 249-255) runs astray once it jumps into RAM:
        // what it touches from there is not the game's.
        bool astray = false;
        const FidelityResult r = run_fidelity_game(*file, g, [&](const emu::Nes& n) {
            astray = astray || n.cpu().pc() < 0x8000;
            if (!astray) trace.on_instruction(n);
        });
        ok += r.ok();
        seen[r.end.levelNumber] = true;
    }
    const DemoCode d = demo_code();
    for (const game::AccessSite& s : trace.sites()) {
        INFO(s.describe());
        // The hook-freed demo code runs in the original (its poll, in every NMI): check_trace.
        if (s.range.rfind("FREED_", 0) == 0 && d.contains(s.pc)) continue;
        FAIL_CHECK("the original game touches a free region");
    }
    CHECK(ok == games.size());
    CHECK(std::count(seen.begin(), seen.end(), true) == 256);
}

// A lag frame's NMI that lands in loadSpriteIntoOamStaging, between its load of the sprite's data
// pointer (generalCounter, generalCounter2) and the loop that reads through it, leaves the render's
// values there, and the loop reads on from page $81 (the main loop, two-player code) until a $FF,
// or from RAM: the poll leaves the buttons it read in generalCounter2, so with Down and Left held
// the loop reads page $06-$07 (asm/nestris.cfg). Human play from model-made states at
// levels 160 and 163 (score 999 999, random movies: the games of check-identity --high-levels 60
// where the patched game's sprites differed) on the original: none of it may read a free region
// or a hook site, and only the loop may read the AI's RAM: the AI's zero page and AI_RAM6, which
// the patched game holds at 0 when a person plays, as the original (clear_ai_ram, tested in
// hooks_test), and AI_RAM7, which the original never writes (the console's power-on values).
TEST_CASE("real game: the original reads no free ROM when a lag NMI rewrites the sprite loader's pointer") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    std::vector<game::WatchedRange> watched = free_rom_ranges();
    for (const CartRegion& r : shipped_cart().regions)  // (the main loop's demo test was one)
        if (r.is_hook_site() || r.is_ram) watched.push_back({r.start, region_last(r), r.name});
    game::AccessTrace trace(watched);
    for (const auto& [seed, level, frames] : {std::tuple<uint64_t, uint8_t, uint64_t>{28, 163, 1000}, {49, 160, 1250}}) {
        emu::Nes x(roms->original);
        game::MenuWalk walk;
        walk.ai = false;
        walk.title_wait = static_cast<int>(seed % 200);
        x.run_input(game::menu_walk_input(walk));
        // The state check-identity --high-levels writes (compare_high_level_play_with_original).
        const GameState s = game::start_from_model_state({&x}, game::ModelStart{level, seed, {}});
        trace.attach(x);
        const Movie movie = make_random_movie(s, seed, frames).movie;
        for (uint64_t f = 0; f < movie.frames.size(); ++f) {
            x.set_buttons(game::pad_from_game(movie.frames[f]));
            x.run_frame();
        }
    }
    const DemoCode d = demo_code();
    for (const game::AccessSite& site : trace.sites()) {
        INFO(site.describe());
        if (site.range.rfind("FREED_", 0) == 0 && d.contains(site.pc)) continue;  // the poll (check_trace)
        if (site.range.rfind("HOOK_", 0) == 0 && site.kind == game::kExecute) continue;  // the game's code, run
        // Known and not fixed: from $81D9 the loop reads on (y wraps at $82D8) into the title
        // screen's hook at $8254, and with A held from $80xx into the init's at $80E0
        // (docs/proofs/README.md, "Human play is untouched": a sprite of such a frame; neither hook writes a $FF, the
        // loop's end, where the original has none, so the loop runs as long).
        const bool loop = site.pc >= tetris::game_spriteLoaderLoop && site.pc <= tetris::game_spriteLoaderLoop_last;
        if ((site.range == "HOOK_TITLE_ENTER" || site.range == "HOOK_INIT_UNPACK") && loop) continue;
        if (site.range.rfind("AI_", 0) == 0 && loop && site.kind == game::kRead) {
            std::cout << "  " << site.describe() << "\n";
            continue;
        }
        FAIL_CHECK("the original game touches a free region or the AI's RAM, or reads a hook site as data");
    }
}

// ai_poll's stop to a sprite loader that a lag NMI sent astray (SPRITE_LOADER_STOP_BUTTONS, A and
// B held: its pointer's high byte $C0) holds because of the game's own bytes: from any low byte,
// the loop's record starts (every 4th byte, y wrapping within 256) meet a $FF within 10 records.
TEST_CASE("real game: the game's bytes at $C0xx end the sprite loader within 10 records from any start") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    const emu::Nes nes(roms->original);
    const uint16_t page = static_cast<uint16_t>(tetris::SPRITE_LOADER_STOP_BUTTONS << 8);
    CHECK(tetris::SPRITE_LOADER_STOP_BUTTONS == (tetris::BUTTON_A | tetris::BUTTON_B));
    unsigned worst = 0;
    for (unsigned low = 0; low < 256; ++low) {
        std::vector<unsigned> ends;  // the records (0-63) that start with $FF
        for (unsigned record = 0; record < 64; ++record)
            if (nes.peek(static_cast<uint16_t>(page + low + 4 * record)) == 0xFF) ends.push_back(record);
        INFO("low byte " << low);
        REQUIRE_FALSE(ends.empty());
        for (std::size_t i = 0; i < ends.size(); ++i) {  // the records from one end to the next, y wrapping
            const unsigned next = i + 1 < ends.size() ? ends[i + 1] : ends[0] + 64;
            worst = std::max(worst, next - ends[i]);
        }
    }
    CHECK(worst <= 10);
}
