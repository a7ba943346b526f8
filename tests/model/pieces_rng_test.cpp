// Piece tables, the RNG and the piece picker, against values worked out by hand from the game's
// code (seed 000 and the game's routines).
#include "ai-reference/model/pieces.hpp"
#include "ai-reference/model/rng.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <set>

using namespace nestris;

TEST_CASE("pieces: spawn orientations, types and tiles follow the game's order T J Z O S L I") {
    CHECK(kSpawnOrientation == std::array<uint8_t, 7>{2, 7, 8, 10, 11, 14, 18});
    for (int t = 0; t < kPieceTypeCount; ++t) CHECK(kTypeOfOrientation[kSpawnOrientation[t]] == t);
    // T, O, I use tile $7B; J, S use $7D; Z, L use $7C.
    CHECK(kTileOfType == std::array<uint8_t, 7>{0x7B, 0x7D, 0x7C, 0x7B, 0x7D, 0x7C, 0x7B});
    // Every orientation has four distinct cells within the 5x5 box around the pivot, and always
    // the pivot itself.
    for (int o = 0; o < kOrientationCount; ++o) {
        std::set<std::pair<int, int>> cells;
        bool pivot = false;
        for (const Cell c : kOrientationCells[o]) {
            CHECK(c.dx >= -2);
            CHECK(c.dx <= 2);
            CHECK(c.dy >= -2);
            CHECK(c.dy <= 2);
            cells.insert({c.dx, c.dy});
            pivot = pivot || (c.dx == 0 && c.dy == 0);
        }
        CHECK(cells.size() == 4);
        CHECK(pivot);
    }
}

TEST_CASE("pieces: A turns clockwise, B counter-clockwise, I, S, Z have two states, O one") {
    CHECK(kRotateClockwise[orient::tUp] == orient::tRight);
    CHECK(kRotateClockwise[orient::tDown] == orient::tLeft);
    CHECK(kRotateCounterClockwise[orient::tDown] == orient::tRight);
    CHECK(kRotateClockwise[orient::jDown] == orient::jLeft);
    CHECK(kRotateClockwise[orient::lDown] == orient::lLeft);
    CHECK(kRotateClockwise[orient::zHoriz] == orient::zVert);
    CHECK(kRotateCounterClockwise[orient::zHoriz] == orient::zVert);
    CHECK(kRotateClockwise[orient::iHoriz] == orient::iVert);
    CHECK(kRotateClockwise[orient::oFixed] == orient::oFixed);
    // Four clockwise turns come back for every piece.
    for (uint8_t o = 0; o < kOrientationCount; ++o) {
        uint8_t r = o;
        for (int i = 0; i < 4; ++i) r = kRotateClockwise[r];
        CHECK(r == o);
    }
    // T down (spawn) is T up upside down: the nub points down.
    CHECK(kOrientationCells[orient::tDown][3] == Cell{0, 1});
    CHECK(kOrientationCells[orient::tUp][3] == Cell{0, -1});
    // The vertical I reaches two rows above its pivot.
    CHECK(kOrientationCells[orient::iVert][0] == Cell{0, -2});
}

TEST_CASE("pieces: frames per gravity drop for every level") {
    const std::array<int, 30> expected{48, 43, 38, 33, 28, 23, 18, 13, 8, 6, 5, 5, 5, 4, 4,
                                       4,  3,  3,  3,  2,  2,  2,  2,  2, 2, 2, 2, 2, 2, 1};
    for (int level = 0; level < 30; ++level)
        CHECK(frames_per_drop(static_cast<uint8_t>(level)) == expected[static_cast<std::size_t>(level)]);
    for (int level = 30; level < 256; ++level) CHECK(frames_per_drop(static_cast<uint8_t>(level)) == 1);
}

TEST_CASE("rng: one step from the power-on seed, and the period of the generator") {
    // $8988: bit 1 of $89 is 0, bit 1 of $88 is 0 -> shift in 0.
    CHECK(rng_step(0x8988) == 0x44C4);
    CHECK(rng_step(0x44C4) == 0x2262);
    // $0600: bit 1 of $06 is 1, bit 1 of $00 is 0 -> shift in 1.
    CHECK(rng_step(0x0600) == 0x8300);
    CHECK(rng_step(0x0000) == 0x0000);
    uint16_t v = kPowerOnRngSeed;
    int period = 0;
    do {
        v = rng_step(v);
        ++period;
    } while (v != kPowerOnRngSeed && period < 70000);
    CHECK(period == 32767);
}

TEST_CASE("rng: the piece pick, its reroll on index 7 and on a repeat") {
    SECTION("first draw: (RNG high byte + spawn count) & 7 -> spawn table") {
        uint16_t rng = 0x8988;
        uint8_t id = 0, count = 0;
        // ($89 + 1) & 7 = 2 -> Z.
        CHECK(pick_next_piece(rng, id, count) == orient::zHoriz);
        CHECK(id == orient::zHoriz);
        CHECK(count == 1);
        CHECK(rng == 0x8988);  // no extra step
    }
    SECTION("index 7 rerolls: step, then (high byte & 7 + last id) mod 7") {
        uint16_t rng = 0x0600;
        uint8_t id = 0, count = 0;
        // ($06 + 1) & 7 = 7 -> reroll; step gives $8300, $83 & 7 = 3, + 0 -> O.
        CHECK(pick_next_piece(rng, id, count) == orient::oFixed);
        CHECK(rng == 0x8300);
    }
    SECTION("a repeat rerolls once, and the reroll may repeat") {
        uint16_t rng = 0x8988;
        uint8_t id = orient::zHoriz, count = 0;
        // First draw Z again -> reroll: $44C4, $44 & 7 = 4, + 8 = 12, mod 7 = 5 -> L.
        CHECK(pick_next_piece(rng, id, count) == orient::lDown);
        CHECK(rng == 0x44C4);
    }
    SECTION("spawn count wraps at 256") {
        uint16_t rng = 0x8988;
        uint8_t id = 0, count = 255;
        // ($89 + 0) & 7 = 1 -> J.
        CHECK(pick_next_piece(rng, id, count) == orient::jDown);
        CHECK(count == 0);
    }
}

TEST_CASE("rng: over a long run every piece comes about equally often and repeats are rare") {
    // As in a game: the RNG steps once per frame, a piece is picked every 20-60 frames.
    uint16_t rng = kPowerOnRngSeed;
    uint8_t id = 0, count = 0;
    std::array<int, 7> seen{};
    int repeats = 0, picks = 0;
    uint8_t last = 0xFF;
    uint32_t lcg = 12345;
    for (int i = 0; i < 200000; ++i) {
        lcg = lcg * 1103515245u + 12345u;
        for (uint32_t f = 20 + (lcg >> 16) % 41; f > 0; --f) rng = rng_step(rng);
        const uint8_t piece = pick_next_piece(rng, id, count);
        ++seen[kTypeOfOrientation[piece]];
        repeats += piece == last;
        last = piece;
        ++picks;
    }
    for (int n : seen) {
        CHECK(n > picks * 11 / 100);  // 1/7 = 14.3 %, the game's picker is a little uneven
        CHECK(n < picks * 18 / 100);
    }
    // A repeat needs the first draw to repeat or hit 7 (2 in 8) and the reroll to land on it
    // (about 1 in 8): about 3 %, far below the 14 % of a fair draw.
    CHECK(repeats > picks * 2 / 100);
    CHECK(repeats < picks * 5 / 100);
}
