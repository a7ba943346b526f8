// Hate mode (issue 53, AI_DESIGN.md "Hate mode"): the adversary's choice against a brute force,
// its tie-break, the model's hate game, and the games without it left as they were.
#include "ai-reference/ai/ai_hate.hpp"
#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/power_on.hpp"
#include "ai-reference/model/simulator.hpp"
#include "tests/cart_ai/positions.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>

using namespace nestris;
using namespace nestris::ai;

namespace {

// A type's lowest cost, swept here placement by placement (not through best_reply).
uint16_t swept_best(const Board& board, uint8_t type, const LevelState& level, const EvalSet& set) {
    const uint8_t g = ai::frames_per_drop(level.level);
    const bool danger = g != 1 && stack_height(board) >= set.danger_height;
    uint16_t best = kCostMax;
    for_each_reachable(board, type, Gravity{g, false}, [&](const Target& t) {
        const Placed p = place(board, t);
        if (!placement_lost(level, t, p)) best = std::min(best, placement_cost(p, set, g == 1, danger));
    });
    return best;
}

// The brute force: the seven lowest costs, then the first type (lowest index) of the highest.
uint8_t brute_force_type(const std::array<uint16_t, kPieceTypes>& best) {
    return static_cast<uint8_t>(std::max_element(best.begin(), best.end()) - best.begin());
}

std::array<uint16_t, kPieceTypes> seven_best(const Board& board, const LevelState& level, const EvalSet& set) {
    std::array<uint16_t, kPieceTypes> best{};
    for (uint8_t t = 0; t < kPieceTypes; ++t) best[t] = swept_best(board, t, level, set);
    return best;
}

LevelState level_at(const GameState& s) { return LevelState{s.levelNumber, s.lines[0], s.lines[1], s.gameType != 0}; }

}  // namespace

TEST_CASE("hate: the adversary deals the type whose best placement costs most, on 1 000 random positions") {
    std::mt19937 rng(53);
    const EvalSet& set = default_tables();
    std::set<uint8_t> dealt;
    for (int i = 0; i < 1000; ++i) {
        const SearchInput in = test::random_input(rng);
        const HateChoice c = hate_choice(in.board, in.level, set);
        const std::array<uint16_t, kPieceTypes> best = seven_best(in.board, in.level, set);
        INFO("position " << i << ", level " << int(in.level.level));
        REQUIRE(c.best == best);
        REQUIRE(c.type == brute_force_type(best));
        dealt.insert(c.type);
        SearchStats counted;
        const bool fast = ai::frames_per_drop(in.level.level) == 1;
        const bool danger = in_danger(in.board, ai::frames_per_drop(in.level.level), set);
        for (uint8_t t = 0; t < kPieceTypes; ++t)
            best_reply(in.board, t, Gravity{ai::frames_per_drop(in.level.level), false}, in.level, set, fast, danger,
                       counted);
        CHECK(c.stats.evaluations == counted.evaluations);  // the seven sweeps, counted whole
    }
    CHECK(dealt.size() >= 4);  // the positions ask for many types, not one
}

TEST_CASE("hate: among equal worst costs the lowest type index is dealt") {
    const EvalSet& set = default_tables();
    // Columns 1-8 filled up to row 1 (and a wall cell every other row): every piece but the I
    // (its spawn orientation lies in row 0) hits the stack on its first input frame. The other
    // six are lost, all kCostMax, and the tie goes to T, type 0.
    Board board;
    for (int row = 1; row < kRows; ++row) board.rows[row] = 0x1FE | (row % 2 ? 0x001 : 0x200);
    board.recompute_columns();
    const LevelState level{18, 0, 0, false};
    HateChoice c = hate_choice(board, level, set);
    REQUIRE(c.best[6] < kCostMax);
    for (uint8_t t = 0; t < 6; ++t) CHECK(c.best[t] == kCostMax);
    CHECK(c.type == 0);
    // Every type lost: T.
    for (int row = 0; row < kRows; ++row) board.rows[row] = 0x3FE;
    board.recompute_columns();
    c = hate_choice(board, level, set);
    CHECK(std::all_of(c.best.begin(), c.best.end(), [](uint16_t v) { return v == kCostMax; }));
    CHECK(c.type == 0);
    // Ties of finite costs, where random boards make them (the empty board's among them): the
    // first of the tied types.
    std::mt19937 rng(5353);
    int ties = 0;
    for (int i = 0; i < 3000 && ties < 20; ++i) {
        const SearchInput in = test::random_input(rng);
        c = hate_choice(in.board, in.level, set);
        const uint16_t worst = *std::max_element(c.best.begin(), c.best.end());
        if (worst == kCostMax || std::count(c.best.begin(), c.best.end(), worst) < 2) continue;
        ++ties;
        for (uint8_t t = 0; t < c.type; ++t) CHECK(c.best[t] < worst);
        CHECK(c.best[c.type] == worst);
    }
    CHECK(ties >= 1);
}

TEST_CASE("hate: the model's hate game deals each piece the adversary chose on the board then, the RNG the game's") {
    const NextPieceChoice choose = [](const GameState& s) { return hate_choice_at(s).type; };
    for (const uint8_t level : {uint8_t{0}, uint8_t{18}}) {
        GameState s = seeded_game(9, level);
        const GameState start = s;
        AiPlayer player;
        int spawns = 0;
        uint8_t first_preview = kOrientationHidden;
        for (int frame = 0; frame < 20000 && spawns < 120 && s.playState != tetris::PLAY_STATE_CURTAIN; ++frame) {
            const uint8_t held = player.buttons(view_of(s));
            GameState plain = s;
            step(plain, held);
            const bool spawned = step_choosing_next(s, held, choose);
            if (!spawned) {
                REQUIRE(s == plain);
                continue;
            }
            if (++spawns == 1) first_preview = s.currentPiece;
            // The board the game shows at the spawn: the last lock's, its lines cleared.
            const Board board = board_of(view_of(s));
            INFO("level " << int(level) << ", spawn " << spawns);
            REQUIRE(s.nextPiece ==
                    kSpawnOrientation[brute_force_type(seven_best(board, level_at(s), default_tables()))]);
            // Only the preview differs from the game's own frame: the RNG and the picker's memory
            // (spawnID, spawnCount) ran as the game's.
            plain.nextPiece = s.nextPiece;
            REQUIRE(s == plain);
        }
        CHECK(spawns >= 20);
        // The game's start deals its first two pieces as ever: the second is the start's preview.
        CHECK(first_preview == start.nextPiece);
    }
}

TEST_CASE("hate: simulate's hate games are deterministic, and games without it are the game's own as before") {
    SimulationConfig config;
    config.seeds = {5, 6};
    config.start_level = 18;
    config.max_lines = 40;
    config.threads = 1;
    config.make_player = [](uint32_t) { return std::make_unique<AiPlayer>(); };
    // Measured with the build before hate mode (nestris-ai simulate --player ai --seeds 5,6
    // --level 18 --max-lines 40 --csv F): lines, score, pieces, frames.
    const std::vector<GameResult> plain = simulate(config);
    REQUIRE(plain.size() == 2);
    CHECK(std::tuple(plain[0].lines, plain[0].score, plain[0].pieces, plain[0].frames) ==
          std::tuple(41u, 141622u, 107u, uint64_t{5263}));
    CHECK(std::tuple(plain[1].lines, plain[1].score, plain[1].pieces, plain[1].frames) ==
          std::tuple(40u, 86174u, 120u, uint64_t{5626}));

    config.choose_next = [](const GameState& s) { return hate_choice_at(s).type; };
    const std::vector<GameResult> once = simulate(config);
    config.threads = 2;
    const std::vector<GameResult> again = simulate(config);
    for (std::size_t i = 0; i < once.size(); ++i) {
        CHECK(std::tuple(once[i].lines, once[i].score, once[i].pieces, once[i].frames, once[i].end) ==
              std::tuple(again[i].lines, again[i].score, again[i].pieces, again[i].frames, again[i].end));
        CHECK(once[i].frames != plain[i].frames);  // other pieces, another game
    }
}
