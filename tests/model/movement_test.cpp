// Shifting (DAS), rotation, gravity and soft drop, frame by frame, with expectations worked out
// from the game's shift_tetrimino / rotate_tetrimino / drop_tetrimino.
#include "tests/model/model_test_support.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace nestris;
using nestris::test::fresh_piece;

TEST_CASE("movement: a held direction moves at once, after 16 frames, then every 6") {
    GameState s = fresh_piece(orient::tDown, 0);
    std::vector<int> move_frames;
    uint8_t x = s.tetriminoX;
    for (int f = 1; f <= 40; ++f) {
        step(s, tetris::BUTTON_RIGHT);
        if (s.tetriminoX != x) move_frames.push_back(f);
        x = s.tetriminoX;
    }
    // 5 -> 6 (new press), 7 (frame 17), 8 (frame 23); x = 9 would put T's right cell in column 10.
    CHECK(move_frames == std::vector<int>{1, 17, 23});
    CHECK(s.tetriminoX == 8);
    // Blocked: the counter stays charged (16) and the next frame tries again.
    CHECK(s.autorepeatX == 16);
}

TEST_CASE("movement: tapping moves on every new press, the fastest being every other frame") {
    GameState s = fresh_piece(orient::tDown, 0);
    for (int i = 0; i < 3; ++i) {
        step(s, tetris::BUTTON_LEFT);
        step(s, 0);
    }
    CHECK(s.tetriminoX == 2);
    // Holding without a break moves only once in those frames.
    GameState h = fresh_piece(orient::tDown, 0);
    for (int i = 0; i < 6; ++i) step(h, tetris::BUTTON_LEFT);
    CHECK(h.tetriminoX == 4);
}

TEST_CASE("movement: Down blocks shifting, and a new press while charged resets the charge") {
    GameState s = fresh_piece(orient::tDown, 0);
    step(s, tetris::BUTTON_RIGHT | tetris::BUTTON_DOWN);
    CHECK(s.tetriminoX == 5);
    GameState t = fresh_piece(orient::tDown, 0);
    for (int i = 0; i < 10; ++i) step(t, tetris::BUTTON_RIGHT);  // moved once, counter at 9
    CHECK(t.autorepeatX == 9);
    step(t, tetris::BUTTON_RIGHT | tetris::BUTTON_LEFT);  // Left newly pressed: counter 0, Right wins
    CHECK(t.autorepeatX == 0);
    CHECK(t.tetriminoX == 7);
}

TEST_CASE("rotation: on new presses of A (clockwise) and B (counter-clockwise) only") {
    GameState s = fresh_piece(orient::tDown, 0);
    step(s, tetris::BUTTON_A);
    CHECK(s.currentPiece == orient::tLeft);
    step(s, tetris::BUTTON_A);  // still held: nothing
    CHECK(s.currentPiece == orient::tLeft);
    step(s, 0);
    step(s, tetris::BUTTON_B);
    CHECK(s.currentPiece == orient::tDown);
    step(s, 0);
    step(s, tetris::BUTTON_A | tetris::BUTTON_B);  // both new: A wins
    CHECK(s.currentPiece == orient::tLeft);
}

TEST_CASE("rotation: turns into the hidden rows are allowed, into walls and blocks are not") {
    // At row 0, T left reaches row -1: allowed (the hidden rows are empty).
    GameState s = fresh_piece(orient::tDown, 0);
    step(s, tetris::BUTTON_A);
    CHECK(s.currentPiece == orient::tLeft);
    // A vertical I at column 0 cannot turn flat (its cells would be at columns -2 and -1).
    GameState i = fresh_piece(orient::iVert, 0);
    i.tetriminoX = 0;
    i.tetriminoY = 5;
    step(i, tetris::BUTTON_A);
    CHECK(i.currentPiece == orient::iVert);
    // A block where the turned piece would go: no turn.
    GameState b = fresh_piece(orient::iHoriz, 0);
    b.tetriminoY = 5;
    b.playfield[4 * 10 + 5] = kTileBlockB;  // (5, 4): where I vertical's second cell goes
    step(b, tetris::BUTTON_B);
    CHECK(b.currentPiece == orient::iHoriz);
}

TEST_CASE("gravity: a piece falls one row every frames-per-drop frames at each level") {
    const std::array<int, 30> speed{48, 43, 38, 33, 28, 23, 18, 13, 8, 6, 5, 5, 5, 4, 4,
                                    4,  3,  3,  3,  2,  2,  2,  2,  2, 2, 2, 2, 2, 2, 1};
    for (int level : {0, 1, 5, 8, 9, 10, 12, 13, 16, 18, 19, 28, 29, 30, 100, 255}) {
        INFO("level " << level);
        GameState s = fresh_piece(orient::iHoriz, static_cast<uint8_t>(level));
        const int expected = level < 30 ? speed[static_cast<std::size_t>(level)] : 1;
        std::vector<int> drops;
        for (int f = 1; f <= 200 && drops.size() < 3; ++f) {
            const uint8_t y = s.tetriminoY;
            step(s, 0);
            if (s.tetriminoY != y) drops.push_back(f);
        }
        REQUIRE(drops.size() == 3);
        CHECK(drops[0] == expected);
        CHECK(drops[1] == 2 * expected);
        CHECK(drops[2] == 3 * expected);
    }
}

TEST_CASE("soft drop: first row on the third frame of Down, then every other frame") {
    GameState s = fresh_piece(orient::iHoriz, 0);
    std::vector<int> drops;
    for (int f = 1; f <= 9; ++f) {
        const uint8_t y = s.tetriminoY;
        step(s, tetris::BUTTON_DOWN);
        if (s.tetriminoY != y) drops.push_back(f);
    }
    CHECK(drops == std::vector<int>{3, 5, 7, 9});
    CHECK(s.holdDownPoints == 4);
    // Letting go ends it and forgets the points.
    step(s, 0);
    CHECK(s.autorepeatY == 0);
    CHECK(s.holdDownPoints == 0);
}

TEST_CASE("soft drop: needs a new press of Down alone, without Left/Right held") {
    GameState held_through = fresh_piece(orient::iHoriz, 0);
    held_through.heldButtons = tetris::BUTTON_DOWN;  // Down held through the spawn
    for (int f = 0; f < 6; ++f) step(held_through, tetris::BUTTON_DOWN);
    CHECK(held_through.tetriminoY == 0);
    GameState with_left = fresh_piece(orient::iHoriz, 0);
    with_left.heldButtons = tetris::BUTTON_LEFT;
    for (int f = 0; f < 6; ++f) step(with_left, tetris::BUTTON_LEFT | tetris::BUTTON_DOWN);
    CHECK(with_left.tetriminoY == 0);
    // Down+Left while dropping stops the drop.
    GameState s = fresh_piece(orient::iHoriz, 0);
    for (int f = 0; f < 3; ++f) step(s, tetris::BUTTON_DOWN);
    CHECK(s.tetriminoY == 1);
    for (int f = 0; f < 4; ++f) step(s, tetris::BUTTON_DOWN | tetris::BUTTON_LEFT);
    CHECK(s.tetriminoY == 1);
}

TEST_CASE("first piece: hangs 96 frames at the spawn point unless Down is pressed") {
    GameState s = fresh_piece(orient::tDown, 19);
    // The state of a new game after its first frame: counter $A0 counted once, fall timer 1.
    s.autorepeatY = 0xA1;
    s.fallTimer = 1;
    auto frames = nestris::test::frames_until(s, 0, [](const GameState& g) { return g.tetriminoY != 0; });
    REQUIRE(frames);
    CHECK(*frames == 96);
    GameState d = fresh_piece(orient::tDown, 19);
    d.autorepeatY = 0xA1;
    d.fallTimer = 1;
    step(d, tetris::BUTTON_DOWN);  // a new press of Down ends the hold (and starts a soft drop)
    CHECK(d.autorepeatY == 1);
    CHECK(d.tetriminoY == 1);  // and gravity applies at once: fall timer 2 >= 2 at level 19
}
