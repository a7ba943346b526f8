#include "ai-reference/ai/ai_board.hpp"

namespace nestris::ai {

void Board::recompute_columns() {
    height.fill(0);
    filled.fill(0);
    for (int row = 0; row < kRows; ++row) {
        for (int c = 0; c < kColumns; ++c) {
            if (!cell(c, row)) continue;
            ++filled[c];
            if (height[c] == 0) height[c] = static_cast<uint8_t>(kRows - row);
        }
    }
}

Board Board::from_occupancy(const uint8_t* cells200) {
    Board b;
    for (int row = 0; row < kRows; ++row)
        for (int c = 0; c < kColumns; ++c)
            if (cells200[row * kColumns + c]) b.rows[row] |= static_cast<uint16_t>(1u << c);
    b.recompute_columns();
    return b;
}

}  // namespace nestris::ai
