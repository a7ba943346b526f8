// The game's frame, routine by routine. Arithmetic is done on 8-bit values with the game's
// comparisons (signed ones where the game branches on the N flag), so that even odd values
// behave as in the game. Sound, music and the picture are left out: they never feed back into
// the game's state.
#include "ai-reference/model/game_model.hpp"

#include <optional>

#include "ai-reference/model/score_loop.hpp"

#include "ai-reference/model/rng.hpp"

namespace nestris {
namespace {

using u8 = uint8_t;

constexpr u8 kHiddenTile = 0xFF;  // tile of the "no piece" orientation

// The N flag of `a - b` as the game's `cmp` leaves it: its branches on it are signed compares.
constexpr bool minus(u8 a, u8 b) { return (static_cast<u8>(a - b) & 0x80) != 0; }

// Cells of an orientation; anything past the table is the "no piece" orientation, whose four
// cells all sit on the pivot (the game would read past its table here; validate() rejects such
// states, this keeps the model defined).
constexpr std::array<Cell, 4> kNoCells{{{0, 0}, {0, 0}, {0, 0}, {0, 0}}};
inline const std::array<Cell, 4>& cells_of(u8 piece) {
    return piece < kOrientationCount ? kOrientationCells[piece] : kNoCells;
}
inline u8 tile_of(u8 piece) {
    return piece < kOrientationCount ? kTileOfType[kTypeOfOrientation[piece]] : kHiddenTile;
}

// Index into the playfield page as the game computes it: 10 * y + x, 8 bits.
inline u8 page_index(u8 x, u8 y, Cell c) {
    return static_cast<u8>(y * 10 + x + c.dy * 10 + c.dx);
}

bool position_valid(const GameState& s, u8 x, u8 y, u8 piece) {
    for (const Cell c : cells_of(piece)) {
        // Rows -2..19 are inside (the two hidden rows read bytes 236-255 of the page).
        if (static_cast<u8>(c.dy + y + 2) >= 22) return false;
        if (s.playfield[page_index(x, y, c)] < kTileEmpty) return false;
        if (static_cast<u8>(c.dx + x) >= 10) return false;
    }
    return true;
}

// The game lowers vramRow to the top row it has to redraw (two rows above the piece's pivot).
void update_playfield(GameState& s) {
    u8 row = static_cast<u8>(s.tetriminoY - 2);
    if (row & 0x80) row = 0;
    if (minus(row, s.vramRow)) s.vramRow = row;
}

// ---- the NMI ------------------------------------------------------------------------------

void copy_playfield_row(GameState& s) {
    if (!minus(s.vramRow, 21)) return;  // nothing left to copy
    ++s.vramRow;
    if (!minus(s.vramRow, 20)) s.vramRow = kVramRowDone;
}

void render_playfield(GameState& s) {
    if (s.playState == tetris::PLAY_STATE_LINE_CLEAR) {
        // One animation step on every fourth frame (frameCounter before this NMI's increment).
        if ((s.frameCounter & 3) == 0) {
            ++s.rowY;
            if (!minus(s.rowY, 5)) ++s.playState;
        }
        s.vramRow = 0;
        return;
    }
    for (int i = 0; i < 4; ++i) copy_playfield_row(s);
}

// ---- play state 1: the active piece -------------------------------------------------------

void shift_tetrimino(GameState& s) {
    if (s.heldButtons & tetris::BUTTON_DOWN) return;  // Down blocks shifting
    if (s.newlyPressedButtons & (tetris::BUTTON_LEFT | tetris::BUTTON_RIGHT)) {
        s.autorepeatX = 0;  // a new press moves at once
    } else {
        if (!(s.heldButtons & (tetris::BUTTON_LEFT | tetris::BUTTON_RIGHT))) return;
        ++s.autorepeatX;
        if (minus(s.autorepeatX, 16)) return;  // DAS: 16 frames to charge, then every 6
        s.autorepeatX = 10;
    }
    const u8 original = s.tetriminoX;
    if (s.heldButtons & tetris::BUTTON_RIGHT) {
        ++s.tetriminoX;
    } else if (s.heldButtons & tetris::BUTTON_LEFT) {
        --s.tetriminoX;
    } else {
        return;
    }
    if (!position_valid(s, s.tetriminoX, s.tetriminoY, s.currentPiece)) {
        s.tetriminoX = original;
        s.autorepeatX = 16;  // blocked: stays charged, retries next frame
    }
}

void rotate_tetrimino(GameState& s) {
    if (s.currentPiece >= kOrientationCount) return;  // outside the game's table, see cells_of
    u8 target;
    if (s.newlyPressedButtons & tetris::BUTTON_A) {
        target = kRotateClockwise[s.currentPiece];
    } else if (s.newlyPressedButtons & tetris::BUTTON_B) {
        target = kRotateCounterClockwise[s.currentPiece];
    } else {
        return;
    }
    if (position_valid(s, s.tetriminoX, s.tetriminoY, target)) s.currentPiece = target;
}

void drop_one_row(GameState& s) {
    s.fallTimer = 0;
    const u8 original = s.tetriminoY;
    ++s.tetriminoY;
    if (position_valid(s, s.tetriminoX, s.tetriminoY, s.currentPiece)) return;
    s.tetriminoY = original;
    s.playState = tetris::PLAY_STATE_LOCK;
    update_playfield(s);
}

void drop_tetrimino(GameState& s) {
    if (s.autorepeatY & 0x80) {
        // The hold before the first piece of a game: no gravity until Down is pressed or the
        // counter runs out.
        if (!(s.newlyPressedButtons & tetris::BUTTON_DOWN)) {
            ++s.autorepeatY;
            return;
        }
        s.autorepeatY = 0;
    }
    if (s.autorepeatY == 0) {
        // Soft drop starts only on a new press of Down alone, with Left/Right not held.
        if (!(s.heldButtons & (tetris::BUTTON_LEFT | tetris::BUTTON_RIGHT)) &&
            (s.newlyPressedButtons & kDpadButtons) == tetris::BUTTON_DOWN)
            s.autorepeatY = 1;
    } else if ((s.heldButtons & kDpadButtons) == tetris::BUTTON_DOWN) {
        ++s.autorepeatY;
        if (s.autorepeatY >= 3) {  // unsigned in the game
            s.autorepeatY = 1;
            ++s.holdDownPoints;
            drop_one_row(s);
            return;
        }
    } else {
        s.autorepeatY = 0;
        s.holdDownPoints = 0;
    }
    const u8 drop_speed = frames_per_drop(s.levelNumber);
    if (!minus(s.fallTimer, drop_speed)) drop_one_row(s);
}

// ---- play states 2-3: lock and line check -------------------------------------------------

void lock_tetrimino(GameState& s) {
    if (!position_valid(s, s.tetriminoX, s.tetriminoY, s.currentPiece)) {
        // The piece overlaps the stack where it spawned: top out.
        s.playState = tetris::PLAY_STATE_CURTAIN;
        s.curtainRow = 0xF0;
        return;
    }
    if (minus(s.vramRow, kVramRowDone)) return;  // wait for the playfield copy
    const u8 tile = tile_of(s.currentPiece);
    for (const Cell c : cells_of(s.currentPiece))
        s.playfield[page_index(s.tetriminoX, s.tetriminoY, c)] = tile;
    s.lineIndex = 0;
    update_playfield(s);
    ++s.playState;
}

void check_completed_row(GameState& s) {
    if (minus(s.vramRow, kVramRowDone)) return;
    // One row per frame: rows (pivot - 2) .. (pivot + 1), clamped at the top.
    u8 top = static_cast<u8>(s.tetriminoY - 2);
    if (top & 0x80) top = 0;
    const u8 row = static_cast<u8>(top + s.lineIndex);
    const u8 first = static_cast<u8>(row * 10);
    bool complete = true;
    for (u8 i = 0; i < 10; ++i) {
        if (s.playfield[static_cast<u8>(first + i)] == kTileEmpty) {  // only 0xEF counts as a gap
            complete = false;
            break;
        }
    }
    if (complete) {
        ++s.completedLines;
        s.completedRow[s.lineIndex & 3] = row;
        // Move every byte below the row's start down by one row, walking the 8-bit index down
        // to 0. For row 0 the index starts at 255: the game then moves the whole page (bytes
        // pushed past the page land in $0500+, which the model does not keep).
        u8 i = static_cast<u8>(first - 1);
        for (;;) {
            const unsigned dst = i + 10u;
            if (dst < kPlayfieldPageSize) s.playfield[dst] = s.playfield[i];
            if (i == 0) break;
            --i;
        }
        for (int c = 0; c < 10; ++c) s.playfield[static_cast<std::size_t>(c)] = kTileEmpty;
        s.currentPiece = kOrientationHidden;
    } else {
        s.completedRow[s.lineIndex & 3] = 0;
    }
    ++s.lineIndex;
    if (minus(s.lineIndex, 4)) return;
    s.vramRow = 0;
    s.rowY = 0;
    ++s.playState;
    if (s.completedLines == 0) ++s.playState;  // no animation
}

// ---- play state 5: lines, level, score ----------------------------------------------------

// Adds 1 to a BCD byte: the low digit carries at 10, the high digit is not checked.
u8 bcd_increment_low_digit(u8 v) {
    ++v;
    if ((v & 0x0F) >= 0x0A) v = static_cast<u8>(v + 6);
    return v;
}

void add_lines_a_type(GameState& s) {
    for (u8 n = s.completedLines; n != 0; --n) add_one_line_a_type(s.lines, s.levelNumber);
}

void subtract_lines_b_type(GameState& s) {
    u8 v = static_cast<u8>(s.lines[0] - s.completedLines);
    if (v & 0x80) {
        s.lines[0] = 0;
        return;
    }
    if ((v & 0x0F) >= 0x0A) v = static_cast<u8>(v - 6);
    s.lines[0] = v;
}

void add_hold_down_points(GameState& s) {
    if (minus(s.holdDownPoints, 2)) return;
    // score += holdDownPoints - 1, with the game's partial BCD fix-up: a carry out of the tens
    // digit keeps only the tens digit (the units are lost).
    u8 v = static_cast<u8>(s.score[0] - 1 + s.holdDownPoints);
    if ((v & 0x0F) >= 0x0A) v = static_cast<u8>(v + 6);
    s.score[0] = v;
    if ((v & 0xF0) >= 0xA0) {
        s.score[0] = static_cast<u8>((v & 0xF0) + 0x60);
        ++s.score[1];
    }
}

// The loop and its cycles are one function (score_loop.hpp): the model takes its score.
void add_line_clear_points(GameState& s) {
    s.holdDownPoints = 0;
    s.score = score_loop_work(s.levelNumber, s.completedLines, s.score).score;
}

// updateLinesAndStatistics up to its score loop: the lines (and a level-up) and the soft drop's
// points.
void lines_and_hold_down_points(GameState& s) {
    if (s.completedLines != 0) {
        const unsigned kind = (s.completedLines - 1u) & 3u;  // only 1-4 occur in the game
        s.lineClearStatsByType[kind] = bcd_increment_low_digit(s.lineClearStatsByType[kind]);
        if (s.gameType != 0) {
            subtract_lines_b_type(s);
        } else {
            add_lines_a_type(s);
        }
    }
    add_hold_down_points(s);
}

void update_lines_and_statistics(GameState& s) {
    lines_and_hold_down_points(s);
    add_line_clear_points(s);
    s.completedLines = 0;
    ++s.playState;
}

// ---- play states 6-10 ---------------------------------------------------------------------

void increment_piece_stat(GameState& s, u8 piece) {
    const std::size_t at = piece < kOrientationCount ? 2u * kTypeOfOrientation[piece] : 0u;
    u8 v = static_cast<u8>(s.statsByType[at] + 1);
    if ((v & 0x0F) >= 0x0A) {
        v = static_cast<u8>(v + 6);
        if (v >= 0xA0) {
            v = static_cast<u8>(v + 0x60);
            ++s.statsByType[at + 1];
        }
    }
    s.statsByType[at] = v;
}

void spawn_next_tetrimino(GameState& s) {
    if (minus(s.vramRow, kVramRowDone)) return;  // entry delay: wait for the playfield copy
    s.fallTimer = 0;
    s.tetriminoY = kSpawnY;
    s.playState = tetris::PLAY_STATE_ACTIVE;
    s.tetriminoX = kSpawnX;
    s.currentPiece = s.nextPiece < kOrientationCount ? spawn_orientation_of(s.nextPiece)
                                                     : kOrientationHidden;
    increment_piece_stat(s, s.currentPiece);
    s.nextPiece = pick_next_piece(s.rngSeed, s.spawnID, s.spawnCount);
    s.autorepeatY = 0;  // Down has to be pressed again for the new piece
}

void update_game_over_curtain(GameState& s) {
    if (s.curtainRow == 20) {
        if (s.score[2] >= 0x03) {  // 30 000 points or more: ending animation
            s.status = GameStatus::Ending;
            return;
        }
        if (s.newlyPressedButtons == tetris::BUTTON_START) {
            s.playState = tetris::PLAY_STATE_UNASSIGN;
            s.newlyPressedButtons = 0;
        }
        return;
    }
    if ((s.frameCounter & 3) != 0) return;
    if (!(s.curtainRow & 0x80)) {
        const u8 first = static_cast<u8>(s.curtainRow * 10);
        for (u8 i = 0; i < 10; ++i) s.playfield[static_cast<u8>(first + i)] = kTileCurtain;
        s.currentPiece = kOrientationHidden;
        s.vramRow = s.curtainRow;
    }
    ++s.curtainRow;
}

void run_play_state(GameState& s) {
    switch (s.playState) {
    case tetris::PLAY_STATE_UNASSIGN: s.currentPiece = kOrientationHidden; break;
    case tetris::PLAY_STATE_ACTIVE:
        shift_tetrimino(s);
        rotate_tetrimino(s);
        drop_tetrimino(s);
        break;
    case tetris::PLAY_STATE_LOCK: lock_tetrimino(s); break;
    case tetris::PLAY_STATE_CHECK_ROWS: check_completed_row(s); break;
    case tetris::PLAY_STATE_UPDATE_LINES: update_lines_and_statistics(s); break;
    case tetris::PLAY_STATE_B_TYPE_GOAL_CHECK:
        if (s.gameType != 0 && s.lines[0] == 0) {
            s.status = GameStatus::BTypeGoal;
            return;
        }
        ++s.playState;
        break;
    case tetris::PLAY_STATE_RECEIVE_GARBAGE: ++s.playState; break;  // garbage is for 2-player games
    case tetris::PLAY_STATE_SPAWN: spawn_next_tetrimino(s); break;
    case tetris::PLAY_STATE_CURTAIN: update_game_over_curtain(s); break;
    case tetris::PLAY_STATE_INCREMENT: ++s.playState; break;
    default: break;  // 4 and 9 do nothing; others are outside the game's table (see validate)
    }
}

}  // namespace

void run_nmi(GameState& s, uint8_t held) {
    if (s.renderMode == tetris::RENDER_MODE_PLAY) render_playfield(s);
    ++s.frameCounter;
    s.rngSeed = rng_step(s.rngSeed);
    s.newlyPressedButtons = static_cast<u8>(held & ~s.heldButtons);
    s.heldButtons = held;
}

namespace {

// Where in the main loop the NMIs of a lag frame can land (step_with_lag).
enum class WorkPoint { PlayerWorkDone, BeforePause, PauseRenderOff };

// The main loop; `at` runs where the player's work ends (after its play state, before
// gameModeState 6) and before the pause's test (7).
void run_main_loop_with(GameState& s, const std::function<void(WorkPoint)>& at) {
    if (s.gameModeState == 2) {
        // gameModeState 2: counters.
        ++s.fallTimer;
        if (s.newlyPressedButtons & tetris::BUTTON_SELECT) s.displayNextPiece ^= 1;
        // 3: game over once the player has left the curtain.
        if (s.playState == tetris::PLAY_STATE_UNASSIGN) {
            s.status = GameStatus::GameOver;
            return;
        }
        // 4: player 1.
        run_play_state(s);
        if (s.status != GameStatus::Playing) return;
        if (at) at(WorkPoint::PlayerWorkDone);
        // 6: reset combo. Its return value makes the main loop wait for a frame when the
        // held buttons happen to equal 7 (Right+Left+Down).
        if (s.heldButtons == (tetris::BUTTON_A | tetris::BUTTON_B | tetris::BUTTON_SELECT | tetris::BUTTON_START)) {
            s.status = GameStatus::Reset;
            return;
        }
        s.gameModeState = 7;
        if (s.heldButtons == 7) return;
        if (at) at(WorkPoint::BeforePause);
    }
    // 7: pause (only in play, not during the curtain); the pause loop waits each frame for a
    // new press of Start alone.
    if (s.renderMode == tetris::RENDER_MODE_LEGAL) {
        if (s.newlyPressedButtons != tetris::BUTTON_START) return;
        s.vramRow = 0;  // redraw the whole playfield after the pause
        s.renderMode = tetris::RENDER_MODE_PLAY;
    } else if (s.renderMode == tetris::RENDER_MODE_PLAY && (s.newlyPressedButtons & tetris::BUTTON_START) &&
               s.playState != tetris::PLAY_STATE_CURTAIN) {
        if (at) at(WorkPoint::PauseRenderOff);
        s.renderMode = tetris::RENDER_MODE_LEGAL;
        return;
    }
    // 8: back to 2, then wait.
    s.gameModeState = 2;
}

}  // namespace

void run_main_loop(GameState& s) { run_main_loop_with(s, {}); }

void step_with_lag(GameState& s, uint8_t held, LagNmis lag, const std::function<uint8_t(const GameState&)>& poll) {
    if (s.status != GameStatus::Playing) return;
    run_nmi(s, held);
    unsigned done = 0;
    auto lag_nmis_up_to = [&](unsigned count) {  // the lag NMIs that came by this point of the work
        for (; done < count; ++done) run_nmi(s, poll(s));
    };
    run_main_loop_with(s, [&](WorkPoint p) {
        if (p == WorkPoint::PlayerWorkDone && lag.stale_vram_row_save && lag.in_player_work > done) {
            lag_nmis_up_to(lag.in_player_work - 1);
            const uint8_t saved = s.vramRow;
            lag_nmis_up_to(lag.in_player_work);
            s.vramRow = saved;
        }
        lag_nmis_up_to(lag.in_player_work + (p != WorkPoint::PlayerWorkDone ? lag.before_pause : 0) +
                       (p == WorkPoint::PauseRenderOff ? lag.in_pause : 0));
    });
    // A frame whose work ended early (game over, a reset, the Right+Left+Down wait) or had no
    // player's work (the frame after that wait, the pause) has its NMIs at its end.
    if (s.status == GameStatus::Playing) lag_nmis_up_to(lag.total());
}

void step(GameState& s, uint8_t held) {
    if (s.status != GameStatus::Playing) return;
    run_nmi(s, held);
    run_main_loop(s);
}

void override_next_piece(GameState& s, uint8_t piece_type) {
    s.nextPiece = kSpawnOrientation.at(piece_type);  // the preview holds a spawn orientation id
}

bool step_choosing_next(GameState& s, uint8_t held, const NextPieceChoice& choose) {
    const uint8_t before = s.playState;
    step(s, held);
    const bool spawned = before == tetris::PLAY_STATE_SPAWN && s.playState == tetris::PLAY_STATE_ACTIVE;
    if (spawned && choose) override_next_piece(s, choose(s));
    return spawned;
}

std::optional<ScoreLoopInput> score_loop_input(const GameState& state) {
    // (The NMI changes neither the game mode's state nor a play state but 4 -> 5: most frames
    // end here, without a copy of the state.)
    if (state.status != GameStatus::Playing || state.gameModeState != 2 ||
        (state.playState != tetris::PLAY_STATE_UPDATE_LINES && state.playState != tetris::PLAY_STATE_LINE_CLEAR))
        return std::nullopt;
    GameState s = state;
    run_nmi(s, s.heldButtons);  // (its render ends a line clear's animation: play state 4 -> 5)
    if (s.gameModeState != 2 || s.playState != tetris::PLAY_STATE_UPDATE_LINES) return std::nullopt;
    lines_and_hold_down_points(s);
    return ScoreLoopInput{s.levelNumber, s.completedLines, s.score};
}

bool is_position_valid(const GameState& s, uint8_t x, uint8_t y, uint8_t piece) {
    return position_valid(s, x, y, piece);
}

uint8_t tile_at(const GameState& s, int column, int row) {
    if (column < 0 || column >= kPlayfieldWidth || row < -2 || row >= kPlayfieldHeight)
        return kTileEmpty;
    return s.playfield[static_cast<u8>(row * 10 + column)];
}

bool is_paused(const GameState& s) { return s.renderMode == tetris::RENDER_MODE_LEGAL; }

bool is_topped_out(const GameState& s) {
    return s.playState == tetris::PLAY_STATE_CURTAIN ||
           (s.status != GameStatus::Playing && s.status != GameStatus::BTypeGoal);
}

bool has_active_piece(const GameState& s) {
    return s.status == GameStatus::Playing && s.playState == tetris::PLAY_STATE_ACTIVE &&
           s.renderMode == tetris::RENDER_MODE_PLAY && s.currentPiece < tetris::PIECE_NONE;
}

void add_one_line_a_type(std::array<uint8_t, 2>& lines, uint8_t& level) {
    u8 low = static_cast<u8>(lines[0] + 1);
    if ((low & 0x0F) >= 0x0A) {
        low = static_cast<u8>(low + 6);
        if ((low & 0xF0) >= 0xA0) {
            low &= 0x0F;
            ++lines[1];
        }
    }
    lines[0] = low;
    if ((low & 0x0F) != 0) return;
    // Level-up check on every tenth line: the lines counter / 10, taken as the raw BCD byte,
    // compared signed with the level. Its BCD reading makes start levels above 9 level up later
    // than (level + 1) * 10 lines.
    const u8 tens = static_cast<u8>(((lines[1] << 8 | lines[0]) >> 4) & 0xFF);
    if (minus(level, tens)) ++level;
}

}  // namespace nestris
