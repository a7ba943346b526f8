// The game's time: how many CPU cycles the work of a lock takes, so that the model can tell
// which frames outlast the NMI (the lag, and from level ~150 the crash; see MODEL.md "Time").
//
// Every lock runs the line-clear score loop, clears or not: (level + 1) additions of the
// points of the lines cleared (0 for none), counted in 8 bits, each a binary add with its
// decimal adjust and the 999 999 cap checked after it. Its cycles follow from its instructions
// (all in one page, zero-page operands), so they are computed here exactly, branch by branch,
// from the score before the loop; `measure-lock` traces the same loop on the game.
#pragma once

#include <array>
#include <cstdint>

namespace nestris {

struct ScoreLoopWork {
    uint64_t cycles = 0;                 // from addLineClearPoints' first instruction to the loop's end
    std::array<uint8_t, 3> score{};      // the score after it (BCD, low byte first)
};

// `level` is levelNumber (the loop runs level + 1 times, 256 at level 255), `lines` the lines
// cleared (0-4), `score` the score before the loop.
ScoreLoopWork score_loop_work(uint8_t level, uint8_t lines, std::array<uint8_t, 3> score);

// ---- the crash ------------------------------------------------------------------------------
// A scoring frame whose work outlasts the frame is interrupted by the next NMI; when that NMI
// lands in one of the 8 jump-table dispatches that follow the score loop (between the dispatch's
// stores to tmp1/tmp2 and its jmp (tmp1)), the NMI's own dispatch overwrites them and the game
// jumps astray (MODEL.md "Time"). The figures below were traced with measure-lock on the game.
struct CycleRange {
    uint32_t first = 0, last = 0;
};
// The next NMI's interrupted instruction starts this many cycles after the scoring frame's NMI
// entry (traced 29 778-29 783; 2 more each side).
inline constexpr CycleRange kNextNmiAfterNmi{29776, 29785};
// Landings, in cycles after the loop's end, that interrupt a dispatch in its window: the first
// window's first instruction starts at +1 529, the last's jmp at +2 118 (an NMI raised during the
// instruction before a window's first is taken on it: 3 cycles before).
inline constexpr CycleRange kDispatchWindowsAfterLoop{1526, 2145};
// Cycles from the scoring frame's NMI entry to the loop, by lines cleared (1-4), in the AI's
// games on the patched game (measure-lock --ai-game, 9 games, 6 364 scoring frames with lines),
// and the margin added on each side for states those games did not show.
// A lock without a line: the task thinks in the frame before it, which delays the frame's work
// (7 093-11 837; the original game's: 6 960).
inline constexpr std::array<CycleRange, 5> kAiPreLoop{
    {{7093, 11837}, {6362, 6667}, {6596, 6779}, {6759, 6893}, {6900, 7039}}};
inline constexpr uint32_t kPreLoopMargin = 150;

// May a lock that clears `lines` (0-4) crash the game when the score loop reads `level`, in the
// AI's games? The NMI can land (kNextNmiAfterNmi, less the cycles before the loop, less the
// loop's at 999 999) in kDispatchWindowsAfterLoop.
bool score_frame_may_crash(uint8_t level, uint8_t lines);

// The AI's rule, for locks that clear lines (the AI cannot avoid a lock without one): a piece
// that spawned at `spawn_level` and clears `lines` (1-4) may crash the game when
// the score loop may read a level up to 2 above (its own level-up, and the one of the piece
// before it in a search's second ply). One band of spawn levels a count of lines, all of the
// widest band's width (the cartridge keeps one table, of the bands' first levels).
struct LevelBand {
    uint8_t first = 0, count = 0;  // levels first .. first + count - 1 (count 0: none)
    bool contains(uint8_t level) const { return static_cast<uint8_t>(level - first) < count; }
};
LevelBand crash_band(uint8_t lines);
inline bool lock_may_crash(uint8_t spawn_level, uint8_t lines) { return crash_band(lines).contains(spawn_level); }

}  // namespace nestris
