// Cartridge-in-the-loop: the shipped AI bytes, playing the game model, press exactly the buttons
// the reference AI presses, frame by frame, and the games stay identical. The idle time of each
// frame varies (25 000 to 65 000 cycles: every search done in time, as identical games need) so
// the NMI interrupts the task at every kind of point; whether the cartridge keeps up with the
// real game's idle time is a benchmark figure (bench-cart, simulate --player cart).
#include "ai-reference/ai/ai_crash_rule.hpp"
#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/power_on.hpp"
#include "ai-reference/model/simulator.hpp"
#include "tools/harness/cart_loop.hpp"

#include <catch2/catch.hpp>
#include <set>

using namespace nestris;

namespace {

// Returns the Select presses, while a piece fell, that turned the preview away from its level's
// (for the lock's class: lock_preview_hidden).
int same_game(uint32_t seed, uint8_t level, int frames, uint32_t idle = 45'000) {
    GameState reference = seeded_game(seed, level);
    ai::AiPlayer ai;
    tools::CartLoopOptions options;
    options.idle_cycles = idle;
    options.idle_jitter = 20'000;
    tools::CartridgeInTheLoop cart(reference, options);
    int pieces = 0, against_level = 0;
    for (int f = 0; f < frames && reference.status == GameStatus::Playing && !is_topped_out(reference); ++f) {
        const PlayerView view = view_of(reference);
        const uint8_t want = ai.buttons(view);
        const bool shown = view.nextPiece < ai::kOrientations;
        against_level += (want & tetris::BUTTON_SELECT) && view.active && view.currentPiece < ai::kOrientations &&
                         shown != ai::preview_hidden_at(view.levelNumber, view.currentPiece);
        const uint8_t before = reference.playState;
        step(reference, want);
        const uint8_t got = cart.frame();
        INFO("seed " << seed << " level " << int(level) << " frame " << f << " piece " << pieces);
        REQUIRE(int(got) == int(want));
        REQUIRE(cart.state() == reference);
        if (before != tetris::PLAY_STATE_LOCK && reference.playState == tetris::PLAY_STATE_LOCK) ++pieces;
    }
    CHECK(pieces > 10);
    CHECK(cart.stats().late_pieces == 0);
    CHECK(cart.stats().fallback_plans == 0);
    CHECK(cart.stats().redone_searches == 0);  // every prediction of the board came true
    CHECK(cart.stats().max_stack <= 12);
    return against_level;
}

}  // namespace

TEST_CASE("cartridge in the loop plays the reference's game, level 19") { same_game(7, 19, 2500); }
// At 159 the level's preview is shown and a single that changes the tens digit may crash with it,
// not with the preview hidden: the driver hides it for such a lock (plan_flip), as the reference
// does (lock_preview_hidden), Select for Select.
TEST_CASE("cartridge in the loop plays the reference's game at level 159, a single that changes the tens made with the preview hidden") {
    CHECK(same_game(10, 159, 9000) >= 1);
}
TEST_CASE("cartridge in the loop plays the reference's game, level 29") { same_game(8, 29, 1500); }
TEST_CASE("cartridge in the loop plays the reference's game, level 5 (soft drop)") { same_game(9, 5, 2500); }

// The task's steps: the NMI comes in the middle of one and the game waits for its end, so no
// step may be long enough to delay the game's next frame. The game's own work in a frame (NMI and
// main loop) is at most ~15 900 cycles (measure-idle, original game): with steps of at most
// 7 000 cycles, ~6 900 of the 29 780 remain in the worst frame.
TEST_CASE("the AI task's steps stay within their budget") {
    constexpr uint64_t kStepBudget = 7000;
    for (const auto& [seed, level] : {std::pair<uint32_t, uint8_t>{11, 19}, {12, 29}, {13, 18}}) {
        GameState start = seeded_game(seed, level);
        tools::CartLoopOptions options;
        options.idle_cycles = 19'500;
        options.idle_jitter = 5'000;
        options.measure_steps = true;
        tools::CartridgeInTheLoop cart(start, options);
        for (int f = 0; f < 1500 && cart.state().status == GameStatus::Playing && !is_topped_out(cart.state()); ++f)
            cart.frame();
        INFO("seed " << seed << " level " << int(level) << ": longest step " << cart.stats().max_step << " cycles, from $"
                     << std::hex << cart.stats().max_step_from << " to $" << cart.stats().max_step_to);
        CHECK(cart.stats().frames > 1000);
        CHECK(cart.stats().max_step <= kStepBudget);
        CHECK(cart.stats().max_step > 1000);  // (the steps were timed)
    }
}

// The simulator's cartridge player (nestris-ai simulate --player cart) plays the same games as
// its reference player when it keeps up with the game.
TEST_CASE("the simulator's cartridge player plays the reference player's games") {
    SimulationConfig config;
    config.seeds = {21, 22};
    config.start_level = 19;
    config.max_frames = 1200;
    config.threads = 2;
    tools::CartLoopOptions options;
    options.idle_cycles = 30'000;
    std::vector<uint32_t> late(config.seeds.size() + 30, 99);
    config.on_game_end = [&](const GameResult& r, const GameState&, Player& p) {
        const tools::CartLoopStats& stats = dynamic_cast<tools::CartLoopPlayer&>(p).stats();
        late[r.seed] = stats.late_pieces + stats.fallback_plans;
    };
    config.make_player = [&](uint32_t seed) {
        return std::make_unique<tools::CartLoopPlayer>(seeded_game(seed, 19), options);
    };
    const std::vector<GameResult> cart = simulate(config);
    config.on_game_end = nullptr;
    config.make_player = [](uint32_t) { return std::make_unique<ai::AiPlayer>(); };
    const std::vector<GameResult> reference = simulate(config);
    for (std::size_t i = 0; i < cart.size(); ++i) {
        INFO("seed " << cart[i].seed);
        CHECK(cart[i].pieces > 20);
        CHECK(cart[i].pieces == reference[i].pieces);
        CHECK(cart[i].lines == reference[i].lines);
        CHECK(cart[i].score == reference[i].score);
        CHECK(late[cart[i].seed] == 0);
    }
}

// With too little idle time for some searches (the stack high, the pieces falling fast), a piece
// whose search is not done at its spawn gets the best placement found so far, on time: every
// piece is driven from its first input frame and lands where the task predicted (no search is
// ever redone), and the game goes on. (How well it goes on with so little time is a benchmark
// figure: 11 000 idle cycles a frame leave a level-19 search a few of its K candidates.)
TEST_CASE("a search not done at its piece's spawn gives way to its best placement so far, on time") {
    GameState start = seeded_game(31, 19);
    tools::CartLoopOptions options;
    options.idle_cycles = 11'000;
    options.idle_jitter = 3'000;
    tools::CartridgeInTheLoop cart(start, options);
    int f = 0;
    for (; f < 4000 && cart.state().status == GameStatus::Playing && cart.state().playState != tetris::PLAY_STATE_CURTAIN; ++f)
        cart.frame();
    INFO("frames " << f << ", lines " << lines_count(cart.state()) << ", fallback plans " << cart.stats().fallback_plans);
    CHECK(f >= 2000);
    CHECK(lines_count(cart.state()) >= 5);
    CHECK(cart.stats().fallback_plans >= 20);
    CHECK(cart.stats().late_pieces == 0);
    CHECK(cart.stats().redone_searches == 0);
}

// Below the real game's idle time (15 000 cycles a frame, not 18 700: the search is fast enough
// now that the real figure leaves too few such pieces in 15 000 frames to test; 17 500 did with
// K = 6, not with 5: 13 finished at the spawn, 51 at 15 000), some
// level-19 searches are not done at their piece's spawn. The rest of the second ply for the
// preview's type alone often fits in the spawn frame: those pieces get the full search's
// decision, the reference's, before their first input.
// A piece given the best placement so far is the only kind that may play otherwise.
TEST_CASE("a search cut short at its piece's spawn and finished there for the preview plays the reference's move") {
    GameState start = seeded_game(31, 19);
    tools::CartLoopOptions options;
    options.idle_cycles = 15'000;
    tools::CartridgeInTheLoop cart(start, options);
    ai::AiPlayer shadow;  // the reference's decision for the board the cartridge's game shows
    std::set<uint8_t> differing, given_best_so_far;
    uint32_t fallbacks = 0;
    int f = 0;
    for (; f < 15000 && cart.state().status == GameStatus::Playing && cart.state().playState != tetris::PLAY_STATE_CURTAIN; ++f) {
        const uint8_t piece = cart.state().spawnCount;
        const uint8_t want = shadow.buttons(view_of(cart.state()));
        if (cart.frame() != want) differing.insert(piece);
        if (cart.stats().fallback_plans != fallbacks) {
            given_best_so_far.insert(cart.state().spawnCount);
            fallbacks = cart.stats().fallback_plans;
        }
    }
    INFO("frames " << f << ", finished at the spawn " << cart.stats().finished_plans << ", best so far "
                   << cart.stats().fallback_plans << ", pieces that played otherwise " << differing.size());
    CHECK(f == 15000);
    CHECK(cart.stats().finished_plans >= 20);
    CHECK(cart.stats().late_pieces == 0);
    CHECK(cart.stats().redone_searches == 0);
    for (const uint8_t piece : differing) {
        INFO("piece " << int(piece));
        CHECK(given_best_so_far.count(piece) == 1);
    }
}

TEST_CASE("the cartridge loop's figures of many games add up") {
    using tools::CartLoopStats;
    CartLoopStats one{.frames = 100, .task_cycles = 1000, .max_overrun = 50, .late_pieces = 1, .fallback_plans = 2,
                      .finished_plans = 4, .redone_searches = 3, .max_stack = 7, .first_piece_input_max = 20, .max_step = 900,
                      .max_step_from = 0x1234};
    CartLoopStats two{.frames = 10, .task_cycles = 1, .max_overrun = 70, .fallback_plans = 5, .max_stack = 3,
                      .first_piece_input_max = 30, .max_step = 800, .max_step_from = 0x5678};
    one.first_input.add(4);
    one.first_input.add(6);
    two.first_input.add(11);
    one.merge(two);
    CHECK(one.frames == 110);
    CHECK(one.task_cycles == 1001);
    CHECK(one.max_overrun == 70);
    CHECK(one.late_pieces == 1);
    CHECK(one.fallback_plans == 7);
    CHECK(one.finished_plans == 4);
    CHECK(one.redone_searches == 3);
    CHECK(one.max_stack == 7);
    CHECK(one.first_input.count() == 3);
    CHECK(one.first_input.mean() == 7.0);
    CHECK(one.first_input.max() == 11);
    CHECK(one.first_piece_input_max == 30);
    CHECK(one.max_step == 900);
    CHECK(one.max_step_from == 0x1234);  // where the longest step was, kept with it
}
