// The AI's crash rule from level 128 (AI_DESIGN.md "The crash rule"; the model's side: MODEL.md
// "Time"), in the form the cartridge tests: which locks its search bars, and the preview each lock
// is made with (Select, a press of the player's own, on a frame of the piece without other
// buttons: by its level, and for a clear by its class).
#pragma once

#include "ai-reference/model/frame_time.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace nestris::ai {

// What the search knows of a lock: its lines (0-4) and whether they change the lines counter's
// tens digit (tens_digit_changes). Classes 2 * lines + tens - 2 = 0 .. kCrashClasses - 1 for the
// locks that clear lines.
inline constexpr std::size_t kCrashClasses = 8;
inline uint8_t crash_class(uint8_t lines, bool tens) { return static_cast<uint8_t>(2 * lines + tens - 2); }

// The rule: the preview by level, hidden in a few ranges of levels (where a lock without a line
// needs it, or where it bars fewer clears than shown: weighed by the units digits that make each
// class) and shown elsewhere; and per class of clears the spawn levels it bars, one range: where
// the lock may crash with its level's preview (both previews may, or the other one is the level's).
// The AI holds the preview so while a piece falls and shows it again once the lock's scoring frame
// is over, for the next piece's spawn. (asm: gen_crash_first, gen_crash_count, gen_hidden_first,
// gen_hidden_count, HIDDEN_RANGES, generated)
inline constexpr std::size_t kHiddenRanges = 4;
struct LevelRange {
    uint8_t first = 0, count = 0;  // levels first .. first + count - 1 (count 0: none)
    bool contains(uint8_t level) const { return static_cast<uint8_t>(level - first) < count; }
};
// And the soft drop: at a few spawn levels from 128 (kSoftDropRanges ranges) the AI holds Down
// once its inputs are done, as below level 128, so that a lock's scoring frame adds the soft
// drop's points (kSoftDropCycles before the loop: MODEL.md "What moves the crash"); the preview
// is shown there. A piece makes the
// points when it falls long enough with Down held (soft_drop_in_time): there a clear that would
// not is barred. And at one level the preview goes by the locked piece: a lock without a line
// moves the windows by its orientation (locked_piece_sooner), and there the one preview is safe
// for orientations 0-8 (T, J, Z flat: hidden) and the other for 9-18 (shown). (asm:
// gen_soft_drop_first, gen_soft_drop_count, BY_PIECE_LEVEL, gen_soft_drop_rows, generated)
// And a lock that leaves a block in row 5, which the AI makes only when it has lost (every
// placement barred or in the high rows, kHighRows): its scoring frame's music test ends sooner by
// that block's column (row5_scan_sooner, MODEL.md "Time"), which moves the NMI's landing by up to
// 149 cycles. From level row5_level, in the frames between such a lock and its scoring frame, the
// AI sets the preview by row 5's first block: hidden for the columns of row5_hidden[level -
// row5_level], shown for the others. Chosen from the model, for a lock without a line (the lost
// locks the kinds describe: a clear that fills or empties row 5 changes the tune), for the most
// orientations safe. (asm: ROW5_LEVEL, gen_row5_scan_first, gen_row5_count, generated)
inline constexpr std::size_t kRow5Levels = 7;
inline constexpr std::size_t kSoftDropRanges = 2;
// And by the lock: a clear whose class may crash with its level's preview but not with the other
// one is made with the other (flipped, by class: where the level's preview is not the soft
// drop's nor the piece's), and at a soft-drop level a clear that falls too short for the points
// (soft_drop_in_time) is barred only where its class may crash without them (barred_short, by
// class). (asm: gen_flip_first, gen_flip_count, gen_short_first, gen_short_count, generated)
struct CrashRule {
    std::array<LevelRange, kCrashClasses> barred{};  // by crash_class
    std::array<LevelRange, kCrashClasses> flipped{};       // by crash_class
    std::array<LevelRange, kCrashClasses> barred_short{};  // by crash_class, at soft-drop levels
    std::array<LevelRange, kHiddenRanges> hidden{};  // (unused ones: count 0)
    std::array<LevelRange, kSoftDropRanges> soft_drop{};  // from 128 (unused ones: count 0)
    uint8_t preview_by_piece = 0;  // from 128 (0: none)
    uint8_t row5_level = 0;        // from 128 (0: none)
    std::array<LevelRange, kRow5Levels> row5_hidden{};  // ranges of columns, by level - row5_level
};
// The rule, built from the model's safety (ai_lock_safety) at every level. Throws std::logic_error
// when no rule of this form is safe (the model's figures changed: widen the form).
const CrashRule& crash_rule();

// Is `level` in one of the rule's soft-drop ranges (from level 128: below it there are none)?
bool in_soft_drop_range(const CrashRule& rule, uint8_t level);
// Does the AI soft-drop the pieces that spawn at `level` (below level 128 always; from it, in the
// rule's ranges)?
bool soft_drop_at(const CrashRule& rule, uint8_t level);
inline bool soft_drop_at(uint8_t level) { return soft_drop_at(crash_rule(), level); }
// The rule's soft-drop levels from 128, in order.
std::vector<uint8_t> soft_drop_levels(const CrashRule& rule);

// Does a piece locked at column `x` with its origin in row `landing_y` fall long enough with Down
// held to make the soft drop's 2 points at one row a frame? Down is pressed on frame max(2n, 1)
// of its inputs (n its presses: at most max(|x - 5|, 2), its shifts and up to 2 rotations) and the
// lock comes on frame landing_y + 1, a point every second frame of Down after the press.
// (asm: gen_soft_drop_rows, by column)
inline constexpr int kSoftDropFrames = 4;  // frames of Down for 2 points
constexpr int soft_drop_lowest_row(uint8_t x) {
    const int shifts = x >= kSpawnX ? x - kSpawnX : kSpawnX - x;
    return 2 * (shifts > 2 ? shifts : 2) + kSoftDropFrames - 1;
}
constexpr bool soft_drop_in_time(uint8_t x, int landing_y) { return landing_y >= soft_drop_lowest_row(x); }

// Does the crash rule bar a lock of `lines` lines by a piece that spawned at `spawn_level` with the
// lines counter's low byte (BCD) at `lines_lo`, with its origin at column x, row landing_y?
bool lock_barred(const CrashRule& rule, uint8_t spawn_level, uint8_t lines, uint8_t lines_lo, uint8_t x, int landing_y);
inline bool lock_barred(uint8_t spawn_level, uint8_t lines, uint8_t lines_lo, uint8_t x, int landing_y) {
    return lock_barred(crash_rule(), spawn_level, lines, lines_lo, x, landing_y);
}
// Does the AI keep the preview hidden for the lock of a piece in orientation `orientation` that
// spawned at `level`? It presses Select on a frame of a piece without other buttons when the game
// shows otherwise.
bool preview_hidden_at(const CrashRule& rule, uint8_t level, uint8_t orientation);
inline bool preview_hidden_at(uint8_t level, uint8_t orientation) {
    return preview_hidden_at(crash_rule(), level, orientation);
}
// The preview the AI holds for a lock of `lines` lines (the counter's low byte `lines_lo` before
// it) by a piece in `orientation` that spawned at `level`: its level's (preview_hidden_at), or the
// other one for a clear of a class the rule flips there.
bool lock_preview_hidden(const CrashRule& rule, uint8_t level, uint8_t orientation, uint8_t lines, uint8_t lines_lo);
inline bool lock_preview_hidden(uint8_t level, uint8_t orientation, uint8_t lines, uint8_t lines_lo) {
    return lock_preview_hidden(crash_rule(), level, orientation, lines, lines_lo);
}
// After a lock at `level` whose row 5 has its first block at `row5_first` (kRow5Empty: none), is
// the preview wanted hidden (true) or shown (false) for its scoring frame? nullopt: as it is.
std::optional<bool> row5_preview_hidden(const CrashRule& rule, uint8_t level, uint8_t row5_first);
inline std::optional<bool> row5_preview_hidden(uint8_t level, uint8_t row5_first) {
    return row5_preview_hidden(crash_rule(), level, row5_first);
}
// The orientations 0 to kHiddenOrientations - 1 have the preview hidden at preview_by_piece.
inline constexpr uint8_t kHiddenOrientations = 9;

// From level 128 (AI_POLL_PAUSE_LEVEL) a lock with a cell in rows 0 to kHighRows - 1 is a top-out: a block in row 5
// changes the scoring frame's cycles (the music's scan; its tune when the row fills or empties),
// where at levels 254-255 no preview is safe for every column (row5_preview_hidden: only for the
// locks the AI makes when it has lost). (asm: HIGH_ROWS, generated)
inline constexpr uint8_t kHighRows = 6;
// The highest row a lock's cells may take for a piece that spawned at `spawn_level`.
inline uint8_t lowest_allowed_top_row(uint8_t spawn_level) {
    return spawn_level >= hooks::AI_POLL_PAUSE_LEVEL ? kHighRows : 0;
}

}  // namespace nestris::ai
