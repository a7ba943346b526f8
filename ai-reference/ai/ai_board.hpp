// The AI's picture of the playfield: one 10-bit mask per row plus the per-column summaries the
// evaluation needs. Laid out as the 6502 keeps it (asm/ai_board.s); see AI_DESIGN.md.
#pragma once

#include "game/tetris_map.hpp"

#include <array>
#include <cstdint>

namespace nestris::ai {

inline constexpr int kRows = tetris::PLAYFIELD_ROWS;  // the game's (game/tetris.inc)
inline constexpr int kColumns = tetris::PLAYFIELD_COLUMNS;
inline constexpr uint16_t kFullRow = 0x03FF;

struct Board {
    std::array<uint16_t, kRows> rows{};       // bit c = column c; row 0 is the top visible row
    std::array<uint8_t, kColumns> height{};   // 0..20: rows from the floor to the highest cell
    std::array<uint8_t, kColumns> filled{};   // filled cells per column

    bool operator==(const Board&) const = default;

    bool cell(int column, int row) const { return (rows[row] >> column) & 1; }
    int holes(int column) const { return height[column] - filled[column]; }
    // Rebuilds height and filled from the rows.
    void recompute_columns();
    // From a 20x10 occupancy (row-major, non-zero = filled).
    static Board from_occupancy(const uint8_t* cells200);
};

}  // namespace nestris::ai
