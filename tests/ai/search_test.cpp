// The search's width (AI_DESIGN.md, "Search with the preview piece"): K candidates, the margin
// that trims them on a low stack, K = keep_fast at one row a frame and for a game's first piece.
#include "ai_search.hpp"

#include <catch2/catch.hpp>

using namespace nestris;
using namespace nestris::ai;

namespace {

// Columns 0-8 `height` high with a hole under each top (so no placement clears a line), the
// well column empty.
Board stack_of(int height) {
    Board b;
    for (int r = kRows - height; r < kRows; ++r)
        b.rows[r] = static_cast<uint16_t>(r == kRows - height + 1 ? 0x0FE : 0x1FF);
    b.recompute_columns();
    return b;
}

SearchInput input_on(const Board& board, uint8_t level, bool first_piece = false) {
    SearchInput in;
    in.board = board;
    in.piece_type = 0;  // T
    in.level.level = level;
    in.first_piece = first_piece;
    return in;
}

}  // namespace

TEST_CASE("the margin trims the candidates only while columns 0-8 are below margin_height") {
    EvalTables tables = default_tables();
    tables.keep = 8;
    tables.keep_margin = 0;  // only candidates as cheap as the best go on, where it applies
    tables.margin_height = 10;
    for (int height : {5, 9, 10, 12}) {
        const Board board = stack_of(height);
        INFO("stack " << height << " high");
        REQUIRE(board.height[0] == height);
        const Precomputed pre = precompute(input_on(board, 19), tables);
        bool all_tied = true;
        for (uint8_t k = 1; k < pre.count; ++k) all_tied &= pre.candidates[k].cost == pre.candidates[0].cost;
        if (height < 10) {
            CHECK(all_tied);  // the margin cut every candidate dearer than the best
            CHECK(pre.count < 8);
        } else {
            CHECK(pre.count == 8);  // all K go on
            CHECK_FALSE(all_tied);
        }
    }
    // margin_height 21 (no height reaches it): the margin applies on every stack.
    tables.margin_height = 21;
    CHECK(precompute(input_on(stack_of(12), 19), tables).count < 8);
    // At one row a frame the margin never applies.
    tables.keep_fast = 8;
    CHECK(precompute(input_on(stack_of(5), 29), tables).count == 8);
}

TEST_CASE("K is keep below level 29, keep_fast from it and for a game's first piece") {
    EvalTables tables = default_tables();
    tables.keep = 7;
    tables.keep_fast = 3;
    tables.keep_margin = 0xFFFF;  // no trimming: the count is K
    CHECK(candidates_for(2, false, tables) == 7);
    CHECK(candidates_for(1, false, tables) == 3);
    CHECK(candidates_for(2, true, tables) == 3);
    CHECK(precompute(input_on(Board{}, 19), tables).count == 7);
    CHECK(precompute(input_on(stack_of(12), 19), tables).count == 7);
    CHECK(precompute(input_on(Board{}, 29), tables).count == 3);
    CHECK(precompute(input_on(Board{}, 19, true), tables).count == 3);
}
