// Hate mode's adversary on the cartridge (ai_hate, asm/hate.s) against the reference's
// hate_choice (AI_DESIGN.md "Hate mode"): the type dealt and its cost, bit for bit; and the mode
// in a game (the task's choice, the dealer's rule).
#include "ai-reference/ai/ai_hate.hpp"
#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/power_on.hpp"
#include "ai-reference/model/simulator.hpp"
#include "tests/cart_ai/positions.hpp"
#include "tools/harness/cart_ai.hpp"
#include "tools/harness/cart_loop.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>

using namespace nestris;

namespace {

// A stack 12-20 high with holes: the danger tables below level 29, many types lost.
ai::Board high_stack(std::mt19937& rng) {
    ai::Board b;
    for (int c = 0; c < ai::kColumns; ++c) {
        const int h = 12 + static_cast<int>(rng() % 9);
        for (int r = ai::kRows - h; r < ai::kRows; ++r)
            if (r == ai::kRows - h || rng() % 5) b.rows[r] |= static_cast<uint16_t>(1u << c);
    }
    for (auto& row : b.rows)
        if (row == ai::kFullRow) row &= static_cast<uint16_t>(~(1u << (rng() % 10)));
    b.recompute_columns();
    return b;
}

// Position i of the comparison: the search's random positions at their levels, and as many at
// level 19, at 29 (one row a frame: the fast tables), on high stacks (danger) and where a clear
// may crash the game (the crash rule's levels).
struct Position {
    ai::Board board;
    ai::LevelState level;
};
Position position(std::mt19937& rng, int i) {
    switch (i % 6) {
    case 0:
    case 1: {
        const ai::SearchInput in = test::random_input(rng);
        return {in.board, in.level};
    }
    case 2:
    case 3: {
        ai::SearchInput in = test::random_input(rng);
        in.level.level = i % 6 == 2 ? 19 : 29;
        return {in.board, in.level};
    }
    case 4: {
        ai::SearchInput in = test::random_input(rng);
        in.level.level = static_cast<uint8_t>(i % 12 < 6 ? 18 : 19);
        return {high_stack(rng), in.level};
    }
    default: {
        const ai::SearchInput in = test::clear_ready_input(rng);
        return {in.board, in.level};
    }
    }
}

}  // namespace

TEST_CASE("cartridge hate mode deals the reference's type on 1 200 positions (levels 0-255, 19, 29, high stacks, crash rule)") {
    std::mt19937 rng(5359);
    tools::CartAi cart;  // one machine for all: the search's terms and caches carried over, as in a game
    const ai::EvalSet& set = ai::default_tables();
    int mismatches = 0, danger = 0, fast = 0, lost = 0;
    std::set<uint8_t> dealt;
    for (int i = 0; i < 1200; ++i) {
        const Position p = position(rng, i);
        const ai::HateChoice want = ai::hate_choice(p.board, p.level, set);
        const tools::CartHateResult got = cart.hate(p.board, p.level);
        const bool same = got.type == want.type && got.cost == want.best[want.type];
        if (!same)
            UNSCOPED_INFO("position " << i << " at level " << int(p.level.level) << ": type " << int(got.type) << " cost "
                                      << got.cost << ", the reference's " << int(want.type) << " cost "
                                      << want.best[want.type]);
        mismatches += !same;
        const uint8_t g = ai::frames_per_drop(p.level.level);
        danger += ai::in_danger(p.board, g, set);
        fast += g == 1;
        lost += std::count(want.best.begin(), want.best.end(), ai::kCostMax) > 0;
        dealt.insert(want.type);
    }
    CHECK(mismatches == 0);
    INFO(danger << " in danger, " << fast << " at one row a frame, " << lost << " with a type lost, " << dealt.size()
                << " types dealt");
    // The positions ask for what the routine must get right.
    CHECK(danger >= 300);
    CHECK(fast >= 400);
    CHECK(lost >= 50);
    CHECK(dealt.size() >= 6);
}

TEST_CASE("cartridge hate mode breaks ties to the lowest type, T when every type is lost") {
    tools::CartAi cart;
    const ai::EvalSet& set = ai::default_tables();
    const ai::LevelState level{18, 0, 0, false};
    // Columns 1-8 filled up to row 1, a wall cell every other row: every type but the I is lost
    // (all kCostMax), and the tie goes to T, type 0.
    ai::Board board;
    for (int row = 1; row < ai::kRows; ++row) board.rows[row] = 0x1FE | (row % 2 ? 0x001 : 0x200);
    board.recompute_columns();
    tools::CartHateResult got = cart.hate(board, level);
    CHECK(got.type == 0);
    CHECK(got.cost == ai::kCostMax);
    // Every type lost: T.
    for (auto& row : board.rows) row = 0x3FE;
    board.recompute_columns();
    got = cart.hate(board, level);
    CHECK(got.type == 0);
    CHECK(got.cost == ai::kCostMax);
    // Ties of finite costs, where random boards make them: the first of the tied types, which
    // is not T (the rule at work past type 0).
    std::mt19937 rng(5353);
    int ties = 0, past_t = 0;
    for (int i = 0; i < 3000 && ties < 20; ++i) {
        const ai::SearchInput in = test::random_input(rng);
        const ai::HateChoice want = ai::hate_choice(in.board, in.level, set);
        const uint16_t worst = *std::max_element(want.best.begin(), want.best.end());
        if (worst == ai::kCostMax || std::count(want.best.begin(), want.best.end(), worst) < 2) continue;
        ++ties;
        past_t += want.type != 0;
        got = cart.hate(in.board, in.level);
        INFO("tie " << ties << " at level " << int(in.level.level));
        CHECK(got.type == want.type);
        CHECK(got.cost == worst);
    }
    CHECK(ties >= 1);
    CHECK(past_t >= 1);
}

TEST_CASE("cartridge hate mode deals the same when it yields at every step, its stack frames moved each time") {
    // A beaten type's sweep is dropped by setting the stack pointer back (hate_type_beaten): as
    // the task runs it, between yields the game's stack may put the task's frames elsewhere.
    std::mt19937 rng(5361);
    tools::CartAi cart;
    int mismatches = 0, most_steps = 0;
    for (int i = 0; i < 60; ++i) {
        const Position p = position(rng, i);
        const tools::CartHateResult once = cart.hate(p.board, p.level);
        int steps = 0;
        const tools::CartHateResult stepped = cart.hate_yielding(
            p.board, p.level, [i](int step) { return static_cast<uint8_t>(0xFD - (step * 7 + i) % 48); }, &steps);
        most_steps = std::max(most_steps, steps);
        if (stepped.type != once.type || stepped.cost != once.cost)
            UNSCOPED_INFO("position " << i << ": type " << int(stepped.type) << " against " << int(once.type));
        mismatches += stepped.type != once.type || stepped.cost != once.cost;
    }
    CHECK(mismatches == 0);
    CHECK(most_steps >= 100);  // (a step an evaluation, about)
}

TEST_CASE("cartridge search equals the reference after hate mode's choice changed the search's terms") {
    // ai_hate sets the terms (tables, caches, gravity) at the board's level: a search after it,
    // at another speed or stack, must set its own.
    std::mt19937 rng(5360);
    tools::CartAi cart;
    int mismatches = 0;
    for (int i = 0; i < 40; ++i) {
        ai::SearchInput in = test::random_input(rng);
        ai::LevelState other = in.level;
        other.level = i % 2 ? 29 : 18;
        cart.hate(i % 4 < 2 ? high_stack(rng) : in.board, other);
        const ai::Precomputed ref = ai::precompute(in);
        const tools::CartSearchResult got = cart.precompute(in);
        const tools::ReferenceChoice choice = tools::reference_choice(ref);
        bool same = got.count == ref.count;
        for (uint8_t k = 0; same && k < ref.count; ++k) same = got.candidates[k].cost == ref.candidates[k].cost;
        for (uint8_t t = 0; same && ref.count && t < ai::kPieceTypes; ++t) same = choice.best_total[t] == got.best_total[t];
        if (!same) UNSCOPED_INFO("position " << i << " at level " << int(in.level.level) << " differs");
        mismatches += !same;
    }
    CHECK(mismatches == 0);
}

// The whole mode: the cartridge in the loop (its task choosing, hate_deal's rule in the model)
// against the model stepped with the reference AI and the reference's adversary. The idle time
// of each frame leaves every search and choice in time, so the games must be identical, and every
// preview after the game's first two the adversary's.
TEST_CASE("cartridge in the loop deals the reference's hate-mode game, frame for frame") {
    for (const auto& [seed, level] : {std::pair<uint32_t, uint8_t>{3, 19}, {11, 0}, {4, 18}}) {
        GameState reference = seeded_game(seed, level);
        ai::AiPlayer ai;
        tools::CartLoopOptions options;
        options.idle_cycles = 45'000;
        options.idle_jitter = 20'000;
        options.hate = true;
        tools::CartridgeInTheLoop cart(reference, options);
        const NextPieceChoice adversary = [](const GameState& s) { return ai::hate_choice_at(s).type; };
        int spawns = 0;
        for (int f = 0; f < 20'000 && reference.status == GameStatus::Playing && !is_topped_out(reference); ++f) {
            const uint8_t want = ai.buttons(view_of(reference));
            spawns += step_choosing_next(reference, want, adversary);
            const uint8_t got = cart.frame();
            INFO("seed " << seed << " level " << int(level) << " frame " << f << " spawn " << spawns);
            REQUIRE(int(got) == int(want));
            REQUIRE(cart.state() == reference);
        }
        INFO("seed " << seed << " level " << int(level));
        CHECK(is_topped_out(reference));  // (the adversary wins, within 20 000 frames)
        CHECK(spawns >= 20);
        CHECK(cart.stats().hate_dealt == static_cast<uint32_t>(spawns));
        CHECK(cart.stats().hate_kept == 0);
        CHECK(cart.stats().redone_searches == 0);
        CHECK(cart.stats().max_stack <= 12);
    }
}
