#include "ai-reference/ai/ai_coach.hpp"

#include <stdexcept>

namespace nestris::ai {

namespace {

bool same_place(const Target& a, const Target& b) {
    return a.orientation == b.orientation && a.x == b.x && a.landing_y == b.landing_y;
}

}  // namespace

std::string_view class_name(LockClass c) {
    static constexpr std::string_view names[kLockClasses] = {"best", "excellent", "good", "inaccuracy", "mistake",
                                                             "blunder"};
    return names[static_cast<uint8_t>(c)];
}

std::string_view class_label(LockClass c) {
    static constexpr std::string_view labels[kLockClasses] = {"BEST", "EXCL", "GOOD", "INAC", "MIST", "BLUN"};
    return labels[static_cast<uint8_t>(c)];
}

std::vector<uint8_t> label_tiles(std::string_view label) {
    std::vector<uint8_t> tiles;
    for (char c : label) {
        if (c == '-') tiles.push_back(0x24);
        else if (c >= 'A' && c <= 'Z') tiles.push_back(static_cast<uint8_t>(0x0A + (c - 'A')));
        else throw std::invalid_argument("a label is letters A-Z and '-'");
    }
    return tiles;
}

LockClass lock_class(uint16_t miss) {
    uint8_t c = 0;
    while (c < kClassMissMax.size() && miss > kClassMissMax[c]) ++c;
    return static_cast<LockClass>(c);
}

uint8_t coach_share(uint16_t part, uint16_t total) {
    if (total == 0 || total > 0x7FFF || part > total) throw std::invalid_argument("coach_share: not a share");
    // As the cartridge divides (coach_divide): 100 steps, each adds the part to the remainder
    // (below the total) and takes the total back out when it holds it.
    uint16_t remainder = 0;
    uint8_t share = 0;
    for (int step = 0; step < 100; ++step) {
        remainder = static_cast<uint16_t>(remainder + part);
        if (remainder >= total) {
            remainder = static_cast<uint16_t>(remainder - total);
            ++share;
        }
    }
    return share;
}

uint8_t coach_accuracy(uint16_t points, uint16_t classed) {
    if (classed == 0 || classed > 0x7FFF / 10) throw std::invalid_argument("coach_accuracy: no count of locks");
    return coach_share(points, static_cast<uint16_t>(classed * 10));
}

std::optional<CoachGrade> grade_lock(const SearchInput& in, uint8_t next_type, bool preview_shown,
                                     const Target& player, const EvalTables& tables) {
    if (next_type >= kPieceTypes) throw std::invalid_argument("grade_lock: the next piece is a type 0-6");
    const Precomputed pre = precompute(in, tables);
    const std::optional<uint8_t> chosen = finalize(pre, preview_shown ? next_type : kNoPreview);
    if (!chosen) return std::nullopt;

    CoachGrade grade;
    grade.matched = same_place(player, pre.candidates[*chosen].target);
    // The cartridge's best_total of the next piece's type: what the search could make of it.
    grade.ai_total = kCostMax;
    for (uint8_t k = 0; k < pre.count; ++k)
        grade.ai_total =
            std::min(grade.ai_total, saturating_add(pre.candidates[k].lines_cost, pre.best2[k][next_type]));
    if (grade.matched) {
        grade.player_total = grade.ai_total;
        return grade;
    }

    // The person's placement on the search's scale: its lines by the search's table (the root
    // board's danger), then the next piece's best placement as the search at its spawn costs it
    // (on the board the game then shows, at the level after the lines).
    const uint8_t g = frames_per_drop(in.level.level);
    const bool danger = in_danger(in.board, g, tables);
    const Placed placed = place(in.board, player);
    grade.player_total = kCostMax;
    if (!placement_lost(in.level, player, placed)) {
        SearchInput next;
        next.board = placed.board;
        next.piece_type = next_type;
        next.level = after_lines(in.level, placed.lines);
        const Precomputed reply = precompute(next, tables);
        const uint16_t reply_cost = reply.count ? reply.candidates[0].cost : kCostMax;
        grade.player_total = saturating_add(lines_table(tables, g == 1, danger)[placed.lines], reply_cost);
    }
    grade.miss = grade.player_total > grade.ai_total ? static_cast<uint16_t>(grade.player_total - grade.ai_total) : 0;
    grade.lock_class = lock_class(grade.miss);
    return grade;
}

}  // namespace nestris::ai
