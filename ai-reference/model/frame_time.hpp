// The game's time: how many CPU cycles the work of a lock takes, so that the model can tell
// which frames outlast the NMI (the lag, and from level ~150 the crash; see MODEL.md "Time").
// The lock's score loop, whose cycles are exact, is score_loop.hpp's; the rest of a frame's work
// is measured ranges, here. The model's step takes its score from the loop and knows nothing of
// time: this file uses game_model.hpp, never the other way round.
#pragma once

#include "ai-reference/model/game_model.hpp"
#include "ai-reference/model/score_loop.hpp"
#include "game/hooks_map.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace nestris {

// ---- the crash ------------------------------------------------------------------------------
// A scoring frame whose work outlasts the frame is interrupted by the next NMI; when that NMI
// lands in one of the 8 jump-table dispatches that follow the score loop (between the dispatch's
// stores to tmp1/tmp2 and its jmp (tmp1)), the NMI's own dispatch overwrites them and the game
// jumps astray (MODEL.md "Time"). The figures below were traced with measure-lock on the game.
struct CycleRange {
    uint32_t first = 0, last = 0;
};
enum class Maybe : uint8_t { No, May, Yes };
const char* to_string(Maybe m);
// The next NMI's interrupted instruction starts this many cycles after the scoring frame's NMI
// entry (traced 29 778-29 783; 2 more each side).
inline constexpr CycleRange kNextNmiAfterNmi{29776, 29785};
// Landings, in cycles after the loop's end, that interrupt a dispatch in its window: the first
// window's first instruction starts at +1 529, the last's jmp at +2 118 (an NMI raised during the
// instruction before a window's first is taken on it: 3 cycles before; 12 more before for a lock
// without a line whose piece's orientation is 0-7: kLockedPieceStagingSpread below).
inline constexpr CycleRange kDispatchWindowsAfterLoop{1514, 2145};
// Cycles from the scoring frame's NMI entry to the loop, by lines cleared (1-4), in the AI's
// games on the patched game (measure-lock --ai-game, 9 games, 6 364 scoring frames with lines),
// and the margin added on each side for states those games did not show.
// A lock without a line: below level 128 the task thinks in the frame before it, which delays the
// frame's work (7 093-11 837; the original game's: 6 960). From level 128: ai_game_work.
inline constexpr std::array<CycleRange, 5> kAiPreLoop{
    {{7093, 11837}, {6362, 6667}, {6596, 6779}, {6759, 6893}, {6900, 7039}}};
inline constexpr uint32_t kPreLoopMargin = 150;

// May a lock that clears `lines` (0-4) crash the game when the score loop reads `level`, in the
// AI's games (ai_game_work(level): a level-up from 127 reads 128 after a frame with the AI's
// polls, 13 levels below where any lock may crash)? The NMI can land (kNextNmiAfterNmi, less the cycles before the loop, less the
// loop's at 999 999) in kDispatchWindowsAfterLoop.
bool score_frame_may_crash(uint8_t level, uint8_t lines);


// ---- the crash, window by window (session 29; for the AI's rule of issue 31) ----------------
// The 8 dispatch windows after the loop's end with the next piece shown: the cycles of each
// one's first and last instruction (measure-lock --windows at level 100: every clear, 5 rest
// rows, 3 frame phases, with and without the soft drop's points, the same 8). An NMI taken on
// one of those instructions (but $AC91's, which goes on) sends the game astray: every crash of
// measure-lock's surveys was such a landing (MODEL.md "Time").
inline constexpr std::array<CycleRange, 8> kDispatchWindows{
    {{1529, 1556}, {1589, 1616}, {1691, 1718}, {1751, 1778}, {1852, 1879}, {1912, 1939}, {2031, 2058}, {2091, 2118}}};
// With the next piece hidden (Select) its sprite staging does not run: every window this many
// cycles sooner (+1 135 for the first).
inline constexpr uint32_t kPreviewStagingCycles = 394;
// In a scoring frame without a line the locked piece is still staged as a sprite before the
// dispatches (after a clear there is no piece: orientation $13). Its 12 reads of orientationTable
// ($8A9C) cross a page from orientation 9 on, 8 of them for orientation 8, none below: the windows
// above were measured with a vertical I (17), and with orientations 0-7 every window comes 12
// cycles sooner (8: 4). Traced (measure-lock --ai-game 20000 --from-level 130, the windows of each
// frame that does not lag); missed before, it let a lock without a line at level 253 crash an AI
// game (measure-lock --ai-game 297300 --title-wait 14, session 31).
inline constexpr uint32_t kLockedPieceStagingSpread = 12;
inline uint8_t locked_piece_sooner(uint8_t orientation) {
    return orientation < 8 ? kLockedPieceStagingSpread : orientation == 8 ? 4 : 0;
}
// The next NMI of an AI game's scoring frame, from its NMI's entry (measure-lock --ai-game).
inline constexpr CycleRange kAiNextNmi{29777, 29784};
// The music's danger test (updateMusicSpeed, in the scoring frame before the loop) scans row 5 up
// to its first block: with a block at column c it ends 149 - 16 c cycles sooner than over an empty
// row (16 a cell, and its two endings alike), when the music does not change (allegro already set:
// the lock's frame ran the same test on the same row 5 when no line was cleared). kRow5Empty: no
// block. Traced: a lock without a line at level 254 with a block at column 4, 6 861-6 865 cycles
// against its kind's 6 946-6 951 (measure-lock --ai-game 900000 --title-wait 19, session 31).
inline constexpr uint8_t kRow5Empty = kPlayfieldWidth;
constexpr uint32_t row5_scan_sooner(uint8_t row5_first) {
    return row5_first < kRow5Empty ? 149u - 16u * row5_first : 0u;
}
// The first block the test finds in a playfield page (or the RAM from its start, $0400): the
// column of row 5's first tile that is not empty, kRow5Empty when none.
uint8_t row5_first_block(const uint8_t* playfield);
// What the cycles before the loop depend on in the AI's scoring frames from level 128, where it
// does not soft-drop (AI_DESIGN.md): the lines cleared, whether the lines counter's tens digit
// changes (the level-up test runs) and whether the level goes up, with the music unchanged (the
// tune as row 5 wants it before the frame: else a change of tune moves the frame), and the first
// block of row 5.
struct AiScoringKind {
    uint8_t lines = 0;      // 0-4
    bool tens = false;      // the tens digit changes (lines % 10 + cleared >= 10)
    bool level_up = false;  // the level goes up (then tens too)
    bool hundreds = false;  // the hundreds byte changes too (x9y + cleared >= (x+1)00): 12 cycles more
    bool soft_drop = false; // the soft drop's points (holdDownPoints 2-17) are added before the loop
    // Without a line: how much sooner the windows come for the locked piece's orientation
    // (locked_piece_sooner), or kAnyPiece: from the soonest to the latest (any orientation).
    uint8_t piece_sooner = 0xFF;  // (kAnyPiece)
    uint8_t row5_first = kRow5Empty;  // row 5's first block (row5_scan_sooner)
};
inline constexpr uint8_t kAnyPiece = AiScoringKind{}.piece_sooner;
// The soft drop's points at 999 999 (addHoldDownPoints, before the loop; MODEL.md "What moves the
// crash"): holdDownPoints p >= 2 adds p - 1 with the game's partial BCD fix-up, 57 cycles more than
// without when p - 1 + $99 has a units digit of 10 or more (p 2-7), 48 when not (p 8-17), and
// leaves the score $99 $9A $00 for the loop (the units lost, the thousands not adjusted). The kinds'
// measured cycles (ai_pre_loop) are of frames without; a kind with soft_drop takes both.
inline constexpr CycleRange kSoftDropCycles{48, 57};
inline constexpr std::array<uint8_t, 3> kSoftDropScore{0x00, 0x9A, 0x99};  // low byte first
// Their cycles from the NMI's entry to the loop, as measured (measure-lock --ai-game
// --from-level, MODEL.md "Time"), with the soft drop's kSoftDropCycles added for a kind with
// soft_drop; nullopt for a kind not seen.
std::optional<CycleRange> ai_pre_loop(const AiScoringKind& kind);
// Where the first lag NMI of such a frame is taken, cycles after the loop's end (negative: in
// the loop), at the earliest and the latest, with `margin` cycles more each side; and whether it
// may land in a window (May: the range meets one; never Yes, since $AC91 goes on; the loop at
// 999 999, or kSoftDropScore after the soft drop's points).
struct NmiLanding {
    int64_t earliest = 0, latest = 0;
    Maybe crash = Maybe::No;
};
NmiLanding ai_scoring_nmi_landing(uint8_t level, const AiScoringKind& kind, bool preview_shown, uint32_t margin);
// The kind of the frame that scores `cleared` lines after a lines counter whose low byte is
// `lines_lo` (BCD), the level going up or not.
// Does clearing `cleared` lines after a counter whose low byte is `lines_lo` (BCD) change its tens digit?
inline bool tens_digit_changes(uint8_t lines_lo, uint8_t cleared) { return (lines_lo & 0x0F) + cleared >= 10; }
inline AiScoringKind scoring_kind(uint8_t lines_lo, uint8_t cleared, bool level_up) {
    const bool tens = tens_digit_changes(lines_lo, cleared);
    return {cleared, tens, level_up, tens && (lines_lo & 0xF0) == 0x90};
}
// The margin the AI's rule (ai_lock_safety) widens the landings by, each side.
inline constexpr uint32_t kAiRuleMargin = 8;
// Is a lock of the AI's that spawned at `spawn_level` and clears `lines` (0-4) safe with the
// preview shown, and with it hidden (ai_scoring_nmi_landing, kAiRuleMargin), whatever kind its
// scoring frame is: with `tens` (the lines' tens digit changes) a level-up or not, the hundreds
// changing or not? Row 5 empty (the kinds' condition: the AI's locks from level 128 leave rows
// 0-5 empty, AI_DESIGN.md). Below level 128 (AI_POLL_PAUSE_LEVEL) the AI's frames are not those
// kinds, and nothing crashes there.
// With `soft_drop`, the same for the lock made with the soft drop's points (AiScoringKind::soft_drop).
struct LockSafety {
    bool shown = true, hidden = true;
};
// For a lock without a line, `piece_sooner` is its piece's (locked_piece_sooner; by default any:
// kAnyPiece).
// With `row5_first`, the same for a lock that leaves a block in row 5 (AiScoringKind::row5_first).
LockSafety ai_lock_safety(uint8_t spawn_level, uint8_t lines, bool tens, bool soft_drop = false,
                          uint8_t piece_sooner = kAnyPiece, uint8_t row5_first = kRow5Empty);

// ---- the forecast: does a frame lag, may it crash ------------------------------------------
// The cycles of a scoring frame's work: from the NMI's interrupt to the loop, by lines cleared
// (0-4: where the next NMI lands, for the crash), and the whole work to the main loop's wait less
// the loop (for the lag; the render, the player's work, a pause, the music: the model does not
// follow their cycles, so these are ranges, measured).
struct FrameWork {
    std::array<CycleRange, 5> pre_loop{};
    std::array<CycleRange, 5> besides_loop{};
};
// The original game (and the patched one in human play). pre_loop: measure-lock (levels 100-255,
// score 999 999, 4 frame phases). besides_loop: 8 038-12 717 cycles in the scoring frames without
// lag of `nestris-ai fidelity --games 0 --stacked 300 --stacked-levels 100-255 --frames 4000
// [--max-score] --seed 1000/2000` (11 700 frames, random movies: pauses, the music), 150 more
// each side.
inline constexpr CycleRange kOriginalPreLoop{6347, 6963};
inline constexpr CycleRange kOriginalBesidesLoop{7888, 12867};
inline constexpr FrameWork kOriginalWork{
    {{kOriginalPreLoop, kOriginalPreLoop, kOriginalPreLoop, kOriginalPreLoop, kOriginalPreLoop}},
    {{kOriginalBesidesLoop, kOriginalBesidesLoop, kOriginalBesidesLoop, kOriginalBesidesLoop, kOriginalBesidesLoop}}};
// The patched game in the AI's games: the task may think in the frame before a lock without a
// line (kAiPreLoop), which delays that frame's work by as much.
inline constexpr CycleRange kAiBesidesLoop{kOriginalBesidesLoop.first,
                                           kOriginalBesidesLoop.last + (kAiPreLoop[0].last - kOriginalPreLoop.last)};
inline constexpr FrameWork kAiGameWork{
    kAiPreLoop, {{kAiBesidesLoop, kOriginalBesidesLoop, kOriginalBesidesLoop, kOriginalBesidesLoop, kOriginalBesidesLoop}}};
// From level hooks::AI_POLL_PAUSE_LEVEL (128) the AI's games run a scoring frame as the original
// runs it: the task does not think in the frame before it, and the frame's polls take the game's
// own path (ai_idle, AI_MODE_POLL_PAUSED), 5 cycles faster, and the wait's end 8 faster; with the
// wait's spin phase the frame starts 8-18 cycles sooner than the original's, inside kPreLoopMargin.
inline const FrameWork& ai_game_work(uint8_t level) {
    return level >= hooks::AI_POLL_PAUSE_LEVEL ? kOriginalWork : kAiGameWork;
}

struct FrameTimeForecast {
    Maybe lag = Maybe::No;    // the frame's work outlasts it: one NMI or more in the work
    Maybe crash = Maybe::No;  // its first such NMI lands in a dispatch window (the crash)
    bool scoring = false;     // the frame runs a score loop (else nothing in it comes near the NMI)
    uint8_t lines = 0;        // the lines it scores
    uint64_t loop_cycles = 0;
};
// The forecast for the frame stepped from `before` (a frame boundary of play). Frames without a
// score loop: no lag. A scoring frame: its loop's cycles exactly (score_loop_work), the rest from
// `work`; Yes / No when every cycle count in those ranges agrees, May otherwise. A crash is
// forecast from the first lag NMI only (an NMI inside the loop can rewrite its counter through the
// render, after which the model does not follow the work's cycles: MODEL.md "Time").
FrameTimeForecast forecast_frame_time(const GameState& before, const FrameWork& work);
// The forecast in the AI's games on the patched game (ai_game_work of the level); from level 128
// a scoring frame of a measured kind (the music unchanged: a lock without a line, or a clear with
// rows 0 to 5 + its lines empty before it) has its crash forecast by its kind and the preview
// (ai_scoring_nmi_landing, kAiRuleMargin).
FrameTimeForecast forecast_ai_frame_time(const GameState& before);

// What the harnesses saw of FrameWork: the cycles of scoring frames' work besides their loop (from
// the NMI's interrupt to the main loop's wait, less score_loop_work), by lines cleared.
struct FrameWorkSeen {
    std::array<CycleRange, 5> range{};
    std::array<uint64_t, 5> frames{};
    void add(uint8_t lines, uint64_t cycles);
    void merge(const FrameWorkSeen& other);
    std::string summary() const;  // "scoring frames without lag, ... by lines: 0: a-b (n), ..."
};

// The forecasts against what the game did, over many frames (the harnesses keep one): by forecast
// (no, may, yes) and outcome (did not lag, lagged). A forecast is wrong when it said yes and the
// frame did not lag, or no and it did.
struct LagForecastTally {
    std::array<std::array<uint64_t, 2>, 3> counts{};  // [Maybe][lagged]
    uint64_t wrong = 0;
    std::string first_wrong;  // where, and what the forecast said
    void add(const FrameTimeForecast& f, bool lagged, const std::string& where);
    void merge(const LagForecastTally& other);
    uint64_t count(Maybe forecast, bool lagged) const { return counts[static_cast<size_t>(forecast)][lagged]; }
    // "lag forecast: yes N (lagged N), may N (lagged N), no N (lagged N); wrong N"
    std::string summary() const;
};

}  // namespace nestris
