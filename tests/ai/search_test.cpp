// The search's width (AI_DESIGN.md, "Search with the preview piece"): K candidates, the margin
// that trims them on a low stack, K = keep_fast at one row a frame and for a game's first piece.
#include "ai-reference/ai/ai_crash_rule.hpp"
#include "ai-reference/ai/ai_search.hpp"
#include "ai-reference/model/frame_time.hpp"

#include <vector>

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

TEST_CASE("in danger (below level 29, columns 0-8 danger_height high) both plies cost lines from lines_danger and the well's holes nothing") {
    EvalTables tables = default_tables();
    tables.danger_height = 12;
    tables.lines = {100, 400, 500, 600, 0};
    for (int n = 0; n <= 4; ++n) tables.lines_danger[n] = static_cast<uint16_t>(n >= 1 && n <= 3 ? 50 * n : tables.lines[n]);
    EvalTables never = tables;
    never.danger_height = 21;

    // Columns 2-9 filled in the bottom 4 rows (a burn for the pieces that fill columns 0-1),
    // columns 2-8 `height` high with a hole under each top.
    auto board_of = [](int height) {
        Board b;
        for (int r = kRows - height; r < kRows; ++r)
            b.rows[r] = r >= kRows - 4 ? 0x3FC : static_cast<uint16_t>(r == kRows - height + 1 ? 0x0F8 : 0x1FC);
        b.recompute_columns();
        return b;
    };
    // Columns 0-8 full `height` rows high over an empty well: covering it burns.
    auto well_of = [](int height) {
        Board b;
        for (int r = kRows - height; r < kRows; ++r) b.rows[r] = 0x1FF;
        b.recompute_columns();
        return b;
    };
    int burns = 0;       // candidates that burn: the test sees the lines table
    int well_holes = 0;  // candidates that leave holes in the well: and its holes' cost
    for (int i = 0; i < 2 * kPieceTypes; ++i) {
        const uint8_t type = static_cast<uint8_t>(i % kPieceTypes);
        const bool deep_well = i >= kPieceTypes;
        INFO("piece type " << int(type) << (deep_well ? ", deep well" : ""));
        SearchInput in = input_on(deep_well ? well_of(12) : board_of(12), 19);
        in.piece_type = type;
        REQUIRE(in_danger(in.board, 2, tables));
        const Precomputed danger = precompute(in, tables);
        for (uint8_t k = 0; k < danger.count; ++k) {
            const Candidate& c = danger.candidates[k];
            const Placed p = place(in.board, c.target);
            burns += c.lines >= 1 && c.lines <= 3;
            CHECK(c.lines_cost == tables.lines_danger[c.lines]);
            CHECK(c.cost == tables.lines_danger[c.lines] + evaluate(p.board, tables, false, true));
            if (p.board.holes(kColumns - 1) > 0) {
                ++well_holes;
                CHECK(evaluate(p.board, tables, false, true) ==
                      evaluate(p.board, tables) - tables.hole[p.board.holes(kColumns - 1)]);
            }
            // The second ply too: each reply's cost is the danger one.
            const Gravity g{ai::frames_per_drop(after_lines(in.level, p.lines).level), false};
            for (uint8_t t = 0; t < kPieceTypes; ++t) {
                uint16_t best = kCostMax;
                for_each_reachable(p.board, t, g, [&](const Target& q) {
                    best = std::min(best, placement_cost(place(p.board, q), tables, false, true));
                });
                CHECK(danger.best2[k][t] == best);
            }
        }
        // One row lower: not in danger.
        in.board = deep_well ? well_of(11) : board_of(11);
        REQUIRE_FALSE(in_danger(in.board, 2, tables));
        CHECK(precompute(in, tables) == precompute(in, never));
        // At one row a frame: never in danger.
        in.board = deep_well ? well_of(12) : board_of(12);
        in.level.level = 29;
        REQUIRE_FALSE(in_danger(in.board, 1, tables));
        CHECK(precompute(in, tables) == precompute(in, never));
    }
    CHECK(burns > 0);
    CHECK(well_holes > 0);
}

// From level 29 (one row a frame) both plies cost line clears from lines_fast, whatever the stack,
// and the well's holes cost what they do elsewhere; below it lines_fast is never read.
TEST_CASE("at one row a frame both plies cost lines from lines_fast, below it never") {
    EvalTables tables = default_tables();
    tables.lines = {100, 400, 500, 600, 0};
    tables.lines_fast = {300, 0, 20, 40, 60};
    EvalTables other_fast = tables;
    other_fast.lines_fast = {0, 900, 900, 900, 900};
    // Columns 0-8 full 4 rows high over an empty well, and columns 0-1 empty above row 16: both
    // clears (the well) and no clear are on offer.
    Board b;
    for (int r = kRows - 4; r < kRows; ++r) b.rows[r] = 0x1FF;
    b.recompute_columns();
    int clears = 0;
    for (uint8_t type = 0; type < kPieceTypes; ++type) {
        INFO("piece type " << int(type));
        SearchInput in = input_on(b, 29);
        in.piece_type = type;
        const Precomputed fast = precompute(in, tables);
        REQUIRE(fast.count > 0);
        for (uint8_t k = 0; k < fast.count; ++k) {
            const Candidate& c = fast.candidates[k];
            const Placed p = place(in.board, c.target);
            clears += c.lines > 0;
            CHECK(c.lines_cost == tables.lines_fast[c.lines]);
            CHECK(c.cost == tables.lines_fast[c.lines] + evaluate(p.board, tables, true, false));
            const Gravity g{1, false};
            for (uint8_t t = 0; t < kPieceTypes; ++t) {
                uint16_t best = kCostMax;
                for_each_reachable(p.board, t, g, [&](const Target& q) {
                    best = std::min(best, placement_cost(place(p.board, q), tables, true, false));
                });
                CHECK(fast.best2[k][t] == best);
            }
        }
        // Below level 29 the table is not read.
        in.level.level = 28;
        CHECK(precompute(in, tables) == precompute(in, other_fast));
    }
    CHECK(clears > 0);
}

TEST_CASE("a lock the crash rule bars is a top-out, in both plies (lock_barred)") {
    // Row 19 full but for the well: an I dropped there clears one line (a single).
    Board b;
    b.rows[kRows - 1] = 0x1FF;
    b.recompute_columns();
    // (the lines counter at 9: a single changes its tens digit, barred at a few levels; one that
    // does not is barred at none since the soft drop)
    constexpr uint8_t kLinesLo = 0x09;
    auto single_costs = [&](uint8_t level) {
        SearchInput in = input_on(b, level);
        in.level.lines_lo = kLinesLo;
        in.piece_type = 6;  // I
        const Precomputed pre = precompute(in);
        std::vector<uint16_t> costs;
        for (uint8_t k = 0; k < pre.count; ++k) {
            const Placed p = place(b, pre.candidates[k].target);
            if (p.lines == 1) {
                costs.push_back(pre.candidates[k].cost);
                CHECK((pre.candidates[k].lines == 0) == (pre.candidates[k].cost == kCostMax));
            }
        }
        return std::pair{pre, costs};
    };
    const LevelRange band = crash_rule().barred[crash_class(1, true)];
    REQUIRE(band.count > 0);
    const uint8_t in_band = band.first, below = static_cast<uint8_t>(band.first - 1);
    REQUIRE(lock_barred(in_band, 1, kLinesLo, nestris::kSpawnX, kRows - 1));
    REQUIRE_FALSE(lock_barred(below, 1, kLinesLo, nestris::kSpawnX, kRows - 1));
    // Below the band the single is a placement like any other; in it, it costs kCostMax and
    // counts no lines, and the AI chooses something else.
    const auto [pre_below, below_costs] = single_costs(below);
    const auto [pre_in, in_costs] = single_costs(in_band);
    for (uint16_t c : below_costs) CHECK(c < kCostMax);
    for (uint16_t c : in_costs) CHECK(c == kCostMax);
    REQUIRE(pre_in.count > 0);
    CHECK(place(b, pre_in.candidates[*finalize(pre_in, 0)].target).lines == 0);
    // Second ply: a T now (no clear), then any reply that makes the single costs kCostMax in the
    // band: every best reply is then a placement that clears nothing.
    SearchInput t = input_on(b, in_band);
    t.level.lines_lo = kLinesLo;
    const Precomputed two = precompute(t);
    for (uint8_t k = 0; k < two.count; ++k) CHECK(two.best2[k][6] < kCostMax);  // the I has other places
}

TEST_CASE("from level 128 a lock with a cell in rows 0-5 is a top-out (lowest_allowed_top_row)") {
    // A stack of 14 in columns 0-8: a flat piece on it reaches row 5, above the high rows' edge.
    Board b;
    for (int row = kRows - 14; row < kRows; ++row) b.rows[row] = 0x1FF;
    b.recompute_columns();
    const auto tops = [&](uint8_t level) {
        SearchInput in = input_on(b, level);
        in.piece_type = 6;  // I
        const Precomputed pre = precompute(in);
        int high = 0, high_lost = 0;
        for (uint8_t k = 0; k < pre.count; ++k) {
            if (top_row(pre.candidates[k].target) >= kHighRows) continue;
            ++high;
            high_lost += pre.candidates[k].cost == kCostMax && pre.candidates[k].lines == 0;
        }
        return std::pair{high, high_lost};
    };
    CHECK(lowest_allowed_top_row(127) == 0);
    CHECK(lowest_allowed_top_row(128) == kHighRows);
    const auto [high_127, lost_127] = tops(127);
    CHECK(high_127 > lost_127);  // below 128 a high placement is one like any other
    const auto [high_128, lost_128] = tops(128);
    CHECK(high_128 == lost_128);
}
