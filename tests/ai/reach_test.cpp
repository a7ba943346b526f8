#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/ai/ai_search.hpp"
#include "ai-reference/model/pieces.hpp"
#include "ai-reference/model/power_on.hpp"

#include <catch2/catch.hpp>

#include <random>
#include <set>
#include <span>

using namespace nestris;
using namespace nestris::ai;

namespace {

constexpr uint8_t kI = 6, kO = 3, kT = 0;

Board with_column(int column, int height) {
    Board b;
    for (int r = kRows - height; r < kRows; ++r) b.rows[r] |= static_cast<uint16_t>(1u << column);
    b.recompute_columns();
    return b;
}

std::optional<Target> reach_xo(const Board& b, uint8_t type, uint8_t orientation, int x, Gravity g) {
    for (const RotationChoice& c : std::span(rotations(type).choice.data(), rotations(type).count))
        if (c.orientation == orientation) return reach(b, type, c, x, g);
    return std::nullopt;
}

}  // namespace

TEST_CASE("every column is reachable on an empty board at level 19 and 29") {
    for (uint8_t g : {uint8_t{2}, uint8_t{1}}) {
        std::set<std::pair<int, int>> seen;
        for_each_reachable(Board{}, kI, Gravity{g, false}, [&](const Target& t) {
            seen.insert({t.orientation, t.x});
            CHECK(t.landing_y == (t.orientation == orient::iVert ? 18 : 19));
        });
        CHECK(seen.size() == 17);  // 10 vertical + 7 horizontal
    }
}

TEST_CASE("inputs come every other frame: the I reaches column 0 at row 4 (g=2) or 8 (g=1)") {
    // Vertical I at column 0: one rotation and five shifts, the fifth on frame 9. Its lowest cell
    // is one below the origin; on frame 9 the origin is at row floor(8/g) before the drop and
    // floor(9/g) after it.
    for (auto [g, origin_row] : {std::pair{2, 4}, std::pair{1, 9}}) {
        const int lowest = origin_row + 1;                   // the I's bottom cell after frame 9
        const Board just_fits = with_column(0, 19 - lowest);  // top cell right below it
        CHECK(reach_xo(just_fits, kI, orient::iVert, 0, Gravity{uint8_t(g), false}).has_value());
        const Board too_high = with_column(0, 20 - lowest);
        CHECK_FALSE(reach_xo(too_high, kI, orient::iVert, 0, Gravity{uint8_t(g), false}).has_value());
    }
}

TEST_CASE("a tower in the path blocks every column behind it, not in front") {
    const Board b = with_column(3, 17);  // top cell at row 3
    const Gravity g{2, false};
    // O: cells at dx -1..0. Moving left it must pass column 3.
    CHECK(reach_xo(b, kO, orient::oFixed, 5, g).has_value());
    // At column 3 it can still land on top of the tower (rows 1-2), but passing it is too late.
    const auto on_top = reach_xo(b, kO, orient::oFixed, 3, g);
    REQUIRE(on_top.has_value());
    CHECK(on_top->landing_y == 1);
    CHECK_FALSE(reach_xo(b, kO, orient::oFixed, 2, g).has_value());
    CHECK_FALSE(reach_xo(b, kO, orient::oFixed, 1, g).has_value());
    CHECK(reach_xo(b, kO, orient::oFixed, 9, g).has_value());
    // The first piece's hold keeps the piece on row 0: the same tower does not block it.
    CHECK(reach_xo(b, kO, orient::oFixed, 1, Gravity{2, true}).has_value());
}

TEST_CASE("walls: no placement sticks out of the playfield") {
    for (uint8_t type = 0; type < 7; ++type)
        for_each_reachable(Board{}, type, Gravity{2, false}, [&](const Target& t) {
            const Shape& s = shape(t.orientation);
            CHECK(t.x + s.min_dx >= 0);
            CHECK(t.x + s.max_dx <= 9);
        });
}

TEST_CASE("full, empty and garbage boards: no crash, and no plan when nothing fits") {
    SearchInput in;
    in.level = LevelState{19, 0, 0, false};
    for (uint8_t type = 0; type < 7; ++type) {
        in.piece_type = type;
        in.board = Board{};
        CHECK(precompute(in).count > 0);
        Board full;
        for (int r = 0; r < kRows; ++r) full.rows[r] = 0x03FE;  // every row but column 0
        full.recompute_columns();
        in.board = full;
        const Precomputed p = precompute(in);
        CHECK(p.count == 0);
        CHECK_FALSE(finalize(p, kT).has_value());
    }
    std::mt19937 rng(7);
    for (int i = 0; i < 200; ++i) {
        Board b;
        for (int r = 0; r < kRows; ++r) b.rows[r] = static_cast<uint16_t>(rng() & 0x3FF & ~(1u << (rng() % 10)));
        b.recompute_columns();
        in.board = b;
        in.piece_type = static_cast<uint8_t>(i % 7);
        const Precomputed p = precompute(in);
        for (uint8_t k = 0; k < p.count; ++k) CHECK(p.candidates[k].target.landing_y >= -2);
    }
}

TEST_CASE("decisions are deterministic and ties keep the earliest placement") {
    SearchInput in;
    in.level = LevelState{19, 0, 0, false};
    in.piece_type = kO;
    const Precomputed a = precompute(in);
    const Precomputed b = precompute(in);
    CHECK(a == b);
    // With all-zero tables every placement costs the same: the first enumerated ones are kept, in
    // order (O: columns 5, 4, 3).
    EvalTables zero;
    const Precomputed z = precompute(in, zero);
    REQUIRE(z.count == 3);
    CHECK(z.candidates[0].target.x == 5);
    CHECK(z.candidates[1].target.x == 4);
    CHECK(z.candidates[2].target.x == 3);
    CHECK(finalize(z, kT) == 0);
    CHECK(finalize(z, kNoPreview) == 0);  // preview turned off: the best first-ply candidate
}

TEST_CASE("plan buttons: one shift and one rotation per odd frame, then Down") {
    Target t;
    t.shifts = 3;
    t.left = true;
    t.rotation_presses = 2;
    const uint8_t expected[8] = {tetris::BUTTON_LEFT | tetris::BUTTON_A, 0, tetris::BUTTON_LEFT | tetris::BUTTON_A, 0, tetris::BUTTON_LEFT,
                                 tetris::BUTTON_DOWN, tetris::BUTTON_DOWN, tetris::BUTTON_DOWN};
    for (int k = 1; k <= 8; ++k) CHECK(plan_buttons(t, k, 19) == expected[k - 1]);
    Target none;
    CHECK(plan_buttons(none, 1, 19) == tetris::BUTTON_DOWN);
    CHECK(plan_buttons(none, 0, 19) == 0);
    // From level 128 no soft drop: the shifts and rotations as before, then nothing.
    for (int k = 1; k <= 8; ++k)
        CHECK(plan_buttons(t, k, 128) == (k <= 5 ? expected[k - 1] : 0));
    CHECK(plan_buttons(none, 1, 127) == tetris::BUTTON_DOWN);
    CHECK(plan_buttons(none, 1, 255) == 0);
}

TEST_CASE("strength smoke test: a few level-19 games clear lines") {
    int lines = 0;
    for (uint32_t seed : {1u, 2u, 3u}) {
        GameState s = seeded_game(seed, 19);
        AiPlayer ai;
        for (int f = 0; f < 3000 && s.status == GameStatus::Playing && !is_topped_out(s); ++f)
            step(s, ai.buttons(view_of(s)));
        lines += static_cast<int>(lines_count(s));
    }
    CHECK(lines >= 30);
}
