#include "ai-reference/ai/ai_hate.hpp"

#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/player.hpp"

namespace nestris::ai {

HateChoice hate_choice(const Board& board, const LevelState& level, const EvalSet& set) {
    const uint8_t g = frames_per_drop(level.level);
    // The piece dealt falls after the one in the preview locks, at a level not known yet: the
    // adversary takes the level it sees, as the second ply takes the root's fast and danger.
    const Gravity gravity{g, false};
    const bool fast = g == 1;
    const bool danger = in_danger(board, g, set);
    HateChoice c;
    for (uint8_t type = 0; type < kPieceTypes; ++type) {
        c.best[type] = best_reply(board, type, gravity, level, set, fast, danger, c.stats);
        // Strictly worse only: ties keep the lower type, a compare the 6502 makes once a type.
        if (c.best[type] > c.best[c.type]) c.type = type;
    }
    return c;
}

HateChoice hate_choice_at(const GameState& state, const EvalTables& tables) {
    const PlayerView view = view_of(state);
    const LevelState level{view.levelNumber, view.lines_bcd[0], view.lines_bcd[1], state.gameType != 0};
    return hate_choice(board_of(view), level, tables);
}

}  // namespace nestris::ai
