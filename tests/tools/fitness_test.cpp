// The tuner's fitness functions (tools/harness/ai_protocol.hpp): what each one rewards.
#include "tools/harness/ai_protocol.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>

using nestris::tools::fitness_of;
using nestris::tools::GameResult;

namespace {
GameResult game(uint32_t score, uint32_t lines, bool topped_out, uint32_t line_score = 0) {
    GameResult r;
    r.score = score;
    r.lines = lines;
    r.topped_out = topped_out;
    r.line_score = line_score;
    return r;
}
}  // namespace

TEST_CASE("the goal fitness counts max-outs up and top-outs down, in percentage points") {
    const std::vector<GameResult> games = {game(999999, 230, false), game(999999, 231, false),
                                           game(800000, 230, false), game(300000, 120, true)};
    // (2 max-outs - 1 top-out) of 4 games = 25 points, plus the capped mean / 10^7.
    const double capped_mean = (999999.0 * 2 + 800000 + 300000) / 4;
    CHECK(fitness_of("goal", games) == Approx(25.0 + capped_mean / 1e7));
    // A top-out turned into a survival that does not max out gains a whole game's share.
    std::vector<GameResult> better = games;
    better[3] = game(700000, 230, false);
    CHECK(fitness_of("goal", better) - fitness_of("goal", games) > 24.9);
    // The score breaks ties only: it weighs less than one game in 1 000.
    std::vector<GameResult> thousand(1000, game(999999, 230, false));
    std::vector<GameResult> one_less = thousand;
    one_less[0] = game(999000, 230, false);
    CHECK(fitness_of("goal", one_less) < fitness_of("goal", thousand));
    std::vector<GameResult> low_scores(1000, game(200000, 230, false));
    low_scores[0] = game(999999, 230, false);
    std::vector<GameResult> none(1000, game(990000, 230, false));
    CHECK(fitness_of("goal", low_scores) > fitness_of("goal", none));
}

TEST_CASE("the safe fitness counts each top-out four times") {
    const std::vector<GameResult> games = {game(999999, 230, false), game(999999, 231, false),
                                           game(800000, 230, false), game(300000, 120, true)};
    const double capped_mean = (999999.0 * 2 + 800000 + 300000) / 4;
    // (2 max-outs - 4 x 1 top-out) of 4 games = -50 points.
    CHECK(fitness_of("safe", games) == Approx(-50.0 + capped_mean / 1e7));
    // One top-out fewer is worth more than one max-out more.
    std::vector<GameResult> fewer_topouts = games, more_maxouts = games;
    fewer_topouts[3] = game(700000, 230, false);
    more_maxouts[2] = game(999999, 230, false);
    CHECK(fitness_of("safe", fewer_topouts) > fitness_of("safe", more_maxouts));
}

TEST_CASE("the other fitnesses: capped mean, survival, seed 004's best third, lines") {
    const std::vector<GameResult> games = {game(1200000, 230, false, 1300000), game(600000, 115, true, 500000),
                                           game(900000, 230, false, 900000)};
    CHECK(fitness_of("capped", games) == Approx((999999.0 + 600000 + 900000) / 3));
    CHECK(fitness_of("survival", games) ==
          Approx((999999.0 + 600000 + 900000) / 3 + 600000.0 * (230 + 115 + 230) / 230 / 3));
    CHECK(fitness_of("best-third", games) == Approx(1300000.0));  // the best 1 of 3
    CHECK(fitness_of("lines", games) == Approx((230.0 + 115 + 230) / 3));
    CHECK_THROWS_AS(fitness_of("bogus", games), std::invalid_argument);
    CHECK_THROWS_AS(fitness_of("capped", {}), std::invalid_argument);
}
