// Hate mode's adversary (issue 53, AI_DESIGN.md "Hate mode"): the piece type whose best placement
// on the board is worst, by the search's own one-ply measure (best_reply).
#pragma once

#include "ai-reference/ai/ai_search.hpp"
#include "ai-reference/model/game_model.hpp"

#include <array>
#include <cstdint>

namespace nestris::ai {

struct HateChoice {
    uint8_t type = 0;                          // the piece type to deal, 0-6 (T J Z O S L I)
    std::array<uint16_t, kPieceTypes> best{};  // each type's best_reply cost on the board
    SearchStats stats;                         // the seven sweeps' work (the cartridge's cycles)
};

// The adversary on `board` (the board after the last lock, its lines cleared) at `level` (the
// level and lines after that lock): each type's lowest cost of a reachable placement, as the
// second ply costs a reply (the level's gravity, one row a frame's tables at level 29 on, the
// danger tables on a high stack), then the type whose lowest cost is highest; among equal costs
// the lowest type index (every type lost, all kCostMax: type 0, T).
HateChoice hate_choice(const Board& board, const LevelState& level, const EvalSet& set);

// The adversary for the game as it stands at a spawn: its playfield is the board after the last
// lock (the falling piece is not in it), its level and lines the ones after that lock.
HateChoice hate_choice_at(const GameState& state, const EvalTables& tables = default_tables());

}  // namespace nestris::ai
