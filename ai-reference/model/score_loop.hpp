// The lock's score loop (addLineClearPoints): its cycles and the score it leaves, one function,
// so that the model's score and the model's time come from the same steps.
//
// Every lock runs the line-clear score loop, clears or not: (level + 1) additions of the
// points of the lines cleared (0 for none), counted in 8 bits, each a binary add with its
// decimal adjust and the 999 999 cap checked after it. Its cycles follow from its instructions
// (all in one page, zero-page operands), so they are computed here exactly, branch by branch,
// from the score before the loop; `measure-lock` traces the same loop on the game.
//
// Below the game model and the game's time (frame_time.hpp), which both use it: it needs
// neither.
#pragma once

#include <array>
#include <cstdint>

namespace nestris {

struct ScoreLoopWork {
    uint64_t cycles = 0;                 // from addLineClearPoints' first instruction to the loop's end
    std::array<uint8_t, 3> score{};      // the score after it (BCD, low byte first)
};

// `level` is levelNumber (the loop runs level + 1 times, 256 at level 255), `lines` the lines
// cleared (0-4), `score` the score before the loop.
ScoreLoopWork score_loop_work(uint8_t level, uint8_t lines, std::array<uint8_t, 3> score);

}  // namespace nestris
