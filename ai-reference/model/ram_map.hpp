// Between a model state and the game's 2 KiB of CPU RAM. Every address comes from game/tetris.inc
// (the one source of the game's addresses) through its generated copy, tetris_map.hpp.
//
// from_ram reads RAM taken at the model's frame boundary (the main loop waiting for vblank in
// play, see game_model.hpp): the player block from its player-1 copy ($60-$7F, which the NMI
// updates), the rest from its own addresses. to_ram writes a state so that the game continues
// from it: both copies of the player block, the playfield page and every other modelled
// variable. Variables the model leaves out (sound, music, sprite staging, two-player data, the
// render flags) are not touched.
#pragma once

#include "ai-reference/model/game_model.hpp"
#include "game/tetris_map.hpp"

#include <cstdint>
#include <span>

namespace nestris {

inline constexpr std::size_t kCpuRamSize = 0x800;

// In one-player games the player block at $40-$5F has its player-1 copy this far on.
inline constexpr uint16_t kPlayer1Offset = tetris::player1_state - tetris::tetriminoX;

// Throws std::runtime_error when the RAM is not a 1-player game in play at a frame boundary
// (gameMode 4, one player, gameModeState 2 or 7, renderMode 3 or 0), or when the state it holds
// fails validate() (see state_io.hpp).
GameState from_ram(std::span<const uint8_t, kCpuRamSize> ram);
void to_ram(const GameState& state, std::span<uint8_t, kCpuRamSize> ram);

}  // namespace nestris
