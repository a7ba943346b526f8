// The placement search of AI_DESIGN.md: reachability under the fixed input schedule, placing a
// piece, and the two-ply search split into precompute (while the previous piece falls) and
// finalize (when the preview is revealed at spawn).
#pragma once

#include "ai-reference/ai/ai_board.hpp"
#include "ai-reference/ai/ai_eval.hpp"
#include "ai-reference/ai/ai_geometry.hpp"
#include "ai-reference/model/pieces.hpp"

#include <array>
#include <cstdint>
#include <optional>

namespace nestris::ai {

inline constexpr int kSpawnX = nestris::kSpawnX;  // the game model's, one source
inline constexpr int kMaxCandidates = kMaxKeep;

// A game's first piece hangs at the spawn point for 96 frames (the hold) and nothing can be
// computed for it before it appears, so its inputs start on this frame of the hold instead of
// frame 1. The cartridge must finish the first decision within it.
// (asm: FIRST_PIECE_START_FRAME, generated)
inline constexpr int kFirstPieceStartFrame = 80;

// Frames per drop at a level (1 from level 29 on, as the game's table lookup does).
uint8_t frames_per_drop(uint8_t level);

// The level and BCD lines counter, and the game's level-up rule applied to cleared lines.
struct LevelState {
    uint8_t level = 0;
    uint8_t lines_lo = 0;  // BCD: tens and ones
    uint8_t lines_hi = 0;  // hundreds (binary, as the game keeps it)
    bool b_type = false;   // B-Type counts lines down and never levels up
    bool operator==(const LevelState&) const = default;
};
LevelState after_lines(LevelState s, uint8_t cleared);

// Gravity while the piece's inputs are made: frames per drop, or the hold of a game's first piece.
struct Gravity {
    uint8_t frames_per_drop = 2;
    bool hold = false;
    // Row of the piece after `frames` frames since spawn.
    uint8_t row_after(int frames) const { return hold ? 0 : static_cast<uint8_t>(frames / frames_per_drop); }
};

struct Target {
    uint8_t orientation = 0;
    uint8_t x = kSpawnX;
    int8_t landing_y = 0;
    uint8_t rotation_presses = 0;  // 0, 1 or 2
    bool ccw = false;              // B instead of A
    uint8_t shifts = 0;
    bool left = false;
    uint8_t input_frames() const { return shifts > rotation_presses ? shifts : rotation_presses; }
    bool operator==(const Target&) const = default;
};

// Is the piece (orientation at column x, origin row) inside the walls with every cell above its
// column's top?
bool above(const Board& board, uint8_t orientation, int x, int row);
// Lowest row the piece can occupy at column x, falling onto the surface (may be negative).
int landing_row(const Board& board, uint8_t orientation, int x);
// Does the whole input schedule for (orientation choice, x) keep the piece above the surface?
// Returns the target with its landing row when it does.
std::optional<Target> reach(const Board& board, uint8_t piece_type, const RotationChoice& choice, int x,
                            Gravity gravity);

struct Placed {
    Board board;
    uint8_t lines = 0;
    bool topped_out = false;  // a cell locked above the visible rows (then no lines are counted)
};
Placed place(const Board& board, const Target& target);
// The row of the placement's highest cell (negative above the visible rows).
int top_row(const Target& target);

// Calls visit(target) for every reachable placement, in the canonical order: rotation choices in
// the order of rotations(); for each, the columns outward from the spawn column, first leftward
// (5, 4, ..., 0) then rightward (6, 7, ..., 9), as the cartridge sweeps them.
template <class Visit>
void for_each_reachable(const Board& board, uint8_t piece_type, Gravity gravity, Visit&& visit) {
    const TypeRotations& rot = rotations(piece_type);
    for (uint8_t i = 0; i < rot.count; ++i) {
        const Shape& s = shape(rot.choice[i].orientation);
        for (int x = kSpawnX; x >= -s.min_dx; --x)
            if (auto t = reach(board, piece_type, rot.choice[i], x, gravity)) visit(*t);
        for (int x = kSpawnX + 1; x <= 9 - s.max_dx; ++x)
            if (auto t = reach(board, piece_type, rot.choice[i], x, gravity)) visit(*t);
    }
}

// The highest of columns 0-8.
uint8_t stack_height(const Board& board);
// Is a search from this board (at this gravity) in danger (the danger lines table, the well's
// holes free)? Below level 29, when the stack (columns 0-8) is at least danger_height high.
bool in_danger(const Board& board, uint8_t frames_per_drop, const EvalSet& set);
// The lines table a search uses: lines_fast at one row a frame (fast), lines_danger in danger,
// else lines.
const std::array<uint16_t, 5>& lines_table(const EvalSet& set, bool fast, bool danger);

// Cost of the board a placement leaves: lines table + evaluation (kCostMax when it tops out);
// fast: it is played at one row a frame (lines_fast, stack_fast); danger: the search is in
// danger (lines_danger, the well's holes free).
uint16_t placement_cost(const Placed& placed, const EvalSet& set, bool fast = false, bool danger = false);

struct SearchStats {
    uint32_t positions_checked = 0;  // reachability checks
    uint32_t evaluations = 0;        // reachable placements evaluated
    uint32_t line_clears = 0;        // evaluations that cleared lines (rows moved)
    SearchStats& operator+=(const SearchStats& o) {
        positions_checked += o.positions_checked;
        evaluations += o.evaluations;
        line_clears += o.line_clears;
        return *this;
    }
};

struct Candidate {
    Target target;
    uint16_t cost = 0;        // lines cost + eval of the board it leaves (ranks the candidates)
    uint16_t lines_cost = 0;  // lines cost alone (kCostMax when it tops out)
    uint8_t lines = 0;
    bool operator==(const Candidate&) const = default;
};

// What the cartridge computes while the previous piece falls.
struct Precomputed {
    uint8_t count = 0;  // candidates kept (0: no reachable placement: the game is lost)
    std::array<Candidate, kMaxCandidates> candidates{};
    std::array<std::array<uint16_t, kPieceTypes>, kMaxCandidates> best2{};
    SearchStats stats;
    bool operator==(const Precomputed& o) const {
        return count == o.count && candidates == o.candidates && best2 == o.best2;
    }
};

struct SearchInput {
    Board board;            // the board the piece will spawn into
    uint8_t piece_type = 0; // the piece to place
    LevelState level;       // at its spawn
    bool first_piece = false;  // spawns into the hold at the start of a game
};

// Does a placement lose the game: it tops out, or from level 128 the crash rule bars its lock or
// its cells reach the high rows (by the piece's spawn level and lines)?
bool placement_lost(const LevelState& level, const Target& target, const Placed& placed);
// The second ply: the lowest cost of a reachable placement of `type` on `board` (kCostMax when
// none is, or every one is lost), the level and lines still the first piece's spawn's.
uint16_t best_reply(const Board& board, uint8_t type, Gravity gravity, const LevelState& level, const EvalSet& set,
                    bool fast, bool danger, SearchStats& stats);
// The reply's gravity: its level is the first piece's after its lines.
Gravity reply_gravity(const LevelState& level, uint8_t lines);

// K: fewer at level 29, where a piece falls fastest, and for a game's first piece.
uint8_t candidates_for(uint8_t frames_per_drop, bool first_piece, const EvalSet& set);

Precomputed precompute(const SearchInput& input, const EvalTables& tables = default_tables());
inline constexpr uint8_t kNoPreview = 0xFF;
// The index of the chosen candidate once the preview is known (nullopt: nothing reachable).
// preview_type kNoPreview (the player turned the preview off): the best first-ply candidate.
std::optional<uint8_t> finalize(const Precomputed& pre, uint8_t preview_type);

}  // namespace nestris::ai
