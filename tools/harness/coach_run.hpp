// A coach game on the real ROM (asm/coach.s): a player plays the patched game, started with the
// coach's chord, while the harness watches the ghost piece by piece: when it first shows, when
// the full search's shows, and whether it is the reference AI's decision for the same state.
// Needs the user's Tetris (USA), as every real-game harness.
#pragma once

#include "ai-reference/model/player.hpp"
#include "game/hooks_map.hpp"
#include "patcher/cart_image.hpp"
#include "tools/harness/game_harness.hpp"

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
    // ghost was; the classes of those the full search had decided, by the reference's grade_lock,
    // and their points), and the first frame where the cartridge's (its counts, its classes, its
    // accuracy, its sprites) is another, said.
    uint16_t graded = 0;
    uint16_t matched = 0;
    std::array<uint16_t, 6> classes{};
    uint16_t classed = 0;
    uint16_t points = 0;
    std::vector<uint16_t> misses;   // each classed lock's miss, in the order classed
    std::string grade_difference;
    // Hate mode (walk.hate): spawns whose preview the cartridge dealt (its hate_for was the spawn),
    // of those the ones equal to the reference's adversary on the board the game shows, and
    // spawns it dealt nothing (the choice not ready: the game's draw stays).
    uint32_t hate_dealt = 0, hate_reference = 0, hate_kept = 0;
};

// What the coach shows in the statistics box, as coach_ghost reads it at the start of a frame's
// idle time (asm/coach.s): the accuracy + 1 (0: nothing classed yet), the last lock's class and
// the frames its label still shows, and whether the curtain falls (the accuracy's label).
struct GradeShown {
    uint8_t shown = 0;
    uint8_t class_shown = 0;
    uint8_t class_timer = 0;
    bool curtain = false;
};
// The OAM staging bytes from hooks::CLASS_OAM to the ones' slot's end that the coach stages for
// it: the class's label while its timer runs, each letter a column right of the one before, its
// last at GRADE_ONES_X; else the accuracy's digits, right-aligned, each in the slot whose offset
// is its x (the ones at GRADE_ONES_X), with the accuracy's label left of them under the curtain;
// the other bytes $FF.
using GradeOam = std::array<uint8_t, hooks::GRADE_ONES_X + 4 - hooks::CLASS_OAM>;
GradeOam expected_grade_oam(const GradeShown& state);

// The grade as the cartridge keeps it (asm/coach.s), read from a game's RAM: the locks counted,
// those where the ghost was, the classes best to blunder, and the accuracy it shows (when a
// lock was classed).
struct CartGrade {
    uint16_t total = 0, matched = 0;
    std::array<uint16_t, 6> classes{};
    std::optional<uint8_t> accuracy;
};
CartGrade read_cart_grade(const emu::Nes& nes, const CartImage& cart);
// One line for a person: "12 locks graded, 9 where the ghost was (75 %); classes: best 8, ...;
// accuracy 91 %".
std::string describe_grade(const CartGrade& grade);

// Plays a coach game from the menu walk (walk.coach set) for at most `frames` frames, or to its
// curtain; `player` sees the game as a person does (the model's PlayerView). Throws
// std::runtime_error if the walk does not start a coach game.
CoachGame run_coach_game(const GameRoms& roms, const CartImage& cart, const MenuWalk& walk, Player& player,
                         uint64_t frames);

}  // namespace nestris::game
