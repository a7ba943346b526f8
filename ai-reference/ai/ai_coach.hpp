// The coach's grade (issue 33, AI_DESIGN.md "The coach's grade"). coach_share: what the
// cartridge shows, the share of graded locks where the ghost was. grade_lock: a person's lock
// against the search's decision for the same piece in the search's own cost (the miss), the
// specification of a grade the cartridge has no ROM for.
#pragma once

#include "ai-reference/ai/ai_search.hpp"

#include <optional>

namespace nestris::ai {

struct CoachGrade {
    bool matched = false;       // locked where the AI would have (orientation, column, row)
    uint16_t ai_total = 0;      // the decision's cost: its lines cost + its best reply to the
                                // preview; with the preview hidden, its first-ply cost
    uint16_t player_total = 0;  // the person's placement's, alike (kCostMax: it loses the game)
    uint16_t miss = 0;          // player_total - ai_total; 0 when the person's is no dearer
    bool operator==(const CoachGrade&) const = default;
};

// The grade of `player` (orientation, x, landing_y: where the person locked `in.piece_type`) on
// the board it spawned into. preview_type: the preview the game showed at its spawn (kNoPreview:
// hidden). nullopt when the search finds no reachable placement (the game is lost).
// The share the cartridge's coach shows (AI_DESIGN.md "The coach's grade"): of `total` graded
// locks, `matched` where the ghost was, in per cent, rounded down (0-100). total: 1 to 32 767.
uint8_t coach_share(uint16_t matched, uint16_t total);

std::optional<CoachGrade> grade_lock(const SearchInput& in, uint8_t preview_type, const Target& player,
                                     const EvalTables& tables = default_tables());

}  // namespace nestris::ai
