// Random positions for the equivalence tests: boards of every kind (empty, low, tall, holes,
// overhangs, garbage rows, near top-out), every piece, levels 0-29 and beyond (the crash bands), the first-piece
// hold, A- and B-Type.
#pragma once

#include "ai-reference/ai/ai_crash_rule.hpp"
#include "ai-reference/ai/ai_search.hpp"

#include <algorithm>
#include <random>

namespace nestris::test {

inline ai::Board random_board(std::mt19937& rng) {
    ai::Board b;
    const int kind = static_cast<int>(rng() % 6);
    if (kind == 0) return b;  // empty
    std::uniform_int_distribution<int> height(0, kind == 4 ? 19 : (kind == 3 ? 8 : 15));
    for (int c = 0; c < ai::kColumns; ++c) {
        const int h = height(rng);
        for (int r = ai::kRows - h; r < ai::kRows; ++r) {
            const bool hole = kind >= 2 && rng() % (kind == 5 ? 3 : 7) == 0 && r != ai::kRows - h;
            if (!hole) b.rows[r] |= static_cast<uint16_t>(1u << c);
        }
    }
    if (kind == 5) {  // garbage rows: one hole each
        for (int r = ai::kRows - 1 - static_cast<int>(rng() % 10); r < ai::kRows; ++r)
            b.rows[r] = static_cast<uint16_t>(0x3FF & ~(1u << (rng() % 10)));
    }
    for (int r = 0; r < ai::kRows; ++r)
        if (b.rows[r] == ai::kFullRow) b.rows[r] &= static_cast<uint16_t>(~(1u << (rng() % 10)));
    b.recompute_columns();
    return b;
}

inline ai::SearchInput random_input(std::mt19937& rng) {
    ai::SearchInput in;
    in.board = random_board(rng);
    in.piece_type = static_cast<uint8_t>(rng() % 7);
    // (127-128: the high rows' top-out from 128; 156-174: the crash rule's ranges' edges and
    // insides, lock_barred)
    static constexpr uint8_t levels[] = {0,   5,   9,   12,  15,  18,  19,  22,  28,  29,  30,  45,  99,  127,
                                         128, 149, 156, 157, 159, 160, 161, 167, 170, 172, 174, 249, 255};
    in.level.level = levels[rng() % std::size(levels)];
    const unsigned lines = rng() % 300;
    in.level.lines_lo = static_cast<uint8_t>((lines / 10 % 10) << 4 | lines % 10);
    in.level.lines_hi = static_cast<uint8_t>(lines / 100);
    in.level.b_type = rng() % 8 == 0;
    in.first_piece = rng() % 10 == 0;
    return in;
}

// A board ready to clear: the lowest 1-4 rows full but for one column each (random), random
// blocks above, and a spawn level in or near the crash rule's ranges (lock_barred), where the
// cartridge must count a clear of some classes as a top-out exactly as the reference does.
inline ai::SearchInput clear_ready_input(std::mt19937& rng) {
    ai::SearchInput in;
    const int ready = 1 + static_cast<int>(rng() % 4);
    for (int r = ai::kRows - ready; r < ai::kRows; ++r)
        in.board.rows[r] = static_cast<uint16_t>(ai::kFullRow & ~(1u << (rng() % 3 == 0 ? rng() % 10 : 9)));
    for (int r = ai::kRows - ready - 1 - static_cast<int>(rng() % 6); r < ai::kRows - ready; ++r)
        in.board.rows[r] = static_cast<uint16_t>(rng() & 0x1FF);
    in.board.recompute_columns();
    in.piece_type = static_cast<uint8_t>(rng() % 7);
    unsigned lines = 1400 + rng() % 300;
    if (rng() % 2) {
        // half of them where the rule bars the class of the clear the ready rows make (the lines'
        // units set so that the tens change or not)
        const bool tens = rng() % 2;
        const ai::LevelRange barred = ai::crash_rule().barred[ai::crash_class(static_cast<uint8_t>(ready), tens)];
        lines = lines / 10 * 10 + (tens ? 10 - static_cast<unsigned>(ready) + rng() % static_cast<unsigned>(ready) : rng() % (10 - static_cast<unsigned>(ready)));
        in.level.level = static_cast<uint8_t>(barred.first + rng() % std::max<unsigned>(1, barred.count));
    } else {
        in.level.level = static_cast<uint8_t>(146 + rng() % 32);  // around the ranges
    }
    in.level.lines_lo = static_cast<uint8_t>((lines / 10 % 10) << 4 | lines % 10);
    in.level.lines_hi = static_cast<uint8_t>(lines / 100);
    return in;
}

// Positions at the crash rule's soft-drop level: rows ready to clear anywhere from row 8 down (a
// clear there must fall long enough with Down held to make the points), over rows with a hole
// each, and any piece.
inline ai::SearchInput soft_drop_input(std::mt19937& rng) {
    ai::SearchInput in;
    const int ready = 1 + static_cast<int>(rng() % 3);
    const int top = 8 + static_cast<int>(rng() % 10);  // the first ready row
    for (int r = top; r < ai::kRows; ++r)
        in.board.rows[r] = static_cast<uint16_t>(ai::kFullRow & ~(1u << (r < top + ready ? 9 : rng() % 9)));
    in.board.recompute_columns();
    in.piece_type = static_cast<uint8_t>(rng() % 7);
    const std::vector<uint8_t> levels = ai::soft_drop_levels(ai::crash_rule());
    in.level.level = levels.at(rng() % levels.size());
    const unsigned lines = 1600 + rng() % 300;
    in.level.lines_lo = static_cast<uint8_t>((lines / 10 % 10) << 4 | lines % 10);
    in.level.lines_hi = static_cast<uint8_t>(lines / 100);
    return in;
}

}  // namespace nestris::test
