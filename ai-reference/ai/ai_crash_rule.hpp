// The AI's crash rule from level 128 (AI_DESIGN.md "The crash rule"; the model's side: MODEL.md
// "Time"), in the form the cartridge tests: which locks its search bars, and the preview each lock
// is made with (Select, a press of the player's own, on the piece's first input frame).
#pragma once

#include "ai-reference/model/frame_time.hpp"

#include <array>
#include <cstdint>

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
struct CrashRule {
    std::array<LevelRange, kCrashClasses> barred{};  // by crash_class
    std::array<LevelRange, kHiddenRanges> hidden{};  // (unused ones: count 0)
};
// The rule, built from the model's safety (ai_lock_safety) at every level. Throws std::logic_error
// when no rule of this form is safe (the model's figures changed: widen the form).
const CrashRule& crash_rule();

// Does the crash rule bar a lock of `lines` lines by a piece that spawned at `spawn_level` with the
// lines counter's low byte (BCD) at `lines_lo`?
bool lock_barred(const CrashRule& rule, uint8_t spawn_level, uint8_t lines, uint8_t lines_lo);
inline bool lock_barred(uint8_t spawn_level, uint8_t lines, uint8_t lines_lo) {
    return lock_barred(crash_rule(), spawn_level, lines, lines_lo);
}
// Does the AI keep the preview hidden at `level`? It presses Select on a frame of a piece without
// other buttons when the game shows otherwise.
bool preview_hidden_at(const CrashRule& rule, uint8_t level);
inline bool preview_hidden_at(uint8_t level) { return preview_hidden_at(crash_rule(), level); }

// From level 128 (AI_POLL_PAUSE_LEVEL) a lock with a cell in rows 0 to kHighRows - 1 is a top-out: a block in row 5
// changes the scoring frame's cycles (the music's scan; its tune when the row fills or empties),
// outside the kinds the rule is built from. (asm: HIGH_ROWS, generated)
inline constexpr uint8_t kHighRows = 6;
inline uint8_t lowest_allowed_top_row(uint8_t spawn_level) {
    return spawn_level >= hooks::AI_POLL_PAUSE_LEVEL ? kHighRows : 0;
}

}  // namespace nestris::ai
