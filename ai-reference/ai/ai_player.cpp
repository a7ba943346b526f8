#include "ai-reference/ai/ai_player.hpp"

#include <algorithm>
#include <bit>

#include "ai-reference/ai/ai_crash_rule.hpp"
#include "game/hooks_map.hpp"

namespace nestris::ai {

uint8_t plan_buttons(const Target& t, int k, uint8_t level) {
    const int n = t.input_frames();
    if (k >= 1 && (k & 1) && (k + 1) / 2 <= n) {
        const int i = (k + 1) / 2;
        uint8_t b = 0;
        if (i <= t.shifts) b |= t.left ? tetris::BUTTON_LEFT : tetris::BUTTON_RIGHT;
        if (i <= t.rotation_presses) b |= t.ccw ? tetris::BUTTON_B : tetris::BUTTON_A;
        return b;
    }
    // Down once the inputs are done: a new press with Left/Right released, held until the lock;
    // from level 128 only where the crash rule wants the soft drop's points (at one row a frame it
    // moves nothing, and its points, added before the score loop, move the scoring frame's time:
    // MODEL.md "Time").
    if (!soft_drop_at(level)) return 0;
    return k >= std::max(2 * n, 1) ? tetris::BUTTON_DOWN : 0;
}

Board board_of(const PlayerView& view) {
    Board b;
    for (int row = 0; row < kRows; ++row) b.rows[row] = view.rows[row];
    b.recompute_columns();
    return b;
}

Decision decide(const PlayerView& view, bool first_piece, bool b_type, const EvalTables& tables) {
    SearchInput in;
    in.board = board_of(view);
    in.piece_type = type_of_orientation(view.currentPiece);
    in.level = LevelState{view.levelNumber, view.lines_bcd[0], view.lines_bcd[1], b_type};
    in.first_piece = first_piece;
    Decision d;
    d.search = precompute(in, tables);
    const bool preview_shown = view.nextPiece < kOrientations;
    d.chosen = finalize(d.search, preview_shown ? type_of_orientation(view.nextPiece) : kNoPreview);
    return d;
}

uint8_t AiPlayer::buttons(const PlayerView& view) {
    if (view.paused) return 0;  // the piece's frames stand still while the game is paused
    // The crash rule's preview (ai_crash_rule.hpp): Select on a frame without other buttons while
    // the game shows it otherwise than wanted: while a piece falls, as its level and its lock's
    // class want it for the lock's scoring frame; once that frame is over, shown again for the next piece's spawn.
    const bool shown = view.nextPiece < kOrientations;
    if (!view.active || view.currentPiece >= kOrientations) {
        was_active_ = false;
        // (play state 1 without its piece counts as after the scoring frame, as the cartridge's
        // test has it)
        const bool after_scoring =
            view.playState > tetris::PLAY_STATE_UPDATE_LINES || view.playState == tetris::PLAY_STATE_ACTIVE;
        if (after_scoring) return shown ? 0 : tetris::BUTTON_SELECT;
        // Between a lock and its scoring frame: the preview for a block in row 5 (row5_preview_hidden).
        if (view.playState == tetris::PLAY_STATE_CHECK_ROWS || view.playState == tetris::PLAY_STATE_LINE_CLEAR) {
            const uint16_t row5 = view.rows[5];
            const uint8_t first = row5 ? static_cast<uint8_t>(std::countr_zero(row5)) : kRow5Empty;
            const std::optional<bool> hidden = row5_preview_hidden(view.levelNumber, first);
            if (hidden && *hidden == shown) return tetris::BUTTON_SELECT;
        }
        return 0;
    }
    if (!was_active_) {  // a new piece (or the first frame we see of this game)
        was_active_ = true;
        frame_ = 0;
        // The hold of a game's first piece shows as a negative soft-drop counter.
        const bool hold = (view.autorepeatY & 0x80) != 0;
        start_frame_ = hold ? kFirstPieceStartFrame : 1;
        PlayerView seen = view;
        if (blind_to_preview_) seen.nextPiece = kOrientationHidden;
        decision_ = decide(seen, hold, b_type_, tables_);
        stats_ += decision_->search.stats;
        ++decisions_;
        max_evaluations_ = std::max(max_evaluations_, decision_->search.stats.evaluations);
    }
    ++frame_;
    const uint8_t planned =
        decision_->chosen ? plan_buttons(decision_->target(), frame_ - start_frame_ + 1, view.levelNumber) : 0;
    const uint8_t lines = decision_->chosen ? decision_->search.candidates[*decision_->chosen].lines : 0;
    if (planned == 0 && lock_preview_hidden(view.levelNumber, view.currentPiece, lines, view.lines_bcd[0]) == shown)
        return tetris::BUTTON_SELECT;
    return planned;
}

}  // namespace nestris::ai
