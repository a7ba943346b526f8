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
#include "ai-reference/ai/ai_crash_rule.hpp"
#include "ai-reference/model/frame_time.hpp"
#include "ai-reference/model/game_model.hpp"
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "base/worker_pool.hpp"
#include "patcher/cart_image.hpp"
#include "tools/cli/command_line.hpp"
#include "tools/harness/game_harness.hpp"
#include "tools/harness/lock_timing.hpp"
#include "tools/harness/model_start.hpp"
#include "tools/harness/version.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

using namespace nestris;

namespace {

// Instruction starts (cycles after the loop's end) as runs: " +a-b +c-d" (a gap over 8 cycles
// starts another run).
std::string spans(const std::vector<uint64_t>& starts) {
    std::string out;
    for (std::size_t i = 0; i < starts.size(); ++i) {
        const uint64_t w = starts[i];
        const bool first = i == 0 || starts[i - 1] + 8 < w;
        const bool last = i + 1 == starts.size() || starts[i + 1] > w + 8;
        if (first) out.append(" +").append(std::to_string(w));
        if (last && !first) out.append("-").append(std::to_string(w));
    }
    return out;
}

std::string end_name(const game::AiGameTimes& g) {
    switch (g.end) {
    case game::AiGameTimes::End::Curtain: return "topped out (the curtain)";
    case game::AiGameTimes::End::Crash:
        return "CRASHED (" + (g.crash_detail.empty() ? std::string("thrown out of play") : g.crash_detail) + ")";
    case game::AiGameTimes::End::FramesRanOut: return "frames ran out";
    }
    return "?";
}

// An AI game's walk and start: from level 19, or from a model-made state (--from-level).
struct AiGameStart {
    game::MenuWalk walk;
    std::optional<game::ModelStart> start;
    std::string name;
};
AiGameStart ai_game_start(int title_wait, int from_level, uint64_t first_seed, uint64_t i) {
    AiGameStart g;
    g.walk.title_wait = title_wait + static_cast<int>(i);
    g.name = "title wait " + std::to_string(g.walk.title_wait);
    if (from_level >= 0) {
        const game::NamedModelStart n = game::model_start_of_game(from_level, first_seed, i);
        g.start = n.start;
        g.name += n.name;
    }
    return g;
}

// A scoring frame of an AI game of a kind (game::ai_kind_of): its kind (frame_time.hpp), whether its cycles before the loop are inside the kind's measured range, and
// where the model says its first lag NMI lands.
struct KindCheck {
    bool applies = false, in_range = false;
    std::optional<CycleRange> range;
    NmiLanding landing;
};
KindCheck check_kind(const game::ScoringFrame& f) {
    KindCheck c;
    const std::optional<AiScoringKind> kind = game::ai_kind_of(f);
    if (!kind) return c;
    c.applies = true;
    c.range = ai_pre_loop(*kind);
    c.in_range = c.range && f.pre >= c.range->first && f.pre <= c.range->last;
    c.landing = ai_scoring_nmi_landing(f.level, *kind, f.preview_shown, 0);
    return c;
}
struct KindTally {
    uint64_t applies = 0, outside = 0, crashes = 0, crashes_not_forecast = 0;
    void add(const game::ScoringFrame& f, const KindCheck& c) {
        if (!c.applies) return;
        ++applies;
        outside += !c.in_range;
        crashes += f.crashed;
        crashes_not_forecast += f.crashed && c.landing.crash != Maybe::May;
    }
    std::string summary() const {
        return "scoring frames of a kind (spawned from level 128, the music unchanged, not after a lag): " + std::to_string(applies) + ", " +
               std::to_string(outside) + " outside their kind's measured cycles, " + std::to_string(crashes) +
               " crashed (" + std::to_string(crashes_not_forecast) + " not forecast by the windows)";
    }
};

int print_ai_game(const game::GameRoms& roms, int title_wait, int from_level, uint64_t first_seed, uint64_t frames) {
    const AiGameStart at = ai_game_start(title_wait, from_level, first_seed, 0);
    const game::AiGameTimes g = game::trace_ai_game_locks(roms.patched, shipped_cart(), at.walk, frames, at.start);
    std::printf("scoring frames of an AI game (%s): level k hold levelup row5 allegro vramRow "
                "score lines pre loop model lag(PC@cycle)\n", at.name.c_str());
    uint64_t loop_equal = 0, unlagged = 0;
    KindTally tally;
    for (const game::ScoringFrame& f : g.frames) {
        const KindCheck kind = check_kind(f);
        tally.add(f, kind);
        const uint64_t model = score_loop_work(f.level, f.lines_cleared, f.score).cycles;
        std::string where;
        for (const game::LandedNmi& l : f.landed) {
            char buf[48];
            std::snprintf(buf, sizeof buf, " $%04X@%llu", l.pc, static_cast<unsigned long long>(l.at));
            where += buf;
        }
        if (f.landed.empty()) {
            ++unlagged;
            loop_equal += model == f.loop;
        }
        std::string windows;
        for (const uint64_t w : f.dispatch_windows) windows += " " + std::to_string(w);
        std::printf("%3u %u %3u %u %2u %3u %3u %02X%02X%02X %02X%02X %5llu %6llu %6llu%s%s  piece %2u at %u,%u next %2u "
                    "preview %s; windows after the loop:%s\n",
                    f.level, f.lines_cleared, f.hold_down_points, f.level_up, f.row5_first_block, f.allegro, f.vram_row,
                    f.score[2], f.score[1], f.score[0], f.lines[1], f.lines[0], static_cast<unsigned long long>(f.pre),
                    static_cast<unsigned long long>(f.loop), static_cast<unsigned long long>(model), where.c_str(),
                    f.crashed ? " CRASH" : "", f.piece, f.piece_x, f.piece_y, f.next_piece,
                    f.preview_shown ? "shown" : "hidden", windows.empty() ? " (lagged)" : windows.c_str());
        if (kind.applies && !kind.in_range)
            std::printf("    ^ outside its kind's cycles before the loop (%s)\n",
                        kind.range ? (std::to_string(kind.range->first) + "-" + std::to_string(kind.range->last)).c_str()
                                   : "a kind not measured");
        if (kind.applies && !f.landed.empty())
            std::printf("    ^ the first lag NMI, as the model has it: +%lld..+%lld after the loop, %s\n",
                        static_cast<long long>(kind.landing.earliest), static_cast<long long>(kind.landing.latest),
                        kind.landing.crash == Maybe::May ? "may land in a dispatch window" : "outside the windows");
    }
    std::printf("%s\n", tally.summary().c_str());
    std::printf("%zu scoring frames in %llu frames, the game at level %u, %u lines, %s; the model's loop equals the "
                "game's in %llu of the %llu frames the NMI did not interrupt\n",
                g.frames.size(), static_cast<unsigned long long>(g.frames_run), g.level, g.lines, end_name(g).c_str(),
                static_cast<unsigned long long>(loop_equal), static_cast<unsigned long long>(unlagged));
    return 0;
}

// The levels (as the score loop reads them, 128-255) where an AI scoring frame of each kind may
// crash, the preview shown and hidden, the model's landings widened by `margin` (no ROM needed).
int print_ai_rule(uint32_t margin) {
    std::printf("levels 128-255 where an AI game's scoring frame may crash (the first lag NMI in a dispatch\n"
                "window: frame_time.hpp, kind ranges widened by %u cycles each side)\n", margin);
    const auto levels_of = [](const ai::LevelRange& r) {
        std::vector<int> levels;
        for (int i = 0; i < r.count; ++i) levels.push_back(r.first + i);
        return levels;
    };
    const auto ranges = [](const std::vector<int>& levels) {
        std::string out;
        for (std::size_t i = 0; i < levels.size(); ++i) {
            const bool first = i == 0 || levels[i - 1] + 1 != levels[i];
            const bool last = i + 1 == levels.size() || levels[i + 1] != levels[i] + 1;
            if (first) out += " " + std::to_string(levels[i]);
            if (last && !first) out += "-" + std::to_string(levels[i]);
        }
        return out.empty() ? std::string(" none") : out;
    };
    for (uint8_t k = 0; k <= 4; ++k)
        for (int tens = 0; tens <= (k ? 1 : 0); ++tens)
            for (int up = 0; up <= tens; ++up)
            for (int hundreds = 0; hundreds <= tens; ++hundreds) {
                const AiScoringKind kind{k, tens != 0, up != 0, hundreds != 0};
                std::vector<int> shown, hidden, both;
                for (int level = hooks::AI_POLL_PAUSE_LEVEL; level <= 255; ++level) {
                    const bool s = ai_scoring_nmi_landing(static_cast<uint8_t>(level), kind, true, margin).crash == Maybe::May;
                    const bool h = ai_scoring_nmi_landing(static_cast<uint8_t>(level), kind, false, margin).crash == Maybe::May;
                    if (s) shown.push_back(level);
                    if (h) hidden.push_back(level);
                    if (s && h) both.push_back(level);
                }
                std::printf("%u lines%s%s%s: shown%s; hidden%s; both%s\n", k, tens ? ", tens digit changes" : "",
                            hundreds ? ", hundreds too" : "", up ? ", level-up" : "", ranges(shown).c_str(),
                            ranges(hidden).c_str(), ranges(both).c_str());
            }
    // The AI's rule from those figures (with its own margin, ai_crash_rule.hpp): by spawn level.
    const ai::CrashRule& rule = ai::crash_rule();
    std::vector<int> hidden, soft_levels;
    for (const uint8_t level : ai::soft_drop_levels(rule)) soft_levels.push_back(level);
    for (int level = 0; level <= 255; ++level)
        if (level != rule.preview_by_piece && ai::preview_hidden_at(rule, static_cast<uint8_t>(level), 0))
            hidden.push_back(level);
    std::printf("the AI's rule (margin %u, spawn levels): preview hidden at%s, and at %u for the orientations below %u; "
                "soft drop from level %u at%s (a clear there whose origin lands above row 2 max(|x - 5|, 2) + %d "
                "may make no points: barred short where its class needs them)\n",
                kAiRuleMargin, ranges(hidden).c_str(), rule.preview_by_piece, ai::kHiddenOrientations,
                hooks::AI_POLL_PAUSE_LEVEL, ranges(soft_levels).c_str(), ai::kSoftDropFrames - 1);
    for (uint8_t k = 1; k <= 4; ++k)
        for (const bool tens : {false, true}) {
            const uint8_t c = ai::crash_class(k, tens);
            std::printf("  %u lines%s barred at%s, made with the other preview at%s, barred short at%s\n", k,
                        tens ? " changing the tens" : "", ranges(levels_of(rule.barred[c])).c_str(),
                        ranges(levels_of(rule.flipped[c])).c_str(), ranges(levels_of(rule.barred_short[c])).c_str());
        }
    if (rule.row5_level == 0) {
        std::printf("  after a lock with a block in row 5: the preview as it is\n");
        return 0;
    }
    std::printf("  after a lock with a block in row 5, from level %u: the preview hidden for its first block in columns\n",
                rule.row5_level);
    for (int level = rule.row5_level; level <= 255; ++level) {
        const ai::LevelRange r = rule.row5_hidden[static_cast<std::size_t>(level - rule.row5_level)];
        std::printf("    %d: %s", level, r.count ? (std::to_string(r.first) + "-" + std::to_string(r.first + r.count - 1)).c_str() : "none");
        int may = 0;  // (column, orientation) pairs that may crash with it
        for (uint8_t c = 0; c < kRow5Empty; ++c)
            for (uint8_t o = 0; o < kOrientationHidden; ++o) {
                const LockSafety safe = ai_lock_safety(static_cast<uint8_t>(level), 0, false, false, locked_piece_sooner(o), c);
                may += (r.contains(c) ? safe.hidden : safe.shown) ? 0 : 1;
            }
        std::printf(" (%d of the 190 columns and orientations may crash)\n", may);
    }
    return 0;
}

// A run of lag NMIs this long is counted as a stall a viewer sees (two in a row come without one:
// a scoring frame whose work outlasts two NMIs, check-identity's "most 2"); issue 50's bar is
// none over kLongStallFrames.
constexpr uint32_t kStallFrames = 3;
constexpr uint32_t kLongStallFrames = 60;

// Many AI games to their end (title waits first .. first + count - 1), a line each and the totals.
int print_ai_games(const game::GameRoms& roms, int first, int from_level, uint64_t first_seed, int count, uint64_t frames,
                   unsigned threads) {
    std::vector<game::AiGameTimes> games(static_cast<std::size_t>(count));
    std::mutex out;
    PoolProgress progress("measure-lock", static_cast<std::size_t>(count), "games", &out);
    parallel_for(static_cast<uint64_t>(count), std::max(1u, threads), [&](uint64_t i) {
        const AiGameStart at = ai_game_start(first, from_level, first_seed, i);
        game::AiGameTimes g = game::trace_ai_game_locks(roms.patched, shipped_cart(), at.walk, frames, at.start);
        uint64_t lagged = 0;
        KindTally tally;
        std::string outside;  // each frame outside its kind's range, for people to widen the ranges
        for (const game::ScoringFrame& f : g.frames) {
            lagged += !f.landed.empty();
            const KindCheck c = check_kind(f);
            tally.add(f, c);
            if (c.applies && !c.in_range) {
                char line[200];
                std::snprintf(line, sizeof line,
                              "  outside its kind: level %u, %u lines%s%s, row 5 from column %u, piece %u, pre %llu (the kind's %s)\n",
                              f.level, f.lines_cleared, tens_digit_changes(f.lines[0], f.lines_cleared) ? ", tens" : "",
                              f.level_up ? ", level-up" : "", f.row5_first_block, f.piece, static_cast<unsigned long long>(f.pre),
                              c.range ? (std::to_string(c.range->first) + "-" + std::to_string(c.range->last)).c_str() : "none");
                outside += line;
            }
        }
        std::lock_guard<std::mutex> lock(out);
        std::cerr << progress.clear() << std::flush;
        std::printf("AI game (%s): %llu frames, level %u, %u lines, %llu lagging scoring frames, %zu NMIs "
                    "in the game's work: %s\n",
                    at.name.c_str(), static_cast<unsigned long long>(g.frames_run), g.level, g.lines,
                    static_cast<unsigned long long>(lagged), g.lags.size(), end_name(g).c_str());
        std::printf("  %s\n%s", tally.summary().c_str(), outside.c_str());
        const std::vector<game::Stall> stalls = game::stalls_of(g.lags, kStallFrames);
        std::printf("  stalls (%u or more frames in a row, each with a lag NMI): %zu\n", kStallFrames, stalls.size());
        for (const game::Stall& st : stalls)
            std::printf("  stall: frame %llu, %u frames, level %u, the first NMI at $%04X\n",
                        static_cast<unsigned long long>(st.first_frame), st.frames, st.level, st.pc);
        for (const auto& l : g.lags)
            std::printf("  lag: frame %llu, level %u, play state %u, the NMI at $%04X\n",
                        static_cast<unsigned long long>(l.frame), l.level, l.play_state, l.pc);
        std::fflush(stdout);
        g.frames.clear();
        games[i] = std::move(g);
    }, progress.options());
    progress.finish();
    // From level 19 the rebirth (level 255 -> 0) comes with the line that makes the 237th level-up.
    const uint32_t rebirth = first_reaching(19, 256 - 19).count;
    uint64_t curtains = 0, crashes = 0, ran_out = 0, lines = 0, past_1500 = 0, reborn = 0, stalls = 0, long_stalls = 0;
    uint32_t longest = 0;
    for (const game::AiGameTimes& g : games) {
        for (const game::Stall& st : game::stalls_of(g.lags, kStallFrames)) {
            ++stalls;
            long_stalls += st.frames > kLongStallFrames;
            longest = std::max(longest, st.frames);
        }
        curtains += g.end == game::AiGameTimes::End::Curtain;
        crashes += g.end == game::AiGameTimes::End::Crash;
        ran_out += g.end == game::AiGameTimes::End::FramesRanOut;
        lines += g.lines;
        past_1500 += g.lines > 1500;
        reborn += g.lines >= rebirth;
    }
    std::printf("%d AI games from level %s on the patched game: %llu top-outs (the curtain), %llu crashes, %llu ran "
                "out of frames; mean %.1f lines, %llu past 1 500 lines",
                count, from_level >= 0 ? game::model_start_levels(from_level).c_str() : "19", static_cast<unsigned long long>(curtains), static_cast<unsigned long long>(crashes),
                static_cast<unsigned long long>(ran_out), count ? static_cast<double>(lines) / count : 0.0,
                static_cast<unsigned long long>(past_1500));
    if (from_level < 0)
        std::printf(", %llu past the rebirth (level 255 -> 0, at %u lines)", static_cast<unsigned long long>(reborn), rebirth);
    std::printf("; %llu stalls of %u or more frames, %llu over %u, the longest %u frames\n",
                static_cast<unsigned long long>(stalls), kStallFrames, static_cast<unsigned long long>(long_stalls),
                kLongStallFrames, longest);
    return crashes ? 1 : 0;
}

// The lock table's cases: every level, count of cleared lines, resting row and frame phase.
struct LockTable {
    std::vector<uint32_t> levels, clears, rests;
    int phases = 1;
    bool no_preview = false, windows = false;
    unsigned hold_down = 0, lines = 2101;
    int margins_from = -1;
};

// Where an NMI that lagged a lock's frame landed, against the dispatch instructions of the same
// case traced at a level whose frame does not lag (--margins).
void print_margins(const game::GameRoms& roms, const game::LockSetup& setup, const game::LockTiming& o, int at_level) {
    game::LockSetup calm = setup;
    calm.level = static_cast<uint8_t>(at_level);
    const game::LockTiming r = game::trace_lock(roms.original, calm);
    if (!r.landed.empty() || r.crash_window_starts.empty())
        throw std::runtime_error("--margins: the frame at level " + std::to_string(at_level) + " lags or runs no dispatch");
    const auto at = static_cast<int64_t>(o.landed.front().at - o.pre - o.loop);
    int64_t before = -100000, after = 100000;
    for (const uint64_t w : r.crash_window_starts) {
        const auto s = static_cast<int64_t>(w);
        if (s < at) before = std::max(before, s);
        else after = std::min(after, s);
    }
    std::printf("%33s margins: NMI at +%lld, dispatch instruction before +%lld (%lld), after +%lld (%lld)\n", "",
                static_cast<long long>(at), static_cast<long long>(before), static_cast<long long>(at - before),
                static_cast<long long>(after), static_cast<long long>(after - at));
}

int print_lock_table(const game::GameRoms& roms, const LockTable& t) {
    std::printf("cycles from the scoring frame's NMI entry: pre (to the score loop), loop, post (to the wait);\n"
                "model = the loop's cycles as the model computes them (frame_time.hpp); an NMI frame is 29 780.5\n"
                "cycles; lag = NMIs that landed in the work, each with the instruction it interrupted and when.\n");
    std::printf("%5s %2s %4s %6s %6s %6s %6s %6s %4s  %s\n", "level", "k", "rest", "pre", "loop", "model", "post", "total", "lag",
                "outcome");
    const auto start = std::chrono::steady_clock::now();
    const auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    ProgressReport progress("measure-lock", t.levels.size() * t.clears.size() * t.rests.size() * static_cast<std::size_t>(t.phases),
                            "cases", stderr_is_terminal(), false);
    std::size_t cases = 0;
    for (uint32_t level : t.levels)
        for (uint32_t k : t.clears)
            for (uint32_t rest : t.rests)
            for (int p = 0; p < t.phases; ++p) {
                game::LockSetup setup;
                setup.rest_row = static_cast<uint8_t>(rest);
                setup.preview = !t.no_preview;
                setup.hold_down_points = static_cast<uint8_t>(t.hold_down);
                setup.level = static_cast<uint8_t>(level);
                setup.lines_cleared = static_cast<uint8_t>(k);
                setup.title_wait = p;
                setup.lines = {static_cast<uint8_t>((t.lines / 10 % 10) << 4 | t.lines % 10),
                               static_cast<uint8_t>(t.lines / 100)};  // the hundreds byte counts on past 9
                const game::LockTiming o = game::trace_lock(roms.original, setup);
                const uint64_t model = score_loop_work(setup.level, setup.lines_cleared, setup.score).cycles;
                std::string where;
                const std::string windows = spans(o.crash_window_starts), loader = spans(o.loader_window_starts),
                                  minos = spans(o.mino_window_starts);
                for (const game::LandedNmi& l : o.landed) {
                    char buf[48];
                    std::snprintf(buf, sizeof buf, " $%04X@%llu", l.pc, static_cast<unsigned long long>(l.at));
                    where += buf;
                }
                char outcome[40] = "ok";
                if (!o.scored) std::snprintf(outcome, sizeof outcome, "the score loop never ran");
                if (o.crashed) std::snprintf(outcome, sizeof outcome, "CRASH (PC $%04X)", o.crash_pc);
                std::cerr << progress.clear() << std::flush;
                std::printf("%5u %2u %4u %6llu %6llu %6llu %6llu %6llu %4zu  %s%s\n", level, k, rest,
                            static_cast<unsigned long long>(o.pre), static_cast<unsigned long long>(o.loop),
                            static_cast<unsigned long long>(model), static_cast<unsigned long long>(o.post),
                            static_cast<unsigned long long>(o.pre + o.loop + o.post), o.landed.size(), outcome,
                            where.c_str());
                if (t.margins_from >= 0 && o.scored && !o.landed.empty() && o.loop)
                    print_margins(roms, setup, o, t.margins_from);
                if (t.windows && !windows.empty())
                    std::printf("%33s dispatch windows after the loop (cycles):%s\n", "", windows.c_str());
                if (t.windows && !minos.empty())
                    std::printf("%33s current piece's minos after the loop (cycles):%s\n", "", minos.c_str());
                if (t.windows && !loader.empty())
                    std::printf("%33s sprite loader after the loop (cycles):%s\n", "", loader.c_str());
                std::fflush(stdout);  // (the case's lines before the progress after them, where both go to one file)
                std::cerr << progress.update(++cases, seconds()) << std::flush;
            }
    std::cerr << progress.finish(seconds()) << std::flush;
    return 0;
}

// Three modes: the lock table (the default), AI games (--ai-game, --ai-games) and the rule
// (--ai-rule). An option of another mode would go unused: refused (exit 2), never ignored.
void check_mode(const CLI::App& app, int title_wait, int ai_games) {
    const auto table_options = {"--levels", "--clears", "--rest-rows", "--hold-down", "--lines", "--margins",
                                "--windows", "--no-preview", "--phases"};
    if (app.count("--ai-rule")) {
        refuse_given(app, table_options, "is not for --ai-rule (it prints the rule alone)");
        refuse_given(app, {"--ai-game", "--ai-games", "--title-wait", "--from-level", "--first-seed", "--threads"},
                     "is not for --ai-rule (it prints the rule alone)");
        refuse_given(app, {"rom"}, "is not for --ai-rule: it reads no ROM");
        return;
    }
    if (!app.count("rom")) throw UsageError("the ROM is needed (Tetris (USA)): measure-lock ROM [options]");
    if (app.count("--ai-game")) {
        refuse_given(app, table_options, "is for the lock table (not with --ai-game)");
        const int last_wait = title_wait + std::max(ai_games, 1) - 1;
        if (last_wait > game::kMaxTitleWait)
            throw UsageError("--title-wait " + std::to_string(title_wait) + ": the waits run to " + std::to_string(last_wait) +
                             ", and a walk starts a game after a wait of 0-" + std::to_string(game::kMaxTitleWait) + " frames");
    } else {
        refuse_given(app, {"--ai-games"}, "needs --ai-game FRAMES (the frames each game may run)");
        refuse_given(app, {"--from-level", "--title-wait"},
                     "goes with --ai-game (the lock table's cases set their own state; --phases their title waits)");
    }
    if (!app.count("--ai-games"))
        refuse_given(app, {"--threads"}, "goes with --ai-games (the other modes run one game or case at a time)");
    if (app.count("--first-seed") && !app.count("--from-level")) throw UsageError("--first-seed goes with --from-level");
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"measure-lock: on the ORIGINAL Tetris (USA), the cycles of a lock's score work by level and lines\n"
                 "cleared (score 999 999), whether the frame lags, where the NMI lands and whether the game crashes.",
                 "measure-lock"};
    std::string rom_path, levels_text = "29,100,130,140,150,155,160,200,255";
    std::string clears_text = "0-4";
    LockTable table;
    app.add_option("--lines", table.lines, "the lines before the lock (0-9999; default 2101: no tenth line is reached)")
        ->check(CLI::Range(0, 9999));
    app.add_flag("--windows", table.windows,
                 "print where, after the loop, an NMI would land in a jump-table dispatch (the crash windows)");
    uint64_t ai_frames = 0;
    int title_wait = 0;
    app.add_option("--ai-game", ai_frames,
                   "instead: trace every scoring frame of an AI game on the patched game (from level 19, or\n"
                   "--from-level), for at most this many frames (1-2000000), and print them one a line, each checked\n"
                   "against the model's cycles for its kind")
        ->check(CLI::Range(uint64_t{1}, uint64_t{2'000'000}));
    app.add_option("--title-wait", title_wait,
                   "with --ai-game(s): extra frames on the legal screen (another game; the first of them; the\n"
                   "last one's at most 225: a longer wait starts no game)")
        ->check(CLI::Range(0, game::kMaxTitleWait));
    int ai_games = 0;
    unsigned threads = worker_threads();
    app.add_option("--ai-games", ai_games,
                   "with --ai-game: this many games (title waits from --title-wait on), a line each with its "
                   "stalls (3 or more frames in a row, each with a lag NMI) and lag NMIs, and the totals; exit "
                   "status 1 when one crashed (1-1000)")
        ->check(CLI::Range(1, 1000));
    int rule_margin = -1;
    app.add_option("--ai-rule", rule_margin,
                   "instead: print, by kind of scoring frame, the levels where an AI game's scoring frame may crash,\n"
                   "the preview shown and hidden, the model's landings widened by this many cycles (0-200; the ROM\n"
                   "is not read)")
        ->check(CLI::Range(0, 200));
    int from_level = -1;
    app.add_option("--from-level", from_level,
                   "with --ai-game(s): game i goes on from a model-made state as check-identity's --from-level\n"
                   "makes it (seed --first-seed + i; 100-510, past 255 after the rebirth)")
        ->check(CLI::Range(100, game::kLastLevelPastRebirth - 1));
    uint64_t first_seed = 1;
    app.add_option("--first-seed", first_seed, "with --from-level: the first game's stack seed (game i: this + i; default 1)")
        ->check(CLI::Range(uint64_t{0}, uint64_t{1} << 40));
    app.add_option("--threads", threads, "with --ai-games: threads")->check(CLI::Range(1u, 256u));
    app.add_option("rom", rom_path, "Tetris (USA) ROM (every mode but --ai-rule, which takes none)");
    app.add_option("--levels", levels_text, "levels, comma separated, ranges with '-' (0-255)");
    app.add_option("--clears", clears_text, "lines cleared by the lock, comma separated, ranges with '-' (0-4)");
    std::string rest_text = "19";
    app.add_option("--rest-rows", rest_text,
                   "rows the I's lowest cell locks in, comma separated, ranges with '-' (4-19; default 19, the floor):\n"
                   "below it, rows held up by column 9 with a gap at column 0");
    app.add_option("--hold-down", table.hold_down, "the soft drop's points at the lock (rows dropped with Down; 0-30)")
        ->check(CLI::Range(0u, 30u));
    app.add_option("--margins", table.margins_from,
                   "also trace each case at this level (one whose frame does not lag: 0-140) and print where the\n"
                   "first lag NMI landed, in cycles after the loop's end, against that trace's dispatch\n"
                   "instructions: the nearest before and after it, and how far (the margins)")
        ->check(CLI::Range(0, 140));
    app.add_flag("--no-preview", table.no_preview, "the next piece hidden (as after Select in a game)");
    app.add_option("--phases", table.phases, "runs per case, each with one more frame on the legal screen (another frame phase; 1-64)")
        ->check(CLI::Range(1, 64));
    app.set_version_flag("--version", nestris::tools::version_text());
    return nestris::run_program(app, argc, argv, [&]() -> int {
        check_mode(app, title_wait, ai_games);
        if (rule_margin >= 0) return print_ai_rule(static_cast<uint32_t>(rule_margin));
        table.levels = parse_number_list(levels_text);
        table.clears = parse_number_list(clears_text);
        table.rests = parse_number_list(rest_text);
        for (uint32_t v : table.levels)
            if (v > 255) throw UsageError("--levels are 0-255");
        for (uint32_t k : table.clears)
            if (k > 4) throw UsageError("--clears are 0-4");
        for (uint32_t r : table.rests)
            if (r < 4 || r > 19) throw UsageError("--rest-rows are 4-19");
        const game::GameRoms roms = game::make_game_roms(read_file(rom_path), shipped_cart());
        if (ai_games) return print_ai_games(roms, title_wait, from_level, first_seed, ai_games, ai_frames, threads);
        if (ai_frames) return print_ai_game(roms, title_wait, from_level, first_seed, ai_frames);
        return print_lock_table(roms, table);
    });
}
