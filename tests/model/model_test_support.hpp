// Helpers for the model tests: states built by hand, stepping until something happens.
#pragma once

#include "ai-reference/model/game_model.hpp"
#include "ai-reference/model/pieces.hpp"

#include <functional>
#include <optional>

namespace nestris::test {

// A piece under control on an empty playfield, as right after a spawn: pivot (5, 0), fall
// timer 0, soft drop not started, the playfield copy complete.
inline GameState fresh_piece(uint8_t orientation = orient::tDown, uint8_t level = 0) {
    GameState s;
    s.rngSeed = 0x8988;
    s.currentPiece = orientation;
    s.nextPiece = orient::iHoriz;
    s.spawnID = orient::iHoriz;
    s.levelNumber = level;
    s.startLevel = level;
    s.playState = tetris::PLAY_STATE_ACTIVE;
    s.vramRow = kVramRowDone;
    s.autorepeatY = 0;
    s.fallTimer = 0;
    return s;
}

inline void fill_row(GameState& s, int row, int gap_column = -1) {
    for (int c = 0; c < kPlayfieldWidth; ++c)
        s.playfield[static_cast<std::size_t>(row * 10 + c)] = c == gap_column ? kTileEmpty : kTileBlockA;
}

// Steps with `held` until `done` holds (checked after each step); returns the number of steps,
// or nothing after `limit` steps.
inline std::optional<int> frames_until(GameState& s, uint8_t held,
                                       const std::function<bool(const GameState&)>& done,
                                       int limit = 10000) {
    for (int i = 1; i <= limit; ++i) {
        step(s, held);
        if (done(s)) return i;
    }
    return std::nullopt;
}

}  // namespace nestris::test
