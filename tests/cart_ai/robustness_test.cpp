// The cartridge AI when the game is not what it expects: no room left on the board, a piece a
// human already moved, the board changed under it; and the game's RAM it leaves alone. In each
// case the shipped bytes run in the loop (cart_loop.hpp) against the game model; "no wrong move"
// means a piece gets the reference's plan for the game as it is, or no input at all.
#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/power_on.hpp"
#include "patcher/cart_image.hpp"
#include "tools/harness/cart_loop.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace nestris;

namespace {

constexpr uint8_t kBlock = 0x7B;

bool game_on(const GameState& s) { return s.status == GameStatus::Playing && s.playState != tetris::PLAY_STATE_CURTAIN; }

tools::CartLoopOptions roomy() {
    tools::CartLoopOptions options;
    // Every search in time, so the decisions are the reference's: more than a frame of the real
    // game holds (29 780 cycles in all), the loop's time being a model's.
    options.idle_cycles = 60'000;
    return options;
}

// Plays the reference AI until the given spawn count, then `human` frames of the given buttons.
GameState reference_until(uint32_t seed, uint8_t spawns, const std::vector<uint8_t>& human = {}) {
    GameState s = seeded_game(seed, 19);
    ai::AiPlayer ai;
    while (game_on(s) && s.spawnCount != spawns) step(s, ai.buttons(view_of(s)));
    for (uint8_t b : human) step(s, b);
    return s;
}

// From the `skip`-th spawn on, the cartridge presses exactly what a fresh reference AI presses
// on the cartridge's own game. Returns the frames compared.
int same_as_reference_after(tools::CartridgeInTheLoop& cart, int skip, int frames) {
    ai::AiPlayer shadow;
    int spawns = 0, compared = 0;
    for (int f = 0; f < frames && game_on(cart.state()); ++f) {
        const uint8_t before = cart.state().spawnCount;
        const uint8_t want = shadow.buttons(view_of(cart.state()));
        const uint8_t got = cart.frame();
        if (spawns >= skip) {
            INFO("frame " << f << " spawns " << spawns);
            REQUIRE(int(got) == int(want));
            ++compared;
        }
        if (cart.state().spawnCount != before) ++spawns;
    }
    return compared;
}

}  // namespace

TEST_CASE("a board with no room: no crash, the game ends as it would") {
    for (int first_row : {2, 1}) {
        GameState start = seeded_game(41, 19);
        for (int r = first_row; r < 20; ++r)
            for (int c = 0; c < 10; ++c) start.playfield[r * 10 + c] = c == (r * 3) % 10 ? kTileEmpty : kBlock;
        GameState reference = start;
        ai::AiPlayer ai;
        tools::CartridgeInTheLoop cart(start, roomy());
        int f = 0;
        for (; f < 2000 && game_on(reference); ++f) {
            const uint8_t want = ai.buttons(view_of(reference));
            step(reference, want);
            INFO("board from row " << first_row << ", frame " << f);
            REQUIRE(int(cart.frame()) == int(want));
            REQUIRE(cart.state() == reference);
        }
        INFO("board from row " << first_row);
        CHECK(reference.playState == tetris::PLAY_STATE_CURTAIN);  // the game ended: topped out
        CHECK(f < 2000);
        if (first_row == 1) {  // the piece cannot move at all: the AI says so (no plan), and waits
            const CartImage& image = shipped_cart();
            CHECK(cart.machine().read(image.require("plan_ok")) == image.require("PLAN_LOST"));
        }
    }
}

TEST_CASE("a board changed under the AI: the plan is made again, never a wrong move") {
    tools::CartridgeInTheLoop cart(reference_until(42, 6), roomy());
    // Play on until the piece is halfway down, then put a garbage row in the bottom row.
    while (!(cart.state().playState == tetris::PLAY_STATE_ACTIVE && cart.state().tetriminoY >= 8)) cart.frame();
    GameState changed = cart.state();
    const auto old_row = std::vector<uint8_t>(changed.playfield.begin() + 190, changed.playfield.begin() + 200);
    for (int c = 0; c < 10; ++c) changed.playfield[190 + c] = c == 4 ? kTileEmpty : kBlock;
    REQUIRE(std::vector<uint8_t>(changed.playfield.begin() + 190, changed.playfield.begin() + 200) != old_row);
    cart.replace_state(changed);
    // The piece in the air lands as planned; the next one finds another board than predicted: its
    // search is redone, too late for it (it gets no input); the one after gets the best of a
    // search cut short, or no input when that search had barely begun; from the one after that
    // the decisions are the reference's again.
    const int compared = same_as_reference_after(cart, 3, 1500);
    CHECK(compared > 300);
    CHECK(cart.stats().redone_searches == 1);
    CHECK(cart.stats().late_pieces >= 1);
    CHECK(cart.stats().late_pieces <= 2);
}

TEST_CASE("a piece a human already moved: no input for it, then the AI plays on") {
    // A human takes the 6th piece: Left held for 20 frames (DAS) and A pressed; then the AI.
    std::vector<uint8_t> human(20, tetris::BUTTON_LEFT);
    human.push_back(tetris::BUTTON_A);
    GameState start = reference_until(43, 6, human);
    REQUIRE(start.playState == tetris::PLAY_STATE_ACTIVE);
    REQUIRE(start.tetriminoX < kSpawnX);
    tools::CartridgeInTheLoop cart(start, roomy());
    const uint8_t moved_piece = start.spawnCount;
    while (game_on(cart.state()) && cart.state().spawnCount == moved_piece) CHECK(int(cart.frame()) == 0);
    // The AI took the piece for one at its spawn, and predicted it falling straight: the next
    // search is redone (that piece gets no input), and from two pieces on it plays as the reference.
    const int compared = same_as_reference_after(cart, 2, 1500);
    CHECK(compared > 300);
    CHECK(cart.stats().redone_searches <= 1);
}

TEST_CASE("the AI writes no byte of the game's RAM but its own and its driver's") {
    const CartImage& image = shipped_cart();
    std::vector<bool> owned(0x800, false);
    for (const CartRegion& r : image.regions)
        if (r.is_ram)
            for (uint32_t a = r.start; a < r.start + r.size && a < 0x800; ++a) owned[a] = true;
    for (uint16_t a = 0x100; a < 0x200; ++a) owned[a] = true;  // the stack
    // What the console's NMI does in the loop's stand-in for it, and the driver's outputs.
    for (const char* name : {"frameCounter", "verticalBlankingInterval", "heldButtons_player1",
                             "newlyPressedButtons_player1"})
        owned[image.require(name)] = true;
    owned[image.require("frameCounter") + 1] = true;

    std::vector<uint8_t> before(0x800);
    uint64_t frames = 0, foreign = 0;
    uint16_t first_foreign = 0;
    tools::CartLoopOptions options;
    options.idle_cycles = 19'500;  // the game's own idle time: fallbacks and late pieces included
    options.around_idle = [&](const emu::FlatMachine& m, bool after) {
        for (uint16_t a = 0; a < 0x800; ++a) {
            if (!after) {
                before[a] = m.read(a);
            } else if (!owned[a] && m.read(a) != before[a]) {
                if (!foreign++) first_foreign = a;
            }
        }
        frames += after;
    };
    for (const auto& [seed, level] : {std::pair<uint32_t, uint8_t>{44, 19}, {45, 29}, {46, 5}}) {
        tools::CartridgeInTheLoop cart(seeded_game(seed, level), options);
        for (int f = 0; f < 6000 && game_on(cart.state()); ++f) cart.frame();
    }
    INFO("first foreign write at $" << std::hex << first_foreign);
    CHECK(frames > 6000);
    CHECK(foreign == 0);
}
