// nestris-ai simulate: many games of a player against the game model.
#include "ai-reference/ai/ai_hate.hpp"
#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/player.hpp"
#include "ai-reference/model/power_on.hpp"
#include "ai-reference/model/render.hpp"
#include "ai-reference/model/simulator.hpp"
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "base/png.hpp"
#include "base/worker_pool.hpp"
#include "tools/cli/command_line.hpp"
#include "tools/cli/model_commands.hpp"
#include "tools/cli/results_chart.hpp"
#include "tools/harness/cart_loop.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <mutex>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace nestris {

namespace {

// A measured number to the precision it has: 31.9078 -> "31.9" (digits after the point).
std::string fixed(double value, int digits = 1) {
    char text[48];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

// A rate 0-1 as a percentage: 0.601556 -> "60.2 %".
std::string percent(double rate) { return fixed(rate * 100.0) + " %"; }

}  // namespace

uint64_t simulate_bytes_per_game(bool csv) {
    // The seed list, the results, the summary's five per-game vectors of doubles and the sorted
    // copy it takes of one of them; a CSV line (~60 bytes) is held twice (the stream, its text).
    return sizeof(uint32_t) + sizeof(GameResult) + 6 * sizeof(double) + (csv ? 2 * 64 : 0);
}

std::string long_run_notice(std::size_t games, std::size_t done, double seconds, unsigned threads,
                            uint64_t result_bytes) {
    constexpr double kLongRun = 60;     // seconds: a shorter run needs no warning
    constexpr double kFirstPace = 2;    // seconds before the pace is worth an estimate
    if (done == 0 || done >= games || seconds < kFirstPace) return {};
    const double total = seconds * static_cast<double>(games) / static_cast<double>(done);
    if (total < kLongRun) return {};
    return "nestris-ai simulate: " + thousands(games) + " games on " + std::to_string(threads) +
           (threads == 1 ? " thread" : " threads") + ": about " +
           rough_duration(total) + " at the pace of the first " + thousands(done) + ", and " +
           thousands((result_bytes + (1u << 20) - 1) >> 20) + " MB for the per-game results";
}

namespace {

struct SimulateOptions {
    std::string player = "ai";
    std::string movie;
    std::string seeds;
    uint32_t games = 100;
    int level = 19;
    std::string type = "A";
    int height = 0;
    uint64_t max_frames = 0;
    uint32_t max_lines = 0;
    unsigned threads = 0;
    std::string json;
    std::string csv;
    bool quiet = false;
    uint32_t idle = 18700;
    bool boards = false;
    std::string png_dir;
    std::string histogram;
    bool hate = false;
};

// What the cartridge's games add to the summary: did it keep up with the game?
struct CartFigures {
    std::mutex mutex;
    uint64_t pieces = 0;
    tools::CartLoopStats stats;  // over all games
    void add(const tools::CartLoopStats& s, uint32_t game_pieces) {
        std::lock_guard lock(mutex);
        pieces += game_pieces;
        stats.merge(s);
    }
};

// What the adversary of hate mode costs: its sweeps' work a choice (the cartridge's cycles).
struct HateFigures {
    std::mutex mutex;
    uint64_t choices = 0, evaluations = 0, positions = 0;
    uint32_t max_evaluations = 0;
    std::array<uint64_t, ai::kPieceTypes> dealt{};  // by type
    bool cart = false;  // --player cart: the cartridge's choices (its cycles: the run's cartridge figures)
    void add_dealt(uint8_t type) {
        std::lock_guard lock(mutex);
        ++choices;
        ++dealt[type];
    }
    void add(const ai::HateChoice& c) {
        const ai::SearchStats& s = c.stats;
        std::lock_guard lock(mutex);
        ++choices;
        ++dealt[c.type];
        evaluations += s.evaluations;
        positions += s.positions_checked;
        max_evaluations = std::max(max_evaluations, s.evaluations);
    }
    double mean(uint64_t total) const {
        return choices ? static_cast<double>(total) / static_cast<double>(choices) : 0;
    }
};

// simulate --hate: every piece the game draws at a spawn is the adversary's (the reference's
// hate_choice on the board at that moment), counted in `figures`.
NextPieceChoice hate_chooser(HateFigures& figures) {
    return [&figures](const GameState& s) {
        const ai::HateChoice c = ai::hate_choice_at(s);
        figures.add(c);
        return c.type;
    };
}

// simulate --hate --player cart: the game deals what the cartridge's dealer dealt into the cart
// player's own copy of the game, which has stepped the frame first (its choice when it was ready
// for this spawn, else the game's draw: hate_deal's rule). The player is the one this thread plays.
thread_local const tools::CartLoopPlayer* playing_cart = nullptr;
NextPieceChoice cart_hate_dealer(HateFigures& figures) {
    return [&figures](const GameState& s) {
        if (!playing_cart || playing_cart->state().spawnCount != s.spawnCount)
            throw std::logic_error("simulate --hate --player cart: the cartridge's game is not this one");
        const uint8_t type = kTypeOfOrientation.at(playing_cart->state().nextPiece);
        figures.add_dealt(type);
        return type;
    };
}

// simulate --png-dir's pictures: DIR/game-SEED.png for each seed of the run.
OutputSeries picture_series(const std::string& dir, const std::vector<uint32_t>& seeds) {
    std::vector<uint32_t> sorted = seeds;
    std::sort(sorted.begin(), sorted.end());
    return OutputSeries{(std::filesystem::path(dir) / "game-").string(), ".png", 0,
                        [sorted](uint64_t n) { return std::binary_search(sorted.begin(), sorted.end(), n); },
                        "the picture of game"};
}

// Every output checked before the games: the files (no two the same, none a picture of the run),
// the pictures' directory (a directory, or to be made; none of the other outputs) and, in a
// directory already there, each picture's file.
void check_simulate_outputs(const SimulateOptions& o, const std::vector<uint32_t>& seeds) {
    const std::vector<std::filesystem::path> files = {o.json == "-" ? std::string() : o.json, o.csv, o.histogram};
    if (o.png_dir.empty()) return check_outputs(files);
    const OutputSeries pictures = picture_series(o.png_dir, seeds);
    check_outputs(files, pictures);
    for (const std::filesystem::path& file : files)
        if (!file.empty() && same_file(file, o.png_dir))
            throw UsageError("cannot write '" + file.string() + "' and pictures into it: it is --png-dir too; give each output its own");
    if (std::filesystem::exists(o.png_dir)) {
        if (!std::filesystem::is_directory(o.png_dir))
            throw FileError("--png-dir: '" + o.png_dir + "' is not a directory");
        for (const uint32_t seed : seeds) check_output(pictures.file(seed));
    }
}

// The run's files, published together: each written and checked before any replaces its target.
void write_results(const SimulateOptions& o, const std::vector<GameResult>& results, const SimulationSummary& summary,
                   const SimulationConfig& config, double elapsed, const std::vector<std::pair<std::string, double>>& extra) {
    std::optional<OutputFile> json, csv, histogram;
    if (!o.json.empty() && o.json != "-") {
        std::ostringstream out;
        write_summary_json(out, summary, config, o.player, elapsed, extra);
        json.emplace(o.json).write(out.str());
    }
    if (!o.csv.empty()) {
        std::ostringstream out;
        write_results_csv(out, results);
        csv.emplace(o.csv).write(out.str());
    }
    if (!o.histogram.empty() && !results.empty()) {
        const Canvas chart = results_chart(results);
        histogram.emplace(o.histogram).write(encode_png(chart.width(), chart.height(), chart.rgb()));
    }
    commit_together({json ? &*json : nullptr, csv ? &*csv : nullptr, histogram ? &*histogram : nullptr});
}

// The adversary's work a choice (for the cartridge's cycles) and the types it dealt.
void print_hate_figures(const HateFigures& hate, const tools::CartLoopStats& cart) {
    if (hate.cart)
        std::cout << "  hate mode: " << cart.hate_dealt << " previews dealt by the cartridge's adversary, "
                  << cart.hate_kept << " the game's own draw (the choice not ready at the spawn)\n  dealt:";
    else
        std::cout << "  hate mode: " << hate.choices << " pieces dealt by the adversary; its seven sweeps "
                  << fixed(hate.mean(hate.evaluations)) << " evaluations a choice on average (" << hate.max_evaluations
                  << " at most), " << fixed(hate.mean(hate.positions)) << " placements tested\n  dealt:";
    for (uint8_t t = 0; t < ai::kPieceTypes; ++t)
        std::cout << ' ' << "TJZOSLI"[t] << ' ' << percent(hate.mean(hate.dealt[t]))
                  << (t + 1 < ai::kPieceTypes ? "," : "\n");
}

void print_summary(const SimulateOptions& o, const SimulationSummary& summary, const CartFigures& cart,
                   const HateFigures& hate, double elapsed) {
    const tools::CartLoopStats& cs = cart.stats;
    std::cout << summary.games << " games (" << o.player << ", level " << o.level << ", " << o.type
              << "-Type" << (o.hate ? ", hate mode" : "") << ") in " << fixed(elapsed) << " s: "
              << fixed(elapsed > 0 ? summary.games * 60.0 / elapsed : 0) << " games/min, "
              << fixed(elapsed > 0 ? static_cast<double>(summary.total_frames) / elapsed : 0, 0) << " frames/s\n"
              << "  lines mean " << fixed(summary.lines.mean) << " median " << fixed(summary.lines.median) << " p10 "
              << fixed(summary.lines.p10) << " p90 " << fixed(summary.lines.p90) << " max "
              << fixed(summary.lines.max, 0) << "\n"
              << "  score mean " << fixed(summary.score.mean, 0) << " median " << fixed(summary.score.median, 0)
              << " max " << fixed(summary.score.max, 0) << "\n"
              << "  level mean " << fixed(summary.level.mean) << " max " << fixed(summary.level.max, 0)
              << "; pieces mean " << fixed(summary.pieces.mean) << "\n"
              << "  top-out rate " << percent(summary.top_out_rate) << ", max-out rate "
              << percent(summary.max_out_rate) << ", tetris rate " << percent(summary.tetris_rate) << "\n"
              << "  ended at a lock whose frame may crash the real game (may-crash, MODEL.md \"Time\"): rate "
              << percent(summary.may_crash_rate) << "\n"
              << "  lag frames forecast (not stepped, MODEL.md \"Time\"): " << summary.lag_sure << " for sure, "
              << summary.lag_may << " more that may\n";
    if (o.hate) print_hate_figures(hate, cs);
    if (o.player == "cart" && cart.pieces) {
        std::cout << "  cartridge: " << cart.pieces << " pieces; search not done at the spawn: "
                  << cs.fallback_plans + cs.finished_plans << ", of which " << cs.finished_plans
                  << " finished for the preview before the first input (the full search's plan) and "
                  << cs.fallback_plans
                  << " given the best placement found so far (unfinished); no plan at the first input frame: "
                  << cs.late_pieces << " (the piece falls as it spawned); " << cs.redone_searches
                  << " searches redone (the game not as predicted)\n"
                  << "  first input after a spawn: frame " << fixed(cs.first_input.mean()) << " on average, "
                  << cs.first_input.max() << " at most (" << cs.first_input.count()
                  << " pieces); a game's first piece (its hold): frame " << cs.first_piece_input_max << "\n"
                  << "  AI task "
                  << fixed(cs.frames ? static_cast<double>(cs.task_cycles) / static_cast<double>(cs.frames) : 0, 0)
                  << " cycles a frame on average (" << o.idle << " idle given); longest from the NMI to the task's yield "
                  << cs.max_overrun << " cycles\n";
    }
}

int run_simulate(const SimulateOptions& o) {
    SimulationConfig config;
    if (o.seeds.empty()) {
        if (o.games > kMaxListNumbers)
            throw UsageError("--games " + std::to_string(o.games) + ": at most " + thousands(kMaxListNumbers) +
                             " games a run (split a longer one with --seeds)");
        for (uint32_t i = 0; i < o.games; ++i) config.seeds.push_back(i);
    } else {
        config.seeds = parse_number_list(o.seeds);
    }
    config.start_level = static_cast<uint8_t>(o.level);
    config.game_type = o.type == "B" ? 1 : 0;
    config.start_height = static_cast<uint8_t>(o.height);
    config.max_frames = o.max_frames;
    config.max_lines = o.max_lines;
    config.threads = o.threads;
    if (o.player == "drop") {
        config.make_player = [](uint32_t) { return std::make_unique<DropAtSpawnPlayer>(); };
    } else if (o.player == "ai") {
        const bool b_type = config.game_type == 1;
        config.make_player = [b_type](uint32_t) { return std::make_unique<ai::AiPlayer>(ai::default_tables(), b_type); };
    } else if (o.player == "cart") {
        tools::CartLoopOptions options;
        options.idle_cycles = o.idle;
        options.hate = o.hate;
        config.make_player = [options, &config](uint32_t seed) {
            auto player = std::make_unique<tools::CartLoopPlayer>(
                seeded_game(seed, config.start_level, config.game_type, config.start_height), options);
            playing_cart = player.get();  // (--hate: the dealer this thread's game follows)
            return player;
        };
    } else if (o.player == "movie") {
        if (o.movie.empty()) throw UsageError("--player movie needs --movie FILE");
        const Movie movie = load_movie_file(o.movie);
        config.make_player = [movie](uint32_t) { return std::make_unique<MoviePlayer>(movie); };
    } else {
        throw UsageError("unknown player '" + o.player + "' (ai, cart, drop, movie)");
    }
    // A bad output is refused before the games, not after them.
    check_simulate_outputs(o, config.seeds);
    PublishedFiles pictures;  // removed again if the run fails before its end
    if (!o.png_dir.empty()) pictures.make_directory(o.png_dir);
    CartFigures cart;
    HateFigures hate;
    hate.cart = o.player == "cart";
    if (o.hate) config.choose_next = hate.cart ? cart_hate_dealer(hate) : hate_chooser(hate);
    std::mutex print_mutex;
    config.on_game_end = [&](const GameResult& r, const GameState& final_state, Player& player) {
        if (auto* c = dynamic_cast<tools::CartLoopPlayer*>(&player)) cart.add(c->stats(), r.pieces);
        if (o.boards) {
            std::lock_guard lock(print_mutex);
            std::cout << "game " << r.seed << " (" << to_string(r.end) << "): " << r.lines << " lines, score "
                      << r.score << "\n"
                      << render_text(final_state) << "\n";
        }
        if (!o.png_dir.empty()) {
            const std::filesystem::path file = picture_series(o.png_dir, {}).file(r.seed);
            write_png(file.string(), render_image(final_state, 2));
            pictures.add(file);
        }
    };

    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    const bool terminal = stderr_is_terminal();
    ProgressReport report("nestris-ai simulate", config.seeds.size(), "games", terminal, o.quiet);
    const unsigned threads = worker_count(config.seeds.size(), o.threads);
    const uint64_t result_bytes = config.seeds.size() * simulate_bytes_per_game(!o.csv.empty());
    bool noticed = o.quiet;
    std::function<void(std::size_t)> progress = [&](std::size_t done) {
        if (!noticed) {
            const std::string notice = long_run_notice(config.seeds.size(), done, seconds(), threads, result_bytes);
            if (!notice.empty()) {
                // On its own line, the bar (if any) going on below it.
                std::cerr << (terminal ? "\r\x1b[K" : "") << notice << '\n';
                noticed = true;
            }
        }
        std::cerr << report.update(done, seconds()) << std::flush;
    };
    const std::vector<GameResult> results = simulate(config, progress);
    std::cerr << report.finish(seconds()) << std::flush;
    const double elapsed = seconds();
    const SimulationSummary summary = summarize(results);
    std::vector<std::pair<std::string, double>> extra;
    const tools::CartLoopStats& cs = cart.stats;
    if (o.player == "cart")
        extra = {{"cart_idle_cycles", o.idle},
                 {"cart_pieces", double(cart.pieces)},
                 {"cart_unfinished_searches", double(cs.fallback_plans)},
                 {"cart_unfinished_search_rate", cart.pieces ? double(cs.fallback_plans) / double(cart.pieces) : 0.0},
                 {"cart_searches_finished_at_spawn", double(cs.finished_plans)},
                 {"cart_no_plan_at_first_input", double(cs.late_pieces)},
                 {"cart_first_input_pieces", double(cs.first_input.count())},
                 {"cart_first_input_mean_frames", cs.first_input.mean()},
                 {"cart_first_input_max_frames", double(cs.first_input.max())},
                 {"cart_first_piece_input_max_frames", double(cs.first_piece_input_max)}};
    if (o.hate)
        extra = {{"hate_mode", 1},
                 {"hate_choices", double(hate.choices)},
                 {"hate_not_ready", double(cart.stats.hate_kept)},
                 {"hate_evaluations_mean", hate.mean(hate.evaluations)},
                 {"hate_evaluations_max", double(hate.max_evaluations)},
                 {"hate_positions_mean", hate.mean(hate.positions)}};
    write_results(o, results, summary, config, elapsed, extra);
    pictures.keep();
    if (o.json != "-") {
        print_summary(o, summary, cart, hate, elapsed);
    } else {
        write_summary_json(std::cout, summary, config, o.player, elapsed, extra);
    }
    return 0;
}

}  // namespace

void add_simulate_command(CLI::App& app) {
    auto o = std::make_shared<SimulateOptions>();
    CLI::App* cmd = app.add_subcommand(
        "simulate",
        "Play many games of a player against the game model (all cores). Game i starts as the\n"
        "first game after power-on with seed i frames spent in the level menu: the game's own\n"
        "piece sequences. Deterministic for a seed list. Prints a summary; --json/--csv write\n"
        "the summary and one line per game. --hate: hate mode, each piece dealt by the adversary.");
    cmd->add_option("--player", o->player,
                    "ai (the C++ reference AI), cart (the shipped 6502 AI in the embedded emulator,\n"
                    "given --idle cycles a frame, as the game does), drop (soft-drop every piece at\n"
                    "spawn) or movie")
        ->capture_default_str();
    cmd->add_option("--idle", o->idle,
                    "--player cart: CPU cycles the game leaves the AI each frame (measured in AI games on\n"
                    "the real game: 18 700 on average, mostly 10 000-20 500, down to ~4 300 in games near 1 000\n"
                    "lines)")
        ->check(CLI::Range(2000, 29000))
        ->capture_default_str();
    cmd->add_flag("--hate", o->hate,
                  "hate mode (AI_DESIGN.md \"Hate mode\"): each piece the game draws at a spawn is replaced\n"
                  "by the type whose best placement on the board after the last lock costs most (the\n"
                  "reference's adversary; the RNG runs as the game's). The game's first two pieces are\n"
                  "the game's own, so the seed picks only those (and B-Type's garbage). With --player cart the\n"
                  "cartridge chooses and deals (its dealer's rule: a choice not ready at the spawn keeps the\n"
                  "game's draw), as it does on the real game");
    cmd->add_flag("--boards", o->boards, "print each game's final board (text)");
    cmd->add_option("--png-dir", o->png_dir, "write each game's final board as DIR/game-SEED.png");
    cmd->add_option("--movie", o->movie, "input movie for --player movie (nestris-movie text)");
    cmd->add_option("--seeds", o->seeds,
                    "seed list, e.g. 0-999 or 1,5,9 (default: 0..games-1); at most " + thousands(kMaxListNumbers) +
                        " seeds");
    cmd->add_option("--games", o->games,
                    "number of games when --seeds is not given, at most " + thousands(kMaxListNumbers) +
                        " (each game's result is\n"
                    "kept; a long run says how long it will take and how much memory, a few seconds in)")
        ->capture_default_str();
    cmd->add_option("--level", o->level, "start level (0-255; the menu offers 0-19)")
        ->check(CLI::Range(0, 255))
        ->capture_default_str();
    cmd->add_option("--type", o->type, "game type A or B")->check(CLI::IsMember({"A", "B"}))->capture_default_str();
    cmd->add_option("--height", o->height, "B-Type start height 0-5")->check(CLI::Range(0, 5));
    cmd->add_option("--max-frames", o->max_frames, "stop each game after this many frames (0: no limit)");
    cmd->add_option("--max-lines", o->max_lines, "stop each game at this many lines (0: no limit)");
    cmd->add_option("--threads", o->threads, "threads (default: every core)");
    cmd->add_option("--json", o->json, "write the summary as JSON to this file ('-': stdout only)");
    cmd->add_option("--csv", o->csv, "write one CSV line per game to this file");
    cmd->add_option("--histogram", o->histogram,
                    "write the games' lines per game as a bar chart (PNG), their final scores' and levels' below");
    cmd->add_flag("--quiet", o->quiet,
                  "no progress (a bar on a terminal, else a line at each tenth of the run, each with the time left), and no word on a long run's time and memory");
    cmd->callback([o] {
        run_command("nestris-ai simulate", [o] { return run_simulate(*o); });
    });
}

}  // namespace nestris
