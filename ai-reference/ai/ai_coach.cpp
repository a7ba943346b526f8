#include "ai-reference/ai/ai_coach.hpp"

#include <stdexcept>

namespace nestris::ai {

namespace {

bool same_place(const Target& a, const Target& b) {
    return a.orientation == b.orientation && a.x == b.x && a.landing_y == b.landing_y;
}

}  // namespace

uint8_t coach_share(uint16_t matched, uint16_t total) {
    if (total == 0 || total > 0x7FFF || matched > total) throw std::invalid_argument("coach_share: not a share");
    // As the cartridge divides (coach_grade): 100 steps, each adds the matched count to the
    // remainder (below the total) and takes the total back out when it holds it.
    uint16_t remainder = 0;
    uint8_t share = 0;
    for (int step = 0; step < 100; ++step) {
        remainder = static_cast<uint16_t>(remainder + matched);
        if (remainder >= total) {
            remainder = static_cast<uint16_t>(remainder - total);
            ++share;
        }
    }
    return share;
}

std::optional<CoachGrade> grade_lock(const SearchInput& in, uint8_t preview_type, const Target& player,
                                     const EvalTables& tables) {
    const Precomputed pre = precompute(in, tables);
    const std::optional<uint8_t> chosen = finalize(pre, preview_type);
    if (!chosen) return std::nullopt;
    const Candidate& ai = pre.candidates[*chosen];
    const bool shown = preview_type < kPieceTypes;

    // The person's placement on the search's scale: the root board decides danger for both, as
    // it does for the search's plies.
    const uint8_t g = frames_per_drop(in.level.level);
    const bool danger = in_danger(in.board, g, tables);
    const Placed placed = place(in.board, player);
    uint16_t player_total = kCostMax;
    if (!placement_lost(in.level, player, placed)) {
        if (!shown) {
            player_total = placement_cost(placed, tables, g == 1, danger);
        } else {
            SearchStats unused;
            const uint16_t lines_cost = lines_table(tables, g == 1, danger)[placed.lines];
            player_total = saturating_add(
                lines_cost, best_reply(placed.board, preview_type, reply_gravity(in.level, placed.lines), in.level,
                                       tables, g == 1, danger, unused));
        }
    }

    CoachGrade grade;
    grade.matched = same_place(player, ai.target);
    grade.ai_total = shown ? saturating_add(ai.lines_cost, pre.best2[*chosen][preview_type]) : ai.cost;
    grade.player_total = player_total;
    grade.miss = player_total > grade.ai_total ? static_cast<uint16_t>(player_total - grade.ai_total) : 0;
    return grade;
}

}  // namespace nestris::ai
