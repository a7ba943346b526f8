// nestris-ai fidelity: the game model against the real game in the embedded emulator.
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "base/tally.hpp"
#include "patcher/rom.hpp"
#include "tools/cli/command_line.hpp"
#include "tools/cli/model_commands.hpp"
#include "tools/cli/patcher_commands.hpp"
#include "tools/harness/fidelity.hpp"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace nestris {
namespace {

struct FidelityOptions {
    std::string rom;
    std::size_t games = 120;
    std::size_t stacked = 0;
    std::size_t frames = 5000;
    std::string levels = "0,9,18,19,29";
    std::string stacked_levels = "0,9,18,19";
    bool max_score = false;
    uint64_t seed = 1;
    unsigned threads = 2;
    bool verbose = false;
    std::string report;
};

int run(const FidelityOptions& o) {
    std::string path = o.rom;
    if (path.empty()) {
        const char* env = std::getenv("TETRIS_ROM");
        if (!env || !*env) throw UsageError("no ROM: pass --rom or set TETRIS_ROM");
        path = env;
    }
    const std::vector<uint8_t> rom = read_file(path);
    // The model is of Tetris (USA) (NTSC); anything else would only produce divergences.
    const RomIdentity id = identify_rom(rom, this_build_context());
    if (id.kind != RomKind::Original)
        throw std::runtime_error("'" + path + "' is not the original Tetris (USA) iNES file (" + id.summary() +
                                    "); the model follows that game only");
    auto level_list = [](const std::string& text) {
        std::vector<uint8_t> levels;
        for (uint32_t l : parse_number_list(text)) {
            if (l > 255) throw UsageError("start level " + std::to_string(l) + " is above 255");
            levels.push_back(static_cast<uint8_t>(l));
        }
        return levels;
    };
    std::vector<FidelityGame> games = standard_fidelity_games(o.games, o.frames, level_list(o.levels), o.seed);
    if (o.stacked)
        for (const FidelityGame& g : stacked_fidelity_games(o.stacked, o.frames, o.seed, level_list(o.stacked_levels), o.max_score))
            games.push_back(g);
    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    ProgressReport report("nestris-ai fidelity", games.size(), "games", stderr_is_terminal(), false);
    const std::vector<FidelityResult> results = run_fidelity(rom, games, o.threads, [&](std::size_t done) {
        std::cerr << report.update(done, seconds()) << std::flush;
    });
    std::cerr << report.finish(seconds()) << std::flush;

    std::size_t failed = 0;
    std::string failures;
    for (const FidelityResult& r : results) {
        if (!r.ok()) {
            ++failed;
            if (failures.empty()) failures = describe(r);  // the first one in full
        }
        if (o.verbose) std::cout << describe(r);
    }
    std::ostringstream summary;
    summary << "fidelity: " << results.size() - failed << " of " << results.size() << " games matched the game "
            << "every frame; " << sum_of(results, &FidelityResult::frames_compared) << " frames compared, "
            << sum_of(results, &FidelityResult::pieces) << " pieces, " << sum_of(results, &FidelityResult::line_clears)
            << " line clears (" << sum_of(results, &FidelityResult::tetrises) << " tetrises), "
            << sum_of(results, &FidelityResult::level_ups) << " level-ups, " << sum_of(results, &FidelityResult::pauses)
            << " pauses, " << sum_of(results, &FidelityResult::hidden_row_locks)
            << " locks into the hidden rows, " << sum_of(results, &FidelityResult::lag_frames)
            << " lag frames; start levels " << o.levels;
    if (o.stacked) summary << " (stacked: " << o.stacked_levels << ")";
    LagForecastTally forecast;
    FrameWorkSeen besides_loop;
    for (const FidelityResult& r : results) {
        forecast.merge(r.forecast);
        besides_loop.merge(r.besides_loop);
    }
    summary << "; " << seconds() << " s\n" << forecast.summary() << "\n" << besides_loop.summary() << "\n";
    std::cout << summary.str();
    if (!failures.empty()) std::cout << "first failing game:\n" << failures;
    if (!o.report.empty()) {
        std::string text = summary.str();
        for (const FidelityResult& r : results) text += describe(r);
        write_text_atomically(o.report, text);
    }
    return failed ? 1 : 0;
}

}  // namespace

void add_fidelity_command(CLI::App& app) {
    auto o = std::make_shared<FidelityOptions>();
    CLI::App* cmd = app.add_subcommand(
        "fidelity",
        "Run the real game (your ROM) in the embedded emulator next to the game model on random\n"
        "input movies and compare them every frame. Prints how many games and frames matched and\n"
        "the first divergence with both states. Exit status 1 on a divergence.");
    cmd->add_option("--rom", o->rom, "Tetris (USA) ROM (default: $TETRIS_ROM)");
    cmd->add_option("--games", o->games, "games")->capture_default_str();
    cmd->add_option("--frames", o->frames, "frames per game")->capture_default_str();
    cmd->add_option("--stacked", o->stacked,
                    "extra games started from random high stacks (written into the game's RAM)")
        ->capture_default_str();
    cmd->add_option("--levels", o->levels, "start levels, cycled over the games (0-255; ranges with '-')")
        ->capture_default_str();
    cmd->add_option("--stacked-levels", o->stacked_levels, "start levels of the --stacked games, cycled (0-255)")
        ->capture_default_str();
    cmd->add_flag("--max-score", o->max_score, "the --stacked games start at score 999 999 (the high levels' longest frames)");
    cmd->add_option("--seed", o->seed, "first seed of the games' menu timings and movies")->capture_default_str();
    cmd->add_option("--threads", o->threads, "threads")->capture_default_str();
    cmd->add_flag("--verbose", o->verbose, "one line per game");
    cmd->add_option("--report", o->report, "write every game's result to this file");
    cmd->callback([o] {
        run_command("nestris-ai fidelity", [o] { return run(*o); });
    });
}

}  // namespace nestris
