// The coach's grade (issues 33 and 51, AI_DESIGN.md "The coach's grade"). grade_lock: a person's
// lock against the search's decision for the same piece, in the search's own cost (the miss), and
// its class; coach_share: the cartridge's division, for the share of matched locks and for the
// accuracy (the classes' points).
#pragma once

#include "ai-reference/ai/ai_search.hpp"

#include <array>
#include <optional>
#include <string_view>
#include <vector>

namespace nestris::ai {

// A lock's class, from its miss (lock_class). The cartridge shows each for about a second.
enum class LockClass : uint8_t { Best, Excellent, Good, Inaccuracy, Mistake, Blunder };
inline constexpr uint8_t kLockClasses = 6;
// The most miss each class but the blunder takes (the cartridge's gen_grade_miss): nestris.org's
// steps (a placement rated 1.5^-d on its scale: best >= 0.95, excellent >= 0.90, good >= 0.7,
// inaccuracy >= 0.5, mistake >= 0.3), its unit d worth 159.3 of our cost, so that a blunder
// begins at a new hole's cost (hole_first, 473): the miss at each step, u * log1.5(1 / rating)
// with u = 473 / log1.5(1 / 0.3), rounded down (the last one below 473). How the misses of real
// placements fall into them: AI_DESIGN.md "The coach's grade".
inline constexpr std::array<uint16_t, kLockClasses - 1> kClassMissMax = {20, 41, 140, 272, 472};
// Each class's points toward the game's accuracy, in tenths of a lock (the cartridge's
// gen_grade_points): nestris.org's lower bound of the class.
inline constexpr std::array<uint8_t, kLockClasses> kClassPoints = {10, 9, 7, 5, 3, 0};
// The class's name, and the four letters the cartridge shows for it.
std::string_view class_name(LockClass c);
std::string_view class_label(LockClass c);
// The label the cartridge shows before the game's accuracy under the curtain.
inline constexpr std::string_view kAccuracyLabel = "ACC-";
// A label's letters as the game's font has them (A-Z: tiles $0A-$23, '-' $24); throws
// std::invalid_argument on any other character.
std::vector<uint8_t> label_tiles(std::string_view label);

LockClass lock_class(uint16_t miss);

struct CoachGrade {
    bool matched = false;       // locked where the AI decided (orientation, column, row)
    uint16_t ai_total = 0;      // the search's best total with the next piece as the reply: min over
                                // the candidates of lines cost + best reply of that type
    uint16_t player_total = 0;  // the person's: its lines cost (the search's table) + the best
                                // first-ply cost of the next piece at its spawn (kCostMax: lost)
    uint16_t miss = 0;          // player_total - ai_total; 0 when matched or no dearer
    LockClass lock_class = LockClass::Best;
    bool operator==(const CoachGrade&) const = default;
};

// The grade of `player` (orientation, x, landing_y: where the person locked `in.piece_type`) on
// the board it spawned into. next_type: the piece that spawns after it (shown in the preview or
// not); preview_shown: whether the game showed it at the spawn (the decision takes it then, else
// the first candidate). nullopt when the search finds no reachable placement (the game is lost).
std::optional<CoachGrade> grade_lock(const SearchInput& in, uint8_t next_type, bool preview_shown,
                                     const Target& player, const EvalTables& tables = default_tables());

// floor(100 * part / total) as the cartridge divides (0-100): the share of matched locks
// (part: matched, total: graded) and the accuracy (coach_accuracy). total: 1 to 32 767.
uint8_t coach_share(uint16_t part, uint16_t total);
// The game's accuracy in per cent: the classes' points (tenths) over ten times the locks classed.
// classed: 1 to 3 276.
uint8_t coach_accuracy(uint16_t points, uint16_t classed);

}  // namespace nestris::ai
