// nestris-tune: tunes ai-reference/weights.txt with particle swarm optimisation
// (inertia 0.72, acceleration 1.49, velocity clamped) on the frame-accurate game model, over a
// fixed list of seeded games (the game's own piece sequences). Resumable: the swarm is saved
// after every iteration and picked up again by the same command.
//
// Fitness, --protocol 19 (default): the level-19 protocol (to 230 lines or top-out); with
//   --fitness capped (default): the mean of min(score, 999999), the score as the game caps it, so
//     that a max-out is the best a game can do and an early top-out costs what it scores less;
//   --fitness survival: the mean of min(score, 999999) + 600000 * lines / 230 (survival first);
//   --fitness best-third: seed 004's, the mean of the best third of the scores counted from line
//     clears alone (no cap, no soft-drop points), which selects for aggression;
//   --fitness goal: the share of max-outs minus the share of top-outs, in points (the targets);
//   --fitness safe: as goal, with each top-out counted 4 times (top-outs first).
// (tools::fitness_of in ai_protocol.hpp computes each.)
// Fitness, --protocol 29: the level-29 protocol; mean lines (to --max-lines, 300 unless told, or
// the top-out; a lock whose frame may crash the real game ends a game as a top-out does).
// Files: the weights and the state are read by the shared reader (file_io.hpp; the state parsed
// by tune_state.hpp, which checks every count against the bytes there), --out and --state are
// written by the shared atomic writer and checked before the first game, since the tuner may
// run for hours before it writes: neither may be --weights or the other.
#include "tools/tune/tune_command.hpp"
#include "tools/harness/version.hpp"

#include "ai-reference/ai/ai_eval.hpp"
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "base/worker_pool.hpp"
#include "tools/harness/ai_protocol.hpp"
#include "tools/tune/tune_state.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using namespace nestris;
using nestris::tools::TuneParticle;
using nestris::tools::TuneSwarm;

namespace {

struct Bounds {
    double lo, hi;
};
Bounds bounds_of(const std::string& name) {
    if (name == "stack_free" || name == "spawn_free" || name == "stack_fast_free") return {0, 20};
    if (name == "danger_height") return {0, 21};  // 21: never in danger
    if (name.starts_with("lines")) return {0, 3000};
    if (name.starts_with("row")) return {0, 600};
    if (name.starts_with("gap")) return {0, 1500};
    return {0, 3000};
}

ai::Weights with_values(ai::Weights w, const std::vector<double>& x, const std::vector<std::string>& names) {
    for (size_t i = 0; i < names.size(); ++i)
        w.values[names[i]] = static_cast<int>(std::lround(std::clamp(x[i], bounds_of(names[i]).lo, bounds_of(names[i]).hi)));
    return w;
}

std::string format_fitness(double f) {
    char text[32];
    if (std::fabs(f) < 1000)
        std::snprintf(text, sizeof text, "%.3f", f);  // goal: percentage points
    else
        std::snprintf(text, sizeof text, "%.0f", f);
    return text;
}

struct TuneOptions {
    fs::path weights_path = fs::path(NESTRIS_SOURCE_DIR) / "ai-reference" / "weights.txt";
    fs::path state_path, out_path;
    int protocol = 19;
    int games = 64, particles = 16, iterations = 50;
    unsigned threads = worker_threads();
    uint32_t first_seed = 1000;
    std::string fitness_kind = "capped";
    std::string vary;
    uint32_t max_lines = 0;
    bool fitness_given = false, max_lines_given = false;  // (CLI11's counts, read after the parse)
    std::string command_line;                             // for the weights file's header
};

// The options; the two counts that tell a value typed from a default are read through the
// returned options after the parse.
std::pair<CLI::Option*, CLI::Option*> add_tune_options(CLI::App& app, TuneOptions& o) {
    app.add_option("--weights", o.weights_path, "starting weights");
    app.add_option("--protocol", o.protocol, "19: level-19 start to 230 lines; 29: level-29 start")
        ->check(CLI::IsMember({19, 29}));
    app.add_option("--state", o.state_path,
                   "swarm state file (created, then resumed; rewritten after every iteration)")->required();
    app.add_option("--out", o.out_path,
                   "where the best weights found are written (whenever they improve); neither this nor "
                   "--state may be --weights or each other, and both are checked before the work starts")
        ->required();
    app.add_option("--games", o.games, "games per fitness evaluation")->check(CLI::Range(1, 100000));
    app.add_option("--particles", o.particles, "swarm size")->check(CLI::Range(2, 1000));
    app.add_option("--iterations", o.iterations, "iterations to run in this invocation")->check(CLI::Range(0, 100000));
    app.add_option("--threads", o.threads, "worker threads")->check(CLI::Range(1, 256));
    app.add_option("--first-seed", o.first_seed, "seed of the first game (games use consecutive seeds)");
    CLI::Option* fitness_option = app.add_option("--fitness", o.fitness_kind,
                   "protocol 19: capped = mean of the score capped at 999999 (the max-out); "
                   "survival = mean of min(score, 999999) + 600000 * lines / 230; best-third = seed 004's, "
                   "the mean of the best third of the scores counted without cap or soft drops; goal = the "
                   "share of max-outs minus the share of top-outs, in percentage points; safe = goal with each "
                   "top-out counted 4 times; not with --protocol 29, whose fitness is the mean of the lines")
        ->check(CLI::IsMember({"capped", "survival", "best-third", "goal", "safe"}));
    app.add_option("--vary", o.vary, "the weights to tune, comma-separated (default: all of them)");
    CLI::Option* max_lines_option = app.add_option(
        "--max-lines", o.max_lines,
        "protocol 29: each game is played to this many lines or its top-out (default 300; 3 260 is the\n"
        "rebirth from level 29); resume a run with the same value")
        ->check(CLI::Range(1u, 100000u));
    return {fitness_option, max_lines_option};
}

// Every file is checked before the first game: the tuner may run for hours before it writes, and
// an output onto an input (or onto the other output) would lose one of them.
void check_tune_options(const TuneOptions& o) {
    if (o.max_lines_given && o.protocol != 29)
        throw UsageError("--max-lines is for --protocol 29 (protocol 19 plays to 230 lines)");
    if (o.fitness_given && o.protocol == 29)
        throw UsageError("--fitness is for --protocol 19 (protocol 29's fitness is the mean of the lines)");
    if (same_file(o.out_path, o.state_path))
        throw UsageError("--out and --state are the same file ('" + o.out_path.string() +
                         "'): the state would overwrite the weights");
    replaces_input(o.state_path);  // resumed from and written back: the one input updated
    const std::vector<fs::path> weights_only = {o.weights_path}, inputs = {o.weights_path, o.state_path};
    check_output(o.out_path, inputs);
    check_output(o.state_path, weights_only);
}

// --vary's weights, each a weight the AI has; all of them when none is named.
std::vector<std::string> weights_to_vary(const std::string& vary) {
    std::vector<std::string> names;
    for (size_t at = 0; at < vary.size();) {
        const size_t comma = std::min(vary.find(',', at), vary.size());
        names.push_back(vary.substr(at, comma - at));
        at = comma + 1;
    }
    for (const std::string& n : names)
        if (std::find(ai::weight_names().begin(), ai::weight_names().end(), n) == ai::weight_names().end())
            throw std::runtime_error("--vary: no weight '" + n + "'");
    return names.empty() ? ai::weight_names() : names;
}

// A new swarm: particle 0 at the given weights, the others spread around them.
TuneSwarm new_swarm(const ai::Weights& start, const std::vector<std::string>& names, int particles) {
    TuneSwarm swarm;
    std::mt19937_64 init(42);
    const size_t dim = names.size();
    std::vector<double> x0(dim);
    for (size_t i = 0; i < dim; ++i) x0[i] = start.get(names[i]);
    swarm.particles.resize(static_cast<size_t>(particles));
    for (size_t p = 0; p < swarm.particles.size(); ++p) {
        TuneParticle& pt = swarm.particles[p];
        pt.x = x0;
        pt.v.assign(dim, 0);
        for (size_t i = 0; i < dim && p > 0; ++i) {
            const Bounds b = bounds_of(names[i]);
            const double spread = std::max(2.0, 0.35 * std::max(x0[i], 0.05 * (b.hi - b.lo)));
            pt.x[i] = std::clamp(x0[i] + std::normal_distribution<double>(0, spread)(init), b.lo, b.hi);
        }
    }
    return swarm;
}

// The swarm the state file holds (tuning the same weights), or a new one.
TuneSwarm resume_or_start(const TuneOptions& o, const ai::Weights& start, const std::vector<std::string>& names) {
    if (!fs::exists(o.state_path)) return new_swarm(start, names, o.particles);
    TuneSwarm swarm = tools::read_tune_state(o.state_path);
    if (swarm.best_x.size() != names.size())
        throw std::runtime_error("the state file tunes " + std::to_string(swarm.best_x.size()) + " weights, this command " +
                                 std::to_string(names.size()) + " (--vary)");
    std::printf("resuming at iteration %d, best fitness %s\n", swarm.iteration, format_fitness(swarm.best_f).c_str());
    return swarm;
}

// A particle's step: inertia 0.72, pulls of 1.49 toward its best and the swarm's, the velocity
// clamped to a fifth of each weight's range.
void move_particle(TuneParticle& p, const TuneSwarm& swarm, const std::vector<std::string>& names, std::mt19937_64& rng) {
    for (size_t i = 0; i < names.size(); ++i) {
        const Bounds b = bounds_of(names[i]);
        const double r1 = std::uniform_real_distribution<double>(0, 1)(rng);
        const double r2 = std::uniform_real_distribution<double>(0, 1)(rng);
        const double vmax = 0.2 * (b.hi - b.lo);
        p.v[i] = std::clamp(0.72 * p.v[i] + 1.49 * r1 * (p.best_x[i] - p.x[i]) + 1.49 * r2 * (swarm.best_x[i] - p.x[i]),
                            -vmax, vmax);
        p.x[i] = std::clamp(p.x[i] + p.v[i], b.lo, b.hi);
    }
}

// The best weights so far, with how they were found.
std::string best_weights_text(const TuneOptions& o, const std::string& kind, double f, const TuneSwarm& swarm,
                              const ai::Weights& start, const std::vector<std::string>& names) {
    return "# tuned by nestris-tune, protocol " + std::to_string(o.protocol) + ", fitness (" + kind + ") " +
           format_fitness(f) + " at iteration " + std::to_string(swarm.iteration + 1) + "\n# training seeds " +
           std::to_string(o.first_seed) + ".." + std::to_string(o.first_seed + static_cast<uint32_t>(o.games) - 1) +
           "\n# command: " + o.command_line + "\n" + ai::format_weights(with_values(start, swarm.best_x, names));
}

int tune(const TuneOptions& o) {
    check_tune_options(o);
    const std::vector<fs::path> weights_only = {o.weights_path}, inputs = {o.weights_path, o.state_path};
    const ai::Weights start = ai::parse_weights(read_text_file(o.weights_path));
    const std::vector<std::string> names = weights_to_vary(o.vary);
    tools::ProtocolSpec spec;
    if (o.protocol == 29) {
        spec.start_level = 29;
        spec.line_target = o.max_lines ? o.max_lines : 300;
    }
    std::vector<uint32_t> seeds;
    for (int i = 0; i < o.games; ++i) seeds.push_back(o.first_seed + static_cast<uint32_t>(i));
    const std::string kind = o.protocol == 29 ? "lines" : o.fitness_kind;
    auto fitness = [&](const std::vector<double>& x) {
        return tools::fitness_of(kind, tools::play_many(seeds, spec, ai::expand_tables(with_values(start, x, names)), o.threads));
    };

    TuneSwarm swarm = resume_or_start(o, start, names);
    std::mt19937_64 rng(swarm.rng_state);
    for (int it = 0; it < o.iterations; ++it) {
        for (TuneParticle& p : swarm.particles) {
            if (swarm.iteration > 0 || p.best_f > -1e299) move_particle(p, swarm, names, rng);  // (not before the first evaluation)
            const double f = fitness(p.x);
            if (f > p.best_f) {
                p.best_f = f;
                p.best_x = p.x;
            }
            if (f > swarm.best_f) {
                swarm.best_f = f;
                swarm.best_x = p.x;
                write_text_atomically(o.out_path, best_weights_text(o, kind, f, swarm, start, names), inputs);
            }
        }
        ++swarm.iteration;
        swarm.rng_state = rng();
        rng.seed(swarm.rng_state);
        write_text_atomically(o.state_path, tools::tune_state_to_text(swarm), weights_only);
        std::printf("iteration %d: best fitness %s\n", swarm.iteration, format_fitness(swarm.best_f).c_str());
        std::fflush(stdout);
    }
    return 0;
}

}  // namespace

int tools::run_tune(int argc, const char* const* argv) {
    CLI::App app{"Tune the AI's evaluation weights with particle swarm optimisation on the\n"
                 "frame-accurate game model. Resumable: rerun the same command to continue.", "nestris-tune"};
    TuneOptions o;
    // (two names, not a structured binding: clang before 16 cannot capture one in the lambda)
    const auto options = add_tune_options(app, o);
    CLI::Option* const fitness_option = options.first;
    CLI::Option* const max_lines_option = options.second;
    app.set_version_flag("--version", version_text());
    return nestris::run_program(app, argc, argv, [&]() -> int {
        o.command_line = "nestris-tune";
        for (int i = 1; i < argc; ++i) o.command_line += std::string(" ") + argv[i];
        o.fitness_given = fitness_option->count() > 0;
        o.max_lines_given = max_lines_option->count() > 0;
        return tune(o);
    });
}
