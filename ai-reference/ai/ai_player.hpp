// The reference AI as a Player of the game model: it decides at each spawn (precompute on the
// board it sees, finalize with the preview) and then presses the plan's buttons frame by frame,
// exactly as the cartridge's input driver does (AI_DESIGN.md, "Reachability: the input schedule").
#pragma once

#include "ai-reference/ai/ai_search.hpp"
#include "ai-reference/model/player.hpp"

#include <optional>

namespace nestris::ai {

// The buttons of a plan on frame k after the piece appeared (k = 1 is the first input frame), at
// the game's `level` that frame.
uint8_t plan_buttons(const Target& target, int k, uint8_t level);

struct Decision {
    Precomputed search;
    std::optional<uint8_t> chosen;  // candidate index; nullopt: nothing reachable
    Target target() const { return search.candidates[chosen.value_or(0)].target; }
};

// The decision for the piece that just spawned, from what the player sees.
Decision decide(const PlayerView& view, bool first_piece, bool b_type, const EvalTables& tables);
// The AI's board from the game's occupancy.
Board board_of(const PlayerView& view);

class AiPlayer final : public Player {
public:
    // blind_to_preview: it decides as if the preview were hidden (the best of the first ply),
    // whatever the game shows; a player who plays well, not as the search does (the coach's
    // benchmarks). It still shows or hides the preview as the crash rule wants.
    explicit AiPlayer(const EvalTables& tables = default_tables(), bool b_type = false, bool blind_to_preview = false)
        : tables_(tables), b_type_(b_type), blind_to_preview_(blind_to_preview) {}
    uint8_t buttons(const PlayerView& view) override;
    std::string name() const override { return "ai"; }

    // Per-decision cost figures, summed over the game (for the cost model).
    const SearchStats& stats() const { return stats_; }
    uint32_t decisions() const { return decisions_; }
    uint32_t max_evaluations() const { return max_evaluations_; }
    const std::optional<Decision>& last_decision() const { return decision_; }

private:
    EvalTables tables_;
    bool b_type_;
    bool blind_to_preview_;
    bool was_active_ = false;
    int frame_ = 0;       // frames since the piece appeared (the input frame index k)
    int start_frame_ = 1; // k of the first input frame of this piece
    std::optional<Decision> decision_;
    SearchStats stats_;
    uint32_t decisions_ = 0;
    uint32_t max_evaluations_ = 0;
};

}  // namespace nestris::ai
