// The AI's plans, pressed frame by frame into the frame-accurate game model, must lock the piece
// exactly where the AI predicted: the reachability rules are a subset of the game's own.
#include "ai-reference/ai/ai_crash_rule.hpp"
#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/game_model.hpp"
#include "ai-reference/model/power_on.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <random>

using namespace nestris;
using namespace nestris::ai;

namespace {

struct Tally {
    int pieces = 0;
    int mismatches = 0;
    int lines = 0;
};

// Steps the game with the AI until `frames` have passed or the game ends; after every lock
// compares the locked position with the decision's target.
void play_and_check(GameState& s, AiPlayer& ai, int frames, Tally& tally) {
    bool predicted = false;
    Target target;
    for (int f = 0; f < frames && s.status == GameStatus::Playing && !is_topped_out(s); ++f) {
        const PlayerView view = view_of(s);
        const uint8_t buttons = ai.buttons(view);
        if (view.active && ai.last_decision() && ai.last_decision()->chosen && !predicted) {
            predicted = true;
            target = ai.last_decision()->target();
        }
        const uint8_t before = s.playState;
        step(s, buttons);
        if (before == tetris::PLAY_STATE_ACTIVE && s.playState == tetris::PLAY_STATE_LOCK && predicted) {
            ++tally.pieces;
            const bool same = s.tetriminoX == target.x && s.tetriminoY == target.landing_y &&
                              s.currentPiece == target.orientation;
            if (!same) {
                ++tally.mismatches;
                UNSCOPED_INFO("locked at x=" << int(s.tetriminoX) << " y=" << int(s.tetriminoY) << " o="
                                             << int(s.currentPiece) << ", planned x=" << int(target.x)
                                             << " y=" << int(target.landing_y) << " o=" << int(target.orientation)
                                             << " level " << int(s.levelNumber));
            }
            predicted = false;
        }
    }
    tally.lines = static_cast<int>(lines_count(s));
}

// A random stack: column heights, holes in it, nothing near the spawn point.
void random_stack(GameState& s, std::mt19937& rng, int max_height) {
    s.playfield.fill(kTileEmpty);
    std::uniform_int_distribution<int> height(0, max_height);
    for (int c = 0; c < kPlayfieldWidth; ++c) {
        const int h = (c >= 3 && c <= 6) ? std::min(height(rng), 15) : height(rng);
        for (int r = kPlayfieldHeight - h; r < kPlayfieldHeight; ++r)
            if (rng() % 6 != 0 || r == kPlayfieldHeight - h) s.playfield[r * 10 + c] = kTileBlockA;
    }
    for (int r = 0; r < kPlayfieldHeight; ++r) {  // no full rows, as in a real game
        bool full = true;
        for (int c = 0; c < kPlayfieldWidth; ++c) full &= s.playfield[r * 10 + c] != kTileEmpty;
        if (full) s.playfield[r * 10 + static_cast<int>(rng() % 10)] = kTileEmpty;
    }
}

// Runs a game until a piece is under control after a normal spawn (past the first piece's hold).
GameState at_second_spawn(uint32_t seed, uint8_t level) {
    GameState s = seeded_game(seed, level);
    for (int f = 0; f < 2000 && !(s.playState == tetris::PLAY_STATE_SPAWN); ++f) step(s, tetris::BUTTON_DOWN);
    for (int f = 0; f < 10 && s.playState != tetris::PLAY_STATE_ACTIVE; ++f) step(s, 0);
    return s;
}

}  // namespace

TEST_CASE("AI plans lock where predicted in natural games at every speed") {
    for (uint8_t level : {0, 9, 15, 18, 19, 28, 29}) {
        GameState s = seeded_game(100 + level, level);
        AiPlayer ai;
        Tally t;
        play_and_check(s, ai, 6000, t);
        INFO("level " << int(level) << ": " << t.pieces << " pieces");
        CHECK(t.pieces > 20);
        CHECK(t.mismatches == 0);
    }
}

TEST_CASE("AI plans lock where predicted on random stacks with holes") {
    std::mt19937 rng(20261122);
    int pieces = 0;
    for (int trial = 0; trial < 120; ++trial) {
        const uint8_t level = std::array<uint8_t, 6>{0, 12, 18, 19, 29, 39}[trial % 6];
        GameState s = at_second_spawn(static_cast<uint32_t>(trial), level);
        REQUIRE(s.playState == tetris::PLAY_STATE_ACTIVE);
        random_stack(s, rng, 4 + trial % 14);
        if (!is_position_valid(s, s.tetriminoX, s.tetriminoY, s.currentPiece)) continue;
        AiPlayer ai;
        Tally t;
        play_and_check(s, ai, 400, t);
        pieces += t.pieces;
        INFO("trial " << trial << " level " << int(level));
        CHECK(t.mismatches == 0);
    }
    CHECK(pieces > 200);
}

// At the crash rule's soft-drop level the AI holds Down once its inputs are done, and a piece that
// falls long enough for it (soft_drop_in_time: every clear there) locks with the soft drop's 2-17
// points, the kind the rule takes (kSoftDropCycles, kSoftDropScore); the others may make fewer.
TEST_CASE("at the soft drop's level a piece that falls long enough locks with its points") {
    const std::vector<uint8_t> levels = soft_drop_levels(crash_rule());
    REQUIRE(!levels.empty());
    std::mt19937 rng(31);
    int in_time = 0, late = 0;
    for (int trial = 0; trial < 60; ++trial) {
        const uint8_t level = levels[static_cast<std::size_t>(trial) % levels.size()];
        REQUIRE(level >= hooks::AI_POLL_PAUSE_LEVEL);
        GameState s = at_second_spawn(static_cast<uint32_t>(trial), level);
        REQUIRE(s.playState == tetris::PLAY_STATE_ACTIVE);
        random_stack(s, rng, 2 + trial % 10);
        if (!is_position_valid(s, s.tetriminoX, s.tetriminoY, s.currentPiece)) continue;
        AiPlayer ai;
        Target target{};  // (the piece's decision, once it is chosen)
        bool chosen = false;
        for (int f = 0; f < 600 && s.status == GameStatus::Playing && !is_topped_out(s); ++f) {
            const PlayerView view = view_of(s);
            const uint8_t buttons = ai.buttons(view);
            if (view.active && !chosen && ai.last_decision() && ai.last_decision()->chosen) {
                target = ai.last_decision()->target();
                chosen = true;
            }
            const uint8_t before = s.playState, spawn_level = s.levelNumber;
            step(s, buttons);
            if (before != tetris::PLAY_STATE_ACTIVE || s.playState != tetris::PLAY_STATE_LOCK || !chosen) continue;
            if (spawn_level == level) {
                INFO("trial " << trial << ": x " << int(target.x) << " row " << int(target.landing_y) << ", "
                              << int(s.holdDownPoints) << " points");
                if (soft_drop_in_time(target.x, target.landing_y)) {
                    ++in_time;
                    CHECK(s.holdDownPoints >= 2);
                    CHECK(s.holdDownPoints <= 17);
                } else {
                    ++late;
                }
            }
            chosen = false;
        }
    }
    INFO(in_time << " locks low enough, " << late << " not");
    CHECK(in_time >= 100);
}
