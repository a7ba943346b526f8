// Random input movies that keep a game going: the input generator of the fidelity check.
//
// Purely random buttons top out within a few dozen pieces and almost never clear a line, so they
// test little of the game. This generator plays like a noisy human: for each new piece it draws
// plans (every target orientation and column, plus random ones, each with a random way of getting
// there: turning with A or B, tapping at a random rhythm or charging DAS, soft drop or not, stray
// buttons), plays each on a copy of the
// model up to the lock, and keeps the plan whose board looks best (lines cleared, few holes, low
// stack). Between pieces it presses random buttons, and now and then it pauses the game, toggles
// the preview or holds Right+Left+Down (a quirk that makes the game skip its logic for a frame).
// Everything is drawn from a seeded generator, so a seed gives the same movie every time.
#pragma once

#include "ai-reference/model/game_model.hpp"
#include "ai-reference/model/player.hpp"

#include <cstdint>

namespace nestris {

struct RandomMovieOptions {
    int candidates = 8;         // random plans tried per piece on top of one per placement
    bool pauses = true;         // Start presses (pause and resume)
    bool quirks = true;         // Select toggles, Right+Left+Down holds, stray buttons
};

// The held buttons for `frames` frames from `start`, and the state they lead to. Stops early if
// the game leaves play (top-out and Start pressed on the curtain, B-Type goal, ...).
struct RandomMovie {
    Movie movie;
    GameState end;
};
RandomMovie make_random_movie(const GameState& start, uint64_t seed, std::size_t frames,
                              const RandomMovieOptions& options = {});

}  // namespace nestris
