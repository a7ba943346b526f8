// The coach's grade (ai_coach.hpp): a person's lock against the search's decision, in the
// search's own cost. Where the person locks on one of the search's candidates, the grade's cost
// is the search's own figure for that candidate.
#include "ai-reference/ai/ai_coach.hpp"

#include <random>
#include <stdexcept>

#include <catch2/catch.hpp>

using namespace nestris;
using namespace nestris::ai;

namespace {

// A random stack: each of columns 0-8 up to `max_height` high with a hole now and then; no full row.
Board random_board(std::mt19937& rng, int max_height) {
    Board b;
    std::uniform_int_distribution<int> height(0, max_height);
    for (int c = 0; c < 9; ++c) {
        const int h = height(rng);
        for (int r = kRows - h; r < kRows; ++r)
            if (r == kRows - h || rng() % 6 != 0) b.rows[r] |= static_cast<uint16_t>(1u << c);
    }
    b.recompute_columns();
    return b;
}

SearchInput random_input(std::mt19937& rng) {
    SearchInput in;
    in.board = random_board(rng, 10);
    in.piece_type = static_cast<uint8_t>(rng() % kPieceTypes);
    static const uint8_t levels[] = {0, 9, 18, 19, 29, 140, 200};
    in.level.level = levels[rng() % 7];
    return in;
}

}  // namespace

TEST_CASE("coach: a lock where the AI would have locked is a match, with no miss") {
    std::mt19937 rng(33);
    for (int i = 0; i < 60; ++i) {
        const SearchInput in = random_input(rng);
        const uint8_t preview = static_cast<uint8_t>(rng() % kPieceTypes);
        const Precomputed pre = precompute(in);
        const std::optional<uint8_t> k = finalize(pre, preview);
        REQUIRE(k);
        const std::optional<CoachGrade> g = grade_lock(in, preview, pre.candidates[*k].target);
        REQUIRE(g);
        CHECK(g->matched);
        CHECK(g->miss == 0);
        CHECK(g->player_total == g->ai_total);
        CHECK(g->ai_total == saturating_add(pre.candidates[*k].lines_cost, pre.best2[*k][preview]));
    }
}

TEST_CASE("coach: a lock on another candidate costs what the search found for it, and misses by the difference") {
    std::mt19937 rng(34);
    int graded = 0;
    for (int i = 0; i < 80; ++i) {
        const SearchInput in = random_input(rng);
        const uint8_t preview = static_cast<uint8_t>(rng() % kPieceTypes);
        const Precomputed pre = precompute(in);
        const std::optional<uint8_t> k = finalize(pre, preview);
        REQUIRE(k);
        for (uint8_t j = 0; j < pre.count; ++j) {
            if (j == *k) continue;
            const std::optional<CoachGrade> g = grade_lock(in, preview, pre.candidates[j].target);
            REQUIRE(g);
            const uint16_t total = saturating_add(pre.candidates[j].lines_cost, pre.best2[j][preview]);
            CHECK_FALSE(g->matched);
            CHECK(g->player_total == total);
            CHECK(g->player_total >= g->ai_total);  // the decision is the cheapest candidate
            CHECK(g->miss == g->player_total - g->ai_total);
            ++graded;
        }
    }
    CHECK(graded >= 80);
}

TEST_CASE("coach: with the preview hidden the grade is on the first ply's cost") {
    std::mt19937 rng(35);
    int graded = 0;
    for (int i = 0; i < 60; ++i) {
        const SearchInput in = random_input(rng);
        const Precomputed pre = precompute(in);
        const std::optional<CoachGrade> best = grade_lock(in, kNoPreview, pre.candidates[0].target);
        REQUIRE(best);
        CHECK(best->matched);
        CHECK(best->ai_total == pre.candidates[0].cost);
        if (pre.count < 2) continue;  // the margin kept one
        const std::optional<CoachGrade> other = grade_lock(in, kNoPreview, pre.candidates[1].target);
        REQUIRE(other);
        CHECK_FALSE(other->matched);
        CHECK(other->player_total == pre.candidates[1].cost);
        CHECK(other->miss == pre.candidates[1].cost - pre.candidates[0].cost);
        ++graded;
    }
    CHECK(graded >= 20);
}

TEST_CASE("coach: a lock that tops out costs the top-out cost, the AI with nothing reachable grades nothing") {
    SearchInput in;
    for (int r = 1; r < kRows; ++r) in.board.rows[r] = 1u << 5;  // column 5 up to row 1
    in.board.recompute_columns();
    in.piece_type = 0;  // T
    in.level.level = 19;
    Target landed;  // the T as it spawned, dropped onto column 5 (a person's lock need not be the AI's reach)
    landed.orientation = rotations(0).choice[0].orientation;
    landed.x = 5;
    landed.landing_y = static_cast<int8_t>(landing_row(in.board, landed.orientation, 5));
    REQUIRE(place(in.board, landed).topped_out);
    const std::optional<CoachGrade> g = grade_lock(in, 1, landed);
    REQUIRE(g);
    CHECK(g->player_total == kCostMax);
    CHECK_FALSE(g->matched);
    CHECK(g->ai_total < kCostMax);
    CHECK(g->miss == kCostMax - g->ai_total);
    SearchInput full;
    for (int r = 0; r < kRows; ++r) full.board.rows[r] = static_cast<uint16_t>(0x3FF & ~(r % 2 ? 1u : 2u));
    full.board.recompute_columns();
    full.level.level = 19;
    CHECK_FALSE(grade_lock(full, 1, landed));
}

TEST_CASE("coach: the share shown is the matched locks' per cent, rounded down") {
    // coach_share takes the cartridge's steps (100 additions to a remainder kept below the total);
    // they give the quotient for every count a game below level 128 reaches.
    for (uint32_t total = 1; total <= 400; ++total)
        for (uint32_t matched = 0; matched <= total; ++matched)
            REQUIRE(coach_share(static_cast<uint16_t>(matched), static_cast<uint16_t>(total)) == matched * 100 / total);
    std::mt19937 rng(36);
    for (int i = 0; i < 20000; ++i) {
        const uint32_t total = 1 + rng() % 0x7FFF, matched = rng() % (total + 1);
        REQUIRE(coach_share(static_cast<uint16_t>(matched), static_cast<uint16_t>(total)) == matched * 100 / total);
    }
    CHECK(coach_share(0x7FFF, 0x7FFF) == 100);
    CHECK_THROWS_AS(coach_share(0, 0), std::invalid_argument);
    CHECK_THROWS_AS(coach_share(3, 2), std::invalid_argument);
    CHECK_THROWS_AS(coach_share(1, 0x8000), std::invalid_argument);
}
