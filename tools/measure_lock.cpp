// measure-lock: the cycles of a lock's score work on the ORIGINAL game, and where the NMI lands
// when that work outlasts the frame (the lag and the crash of the high levels).
//
// For each level and each count of cleared lines (0-4), it starts a game from the level menu,
// writes a model-made state into the game's RAM at the first frame boundary (score 999 999,
// `k` rows full but for column 9, a vertical I above that column, lines ending in 1 so that no
// level-up test runs), lets the piece fall and lock, and traces with a per-instruction hook:
//   pre    NMI entry of the frame that scores -> entry of the score loop (addLineClearPoints)
//   loop   the score loop ((level + 1) BCD additions, the 999 999 cap checked after each)
//   post   the loop's end -> the wait for vertical blank (the rest of the frame's work)
//   lands  where each NMI that came before the wait interrupted the work (its return address)
// and the outcome: the game back in its loop and the next piece spawned, or a crash (the CPU
// executing outside the game's code, or no wait for vertical blank before the next piece).
// `--phases N` repeats each case with N different frame phases (extra frames in the menu), since
// the work before the loop varies with the frame. Prints figures; tests nothing.
#include "command_runner.hpp"
#include "file_io.hpp"
#include "cart_image.hpp"
#include "frame_time.hpp"
#include "game_harness.hpp"
#include "lock_timing.hpp"
#include "model_commands.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace nestris;

int main(int argc, char** argv) {
    CLI::App app{"measure-lock: on the ORIGINAL Tetris (USA), the cycles of a lock's score work by level and lines\n"
                 "cleared (score 999 999), whether the frame lags, where the NMI lands and whether the game crashes.",
                 "measure-lock"};
    std::string rom_path, levels_text = "29,100,130,140,150,155,160,200,255";
    std::string clears_text = "0-4";
    int phases = 1;
    bool windows_too = false;
    unsigned lines = 2101;
    app.add_option("--lines", lines, "the lines before the lock (0-9999; default 2101: no tenth line is reached)")
        ->check(CLI::Range(0, 9999));
    app.add_flag("--windows", windows_too,
                 "print where, after the loop, an NMI would land in a jump-table dispatch (the crash windows)");
    app.add_option("rom", rom_path, "Tetris (USA) ROM")->required()->check(CLI::ExistingFile);
    app.add_option("--levels", levels_text, "levels, comma separated, ranges with '-' (0-255)");
    app.add_option("--clears", clears_text, "lines cleared by the lock, comma separated, ranges with '-' (0-4)");
    app.add_option("--phases", phases, "runs per case, each with one more frame on the legal screen (another frame phase; 1-64)")
        ->check(CLI::Range(1, 64));
    return nestris::run_program(app, argc, argv, [&]() -> int {
        const std::vector<uint32_t> levels = parse_number_list(levels_text), clears = parse_number_list(clears_text);
        for (uint32_t v : levels)
            if (v > 255) throw UsageError("--levels are 0-255");
        for (uint32_t k : clears)
            if (k > 4) throw UsageError("--clears are 0-4");
        const game::GameRoms roms = game::make_game_roms(read_file(rom_path), shipped_cart());
        std::printf("cycles from the scoring frame's NMI entry: pre (to the score loop), loop, post (to the wait);\n"
                    "model = the loop's cycles as the model computes them (frame_time.hpp); an NMI frame is 29 780.5\n"
                    "cycles; lag = NMIs that landed in the work, each with the instruction it interrupted and when.\n");
        std::printf("%5s %2s %6s %6s %6s %6s %6s %4s  %s\n", "level", "k", "pre", "loop", "model", "post", "total", "lag",
                    "outcome");
        for (uint32_t level : levels)
            for (uint32_t k : clears)
                for (int p = 0; p < phases; ++p) {
                    game::LockSetup setup;
                    setup.level = static_cast<uint8_t>(level);
                    setup.lines_cleared = static_cast<uint8_t>(k);
                    setup.title_wait = p;
                    setup.lines = {static_cast<uint8_t>((lines / 10 % 10) << 4 | lines % 10),
                                   static_cast<uint8_t>(lines / 100)};  // the hundreds byte counts on past 9
                    const game::LockTiming o = game::trace_lock(roms.original, setup);
                    const uint64_t model = score_loop_work(setup.level, setup.lines_cleared, setup.score).cycles;
                    std::string where, windows;
                    for (std::size_t i = 0; i < o.crash_window_starts.size(); ++i) {
                        const uint64_t w = o.crash_window_starts[i];
                        const bool first = i == 0 || o.crash_window_starts[i - 1] + 8 < w;
                        const bool last = i + 1 == o.crash_window_starts.size() || o.crash_window_starts[i + 1] > w + 8;
                        if (first) windows += " +" + std::to_string(w);
                        if (last && !first) windows += "-" + std::to_string(w);
                    }
                    for (const game::LandedNmi& l : o.landed) {
                        char buf[48];
                        std::snprintf(buf, sizeof buf, " $%04X@%llu", l.pc, static_cast<unsigned long long>(l.at));
                        where += buf;
                    }
                    char outcome[40] = "ok";
                    if (!o.scored) std::snprintf(outcome, sizeof outcome, "the score loop never ran");
                    if (o.crashed) std::snprintf(outcome, sizeof outcome, "CRASH (PC $%04X)", o.crash_pc);
                    std::printf("%5u %2u %6llu %6llu %6llu %6llu %6llu %4zu  %s%s\n", level, k,
                                static_cast<unsigned long long>(o.pre), static_cast<unsigned long long>(o.loop),
                                static_cast<unsigned long long>(model), static_cast<unsigned long long>(o.post),
                                static_cast<unsigned long long>(o.pre + o.loop + o.post), o.landed.size(), outcome,
                                where.c_str());
                    if (windows_too && !windows.empty())
                        std::printf("%33s dispatch windows after the loop (cycles):%s\n", "", windows.c_str());
                }
        return 0;
    });
}
