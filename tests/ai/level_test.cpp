#include "ai-reference/ai/ai_search.hpp"

#include <catch2/catch.hpp>

using namespace nestris::ai;

namespace {
// Lines needed (one at a time) from a fresh game at this start level until the first level-up.
int lines_to_first_level_up(uint8_t start) {
    LevelState s{start, 0, 0, false};
    for (int lines = 1; lines <= 300; ++lines) {
        s = after_lines(s, 1);
        if (s.level != start) return lines;
    }
    return -1;
}
}  // namespace

TEST_CASE("level-ups follow the game's BCD rule, quirk included") {
    // From seed 000: starts 0-9 advance after 10*(start+1) lines; 10-15 after 100; 16-19 after
    // 110, 120, 130, 140 (the level is compared with the BCD tens of the lines counter).
    const int expected[20] = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100,
                              100, 100, 100, 100, 100, 100, 110, 120, 130, 140};
    for (uint8_t start = 0; start < 20; ++start) {
        INFO("start level " << int(start));
        CHECK(lines_to_first_level_up(start) == expected[start]);
    }
}

TEST_CASE("after the first level-up every ten lines add a level, also in one clear") {
    LevelState s{19, 0, 0, false};
    s = after_lines(s, 140);
    CHECK(s.level == 20);
    CHECK(s.lines_lo == 0x40);
    CHECK(s.lines_hi == 1);
    s = after_lines(s, 9);
    CHECK(s.level == 20);
    s = after_lines(s, 4);  // crosses 150 inside a tetris
    CHECK(s.level == 21);
    CHECK(s.lines_lo == 0x53);
    s = after_lines(s, 77);  // 230 lines
    CHECK(s.level == 29);
    CHECK(frames_per_drop(s.level) == 1);
}

TEST_CASE("B-Type never levels up, gravity by level") {
    LevelState b{5, 0x25, 0, true};
    CHECK(after_lines(b, 4) == b);
    CHECK(frames_per_drop(0) == 48);
    CHECK(frames_per_drop(18) == 3);
    CHECK(frames_per_drop(19) == 2);
    CHECK(frames_per_drop(28) == 2);
    CHECK(frames_per_drop(29) == 1);
    CHECK(frames_per_drop(255) == 1);
}
