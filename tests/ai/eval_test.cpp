#include "ai-reference/ai/ai_eval.hpp"
#include "ai-reference/ai/ai_search.hpp"

#include <catch2/catch.hpp>

using namespace nestris::ai;

namespace {

// Rows given bottom-up as strings: '#' filled, '.' empty; the last string is row 19.
Board board_from(std::initializer_list<const char*> bottom_up) {
    Board b;
    int row = kRows - 1;
    for (const char* r : bottom_up) {
        for (int c = 0; c < kColumns; ++c)
            if (r[c] == '#') b.rows[row] |= static_cast<uint16_t>(1u << c);
        --row;
    }
    b.recompute_columns();
    return b;
}

EvalSet unit_set() {
    // Distinct, recognisable values so each term can be read off the total.
    EvalSet e;
    for (int i = 0; i <= 20; ++i) {
        e.hole[i] = static_cast<uint16_t>(1000 * i);
        e.stack[i] = static_cast<uint16_t>(100000 % 7 + i);  // 5 + i
        e.spawn[i] = 0;
        e.cover[i] = static_cast<uint16_t>(20000 + i);
    }
    for (int r = 0; r <= kReadyCap; ++r) e.ready[r] = static_cast<uint16_t>(30000 + r);
    return e;
}

}  // namespace

TEST_CASE("board columns: heights, filled cells and holes") {
    const Board b = board_from({"##.#......", "#..#......", "...#......"});
    CHECK(b.height[0] == 2);
    CHECK(b.filled[0] == 2);
    CHECK(b.holes(0) == 0);
    CHECK(b.height[1] == 1);
    CHECK(b.height[2] == 0);
    CHECK(b.height[3] == 3);
    CHECK(b.holes(3) == 0);
    const Board h = board_from({"#.........", "..........", "#........."});
    CHECK(h.height[0] == 3);
    CHECK(h.filled[0] == 2);
    CHECK(h.holes(0) == 1);
}

TEST_CASE("evaluation: every term from its table") {
    const EvalSet e = unit_set();
    // Heights 3 0 0 3 0 0 0 0 0 | well 0; column 0 has a hole at row 18.
    const Board b = board_from({"#..#......", "...#......", "#..#......"});
    // holes: column 0 has 1 -> 1000. stack: highest of 0..8 = 3 -> 8. spawn: 0. well: lowest
    // of 0..8 = 0, height 0 -> ready[0]. Rows: row_step 0.
    CHECK(evaluate(b, e) == 1000 + 8 + 30000);
    // Well column above the lowest other column: cover.
    const Board c = board_from({"#########.", "#########.", ".........#"});
    // heights: 2 x9 (col 0..8), col 9: 3; lowest = 2 -> cover[1]; column 9 has 2 holes.
    CHECK(evaluate(c, e) == 2000 + (5 + 2) + 20001);
    // Ready rows are capped at 6.
    Board tall;
    for (int row = 10; row < kRows; ++row) tall.rows[row] = 0x01FF;
    tall.recompute_columns();
    CHECK(evaluate(tall, e) == (5 + 10) + 30006);
}

TEST_CASE("evaluation: the spawn term reads the highest of columns 3-8 (the spawn point and the way to the well)") {
    EvalSet e = unit_set();
    for (int i = 0; i <= 20; ++i) e.spawn[i] = static_cast<uint16_t>(10000 + i);
    // One column 4 high at a time, the others empty: stack 5 + 4, spawn[4] only for columns 3-8,
    // ready[0] (the lowest of 0-8 is 0) and no holes.
    for (int c = 0; c < 9; ++c) {
        Board b;
        for (int row = kRows - 4; row < kRows; ++row) b.rows[row] = static_cast<uint16_t>(1u << c);
        b.recompute_columns();
        INFO("column " << c);
        CHECK(evaluate(b, e) == (5 + 4) + (c >= 3 ? 10004 : 10000) + 30000);
    }
}

TEST_CASE("weights: parse, format and expand, with clear errors") {
    const Weights& w = default_weights();
    CHECK(parse_weights(format_weights(w)) == w);
    const EvalTables t = expand_tables(w);
    CHECK(t == default_tables());
    CHECK(t.hole[0] == 0);
    CHECK(t.hole[1] == std::min<int>(kCapHole, w.get("hole_first")));
    CHECK_THROWS_WITH(parse_weights("hole_first = 1\nhole_first = 2\n"), Catch::Contains("line 2"));
    CHECK_THROWS_WITH(parse_weights("nonsense = 3\n"), Catch::Contains("unknown weight"));
    CHECK_THROWS_WITH(parse_weights("hole_first = x\n"), Catch::Contains("integer"));
    CHECK_THROWS_WITH(parse_weights("hole_first = 70000\n"), Catch::Contains("0..65535"));
    CHECK_THROWS_WITH(parse_weights("hole_first\n"), Catch::Contains("name = value"));
    CHECK_THROWS_WITH(parse_weights("hole_first = 1\n"), Catch::Contains("no value"));
    CHECK_THROWS_WITH(parse_weights("keep = 9\n"), Catch::Contains("'keep' must be 1..8"));
    CHECK_THROWS_WITH(parse_weights("margin_height = 22\n"), Catch::Contains("'margin_height' must be 0..21"));
    CHECK_THROWS_WITH(parse_weights("danger_height = 22\n"), Catch::Contains("'danger_height' must be 0..21"));
    CHECK(t.margin_height == w.get("margin_height"));
}

TEST_CASE("table caps keep every sum the search forms below the top-out cost") {
    Weights w = default_weights();
    for (auto& [name, value] : w.values) value = 65535;
    const EvalTables e = expand_tables(w);
    Board worst;
    for (int row = 1; row < kRows; row += 2) worst.rows[row] = 0x0155;  // holes and bumps everywhere
    worst.recompute_columns();
    const uint32_t eval = evaluate(worst, e);
    CHECK(eval + 2u * e.lines[4] < kCostMax);
    for (uint16_t v : e.hole) CHECK(v <= kCapHole);
    CHECK(e.row_step == kCapRowStep);
    for (uint16_t v : e.lines) CHECK(v <= kCapLines);
}

TEST_CASE("row transitions count filled/empty changes with the walls as filled") {
    auto row = [](const char* cells) {
        uint16_t r = 0;
        for (int c = 0; c < kColumns; ++c)
            if (cells[c] == '#') r |= static_cast<uint16_t>(1u << c);
        return r;
    };
    CHECK(row_transitions(row("..........")) == 2);
    CHECK(row_transitions(row("##########")) == 0);
    CHECK(row_transitions(row("#########.")) == 2);
    CHECK(row_transitions(row(".########.")) == 4);
    CHECK(row_transitions(row("#.#.#.#.#.")) == 10);
    CHECK(row_transitions(row("##..##..##")) == 4);
    CHECK(row_class(row("..........")) == 0);
    CHECK(row_class(row("##########")) == 0);
    CHECK(row_class(row("#.#.#.#.#.")) == 4);
    // Every row contributes row_step per class: empty and full rows nothing.
    EvalSet e;
    e.row_step = 7;
    Board b;
    b.rows[19] = row("#.#.#.#.#.");
    b.rows[18] = row(".########.");
    b.recompute_columns();
    b.rows[17] = row("##########");
    b.recompute_columns();
    CHECK(evaluate(b, e) == 7 * (4 + 1));
}

TEST_CASE("evaluation: a stack column below both neighbours costs by its depth") {
    EvalSet e;
    for (int d = kGapMinDepth; d <= 20; ++d) e.gap[d] = static_cast<uint16_t>(100 * d);
    // Heights 4 0 4 2 2 ... : column 1 lies 4 below both neighbours (gap 4); column 0 is not
    // below column 1; column 3 lies 2 below column 2 but not below column 4.
    const Board b = board_from({"#.#.......", "#.#.......", "#.####....", "#.####...."});
    CHECK(gap_depth(b, 1) == 4);
    CHECK(gap_depth(b, 0) == 0);
    CHECK(gap_depth(b, 3) == 0);
    // The left wall is as high as the board: an empty column 0 beside a tall column 1 is a gap.
    const Board w = board_from({".###......", ".###......", ".###......"});
    CHECK(gap_depth(w, 0) == 3);
    // Column 8's right neighbour is the well column 9.
    const Board r = board_from({"########.#", "########.#", "########.#"});
    CHECK(gap_depth(r, 8) == 3);
    CHECK(evaluate(b, e) == 400);
    CHECK(evaluate(w, e) == 300);
    CHECK(evaluate(r, e) == 300);
}

TEST_CASE("evaluation: in danger the well column's holes cost nothing, the others' as ever") {
    EvalSet e;
    for (int i = 1; i <= 20; ++i) e.hole[i] = static_cast<uint16_t>(1000 + 10 * i);
    // Column 9 covered over 3 holes, column 2 over 1 (rows bottom up).
    const Board b = board_from({"#########.", "#########.", "#########.", "##.#######", "#########."});
    REQUIRE(b.holes(9) == 3);
    REQUIRE(b.holes(2) == 1);
    CHECK(evaluate(b, e, false, true) == evaluate(b, e) - e.hole[3]);
    CHECK(evaluate(b, e) - evaluate(b, e, false, true) == 1030);
    // No hole in the well: the same either way.
    const Board c = board_from({"##.######.", "#########."});
    CHECK(evaluate(c, e, false, true) == evaluate(c, e));
}
