// The evaluation: a sum of table lookups (AI_DESIGN.md, "Evaluation"). The tables are expanded
// from the integer parameters of weights.txt by expand_tables(), the one place that defines
// them; the asm include is generated from the same expansion.
#pragma once

#include "ai-reference/ai/ai_board.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nestris::ai {

// A cost that means "never": a placement that tops out, or no placement at all.
inline constexpr uint16_t kCostMax = 0xFFFF;

// Every table entry is capped so that no sum the search forms (an evaluation plus two lines
// costs) can reach kCostMax: sums are exact, so the cartridge may add the terms in any order
// (incrementally) and still match the reference bit for bit.
// The row step's cap leaves room for row_fast_each (222): the spawn and lines caps were lowered
// for it to 5 000 and 1 000, above every entry the weights give them (4 104, 417).
inline constexpr uint16_t kCapHole = 1200, kCapStack = 8000, kCapSpawn = 5000, kCapWell = 4000,
                          kCapRowStep = 250, kCapLines = 1000, kCapGap = 1500;
// The well's depth the ready table tells apart (deeper wells cost as this one).
inline constexpr int kReadyCap = 6;
// A well this many rows ready (a tetris) costs nothing in the ready table: fewer cost ready_each
// a row missing, more ready_over a row beyond (asm: READY_ZERO, generated).
inline constexpr int kReadyTetris = 4;
// The spawn term reads the highest of columns kSpawnTermFirst..8: the spawn point and the way
// from it to the well (asm: SPAWN_TERM_FIRST, generated).
inline constexpr int kSpawnTermFirst = 3;
// A row's class is at most 4 (10 transitions).
inline constexpr int kMaxRowClass = 4;
static_assert(10 * kCapHole + kCapStack + kCapSpawn + kCapWell + 20 * kMaxRowClass * kCapRowStep +
                  9 * kCapGap + 2 * kCapLines < kCostMax);
// A gap narrower than this many rows can be filled by other pieces than the I.
inline constexpr int kGapMinDepth = 3;

inline uint16_t saturating_add(uint16_t a, uint16_t b) {
    const uint32_t s = uint32_t{a} + b;
    return s > kCostMax ? kCostMax : static_cast<uint16_t>(s);
}

// The evaluation tables.
struct EvalSet {
    std::array<uint16_t, 21> hole{};   // by holes in one column
    std::array<uint16_t, 21> stack{};  // by the highest of columns 0..8
    std::array<uint16_t, 21> stack_fast{};  // the same at one row a frame (level 29 on): its own
                                            // danger height
    std::array<uint16_t, 21> spawn{};  // by the highest of columns kSpawnTermFirst..8
    std::array<uint16_t, kReadyCap + 1> ready{};  // well column at or below the rest: by rows
                                                  // ready (deeper as kReadyCap)
    std::array<uint16_t, 21> cover{};  // well column above the lowest other column: by how much
    uint16_t row_step = 0;             // per row and class (transitions - 2) / 2: linear, so a
                                       // placement changes the sum by row_step per class gained
    uint16_t row_step_fast = 0;        // the same at one row a frame (level 29 on), where a
                                       // rough surface leaves the next pieces fewer places
    std::array<uint16_t, 5> lines{};   // by lines cleared by the placement
    std::array<uint16_t, 5> lines_danger{};  // the same on a high stack (danger_height): burns
                                             // (1-3 lines) cost danger_burn less
    std::array<uint16_t, 5> lines_fast{};    // the lines table at one row a frame (level 29 on),
                                             // where only survival counts: burns cost less
    uint8_t danger_height = 21;        // below level 29, a search whose board's highest of
                                       // columns 0-8 is at least this uses lines_danger
    std::array<uint16_t, 21> gap{};    // a stack column (0-8) by how far it lies below the lower
                                       // of its neighbours (the left wall counts as 20 high)
    uint8_t keep = 3;                  // K: first-ply candidates the second ply searches
    uint8_t keep_fast = 2;             // K at one row a frame (level 29 on)
    uint16_t keep_margin = 0xFFFF;     // below level 29, a candidate is kept only if its cost is
                                       // at most the best one's + this (0xFFFF: any; the sum
                                       // saturates)
    uint8_t margin_height = 21;        // ... and only while the highest of columns 0-8 is below
                                       // this: from it on, every one of the K goes on
    bool operator==(const EvalSet&) const = default;
};

using EvalTables = EvalSet;

// gen_lines (asm) holds lines, then lines_danger, then lines_fast: a search in danger adds
// kLinesDangerOffset to its index, one at one row a frame kLinesFastOffset (asm:
// LINES_DANGER_OFFSET, LINES_FAST_OFFSET, generated).
inline constexpr uint8_t kLinesDangerOffset = std::tuple_size_v<decltype(EvalSet::lines)>;
inline constexpr uint8_t kLinesFastOffset = 2 * kLinesDangerOffset;

// The parameters of weights.txt: name -> value.
struct Weights {
    std::map<std::string, int> values;
    int get(std::string_view key) const;
    bool operator==(const Weights&) const = default;
};

struct WeightsError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The parameter names weights.txt must define, in the order the tuner varies them.
const std::vector<std::string>& weight_names();
// The search's parameters weights.txt also defines (the tuner leaves them alone).
const std::vector<std::string>& search_parameter_names();
inline constexpr int kMaxKeep = 8;

Weights parse_weights(std::string_view text);  // throws WeightsError with the line number
std::string format_weights(const Weights& w);
EvalTables expand_tables(const Weights& w);

// The weights compiled into this build (generated from ai-reference/weights.txt).
const Weights& default_weights();
const EvalTables& default_tables();

// Filled/empty changes along a row, the walls counting as filled: 2, 4, ..., 10 for a row that is
// not full (0 for a full row).
uint8_t row_transitions(uint16_t row);
// The class of a row: (transitions - 2) / 2, and 0 for a full row.
uint8_t row_class(uint16_t row);

// How far stack column c (0-8) lies below the lower of its neighbours (0 if not below both).
uint8_t gap_depth(const Board& board, int c);

// fast: the board is played at one row a frame (its stack term from stack_fast). danger: the
// search is in danger (in_danger()): the well column's holes cost nothing, so burning into the
// well is weighed against waiting for an I piece by the lines and stack terms alone.
uint16_t evaluate(const Board& board, const EvalSet& set, bool fast = false, bool danger = false);

}  // namespace nestris::ai
