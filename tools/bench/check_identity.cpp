// check-identity: the big run of the human-play identity proof (tests/game runs 20 movies of
// 10 000 frames): many random-input movies through the menus and games, on the original and the
// patched ROM side by side, compared after every frame (see identity.hpp, run_identity).
// Prints one line per movie and the totals; exit status 1 on a mismatch or a bad ROM.
// --ai-games: the AI's games on the patched ROM against the cartridge in the loop instead (the
// big run of tests/game/ai_game_loop_test.cpp).
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "base/tally.hpp"
#include "base/worker_pool.hpp"
#include "patcher/cart_image.hpp"
#include "tools/cli/command_line.hpp"
#include "tools/harness/ai_game_loop.hpp"
#include "tools/harness/ai_game_original.hpp"
#include "tools/harness/crash_rule_rom.hpp"
#include "tools/harness/game_harness.hpp"
#include "tools/harness/identity.hpp"
#include "tools/harness/model_start.hpp"
#include "tools/harness/version.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <functional>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

using namespace nestris;

namespace {

double percent(uint64_t part, uint64_t whole) { return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0; }

// AI games on the real ROM against the cartridge in the loop (ai_game_loop.hpp).
// Games on the patched game and the original side by side, lag NMIs compared (ai_game_original.hpp):
// `run(i)` plays game i and names it.
int check_against_original(uint64_t count, unsigned threads, const std::string& what,
                           const std::function<game::AiGameOnOriginal(uint64_t, std::string&)>& run) {
    using Game = game::AiGameOnOriginal;
    std::vector<Game> games(count);
    std::mutex out;
    PoolProgress progress("check-identity", count, "games", &out);
    parallel_for(count, std::max(1u, threads), [&](uint64_t i) {
        std::string name;
        const Game c = run(i, name);
        games[i] = c;
        std::lock_guard<std::mutex> lock(out);
        std::cerr << progress.clear() << std::flush;
        std::printf("%s: %llu frames (%llu compared), %u lines, level up to %u, %s; lag NMIs: "
                    "original %llu, patched %llu; frames lagging more on the patched game: %llu, less: %llu: %s\n",
                    name.c_str(), static_cast<unsigned long long>(c.frames),
                    static_cast<unsigned long long>(c.compared_frames), c.lines, c.level,
                    c.end == game::AiGameComparison::End::Curtain ? "game over (the curtain)"
                    : c.end == game::AiGameComparison::End::Crash ? ("CRASH: " + c.end_detail).c_str()
                    : !c.end_detail.empty()                         ? c.end_detail.c_str()
                                                                   : "frames ran out",
                    static_cast<unsigned long long>(c.lag_original), static_cast<unsigned long long>(c.lag_patched),
                    static_cast<unsigned long long>(c.lag_patched_only), static_cast<unsigned long long>(c.lag_original_only),
                    c.mismatch ? c.mismatch->c_str() : "identical");
        if (c.first_lag_difference) std::printf("  first lag difference: %s\n", c.first_lag_difference->c_str());
        std::fflush(stdout);
    }, progress.options());
    progress.finish();
    const uint64_t mismatches = sum_of(games, [](const Game& c) { return c.mismatch.has_value(); });
    const uint64_t more = sum_of(games, &Game::lag_patched_only), less = sum_of(games, &Game::lag_original_only);
    std::printf("%llu %s, %llu frames, %llu lines, %llu game overs (the "
                "curtain), %llu crashes (alike on both), %llu lag NMIs on the original in %llu frames, %llu on the "
                "patched game; frames lagging more on the patched game: %llu, less: %llu\n"
                "mismatches with the original: %llu\n",
                static_cast<unsigned long long>(count), what.c_str(),
                static_cast<unsigned long long>(sum_of(games, &Game::frames)),
                static_cast<unsigned long long>(sum_of(games, &Game::lines)),
                static_cast<unsigned long long>(sum_of(games, [](const Game& c) { return c.end == game::AiGameComparison::End::Curtain; })),
                static_cast<unsigned long long>(sum_of(games, [](const Game& c) { return c.end == game::AiGameComparison::End::Crash; })),
                static_cast<unsigned long long>(sum_of(games, &Game::lag_original)),
                static_cast<unsigned long long>(sum_of(games, &Game::lagging_original)),
                static_cast<unsigned long long>(sum_of(games, &Game::lag_patched)), static_cast<unsigned long long>(more),
                static_cast<unsigned long long>(less), static_cast<unsigned long long>(mismatches));
    return mismatches || more || less ? 1 : 0;
}

int check_ai_games(const game::GameRoms& roms, uint64_t count, int first_wait, int level, bool b_type, bool hate,
                   uint64_t frames, unsigned threads, int from_level, uint64_t first_seed) {
    using Game = game::AiGameComparison;
    std::vector<Game> games(count);
    std::mutex out;
    PoolProgress progress("check-identity", count, "games", &out);
    parallel_for(count, std::max(1u, threads), [&](uint64_t i) {
        game::MenuWalk walk;
        walk.level = level;
        walk.b_type = b_type;
        walk.title_wait = first_wait + static_cast<int>(i);
        walk.hate = hate;
        std::optional<game::ModelStart> start;
        std::string from;
        if (from_level >= 0) {
            const game::NamedModelStart named = game::model_start_of_game(from_level, first_seed, i);
            start = named.start;
            from = named.name;
        }
        const Game c = game::compare_ai_game_with_loop(roms.patched, shipped_cart(), walk, frames, start);
        games[i] = c;
        std::lock_guard<std::mutex> lock(out);
        std::cerr << progress.clear() << std::flush;
        const std::string rebirths = c.rebirths ? ", the rebirth (level 255 to 0) " + std::to_string(c.rebirths) +
                                                      (c.rebirths == 1 ? " time" : " times") + ", the first in frame " +
                                                      std::to_string(c.first_rebirth)
                                                : "";
        std::printf("AI game %llu (title wait %d%s): %llu frames, %u pieces, %u lines, level %u at the end%s, the RNG's seed $%04X at the start, %u fallback pieces (loop %u; at level 29+: %u of "
                    "%u pieces), %s, idle %u-%u (mean %.0f), %llu lag frames in %llu frames (most %u): %s\n",
                    static_cast<unsigned long long>(i), walk.title_wait, from.c_str(), static_cast<unsigned long long>(c.frames), c.pieces,
                    c.lines, c.level, rebirths.c_str(), static_cast<unsigned>(c.start_rng), c.real_fallbacks, c.loop_fallbacks, c.fallbacks_29, c.pieces_29,
                    (game::describe_end(c) + (c.end == Game::End::Crash ? (c.crash_predicted ? " (forecast: may crash)" : " (NOT forecast)") : "")).c_str(),
                    c.idle_min, c.idle_max, c.idle_mean, static_cast<unsigned long long>(c.lag_frames),
                    static_cast<unsigned long long>(c.lagging_frames), c.max_lag,
                    c.mismatch ? c.mismatch->c_str() : "identical");
        if (hate)
            std::printf("  hate mode: %u previews dealt by the adversary, %u the game's own draw (the choice not ready)\n",
                        c.hate_dealt, c.hate_kept);
        std::fflush(stdout);
    }, progress.options());
    progress.finish();
    const uint64_t pieces = sum_of(games, &Game::pieces), fallbacks = sum_of(games, &Game::real_fallbacks);
    const uint64_t pieces_29 = sum_of(games, &Game::pieces_29), fallbacks_29 = sum_of(games, &Game::fallbacks_29);
    const uint64_t mismatches =
        sum_of(games, [](const Game& c) { return c.mismatch || c.real_fallbacks != c.loop_fallbacks; });
    const uint64_t crashes = sum_of(games, [](const Game& c) { return c.end == Game::End::Crash; });
    const uint64_t unpredicted = sum_of(games, [](const Game& c) { return c.end == Game::End::Crash && !c.crash_predicted; });
    LagForecastTally forecast;
    FrameWorkSeen besides_loop;
    for (const Game& c : games) {
        forecast.merge(c.forecast);
        besides_loop.merge(c.besides_loop);
    }
    const uint64_t unreadable = sum_of(games, [](const Game& c) { return c.end == Game::End::Unreadable; });
    const std::string from = from_level >= 0 ? game::model_start_levels(from_level) : std::to_string(level);
    std::printf("%llu AI games from level %s (%s), %llu frames, %llu pieces, %llu lines, %llu game overs (the curtain), "
                "%llu crashes, %llu states the model could not read, %llu reached 230 lines, "
                "%llu lag frames (every one stepped by the model too)\n"
                "pieces given the best placement of a search not done at their spawn: %llu (%.1f %%); below level 29: "
                "%llu of %llu (%.1f %%), at level 29 and above: %llu of %llu (%.1f %%)\n"
                "mismatches with the cartridge in the loop: %llu\n"
                "crashes the model did not forecast: %llu; %s\n%s\n",
                static_cast<unsigned long long>(count), from.c_str(), b_type ? "B-Type" : "A-Type",
                static_cast<unsigned long long>(sum_of(games, &Game::frames)), static_cast<unsigned long long>(pieces),
                static_cast<unsigned long long>(sum_of(games, &Game::lines)),
                static_cast<unsigned long long>(sum_of(games, &Game::game_over)),
                static_cast<unsigned long long>(crashes), static_cast<unsigned long long>(unreadable),
                static_cast<unsigned long long>(sum_of(games, [](const Game& c) { return c.lines >= 230; })),
                static_cast<unsigned long long>(sum_of(games, &Game::lag_frames)),
                static_cast<unsigned long long>(fallbacks), percent(fallbacks, pieces),
                static_cast<unsigned long long>(fallbacks - fallbacks_29), static_cast<unsigned long long>(pieces - pieces_29),
                percent(fallbacks - fallbacks_29, pieces - pieces_29), static_cast<unsigned long long>(fallbacks_29),
                static_cast<unsigned long long>(pieces_29), percent(fallbacks_29, pieces_29),
                static_cast<unsigned long long>(mismatches), static_cast<unsigned long long>(unpredicted),
                forecast.summary().c_str(), besides_loop.summary().c_str());
    if (pieces_29) {
        std::printf("level 29+ pieces on an unfinished search's best, by the stack they spawn on:");
        for (unsigned band = 0; band < 8; ++band) {
            const uint64_t p = sum_of(games, [band](const Game& c) { return c.pieces_29_by_band[band]; });
            const uint64_t f = sum_of(games, [band](const Game& c) { return c.fallbacks_29_by_band[band]; });
            std::printf("%s %s: %llu of %llu (%.1f %%)", band ? ";" : "", game::fallback_band_name(band).c_str(),
                        static_cast<unsigned long long>(f), static_cast<unsigned long long>(p), percent(f, p));
        }
        std::printf("\n");
    }
    return mismatches || unreadable || unpredicted || forecast.wrong ? 1 : 0;
}

// The movies (the default mode): human play from random input on both games, compared.
int check_movies(const game::GameRoms& roms, uint64_t movies, uint64_t first_seed, bool coach, uint64_t frames,
                 unsigned threads) {
    std::atomic<uint64_t> total_frames{0}, compared{0}, writes{0}, games{0}, mismatches{0}, coach_frames{0}, ghosts{0};
    std::mutex out;
    PoolProgress progress("check-identity", movies, "movies", &out);
    parallel_for(movies, std::max(1u, threads), [&](uint64_t i) {
        game::DriverOptions options;
        options.seed = first_seed + i;
        options.coach_in_level_menu = coach;
        const game::IdentityResult r = game::run_identity(roms, shipped_cart(), options, frames);
        total_frames += r.frames;
        coach_frames += r.coach_frames;
        ghosts += r.ghost_frames;
        compared += r.compared_frames;
        writes += r.ppu_writes;
        games += r.stats.games;
        if (r.mismatch) ++mismatches;
        std::lock_guard<std::mutex> lock(out);
        std::cerr << progress.clear() << std::flush;
        std::printf("movie %llu: %llu frames (%llu compared), %llu games, level up to %llu%s: %s\n",
                    static_cast<unsigned long long>(options.seed), static_cast<unsigned long long>(r.frames),
                    static_cast<unsigned long long>(r.compared_frames),
                    static_cast<unsigned long long>(r.stats.games),
                    static_cast<unsigned long long>(r.stats.max_level),
                    coach ? (", " + std::to_string(r.coach_frames) + " frames in coach games, the ghost in " +
                             std::to_string(r.ghost_frames)).c_str() : "",
                    r.mismatch ? r.mismatch->c_str() : "identical");
        std::fflush(stdout);
    }, progress.options());
    progress.finish();
    if (coach)
        std::printf("coach games: %llu frames, the ghost staged in %llu\n", static_cast<unsigned long long>(coach_frames.load()),
                    static_cast<unsigned long long>(ghosts.load()));
    std::printf("%llu movies, %llu frames (%llu compared after the frame, the rest with the next), %llu PPU writes, "
                "%llu games: %llu mismatches\n",
                static_cast<unsigned long long>(movies), static_cast<unsigned long long>(total_frames.load()),
                static_cast<unsigned long long>(compared.load()), static_cast<unsigned long long>(writes.load()),
                static_cast<unsigned long long>(games.load()), static_cast<unsigned long long>(mismatches.load()));
    return mismatches ? 1 : 0;
}

// --movie-out: the first movie's pads, and with --coach the original's beside them (FILE.original).
int write_movies(const game::GameRoms& roms, uint64_t seed, bool coach, uint64_t frames, const std::string& movie_out,
                 const std::string& original_out) {
    std::vector<uint8_t> pads, original_pads;
    game::DriverOptions options;
    options.seed = seed;
    options.coach_in_level_menu = coach;
    const game::IdentityResult r = game::run_identity(roms, shipped_cart(), options, frames, &pads, &original_pads);
    const auto write_pads = [](OutputFile& out, const std::vector<uint8_t>& p) {
        for (uint8_t b : p) out.write(std::to_string(b) + "\n");
    };
    OutputFile out(movie_out);
    write_pads(out, pads);
    if (original_out.empty()) {
        out.commit();
    } else {
        OutputFile original(original_out);
        write_pads(original, original_pads);
        commit_together({&out, &original});
    }
    std::printf("movie %llu: %zu frames written to %s (%s here)\n", static_cast<unsigned long long>(seed), pads.size(),
                movie_out.c_str(), r.mismatch ? r.mismatch->c_str() : "identical");
    return r.mismatch ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"check-identity: human play on the patched ROM is frame-identical to the original (RAM outside\n"
                 "the AI's bytes, PPU writes), over many random-input movies. Needs your Tetris (USA) ROM.", "check-identity"};
    std::string rom_path;
    uint64_t movies = 100, frames = 20'000, first_seed = 1;
    unsigned threads = worker_threads();
    app.add_option("ROM", rom_path, "Tetris (USA) ROM")->required();
    // Counts past these are usage errors (2^64 - 1 games asked for a vector that size).
    constexpr uint64_t kMaxRuns = 1'000'000, kMaxFrames = 100'000'000;
    app.add_option("--movies", movies, "number of movies (at most 1 000 000)")->check(CLI::Range(uint64_t{0}, kMaxRuns));
    app.add_option("--frames", frames, "frames per movie (per AI game: at most; at most 100 000 000)")
        ->check(CLI::Range(uint64_t{0}, kMaxFrames));
    app.add_option("--first-seed", first_seed, "seed of the first movie (movie i has seed first + i)");
    app.add_option("--threads", threads, "threads");
    std::string movie_out;
    app.add_option("--movie-out", movie_out,
                   "write the first movie's pad bytes, one per line (A=1 ... Right=128), to replay in FCEUX "
                   "(tools/scripts/fceux_check.sh --replay); with --coach the patched game's, and the original's in\n"
                   "FILE.original (they differ at a +10 coach game's Start: fceux_check.sh --replay FILE --coach)");
    uint64_t ai_games = 0;
    int level = 19, first_wait = 0;
    bool b_type = false;
    app.add_option("--ai-games", ai_games,
                   "instead: AI games on the patched ROM, each against the cartridge in the loop given the\n"
                   "real game's idle time and lag frames (game i waits --title-wait + i more frames on the legal\n"
                   "screen: other pieces; at most 1 000 000)")
        ->check(CLI::Range(uint64_t{0}, kMaxRuns));
    app.add_option("--title-wait", first_wait,
                   "with --ai-games: the first game's extra frames on the legal screen (game i waits i more; the\n"
                   "last one's at most 225: a longer wait starts no game)")
        ->check(CLI::Range(0, game::kMaxTitleWait));
    app.add_option("--level", level, "start level of the AI games (0-19)")->check(CLI::Range(0, 19));
    app.add_flag("--b-type", b_type, "B-Type AI games (height 0)");
    bool hate = false;
    app.add_flag("--hate", hate,
                 "with --ai-games: hate-mode AI games (Select, then B, held at Start): the cartridge deals\n"
                 "each preview against the board, and the loop's model deals as its dealer does");
    bool coach = false;
    app.add_flag("--coach", coach,
                 "the movies start coach games (B held at Start in the level menu, pressed with A first; A\n"
                 "held too now and then: +10): the patched game shows the coach's ghost, the original plays\n"
                 "the same games (at +10 without B at Start, where the original takes A+B+Start as no +10);\n"
                 "compared as human play, the ghost's sprites left out where the original has none");
    bool on_original = false, no_crash_rule = false;
    uint64_t high_levels = 0;
    app.add_option("--high-levels", high_levels,
                   "instead: N human games on both games from model-made states at levels 100-255 (score\n"
                   "999 999, random movies from --first-seed), compared every frame, their lag NMIs too; at most\n"
                   "1 000 000)")
        ->check(CLI::Range(uint64_t{0}, kMaxRuns));
    app.add_flag("--against-original", on_original,
                 "with --ai-games: replay each AI game on the original ROM (the AI's buttons as its controller)\n"
                 "and compare the two every frame, their lag NMIs too (a frame lagging only on the patched game\n"
                 "is lag the AI caused); a crash must be alike on both");
    int from_level = -1;
    app.add_option("--from-level", from_level,
                   "with --ai-games: each AI game goes on from a model-made state written at its first frame of\n"
                   "play (score 999 999, a stack 8 rows high from --first-seed + i), game i at level\n"
                   "L + (37 i mod (M + 1 - L)), M = 255 for L up to 255 (lines 0), else 511: past 255, the\n"
                   "level after the rebirth (the count - 256) with the lines a game from level 19 has there\n"
                   "(100-510); against the cartridge in the loop, or with --against-original against the original")
        ->check(CLI::Range(100, game::kLastLevelPastRebirth - 1));
    app.add_flag("--no-crash-rule", no_crash_rule,
                 "with --ai-games: the AI without its crash rule (no lock barred, the preview never hidden),\n"
                 "the AI of before issue 30, whose long games crash the game");
    app.footer("Exit status 0: every run identical; 1: a mismatch, or the ROM is not Tetris (USA) or unreadable; 2: usage.");
    app.set_version_flag("--version", nestris::tools::version_text());
    return nestris::run_program(app, argc, argv, [&]() -> int {
        if ((on_original || no_crash_rule) && !ai_games)
            throw UsageError("--against-original and --no-crash-rule go with --ai-games");
        if (ai_games && (first_wait < 0 || first_wait + static_cast<int64_t>(ai_games) - 1 > game::kMaxTitleWait))
            throw UsageError("--title-wait " + std::to_string(first_wait) + " with " + std::to_string(ai_games) +
                             " games: the waits run to " + std::to_string(first_wait + static_cast<int64_t>(ai_games) - 1) +
                             ", and a walk starts a game after a wait of 0-" + std::to_string(game::kMaxTitleWait) + " frames");
        if (from_level >= 0 && !ai_games) throw UsageError("--from-level goes with --ai-games");
        if (hate && (!ai_games || on_original || from_level >= 0))
            throw UsageError("--hate goes with --ai-games (against the loop, from the menu: not --against-original or --from-level)");
        // The movies and --high-levels walk their own menus: these would go unused.
        if (!ai_games)
            refuse_given(app, {"--title-wait", "--level", "--b-type"},
                         "goes with --ai-games (the movies and --high-levels walk their own menus)");
        if (coach && (ai_games || high_levels)) throw UsageError("--coach goes with the movies (not --ai-games or --high-levels)");
        if (high_levels && (ai_games || !movie_out.empty()))
            throw UsageError("--high-levels goes with neither --ai-games nor --movie-out");
        // Both movies' files checked before the run, and written together or not at all.
        const std::string original_out = coach && !movie_out.empty() ? movie_out + ".original" : "";
        note_input(rom_path);
        check_outputs({movie_out, original_out});
        game::GameRoms roms = game::make_game_roms(read_file(rom_path), shipped_cart());
        if (no_crash_rule) roms.patched = game::without_crash_rule(roms.patched, shipped_cart());
        if (!movie_out.empty()) return write_movies(roms, first_seed, coach, frames, movie_out, original_out);
        if (ai_games && on_original)
            return check_against_original(
                ai_games, threads,
                "AI games from level " + (from_level < 0 ? std::to_string(level) : game::model_start_levels(from_level)) +
                    (b_type ? " (B-Type)" : " (A-Type)") + " replayed on the original",
                [&](uint64_t i, std::string& name) {
                    game::MenuWalk walk;
                    walk.level = level;
                    walk.b_type = b_type;
                    walk.title_wait = first_wait + static_cast<int>(i);
                    name = "AI game " + std::to_string(i) + " (title wait " + std::to_string(walk.title_wait);
                    if (from_level < 0) {
                        name += ")";
                        return game::compare_ai_game_with_original(roms, shipped_cart(), walk, frames);
                    }
                    const game::NamedModelStart start = game::model_start_of_game(from_level, first_seed, i);
                    name += start.name + ")";
                    return game::compare_ai_game_with_original(roms, shipped_cart(), walk, frames, start.start);
                });
        if (high_levels)
            return check_against_original(
                high_levels, threads, "human games from model-made states at levels 100-255 on both games",
                [&](uint64_t i, std::string& name) {
                    const uint8_t at = static_cast<uint8_t>(100 + (i * 37) % 156);
                    name = "game " + std::to_string(i) + " (level " + std::to_string(at) + ", seed " +
                           std::to_string(first_seed + i) + ")";
                    return game::compare_high_level_play_with_original(roms, shipped_cart(), at, first_seed + i, frames);
                });
        if (ai_games) return check_ai_games(roms, ai_games, first_wait, level, b_type, hate, frames, threads, from_level, first_seed);
        return check_movies(roms, movies, first_seed, coach, frames, threads);
    });
}
