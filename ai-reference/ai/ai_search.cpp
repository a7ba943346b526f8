#include "ai-reference/ai/ai_search.hpp"

#include "ai-reference/ai/ai_crash_rule.hpp"
#include "ai-reference/model/pieces.hpp"

#include <algorithm>

namespace nestris::ai {
// The surface test of AI_DESIGN.md: inside the walls and every column's lowest cell above that
// column's top.
bool above(const Board& board, uint8_t orientation, int x, int row) {
    const Shape& s = shape(orientation);
    if (x + s.min_dx < 0 || x + s.max_dx > 9) return false;
    for (int j = 0; j < s.width(); ++j)
        if (row + s.bottom_dy[j] > 19 - board.height[x + s.min_dx + j]) return false;
    return true;
}

namespace {

// How many (orientation, column) pairs the search tests for a piece type.
uint32_t positions_of(uint8_t piece_type) {
    uint32_t n = 0;
    const TypeRotations& rot = rotations(piece_type);
    for (uint8_t i = 0; i < rot.count; ++i) n += 11u - shape(rot.choice[i].orientation).width();
    return n;
}

}  // namespace

uint8_t frames_per_drop(uint8_t level) { return nestris::frames_per_drop(level); }

LevelState after_lines(LevelState s, uint8_t cleared) {
    if (s.b_type) return s;
    // The game's own counter and level-up test (the model's: the BCD quirk, the signed compare).
    std::array<uint8_t, 2> lines{s.lines_lo, s.lines_hi};
    for (uint8_t i = 0; i < cleared; ++i) add_one_line_a_type(lines, s.level);
    s.lines_lo = lines[0];
    s.lines_hi = lines[1];
    return s;
}

int landing_row(const Board& board, uint8_t orientation, int x) {
    const Shape& s = shape(orientation);
    int row = 127;
    for (int j = 0; j < s.width(); ++j)
        row = std::min(row, 19 - board.height[x + s.min_dx + j] - s.bottom_dy[j]);
    return row;
}

std::optional<Target> reach(const Board& board, uint8_t piece_type, const RotationChoice& choice, int x,
                            Gravity gravity) {
    Target t;
    t.orientation = choice.orientation;
    t.x = static_cast<uint8_t>(x);
    t.rotation_presses = choice.presses;
    t.ccw = choice.ccw;
    t.left = x < kSpawnX;
    t.shifts = static_cast<uint8_t>(t.left ? kSpawnX - x : x - kSpawnX);
    const int n = t.input_frames();

    uint8_t orientation = spawn_orientation(piece_type);
    int column = kSpawnX;
    if (n == 0 && !above(board, orientation, column, 0)) return std::nullopt;
    for (int i = 1; i <= n; ++i) {
        const int k = 2 * i - 1;
        if (i <= t.shifts) column += t.left ? -1 : 1;
        if (!above(board, orientation, column, gravity.row_after(k - 1))) return std::nullopt;
        if (i <= t.rotation_presses) orientation = rotate(orientation, t.ccw);
        if (!above(board, orientation, column, gravity.row_after(i < n ? k + 1 : k))) return std::nullopt;
    }
    t.landing_y = static_cast<int8_t>(landing_row(board, t.orientation, t.x));
    return t;
}

int top_row(const Target& target) {
    const Shape& s = shape(target.orientation);
    return target.landing_y + *std::min_element(s.cell_dy.begin(), s.cell_dy.end());
}

Placed place(const Board& board, const Target& target) {
    Placed p;
    p.board = board;
    Board& b = p.board;
    const Shape& s = shape(target.orientation);
    for (int i = 0; i < 4; ++i) {
        const int c = target.x + s.cell_dx[i];
        const int row = target.landing_y + s.cell_dy[i];
        if (row < 0) {  // the game keeps no cells above the visible rows
            p.topped_out = true;
            continue;
        }
        b.rows[row] |= static_cast<uint16_t>(1u << c);
        ++b.filled[c];
        b.height[c] = std::max<uint8_t>(b.height[c], static_cast<uint8_t>(kRows - row));
    }
    // A placement that tops out costs kCostMax whatever it clears: it is not evaluated further
    // (no lines counted or cleared), which lets the cartridge stop there.
    if (p.topped_out) return p;
    // The rows the game scans after a lock: y-2..y+1 around the piece's origin.
    for (int row = std::max(0, target.landing_y - 2); row <= std::min(kRows - 1, target.landing_y + 1); ++row)
        if (b.rows[row] == kFullRow) ++p.lines;
    if (p.lines == 0) return p;

    int to = kRows - 1;
    for (int from = kRows - 1; from >= 0; --from)
        if (b.rows[from] != kFullRow) b.rows[to--] = b.rows[from];
    while (to >= 0) b.rows[to--] = 0;
    for (int c = 0; c < kColumns; ++c) {
        b.filled[c] = static_cast<uint8_t>(b.filled[c] - p.lines);
        uint8_t h = 0;
        for (int row = 0; row < kRows; ++row)
            if (b.cell(c, row)) {
                h = static_cast<uint8_t>(kRows - row);
                break;
            }
        b.height[c] = h;
    }
    return p;
}

uint8_t stack_height(const Board& board) {
    uint8_t highest = 0;
    for (int c = 0; c < 9; ++c) highest = std::max(highest, board.height[c]);
    return highest;
}

bool in_danger(const Board& board, uint8_t fpd, const EvalSet& set) {
    return fpd != 1 && stack_height(board) >= set.danger_height;
}

const std::array<uint16_t, 5>& lines_table(const EvalSet& set, bool fast, bool danger) {
    return fast ? set.lines_fast : danger ? set.lines_danger : set.lines;
}

uint16_t placement_cost(const Placed& placed, const EvalSet& set, bool fast, bool danger) {
    if (placed.topped_out) return kCostMax;
    return static_cast<uint16_t>(lines_table(set, fast, danger)[placed.lines] + evaluate(placed.board, set, fast, danger));
}

// A game's first piece keeps keep_fast too: its search has only the hold (kFirstPieceStartFrame)
// and an empty board, where every placement is reachable and within the margin, makes the
// longest search there is.
uint8_t candidates_for(uint8_t fpd, bool first_piece, const EvalSet& set) {
    return fpd == 1 || first_piece ? set.keep_fast : set.keep;
}

// From level 128 the crash rule (ai_crash_rule.hpp): a lock it bars, or with a cell in the high
// rows, is a top-out, in both plies, by the piece's spawn level and lines: it costs kCostMax and
// counts no lines, as the cartridge's top-out path leaves it.
bool placement_lost(const LevelState& level, const Target& t, const Placed& p) {
    return p.topped_out || top_row(t) < static_cast<int8_t>(lowest_allowed_top_row(level.level)) ||
           lock_barred(level.level, p.lines, level.lines_lo, t.x, t.landing_y);
}

uint16_t best_reply(const Board& board, uint8_t type, Gravity gravity, const LevelState& level, const EvalSet& set,
                    bool fast, bool danger, SearchStats& stats) {
    uint16_t best = kCostMax;
    stats.positions_checked += positions_of(type);
    for_each_reachable(board, type, gravity, [&](const Target& q) {
        const Placed pq = place(board, q);
        ++stats.evaluations;
        if (pq.lines) ++stats.line_clears;
        best = std::min(best, placement_lost(level, q, pq) ? kCostMax : placement_cost(pq, set, fast, danger));
    });
    return best;
}

Gravity reply_gravity(const LevelState& level, uint8_t lines) {
    return Gravity{frames_per_drop(after_lines(level, lines).level), false};
}

Precomputed precompute(const SearchInput& in, const EvalTables& tables) {
    Precomputed out;
    const uint8_t g = frames_per_drop(in.level.level);
    const EvalSet& set = tables;
    const uint8_t keep = candidates_for(g, in.first_piece, set);
    // Both plies cost line clears by the root board: a high stack makes burns cheaper.
    const bool danger = in_danger(in.board, g, set);

    // Ply 1: every reachable placement of the piece, the K cheapest kept in order.
    out.stats.positions_checked += positions_of(in.piece_type);
    for_each_reachable(in.board, in.piece_type, Gravity{g, in.first_piece}, [&](const Target& t) {
        const Placed p = place(in.board, t);
        ++out.stats.evaluations;
        if (p.lines) ++out.stats.line_clears;
        const bool out_of_play = placement_lost(in.level, t, p);
        Candidate c{t, out_of_play ? kCostMax : placement_cost(p, set, g == 1, danger),
                    out_of_play ? kCostMax : lines_table(set, g == 1, danger)[p.lines], out_of_play ? uint8_t{0} : p.lines};
        uint8_t at = out.count;
        while (at > 0 && c.cost < out.candidates[at - 1].cost) --at;  // ties: the earlier stays first
        if (at >= keep) return;
        for (uint8_t j = std::min<uint8_t>(out.count, keep - 1); j > at; --j)
            out.candidates[j] = out.candidates[j - 1];
        out.candidates[at] = c;
        if (out.count < keep) ++out.count;
    });

    // Below level 29, while columns 0-8 are lower than margin_height, only candidates within
    // keep_margin of the best go on (the sum saturates at the top-out cost: then every one
    // does). At one row a frame all K go on: there the margin cost survival (200 games from
    // level 29: 911 lines on average against 2 141); on a high stack too (AI_DESIGN.md).
    const uint8_t highest = stack_height(in.board);
    for (uint8_t k = 1; g != 1 && highest < set.margin_height && k < out.count; ++k) {
        if (out.candidates[k].cost > saturating_add(out.candidates[0].cost, set.keep_margin)) {
            out.count = k;
            break;
        }
    }

    // Ply 2: for each kept candidate and each type the preview may show, the best reply.
    for (uint8_t k = 0; k < out.count; ++k) {
        const Placed p = place(in.board, out.candidates[k].target);
        // (the candidate's lines: none for one that tops out or may crash, as in the cartridge)
        const Gravity gravity = reply_gravity(in.level, out.candidates[k].lines);
        for (uint8_t type = 0; type < kPieceTypes; ++type)
            out.best2[k][type] = best_reply(p.board, type, gravity, in.level, set, g == 1, danger, out.stats);
    }
    return out;
}

std::optional<uint8_t> finalize(const Precomputed& pre, uint8_t preview_type) {
    if (pre.count == 0) return std::nullopt;
    if (preview_type >= kPieceTypes) return 0;
    uint8_t chosen = 0;
    uint16_t best = kCostMax;
    for (uint8_t k = 0; k < pre.count; ++k) {
        const uint16_t total = saturating_add(pre.candidates[k].lines_cost, pre.best2[k][preview_type]);
        if (k == 0 || total < best) {
            best = total;
            chosen = k;
        }
    }
    return chosen;
}

}  // namespace nestris::ai
