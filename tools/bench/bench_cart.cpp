// bench-cart: the cartridge AI (the shipped 6502 bytes, in the embedded emulator) on the
// decisions of real games: equivalence with the reference (mismatches, must be 0) and the cost of
// each search in CPU cycles, against the frames the game gives it.
//   --positions N: also N random positions (boards of every kind, levels 0-255, hold, B-Type)
//   --loop-games N: N whole games of the cartridge in the loop (cart_loop.hpp) beside the
//     reference's, frame by frame, and the budget table (ROM and RAM used, the task's longest
//     step, frames from spawn to first input, the margin left in the worst frame)
//   --hate: hate mode's adversary (ai_hate) instead of the search: --games hate games (the
//     reference AI against the reference's adversary), each choice the cartridge makes against
//     hate_choice and its cycles against the frames from the lock to the spawn; --positions
//     random positions too
#include "ai-reference/ai/ai_hate.hpp"
#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/game_model.hpp"
#include "ai-reference/model/power_on.hpp"
#include "base/command_runner.hpp"
#include "base/tally.hpp"
#include "base/worker_pool.hpp"
#include "patcher/cart_image.hpp"
#include "tools/cli/command_line.hpp"
#include "tools/harness/cart_ai.hpp"
#include "tools/harness/cart_loop.hpp"
#include "tools/harness/version.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace nestris;

namespace {

struct SearchTally {
    uint64_t mismatches = 0;
    uint64_t timed = 0, late = 0;      // game searches with a deadline, and the ones that miss it
    double worst_ratio = 0;            // most cycles needed / cycles available
    Tally<uint64_t> cycles{true}, evaluations;  // per search (cycles: every one kept)
    void merge(const SearchTally& o) {
        timed += o.timed;
        late += o.late;
        worst_ratio = std::max(worst_ratio, o.worst_ratio);
        mismatches += o.mismatches;
        cycles.merge(o.cycles);
        evaluations.merge(o.evaluations);
    }
};

// Cycles per routine of the cartridge AI (the top-level label at or before each instruction).
struct Profile {
    std::vector<std::pair<uint16_t, std::string>> routines;  // by address
    std::vector<uint64_t> cycles, entries;
    std::map<uint16_t, std::pair<std::string, uint64_t>> inner;  // local labels: times reached
    uint64_t total = 0, searches = 0;
    // local: cycles go to the nearest label, local ones included (where in a routine the time goes)
    explicit Profile(bool local = false) {
        for (const CartSymbol& sym : shipped_cart().symbols)
            if (sym.is_label && (local || sym.name.find("::") == std::string::npos))
                routines.emplace_back(sym.value, sym.name);
            else if (sym.is_label) inner[sym.value] = {sym.name, 0};
        std::sort(routines.begin(), routines.end());
        cycles.assign(routines.size() + 1, 0);
        entries.assign(routines.size() + 1, 0);
    }
    void add(uint16_t pc, uint32_t c) {
        auto it = std::upper_bound(routines.begin(), routines.end(), std::make_pair(pc, std::string{}),
                                   [](const auto& a, const auto& b) { return a.first < b.first; });
        const size_t i = it == routines.begin() ? routines.size() : size_t(it - routines.begin() - 1);
        cycles[i] += c;
        entries[i] += i < routines.size() && routines[i].first == pc;
        if (auto in = inner.find(pc); in != inner.end()) ++in->second.second;
        total += c;
    }
    void print() const {
        std::vector<size_t> order(cycles.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return cycles[a] > cycles[b]; });
        std::printf("profile: %llu searches, %.0f cycles per search\n", static_cast<unsigned long long>(searches),
                    searches ? double(total) / double(searches) : 0.0);
        for (size_t i : order) {
            if (cycles[i] == 0) continue;
            const char* name = i < routines.size() ? routines[i].second.c_str() : "(outside the AI)";
            std::printf("  %-28s %5.1f %%  %9.0f cycles/search  %8.1f entries/search\n", name,
                        100.0 * double(cycles[i]) / double(total), double(cycles[i]) / double(searches),
                        double(entries[i]) / double(searches));
        }
        std::printf("local labels reached (times per search):\n");
        for (const auto& [pc, label] : inner)
            if (label.second) std::printf("  %-40s %9.1f\n", label.first.c_str(), double(label.second) / double(searches));
    }
};

bool same(const ai::Precomputed& ref, const tools::CartSearchResult& got) {
    if (ref.count != got.count) return false;
    for (uint8_t k = 0; k < ref.count; ++k) {
        const auto& a = ref.candidates[k];
        const auto& b = got.candidates[k];
        if (a.target.orientation != b.target.orientation || a.target.x != b.target.x ||
            a.target.landing_y != b.target.landing_y || a.cost != b.cost || a.lines_cost != b.lines_cost)
            return false;
    }
    const tools::ReferenceChoice c = tools::reference_choice(ref);
    return ref.count == 0 || (c.best_k == got.best_k && c.best_total == got.best_total);
}

uint64_t check(tools::CartAi& cart, const ai::SearchInput& in, SearchTally& t, Profile* profile = nullptr) {
    const ai::Precomputed ref = ai::precompute(in);
    tools::CartAi::StepObserver observe;
    if (profile) {
        observe = [profile](uint16_t pc, uint32_t c) { profile->add(pc, c); };
        ++profile->searches;
    }
    const tools::CartSearchResult got = cart.precompute(in, 50'000'000, observe);
    t.mismatches += !same(ref, got);
    t.cycles.add(got.cycles);
    t.evaluations.add(ref.stats.evaluations);
    return got.cycles;
}

// The decisions of one game played by the reference AI. The cartridge searches for a piece
// while the previous one plays out: from the previous spawn to this one, at idle_per_frame cycles
// a frame (the first piece: within its hold, up to the first input frame).
void game(uint32_t seed, uint8_t level, uint32_t frames, uint32_t idle_per_frame, SearchTally& t, Profile* profile) {
    tools::CartAi cart;
    GameState s = seeded_game(seed, level);
    ai::AiPlayer player;
    bool was_active = false;
    uint32_t last_spawn = 0;
    bool first = true;
    for (uint32_t f = 0; f < frames && s.status == GameStatus::Playing && !is_topped_out(s); ++f) {
        const PlayerView v = view_of(s);
        if (v.active && !was_active) {
            ai::SearchInput in;
            in.board = ai::board_of(v);
            in.piece_type = ai::type_of_orientation(v.currentPiece);
            in.level = ai::LevelState{v.levelNumber, v.lines_bcd[0], v.lines_bcd[1], false};
            in.first_piece = (v.autorepeatY & 0x80) != 0;
            const uint64_t needed = check(cart, in, t, profile);
            const uint64_t available =
                uint64_t{idle_per_frame} * (first ? ai::kFirstPieceStartFrame : f - last_spawn);
            ++t.timed;
            t.late += needed > available;
            t.worst_ratio = std::max(t.worst_ratio, double(needed) / double(available));
            last_spawn = f;
            first = false;
        }
        was_active = v.active;
        step(s, player.buttons(v));
    }
}


// ---- cartridge in the loop: whole games beside the reference's ------------------------------

struct LoopTally {
    uint64_t games = 0, identical = 0, frames = 0, pieces = 0;
    tools::CartLoopStats cart;  // the cartridge's figures over the games
    std::vector<std::string> divergences;
    void merge(const LoopTally& o) {
        games += o.games;
        identical += o.identical;
        frames += o.frames;
        pieces += o.pieces;
        cart.merge(o.cart);
        divergences.insert(divergences.end(), o.divergences.begin(), o.divergences.end());
    }
};

// One game: the reference AI plays the model, the cartridge plays its own copy in the loop; the
// buttons and the whole state must agree every frame. Frames from a spawn to the AI's first
// input: counted from the spawn frame (1: the first frame the game reads input for the piece).
void loop_game(uint32_t seed, uint8_t level, uint32_t max_lines, uint32_t frames, const tools::CartLoopOptions& options,
               LoopTally& t) {
    GameState reference = seeded_game(seed, level);
    ai::AiPlayer ai;
    tools::CartridgeInTheLoop cart(reference, options);
    bool same = true;
    uint32_t f = 0;
    for (; f < frames && reference.status == GameStatus::Playing && reference.playState != tetris::PLAY_STATE_CURTAIN &&
           lines_count(reference) < max_lines;
         ++f) {
        const uint8_t want = ai.buttons(view_of(reference));
        step(reference, want);
        const uint8_t got = cart.frame();
        if (same && (got != want || !(cart.state() == reference))) {
            same = false;
            char line[160];
            std::snprintf(line, sizeof line, "seed %u: first difference at frame %u (buttons %02X, reference %02X)", seed,
                          f, got, want);
            t.divergences.push_back(line);
        }
        if (!same) break;
    }
    ++t.games;
    t.identical += same;
    t.frames += f;
    t.pieces += reference.spawnCount;  // (wraps at 256: a count for the record only)
    t.cart.merge(cart.stats());
}

void print_budget(const LoopTally& lt, uint32_t game_work, bool timed_steps) {
    const CartImage& cart = shipped_cart();
    std::printf("\nbudget table (the shipped cartridge)\n");
    std::printf("%s", cart.usage_report().c_str());
    if (timed_steps)
        std::printf("the task's longest step (between two yields): %llu cycles\n",
                    static_cast<unsigned long long>(lt.cart.max_step));
    std::printf("longest from the NMI to the task's yield (the delay the game's next frame can see): %llu cycles\n",
                static_cast<unsigned long long>(lt.cart.max_overrun));
    std::printf("worst frame: the game's own work at most %u cycles (measure-idle, original game) + %llu = %llu of "
                "29780: margin %lld cycles\n",
                game_work, static_cast<unsigned long long>(lt.cart.max_overrun),
                static_cast<unsigned long long>(game_work + lt.cart.max_overrun),
                29780ll - static_cast<long long>(game_work + lt.cart.max_overrun));
    const Tally<uint64_t>& first = lt.cart.first_input;
    if (first.count())
        std::printf("frames from a spawn to the first input (1 = the first frame the game reads input for the "
                    "piece): mean %.2f, max %llu over %llu pieces; a game's first piece: %llu (its hold)\n",
                    first.mean(), static_cast<unsigned long long>(first.max()),
                    static_cast<unsigned long long>(first.count()),
                    static_cast<unsigned long long>(lt.cart.first_piece_input_max));
}

struct BenchOptions {
    int games = 4, positions = 0;
    uint32_t frames = 20000, first_seed = 1;
    int level = 19;
    uint32_t idle = 18700;
    unsigned threads = worker_threads();
    int loop_games = 0;
    uint32_t loop_idle = 60000, loop_lines = 230, game_work = 15900;
    bool time_steps = false;
    bool profile = false, profile_labels = false;
    bool hate = false;
};

void add_bench_options(CLI::App& app, BenchOptions& o) {
    app.add_option("--games", o.games, "games played by the reference AI")->check(CLI::Range(0, 100000));
    app.add_option("--frames", o.frames, "frames per game at most");
    app.add_option("--level", o.level, "start level")->check(CLI::Range(0, 255));
    app.add_option("--positions", o.positions, "random positions")->check(CLI::Range(0, 100000000));
    app.add_option("--first-seed", o.first_seed, "seed of the first game, and of the random positions (each thread draws from its own generator, seeded from it)");
    app.add_option("--threads", o.threads, "worker threads")->check(CLI::Range(1, 256));
    app.add_option("--idle", o.idle, "idle CPU cycles per frame the game leaves the AI (18 700: the real game's mean in AI games)")->capture_default_str();
    app.add_option("--loop-games", o.loop_games, "whole games of the cartridge in the loop, beside the reference's")
        ->check(CLI::Range(0, 1000000));
    app.add_option("--loop-idle", o.loop_idle,
                   "idle cycles per frame in the loop games (identical games need every search done in time: "
                   "more than the real game's frame holds, 29 780 cycles, is a model's time)")
        ->check(CLI::Range(2000, 200000));
    app.add_option("--loop-lines", o.loop_lines, "end a loop game at this many lines");
    app.add_flag("--time-steps", o.time_steps, "time every step of the task in the loop games (slower)");
    app.add_option("--game-work", o.game_work, "the game's own work in its busiest frame, cycles (measure-idle)");
    app.add_flag("--profile", o.profile, "--games: cycles per routine of the searches (one thread, slower)");
    app.add_flag("--profile-labels", o.profile_labels, "--profile by every label, local ones too");
    app.add_flag("--hate", o.hate,
                 "hate mode's adversary instead of the search: --games are hate games (the reference AI against "
                 "the reference's adversary), each choice against hate_choice, its cycles against the frames from "
                 "the lock to the spawn; --positions random positions too");
}

// --loop-games: whole games of the cartridge in the loop beside the reference's. Are they all
// identical?
bool run_loop_games(const BenchOptions& o) {
    const auto l0 = std::chrono::steady_clock::now();
    std::vector<LoopTally> tallies(o.threads);
    tools::CartLoopOptions options;
    options.idle_cycles = o.loop_idle;
    options.measure_steps = o.time_steps;
    PoolProgress progress("bench-cart", static_cast<std::size_t>(o.loop_games), "loop games");
    parallel_for(static_cast<std::size_t>(o.loop_games), o.threads, [&](std::size_t g, unsigned worker) {
        loop_game(o.first_seed + static_cast<uint32_t>(g), static_cast<uint8_t>(o.level), o.loop_lines, o.frames * 10, options,
                  tallies[worker]);
    }, progress.options());
    progress.finish();
    LoopTally lt;
    for (const LoopTally& t : tallies) lt.merge(t);
    std::sort(lt.divergences.begin(), lt.divergences.end());
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - l0).count();
    std::printf("cartridge in the loop: %llu games from level %d (to %u lines or the top-out), %u idle cycles a frame, "
                "%.1f s\n",
                static_cast<unsigned long long>(lt.games), o.level, o.loop_lines, o.loop_idle, secs);
    std::printf("identical to the reference's games, frame by frame: %llu of %llu (%llu frames)\n",
                static_cast<unsigned long long>(lt.identical), static_cast<unsigned long long>(lt.games),
                static_cast<unsigned long long>(lt.frames));
    for (std::size_t i = 0; i < lt.divergences.size() && i < 10; ++i) std::printf("  %s\n", lt.divergences[i].c_str());
    std::printf("pieces whose search was not done at their spawn: finished for the preview before the first input "
                "%llu, given the best so far %llu; with no plan at their first input frame: %llu; searches redone: %llu\n",
                static_cast<unsigned long long>(lt.cart.finished_plans),
                static_cast<unsigned long long>(lt.cart.fallback_plans),
                static_cast<unsigned long long>(lt.cart.late_pieces),
                static_cast<unsigned long long>(lt.cart.redone_searches));
    print_budget(lt, o.game_work, o.time_steps);
    return lt.identical == lt.games;
}

// A random position, the same mix as tests/cart_ai/positions.hpp, drawn here for the benchmark.
ai::SearchInput random_position(std::mt19937& rng) {
    ai::SearchInput in;
    in.board = ai::Board{};
    const int kind = static_cast<int>(rng() % 6);
    if (kind) {
        std::uniform_int_distribution<int> height(0, kind == 4 ? 19 : (kind == 3 ? 8 : 15));
        for (int c = 0; c < ai::kColumns; ++c) {
            const int h = height(rng);
            for (int r = ai::kRows - h; r < ai::kRows; ++r)
                if (!(kind >= 2 && rng() % (kind == 5 ? 3 : 7) == 0 && r != ai::kRows - h))
                    in.board.rows[r] |= static_cast<uint16_t>(1u << c);
        }
        for (int r = 0; r < ai::kRows; ++r)
            if (in.board.rows[r] == ai::kFullRow) in.board.rows[r] &= static_cast<uint16_t>(~(1u << (rng() % 10)));
        in.board.recompute_columns();
    }
    in.piece_type = static_cast<uint8_t>(rng() % 7);
    in.level.level = static_cast<uint8_t>(rng() % 256);
    const unsigned lines = rng() % 400;
    in.level.lines_lo = static_cast<uint8_t>((lines / 10 % 10) << 4 | lines % 10);
    in.level.lines_hi = static_cast<uint8_t>(lines / 100);
    in.level.b_type = rng() % 8 == 0;
    in.first_piece = rng() % 10 == 0;
    return in;
}

void print_searches(const BenchOptions& o, const SearchTally& all, double secs) {
    const Tally<uint64_t>& cycles = all.cycles;
    std::printf("searches: %llu (%d games from level %d, %d random positions), %.1f s\n",
                static_cast<unsigned long long>(cycles.count()), o.games, o.level, o.positions, secs);
    std::printf("mismatches with the reference: %llu\n", static_cast<unsigned long long>(all.mismatches));
    if (cycles.count()) {
        // Median and p99: the sample at rank floor(p (n - 1)), as this benchmark always printed them.
        std::printf("cycles per search: mean %.0f, median %llu, p99 %llu, max %llu\n", cycles.mean(),
                    static_cast<unsigned long long>(cycles.rank_percentile(0.5)),
                    static_cast<unsigned long long>(cycles.rank_percentile(0.99)),
                    static_cast<unsigned long long>(cycles.max()));
        std::printf("evaluations per search: mean %.1f, max %llu; cycles per evaluation %.0f\n",
                    all.evaluations.mean(), static_cast<unsigned long long>(all.evaluations.max()),
                    double(cycles.sum()) / double(all.evaluations.sum()));
        std::printf("at 29780.5 cycles per frame: mean %.1f frames, max %.1f frames of the whole CPU\n",
                    cycles.mean() / 29780.5, double(cycles.max()) / 29780.5);
    }
    if (all.timed)
        std::printf("deadline (%u idle cycles a frame, the previous piece's frames): %llu of %llu searches late "
                    "(%.1f %%), worst needs %.2f x the time\n",
                    o.idle, static_cast<unsigned long long>(all.late), static_cast<unsigned long long>(all.timed),
                    100.0 * double(all.late) / double(all.timed), all.worst_ratio);
}

// Games and random positions over the threads: stripe w plays games w, w + threads, ... then
// positions likewise, from its own random generator (so the positions drawn depend on --threads,
// not on the timing). Counted in games and positions (the pool's indices are the stripes); a
// game is many searches, a position one, and the stripes play their games first: the time left
// is rough while they do. Returns the stripes' tallies merged.
template <class TallyT, class PlayGame, class CheckPosition>
TallyT run_striped(const BenchOptions& o, const std::string& games, const PlayGame& play_game,
                   const CheckPosition& check_position) {
    std::vector<TallyT> per_thread(o.threads);
    std::atomic<std::size_t> done{0};
    const std::string unit = !o.positions ? games : !o.games ? "positions" : games + " and positions";
    PoolProgress progress("bench-cart", static_cast<std::size_t>(o.games) + static_cast<std::size_t>(o.positions),
                          unit.c_str());
    parallel_for(o.threads, o.threads, [&](std::size_t stripe) {
        const auto w = static_cast<unsigned>(stripe);
        for (int g = static_cast<int>(w); g < o.games; g += static_cast<int>(o.threads)) {
            play_game(o.first_seed + static_cast<uint32_t>(g), per_thread[w]);
            ++done;
        }
        tools::CartAi cart;
        std::mt19937 rng(o.first_seed * 7919u + w);
        for (int p = static_cast<int>(w); p < o.positions; p += static_cast<int>(o.threads)) {
            check_position(cart, random_position(rng), per_thread[w]);
            ++done;
        }
    }, progress.options(&done));
    progress.finish();
    TallyT all;
    for (const TallyT& t : per_thread) all.merge(t);
    return all;
}

// --games and --positions: the cartridge's search against the reference's, its cycles. Any
// mismatch?
bool run_searches(const BenchOptions& o, Profile* profile) {
    const auto t0 = std::chrono::steady_clock::now();
    const SearchTally all = run_striped<SearchTally>(
        o, "games",
        [&](uint32_t seed, SearchTally& t) {
            game(seed, static_cast<uint8_t>(o.level), o.frames, o.idle, t, profile);
        },
        [](tools::CartAi& cart, const ai::SearchInput& in, SearchTally& t) { check(cart, in, t); });
    print_searches(o, all, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return all.mismatches == 0;
}

// ---- hate mode: the adversary's choice (ai_hate) against hate_choice -------------------------

struct HateTally {
    uint64_t mismatches = 0;
    uint64_t timed = 0, late = 0;             // choices in games (with the frames from the lock), late ones
    Tally<uint64_t> cycles{true}, evaluations, frames{true};  // per choice; frames from the lock to the spawn
    void merge(const HateTally& o) {
        mismatches += o.mismatches;
        timed += o.timed;
        late += o.late;
        cycles.merge(o.cycles);
        evaluations.merge(o.evaluations);
        frames.merge(o.frames);
    }
};

// The cartridge's choice on one board against the reference's `want`; its cycles.
uint64_t hate_check(tools::CartAi& cart, const ai::Board& board, const ai::LevelState& level, const ai::HateChoice& want,
                    HateTally& t) {
    const tools::CartHateResult got = cart.hate(board, level);
    t.mismatches += got.type != want.type || got.cost != want.best[want.type];
    t.cycles.add(got.cycles);
    t.evaluations.add(want.stats.evaluations);
    return got.cycles;
}

// One hate game (simulate --hate's): the reference AI against the reference's adversary. At each
// spawn after a lock, the cartridge chooses on the board then; the choice runs from the lock (the
// frame whose step ended the piece) to the spawn, one idle time a frame.
void hate_game(uint32_t seed, uint8_t level, uint32_t frames, uint32_t idle_per_frame, HateTally& t) {
    tools::CartAi cart;
    GameState s = seeded_game(seed, level);
    ai::AiPlayer player;
    std::optional<uint32_t> lock;
    uint32_t f = 0;
    const NextPieceChoice choose = [&](const GameState& at_spawn) {
        const ai::HateChoice want = ai::hate_choice_at(at_spawn);
        const PlayerView v = view_of(at_spawn);
        const ai::LevelState lv{v.levelNumber, v.lines_bcd[0], v.lines_bcd[1], at_spawn.gameType != 0};
        const uint64_t needed = hate_check(cart, ai::board_of(v), lv, want, t);
        if (lock) {
            const uint32_t available = f - *lock;
            ++t.timed;
            t.frames.add(available);
            t.late += needed > uint64_t{idle_per_frame} * available;
        }
        lock.reset();
        return want.type;
    };
    bool was_active = false;
    for (; f < frames && s.status == GameStatus::Playing && !is_topped_out(s); ++f) {
        const PlayerView v = view_of(s);
        if (was_active && !v.active) lock = f - 1;
        was_active = v.active;
        step_choosing_next(s, player.buttons(v), choose);
    }
}

void print_hate(const BenchOptions& o, const HateTally& all, double secs) {
    const Tally<uint64_t>& cycles = all.cycles;
    std::printf("hate mode's choices: %llu (%d hate games from level %d, %d random positions), %.1f s\n",
                static_cast<unsigned long long>(cycles.count()), o.games, o.level, o.positions, secs);
    std::printf("mismatches with hate_choice (type or its cost): %llu\n", static_cast<unsigned long long>(all.mismatches));
    if (cycles.count()) {
        std::printf("cycles per choice: min %llu, mean %.0f, median %llu, p99 %llu, max %llu\n",
                    static_cast<unsigned long long>(cycles.min()), cycles.mean(),
                    static_cast<unsigned long long>(cycles.rank_percentile(0.5)),
                    static_cast<unsigned long long>(cycles.rank_percentile(0.99)),
                    static_cast<unsigned long long>(cycles.max()));
        std::printf("the reference's evaluations per choice (without the shortcuts): mean %.1f, max %llu\n",
                    all.evaluations.mean(), static_cast<unsigned long long>(all.evaluations.max()));
        std::printf("at %u idle cycles a frame: mean %.1f frames, p99 %.1f, max %.1f\n", o.idle,
                    cycles.mean() / o.idle, double(cycles.rank_percentile(0.99)) / o.idle,
                    double(cycles.max()) / o.idle);
    }
    if (all.timed)
        std::printf("from the lock to the spawn: %.1f frames on average, %llu at least; choices not done by the spawn "
                    "(%u idle cycles a frame): %llu of %llu\n",
                    all.frames.mean(), static_cast<unsigned long long>(all.frames.min()), o.idle,
                    static_cast<unsigned long long>(all.late), static_cast<unsigned long long>(all.timed));
}

// --hate: the cartridge's adversary against the reference's, its cycles. Any mismatch?
bool run_hate(const BenchOptions& o) {
    const auto t0 = std::chrono::steady_clock::now();
    const HateTally all = run_striped<HateTally>(
        o, "hate games",
        [&](uint32_t seed, HateTally& t) { hate_game(seed, static_cast<uint8_t>(o.level), o.frames, o.idle, t); },
        [](tools::CartAi& cart, const ai::SearchInput& in, HateTally& t) {
            hate_check(cart, in.board, in.level, ai::hate_choice(in.board, in.level, ai::default_tables()), t);
        });
    print_hate(o, all, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return all.mismatches == 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Run the shipped cartridge AI on the decisions of real games and on random positions:\n"
                 "equivalence with the reference and CPU cycles per search.", "bench-cart"};
    BenchOptions o;
    add_bench_options(app, o);
    app.set_version_flag("--version", nestris::tools::version_text());
    return nestris::run_program(app, argc, argv, [&]() -> int {
        if (o.profile_labels) o.profile = true;
        if (o.profile) o.threads = 1;
        if (o.hate) return run_hate(o) ? 0 : 1;
        Profile routine_profile(o.profile_labels);
        if (o.loop_games > 0) {
            const bool identical = run_loop_games(o);
            if (app.count("--games") == 0 && o.positions == 0) return identical ? 0 : 1;  // loop games only
        }
        const bool matched = run_searches(o, o.profile ? &routine_profile : nullptr);
        if (o.profile) routine_profile.print();
        return matched ? 0 : 1;
    });
}
