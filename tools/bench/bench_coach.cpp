// bench-coach: the coach's ghost latency on the real game (the user's ROM, patched in memory).
// Coach games from the level menu at each start level, played by a player who plays well but not
// as the search does (the reference AI deciding without the preview), or by the reference AI
// itself; per piece, the frames from its spawn to the first frame whose sprites hold the ghost,
// and to the first that holds the full search's ghost (coach_run.hpp). Figures by the level at
// the spawn: median and p99 (the sample at that rank), the share of pieces with the first ghost
// by frame 4 and the full one by frame 20, and whether each full search's ghost was the reference
// AI's decision; and each game's grade (the locks graded, those where the ghost was), which the
// harness checks against the cartridge's every frame. Prints figures; exit status 1 only when a
// ghost was not the reference's or a game's grade not the harness's.
#include "ai-reference/ai/ai_coach.hpp"
#include "ai-reference/ai/ai_player.hpp"
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "base/tally.hpp"
#include "base/worker_pool.hpp"
#include "patcher/cart_image.hpp"
#include "tools/harness/coach_run.hpp"
#include "tools/harness/version.hpp"

#include <CLI/CLI.hpp>

#include <array>
#include <cstdio>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

using namespace nestris;

namespace {

struct Bucket {
    Tally<int> first{true}, full{true};
    uint64_t pieces = 0, never_first = 0, never_full = 0, first_by_4 = 0, full_by_20 = 0;
    uint64_t searched = 0, equal = 0, followed = 0;
};

// The level buckets: each start level, and 29 for every piece from level 29 on.
int bucket_of(int level, const std::vector<int>& levels) {
    if (level >= 29) return 29;
    int best = -1;
    for (int l : levels)
        if (l <= level) best = std::max(best, l);
    return best;
}

// The pieces of the games by their level at the spawn (bucket_of).
std::map<int, Bucket> buckets_by_level(const std::vector<game::CoachGame>& results, const std::vector<int>& levels) {
    std::map<int, Bucket> by_level;
    for (const game::CoachGame& g : results)
        for (const game::CoachPiece& p : g.pieces) {
            Bucket& b = by_level[bucket_of(p.level, levels)];
            ++b.pieces;
            if (p.first_ghost < 0) ++b.never_first;
            else {
                b.first.add(p.first_ghost);
                b.first_by_4 += p.first_ghost <= 4;
            }
            if (p.full_ghost < 0) ++b.never_full;
            else {
                b.full.add(p.full_ghost);
                b.full_by_20 += p.full_ghost <= 20;
            }
            b.searched += p.searched;
            b.equal += p.searched && p.equals_reference;
            b.followed += p.followed;
        }
    return by_level;
}

double percent(uint64_t a, uint64_t n) { return n ? 100.0 * static_cast<double>(a) / static_cast<double>(n) : 0.0; }

void print_classes(const std::vector<game::CoachGame>& results) {
    // The classes (AI_DESIGN.md "The coach's grade"): the cartridge's, equal to the reference's
    // on every lock the harness compared; and the misses of the locks that left the ghost.
    std::array<uint64_t, ai::kLockClasses> classes{};
    Tally<int> missed{true};
    uint64_t classed = 0, missed_zero = 0;
    for (const game::CoachGame& g : results) {
        for (uint8_t c = 0; c < ai::kLockClasses; ++c) classes[c] += g.classes[c];
        classed += g.classed;
    }
    for (const game::CoachGame& g : results)
        for (uint16_t m : g.misses) {
            if (m == 0) ++missed_zero;
            else missed.add(m);
        }
    std::printf("\nclasses of %llu locks (the full search had decided them):", static_cast<unsigned long long>(classed));
    for (uint8_t c = 0; c < ai::kLockClasses; ++c)
        std::printf(" %s %llu (%.1f%%)%s", std::string(ai::class_name(static_cast<ai::LockClass>(c))).c_str(),
                    static_cast<unsigned long long>(classes[c]), percent(classes[c], classed),
                    c + 1 < ai::kLockClasses ? "," : "\n");
    std::printf("misses above 0 (%llu locks; %llu more at 0): p25 %d, median %.1f, p75 %d, p90 %d, p99 %d, most %d; "
                "the classes' most misses:",
                static_cast<unsigned long long>(missed.count()), static_cast<unsigned long long>(missed_zero),
                missed.rank_percentile(0.25), missed.median(), missed.rank_percentile(0.75),
                missed.rank_percentile(0.90), missed.rank_percentile(0.99), missed.max());
    for (uint16_t m : ai::kClassMissMax) std::printf(" %u", m);
    std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"bench-coach: the coach's ghost, frames from a piece's spawn to the first ghost and to the full\n"
                 "search's, and each game's grade, on the real game (coach games from the level menu). Needs your\n"
                 "Tetris (USA) ROM. Exit status 1 when a ghost is not the reference's or a grade not the harness's.",
                 "bench-coach"};
    std::string rom_path, player_name = "blind";
    uint64_t games = 4, frames = 20'000;
    std::vector<int> levels{0, 9, 15, 18, 19};
    unsigned threads = worker_threads();
    app.add_option("ROM", rom_path, "Tetris (USA) ROM")->required();
    app.add_option("--games", games, "coach games per start level (game i waits i frames more on the legal screen: "
                                     "other pieces)")->check(CLI::Range(1, 200));
    app.add_option("--frames", frames, "frames per game at most (a game ends sooner at its curtain)");
    app.add_option("--levels", levels, "start levels (0-19); pieces count by their level at the spawn, from 29 on as 29")
        ->check(CLI::Range(0, 19));
    app.add_option("--player", player_name,
                   "who plays: blind (the reference AI deciding without the preview: it leaves the ghost often) or\n"
                   "ai (the reference AI: it follows the ghost)")
        ->check(CLI::IsMember({"blind", "ai"}));
    app.add_option("--threads", threads, "threads");
    app.footer("Exit status 0: figures printed; 1: a full search's ghost was not the reference's decision, or the ROM\n"
               "is not Tetris (USA) or unreadable; 2: usage.");
    app.set_version_flag("--version", nestris::tools::version_text());
    return run_program(app, argc, argv, [&]() -> int {
        const game::GameRoms roms = game::make_game_roms(read_file(rom_path), shipped_cart());
        struct Job {
            int level;
            int wait;
        };
        std::vector<Job> jobs;
        for (int level : levels)
            for (uint64_t i = 0; i < games; ++i) jobs.push_back({level, static_cast<int>(i)});
        std::vector<game::CoachGame> results(jobs.size());
        std::mutex out;
        parallel_for(jobs.size(), std::max(1u, threads), [&](uint64_t j) {
            game::MenuWalk walk;
            walk.ai = false;
            walk.coach = true;
            walk.level = jobs[j].level;
            walk.title_wait = jobs[j].wait;
            ai::AiPlayer player(ai::default_tables(), false, player_name == "blind");
            results[j] = game::run_coach_game(roms, shipped_cart(), walk, player, frames);
            const game::CoachGame& g = results[j];
            std::lock_guard<std::mutex> lock(out);
            std::printf("level %d, title wait %d: %zu pieces, %u lines, %llu frames%s, %llu lag frames; the grade %u of %u, "
                        "%u classed, accuracy %s%s%s%s%s\n",
                        jobs[j].level, jobs[j].wait, g.pieces.size(), g.lines, static_cast<unsigned long long>(g.frames),
                        g.topped_out ? " (topped out)" : "", static_cast<unsigned long long>(g.lag_frames), g.matched,
                        g.graded, g.classed,
                        g.classed ? (std::to_string(ai::coach_accuracy(g.points, g.classed)) + " %").c_str() : "none",
                        g.first_difference.empty() ? "" : "; FIRST DIFFERENCE: ", g.first_difference.c_str(),
                        g.grade_difference.empty() ? "" : "; GRADE DIFFERS: ", g.grade_difference.c_str());
            std::fflush(stdout);
        });
        const std::map<int, Bucket> by_level = buckets_by_level(results, levels);
        std::printf("\nplayer: %s; frames from the spawn (frame 0) to the end of the first frame whose sprites hold the "
                    "ghost\n", player_name.c_str());
        std::printf("level  pieces  first: median  p99  by 4   none | full: median  p99  by 20  none | searched  = reference  followed\n");
        uint64_t differ = 0;
        for (const game::CoachGame& g : results) differ += !g.grade_difference.empty();
        for (const auto& [level, b] : by_level) {
            differ += b.searched - b.equal;
            const std::string name = level == 29 ? "29+" : std::to_string(level);
            std::printf("%-5s %6llu  %13.1f %4d %5.1f%% %5.1f%% | %12.1f %4d %5.1f%% %5.1f%% | %8llu  %10llu  %7.1f%%\n",
                        name.c_str(), static_cast<unsigned long long>(b.pieces),
                        b.first.median(), b.first.rank_percentile(0.99), percent(b.first_by_4, b.pieces),
                        percent(b.never_first, b.pieces), b.full.median(), b.full.rank_percentile(0.99),
                        percent(b.full_by_20, b.pieces), percent(b.never_full, b.pieces),
                        static_cast<unsigned long long>(b.searched), static_cast<unsigned long long>(b.equal),
                        percent(b.followed, b.pieces));
        }
        std::printf("(by 4 / by 20: of all the level's pieces; none: pieces that locked before it showed; = reference: "
                    "full searches whose ghost was the reference AI's decision)\n");
        print_classes(results);
        return differ ? 1 : 0;
    });
}
