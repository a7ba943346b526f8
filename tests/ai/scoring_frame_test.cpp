// The frame that scores a lock, as the simulator and the protocols find it (frame_time.hpp:
// a lock whose frame may crash the real game ends their games).
#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/power_on.hpp"

#include <catch2/catch.hpp>

using namespace nestris;

TEST_CASE("time: every lock has one scoring frame, the one that moves play state 5 on to 6") {
    // The simulator and the protocols find the frame that runs the score loop this way (and take
    // the lines the row check counted from the state before it).
    for (uint8_t level : {0, 19, 29}) {
        GameState s = seeded_game(7, level);
        ai::AiPlayer player;
        int locks = 0, scorings = 0;
        uint32_t lines_scored = 0;
        for (int f = 0; f < 20000 && s.status == GameStatus::Playing && s.playState != tetris::PLAY_STATE_CURTAIN; ++f) {
            const uint8_t before = s.playState, cleared = s.completedLines;
            const uint32_t lines_before = lines_count(s);
            step(s, player.buttons(view_of(s)));
            locks += before != tetris::PLAY_STATE_LOCK && s.playState == tetris::PLAY_STATE_LOCK;
            if (before != tetris::PLAY_STATE_B_TYPE_GOAL_CHECK && s.playState == tetris::PLAY_STATE_B_TYPE_GOAL_CHECK) {
                ++scorings;
                lines_scored += cleared;
                CHECK(lines_count(s) - lines_before == cleared);
            }
        }
        INFO("level " << int(level));
        CHECK(locks > 200);
        CHECK(scorings == locks - (s.playState == tetris::PLAY_STATE_CURTAIN ? 1 : 0) - (s.playState >= tetris::PLAY_STATE_LOCK && s.playState < tetris::PLAY_STATE_B_TYPE_GOAL_CHECK ? 1 : 0));
        CHECK(lines_scored == lines_count(s));
    }
}
