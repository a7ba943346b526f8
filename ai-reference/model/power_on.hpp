// Starting a game without a ROM, with the piece sequence the real game would deal.
//
// The game's randomness is fully determined by what happens after power-on: RAM init writes
// rngSeed = 0x8988, every NMI steps the RNG and counts frameCounter, and the level menu steps the
// RNG a few more times per frame (it keeps drawing B-Type garbage holes, redrawing while a draw
// is >= 10). So a game is named by the frame counts of the menu path that led to it:
//
//   power on, controller idle;
//   legal screen: Start on its first accepting frame + legal_frames (255 = let it time out);
//   title screen: Start on its first accepting frame + title_frames;
//   game type menu: Start on its first accepting frame + game_type_frames (B-Type: Right pressed
//     on one of these frames, so at least 1);
//   level menu: level_menu_frames frames (choosing the level and height on some of them), then
//     Start (with A held for +10);
//   then the controller stays idle while the game sets up.
//
// NMI counts along that path, from the game's code: 8 NMIs of RAM/screen init and a 255-frame
// sleep reach the legal screen's first Start check after NMI 263; title, type and level screens
// each take 4 NMIs to set up (the title resets the high byte of frameCounter after its 4th); the
// title and type menus check one new press per NMI; the level menu's first check follows NMI
// 276 on the fastest path. After Start the game takes 4 NMIs to draw its screen, deals the first
// two pieces, waits 1 NMI (B-Type: 12 more, one per garbage row), and runs its first frame.
// The returned state is the state at the end of that first frame (see game_model.hpp).
//
// The simulator's seed s is power_on_game({.level_menu_frames = s, ...}): the first game after
// power-on, fastest menus, s frames in the level menu.
#pragma once

#include "ai-reference/model/game_model.hpp"

#include <cstdint>

namespace nestris {

struct PowerOnSequence {
    uint32_t legal_frames = 0;       // 0-255
    uint32_t title_frames = 0;       // before the title times out into the demo
    uint32_t game_type_frames = 0;   // >= 1 for B-Type
    uint32_t level_menu_frames = 0;
    uint8_t game_type = 0;           // 0 = A-Type, 1 = B-Type
    uint8_t start_level = 0;         // player1_startLevel when Start is pressed; the menu gives
                                     // 0-19, other values need a RAM poke (level 29 starts)
    uint8_t start_height = 0;        // B-Type: 0-5
};

// NMIs from power-on (RNG init) to the checks for Start, on the fastest path.
inline constexpr uint32_t kNmisToLegalStartCheck = 263;
inline constexpr uint32_t kNmisToTitleFrameCounterReset = 267;  // + legal_frames
inline constexpr uint32_t kNmisToLevelMenuFirstCheck = 276;     // + all the extra frames
inline constexpr uint32_t kNmisGameSetup = 5;                   // + 12 for B-Type

// The state after the first frame of that game. Throws std::invalid_argument for a path the
// game cannot take (legal_frames > 255, a title wait long enough to start the demo, B-Type
// without a game type frame, start_height > 5, game_type > 1).
GameState power_on_game(const PowerOnSequence& sequence);

// The simulator's games: seed = frames in the level menu on the fastest path.
GameState seeded_game(uint32_t seed, uint8_t start_level, uint8_t game_type = 0,
                      uint8_t start_height = 0);

// The game's setup from the moment Start is pressed in the level menu, for a given RNG state,
// frameCounter, spawnCount and garbage hole: used by power_on_game, exposed for tests.
struct GameSetup {
    uint16_t rngSeed = 0;
    uint16_t frameCounter = 0;
    uint8_t spawnCount = 0;
    uint8_t garbageHole = 0;
    uint8_t game_type = 0;
    uint8_t start_level = 0;
    uint8_t start_height = 0;
};
GameState start_game(const GameSetup& setup);

}  // namespace nestris
