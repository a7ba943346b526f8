// bench-ai: the reference AI's strength on the frame-accurate game model, by the protocols
// of the project (seeded games: the game's own piece sequences), and its cost per decision.
//   level 19 start, to 230 lines or top-out (seed 004's protocol)
//   level 18 start, until level 29: top-outs before level 29
//   level 29 start: lines until top-out (capped by --l29-cap)
#include "ai-reference/ai/ai_eval.hpp"
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "base/tally.hpp"
#include "base/worker_pool.hpp"
#include "tools/harness/ai_protocol.hpp"
#include "tools/harness/version.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace nestris;

int main(int argc, char** argv) {
    CLI::App app{"Measure the reference AI's strength on the game model: level-19 games to 230 lines, level-18\ngames to level 29, level-29 games (seeded: the game's own piece sequences).", "bench-ai"};
    int games = 100, games29 = 0, games18 = 0;
    uint32_t first_seed = 1;
    uint32_t l29_cap = 5000;
    unsigned threads = worker_threads();
    std::string weights_path;
    app.add_option("--games", games, "level-19 games (230-line protocol)")->check(CLI::Range(0, 10000000));
    app.add_option("--games18", games18, "level-18 games (to level 29)")->check(CLI::Range(0, 10000000));
    app.add_option("--games29", games29, "level-29 games")->check(CLI::Range(0, 10000000));
    app.add_option("--l29-cap", l29_cap, "stop level-29 games at this many lines");
    app.add_option("--first-seed", first_seed, "seed of the first game");
    app.add_option("--threads", threads, "worker threads")->check(CLI::Range(1, 256));
    app.add_option("--weights", weights_path, "weights file instead of the built-in ones");
    app.set_version_flag("--version", nestris::tools::version_text());
    return nestris::run_program(app, argc, argv, [&]() -> int {
        ai::EvalTables tables = ai::default_tables();
        if (!weights_path.empty()) {
            tables = ai::expand_tables(ai::parse_weights(read_text_file(weights_path)));
        }
        auto seeds = [&](int n) {
            std::vector<uint32_t> s;
            for (int i = 0; i < n; ++i) s.push_back(first_seed + static_cast<uint32_t>(i));
            return s;
        };
        auto run = [&](const char* title, int n, tools::ProtocolSpec spec) {
            const auto t0 = std::chrono::steady_clock::now();
            const auto results = tools::play_many(seeds(n), spec, tables, threads);
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            Tally<> lines(true), score(true), line_score(true);
            std::vector<double> line_scores;
            int reached = 0, maxed = 0, topped = 0, topped_before_29 = 0, may_crash = 0;
            uint64_t pieces = 0, evals = 0, tetris_lines = 0, all_lines = 0, frames = 0;
            uint32_t max_evals = 0;
            for (const auto& r : results) {
                lines.add(r.lines);
                score.add(r.score);
                line_score.add(r.line_score);
                line_scores.push_back(r.line_score);
                reached += r.reached_target;
                maxed += r.score >= 999999;
                topped += r.topped_out;
                may_crash += r.may_crash;
                topped_before_29 += r.topped_before_29;
                pieces += r.pieces;
                evals += r.evaluations;
                max_evals = std::max(max_evals, r.max_evaluations);
                tetris_lines += 4ull * r.tetrises;
                all_lines += r.lines;
                frames += r.frames;
            }
            std::printf("%s: %d games, seeds %u..%u, %.1f s\n", title, n, first_seed, first_seed + n - 1, secs);
            if (spec.line_target)
                std::printf("  reached %u lines: %.1f %%\n", spec.line_target, 100.0 * reached / n);
            std::printf("  top-outs: %.1f %% (of which at a lock whose frame may crash the real game: %.1f %%)",
                        100.0 * topped / n, 100.0 * may_crash / n);
            if (spec.start_level < 29) std::printf(" (before level 29: %.1f %%)", 100.0 * topped_before_29 / n);
            std::printf("\n  lines: mean %.1f, median %.0f, p10 %.0f, p90 %.0f\n", lines.mean(), lines.median(),
                        lines.percentile(0.1), lines.percentile(0.9));
            std::printf("  score: mean %.0f, median %.0f; max-outs (999999): %.1f %%\n", score.mean(), score.median(),
                        100.0 * maxed / n);
            std::sort(line_scores.begin(), line_scores.end(), std::greater<>());
            line_scores.resize((line_scores.size() + 2) / 3);
            Tally<> best_third;
            for (double x : line_scores) best_third.add(x);
            std::printf("  score as seed 004 counts it (line clears only, no cap): mean %.0f, median %.0f, mean of "
                        "the best third %.0f\n",
                        line_score.mean(), line_score.median(), best_third.mean());
            std::printf("  tetris share of lines: %.1f %%\n", all_lines ? 100.0 * tetris_lines / all_lines : 0.0);
            std::printf("  cost: %.1f evaluations per decision (max %u); %.1f frames per piece\n",
                        pieces ? double(evals) / pieces : 0.0, max_evals, pieces ? double(frames) / pieces : 0.0);
        };
        if (games > 0) run("level 19, 230-line protocol", games, {19, 230, 2'000'000});
        if (games18 > 0) run("level 18, until level 29", games18, {18, 0, 2'000'000});
        if (games29 > 0) run("level 29", games29, {29, l29_cap, 5'000'000});
        return 0;
    });
}
