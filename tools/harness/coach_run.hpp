// A coach game on the real ROM (asm/coach.s): a player plays the patched game, started with the
// coach's chord, while the harness watches the ghost piece by piece: when it first shows, when
// the full search's shows, and whether it is the reference AI's decision for the same state.
// Needs the user's Tetris (USA), as every real-game harness.
#pragma once

#include "ai-reference/model/player.hpp"
#include "patcher/cart_image.hpp"
#include "tools/harness/game_harness.hpp"
#include "generated/hooks_map.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nestris::game {

struct CoachPiece {
    uint8_t level = 0;            // at its spawn
    // Frames from the frame the piece spawned (0) to the end of the first frame whose sprites
    // hold the ghost, and to the first that holds the full search's ghost; -1: never while it fell.
    int first_ghost = -1;
    int full_ghost = -1;
    int full_published = -1;      // the frame the task published the full search's decision
    bool searched = false;        // the coach's search for it finished before it locked
    bool equals_reference = false;  // (searched) the ghost is the reference AI's decision
    bool followed = false;        // the player locked it where the ghost was
    bool graded = false;          // its lock counts in the grade (it had a ghost when it locked)
};

struct CoachGame {
    std::vector<CoachPiece> pieces;
    uint64_t frames = 0;
    uint64_t lag_frames = 0;      // frames whose main loop did not run (the game's own included)
    uint32_t lines = 0;
    bool topped_out = false;
    std::string first_difference; // the first piece whose ghost is not the reference's, said
    // The grade as the harness counts it (the locks of a piece with a plan, and those where the
    // ghost was), and the first frame where the cartridge's (its counts, its share, its sprites)
    // is another, said.
    uint16_t graded = 0;
    uint16_t matched = 0;
    std::string grade_difference;
};

// The OAM staging bytes from hooks::GRADE_OAM to the ones' slot's end that the coach stages for
// the share `shown` (ai::coach_share): its digits, right-aligned, each in the slot whose offset
// is its x (the ones at GRADE_ONES_X), the other bytes $FF; all $FF before the first graded lock.
using GradeOam = std::array<uint8_t, hooks::GRADE_ONES_X + 4 - hooks::GRADE_OAM>;
GradeOam expected_grade_oam(std::optional<uint8_t> shown);

// Plays a coach game from the menu walk (walk.coach set) for at most `frames` frames, or to its
// curtain; `player` sees the game as a person does (the model's PlayerView). Throws
// std::runtime_error if the walk does not start a coach game.
CoachGame run_coach_game(const GameRoms& roms, const CartImage& cart, const MenuWalk& walk, Player& player,
                         uint64_t frames);

}  // namespace nestris::game
