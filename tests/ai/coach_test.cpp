// The coach's grade (ai_coach.hpp): a person's lock against the search's decision, in the
// search's own cost, and its class. Where the person locks on one of the search's candidates, the
// grade's cost is the search's own figure for that candidate.
#include "ai-reference/ai/ai_coach.hpp"

#include <array>
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

// The search's best total with `next` as the reply (the cartridge's best_total of that type).
uint16_t best_total(const Precomputed& pre, uint8_t next) {
    uint16_t best = kCostMax;
    for (uint8_t k = 0; k < pre.count; ++k)
        best = std::min(best, saturating_add(pre.candidates[k].lines_cost, pre.best2[k][next]));
    return best;
}

TEST_CASE("coach: a lock where the AI decided is a match: best, with no miss") {
    std::mt19937 rng(33);
    for (int i = 0; i < 60; ++i) {
        const SearchInput in = random_input(rng);
        const uint8_t next = static_cast<uint8_t>(rng() % kPieceTypes);
        const bool shown = i % 3 != 0;
        const Precomputed pre = precompute(in);
        const std::optional<uint8_t> k = finalize(pre, shown ? next : kNoPreview);
        REQUIRE(k);
        const std::optional<CoachGrade> g = grade_lock(in, next, shown, pre.candidates[*k].target);
        REQUIRE(g);
        CHECK(g->matched);
        CHECK(g->miss == 0);
        CHECK(g->lock_class == LockClass::Best);
        CHECK(g->ai_total == best_total(pre, next));
        if (shown) CHECK(g->ai_total == saturating_add(pre.candidates[*k].lines_cost, pre.best2[*k][next]));
    }
}

// Off the danger height on both boards (the search's and the next piece's), the next piece's
// search costs its placements as the second ply did: the person's total on a candidate is then
// the search's own figure for it.
TEST_CASE("coach: a lock on another candidate costs what the search found for it, and misses by the difference") {
    std::mt19937 rng(34);
    int graded = 0, classes_seen = 0;
    std::array<int, kLockClasses> by_class{};
    for (int i = 0; i < 120; ++i) {
        const SearchInput in = random_input(rng);
        if (in.level.level >= 29) continue;  // (at one row a frame the reply's gravity is the same too, but
                                             // the crash rule reads the level: kept to plain levels)
        const uint8_t next = static_cast<uint8_t>(rng() % kPieceTypes);
        const Precomputed pre = precompute(in);
        const std::optional<uint8_t> k = finalize(pre, next);
        REQUIRE(k);
        const uint8_t g = ai::frames_per_drop(in.level.level);
        for (uint8_t j = 0; j < pre.count; ++j) {
            if (j == *k) continue;
            const Placed placed = place(in.board, pre.candidates[j].target);
            if (in_danger(in.board, g, default_tables()) ||
                in_danger(placed.board, ai::frames_per_drop(after_lines(in.level, placed.lines).level), default_tables()))
                continue;
            const std::optional<CoachGrade> grade = grade_lock(in, next, true, pre.candidates[j].target);
            REQUIRE(grade);
            const uint16_t total = saturating_add(pre.candidates[j].lines_cost, pre.best2[j][next]);
            CHECK_FALSE(grade->matched);
            CHECK(grade->player_total == total);
            CHECK(grade->player_total >= grade->ai_total);  // the decision is the cheapest candidate
            CHECK(grade->miss == grade->player_total - grade->ai_total);
            CHECK(grade->lock_class == lock_class(grade->miss));
            ++by_class[static_cast<uint8_t>(grade->lock_class)];
            ++graded;
        }
    }
    for (int n : by_class) classes_seen += n > 0;
    CHECK(graded >= 80);
    CHECK(classes_seen >= 4);
}

TEST_CASE("coach: a miss's class by its thresholds, and each class's name and label") {
    CHECK(lock_class(0) == LockClass::Best);
    for (uint8_t c = 0; c < kClassMissMax.size(); ++c) {
        CHECK(lock_class(kClassMissMax[c]) == static_cast<LockClass>(c));
        CHECK(lock_class(static_cast<uint16_t>(kClassMissMax[c] + 1)) == static_cast<LockClass>(c + 1));
        if (c) CHECK(kClassMissMax[c] > kClassMissMax[c - 1]);
    }
    CHECK(lock_class(kCostMax) == LockClass::Blunder);
    CHECK(lock_class(473) == LockClass::Blunder);  // a new hole's cost (hole_first) is a blunder
    CHECK(class_name(LockClass::Inaccuracy) == "inaccuracy");
    for (uint8_t c = 0; c < kLockClasses; ++c) CHECK(class_label(static_cast<LockClass>(c)).size() == 4);
    CHECK(kClassPoints[0] == 10);
    CHECK(kClassPoints[kLockClasses - 1] == 0);
}

TEST_CASE("coach: a lock that tops out costs the top-out cost, a blunder, and the AI with nothing reachable grades nothing") {
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
    const std::optional<CoachGrade> g = grade_lock(in, 1, true, landed);
    REQUIRE(g);
    CHECK(g->player_total == kCostMax);
    CHECK_FALSE(g->matched);
    CHECK(g->ai_total < kCostMax);
    CHECK(g->miss == kCostMax - g->ai_total);
    CHECK(g->lock_class == LockClass::Blunder);
    SearchInput full;
    for (int r = 0; r < kRows; ++r) full.board.rows[r] = static_cast<uint16_t>(0x3FF & ~(r % 2 ? 1u : 2u));
    full.board.recompute_columns();
    full.level.level = 19;
    CHECK_FALSE(grade_lock(full, 1, true, landed));
    CHECK_THROWS_AS(grade_lock(in, kNoPreview, true, landed), std::invalid_argument);
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

TEST_CASE("coach: the accuracy is the classes' points over the locks classed, in per cent rounded down") {
    CHECK(coach_accuracy(10, 1) == 100);
    CHECK(coach_accuracy(9 + 7, 2) == 80);
    CHECK(coach_accuracy(10 + 10 + 3, 3) == 76);  // 23 / 30
    CHECK(coach_accuracy(0, 5) == 0);
    CHECK(coach_accuracy(3276 * 10, 3276) == 100);
    CHECK_THROWS_AS(coach_accuracy(0, 0), std::invalid_argument);
    CHECK_THROWS_AS(coach_accuracy(0, 3277), std::invalid_argument);
}
