// A frame-accurate model of 1-player NES Tetris (USA, NTSC), A-Type and B-Type.
//
// GameState holds exactly the game variables that decide how a game continues, under the
// game's own names (see game/tetris.inc). Multi-byte counters keep the game's byte layout (BCD,
// low byte first) so the model can reproduce the game's arithmetic quirks bit for bit.
//
// Frame boundary. A state is the game as it stands while its main loop waits for the vertical
// blank (the wait in updateAudioWaitForNmiAndResetOamStaging, after gameModeState 8 has set
// gameModeState back to 2). step() then runs, in the game's order:
//   1. the NMI: the playfield render of renderMode 3 (while playState is 4 the line-clear
//      animation, which advances rowY on frames with frameCounter % 4 == 0 and moves on to
//      playState 5 after five such frames; otherwise the copy of up to four playfield rows to
//      VRAM, which advances vramRow - the game waits for that copy before locking, checking
//      rows and spawning, which is where the entry delay comes from), frameCounter + 1, one RNG
//      step, and the controller poll: newlyPressedButtons = held & ~heldButtons (the previous
//      frame's held buttons), heldButtons = held;
//   2. the main loop: gameModeState 2 (fallTimer + 1, Select toggles the preview), 3 (game over),
//      4 (the play state of player 1), 6 (reset combo), 7 (pause), 8, and the next wait.
// The player block $40-$5F and its copy $60-$7F are equal at this boundary, so one copy is kept.
// Two game quirks put the wait elsewhere and are modelled: holding exactly Right+Left+Down makes
// the main loop wait once more after gameModeState 6 (gameModeState is 7 at that boundary, and
// the next frame runs only states 7-8: a frame without piece movement), and the pause loop waits
// inside gameModeState 7 (renderMode 0).
#pragma once

#include "ai-reference/model/pieces.hpp"
#include "game/tetris_map.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace nestris {

// What the game does next, as far as the model follows it.
enum class GameStatus : uint8_t {
    Playing = 0,    // in the game loop (including the pause and the game-over curtain)
    GameOver = 1,   // the curtain is down and Start was pressed: the game leaves to the menus
    Ending = 2,     // curtain down with score >= 30 000: the game plays its ending animation
    BTypeGoal = 3,  // B-Type: the lines counter reached 0, the game plays its success screens
    Reset = 4,      // A+B+Select+Start held: the game restarts at the legal screen
};
std::string to_string(GameStatus status);

inline constexpr int kPlayfieldWidth = tetris::PLAYFIELD_COLUMNS;  // game/tetris.inc
inline constexpr int kPlayfieldHeight = tetris::PLAYFIELD_ROWS;
// The game's playfield page ($0400-$04FF): rows 0-19 at index 10*row + column, then bytes the
// game never shows but does read: the two hidden rows above row 0 are at 236-245 (row -2) and
// 246-255 (row -1), because the game computes cell indices in 8 bits.
inline constexpr std::size_t kPlayfieldPageSize = 256;

inline constexpr uint8_t kVramRowDone = 0x20;  // vramRow once the playfield copy is complete

struct GameState {
    // ---- the player block (player1_* at $60-$7F, active copy at $40-$5F) ----
    uint8_t tetriminoX = kSpawnX;
    uint8_t tetriminoY = kSpawnY;
    uint8_t currentPiece = kOrientationHidden;  // orientation id, 0x13 = none
    uint8_t levelNumber = 0;
    uint8_t fallTimer = 0;
    uint8_t autorepeatX = 0;   // DAS counter
    uint8_t startLevel = 0;
    uint8_t playState = tetris::PLAY_STATE_ACTIVE;
    uint8_t vramRow = 0;       // next row the NMI copies to VRAM; 0x20 = copy complete
    std::array<uint8_t, 4> completedRow{};
    uint8_t autorepeatY = 0;   // soft-drop counter; negative = the hold before the first piece
    uint8_t holdDownPoints = 0;
    std::array<uint8_t, 2> lines{};  // BCD, [0] = tens and units, [1] = hundreds (and above)
    uint8_t rowY = 0;                // line-clear animation step
    std::array<uint8_t, 3> score{};  // BCD, [0] = lowest two digits
    uint8_t completedLines = 0;
    uint8_t lineIndex = 0;
    uint8_t curtainRow = 0;
    uint8_t startHeight = 0;
    uint8_t garbageHole = 0;

    // ---- the rest of the game ----
    uint16_t rngSeed = 0;  // (byte $17 << 8) | byte $18
    uint8_t spawnID = 0;
    uint8_t spawnCount = 0;
    uint16_t frameCounter = 0;
    uint8_t nextPiece = 0;  // spawn orientation id
    uint8_t gameType = 0;   // 0 = A-Type, otherwise B-Type
    uint8_t gameModeState = 2;
    uint8_t renderMode = tetris::RENDER_MODE_PLAY;  // RENDER_MODE_LEGAL while paused
    uint8_t displayNextPiece = 0;  // 0 = preview shown
    uint8_t newlyPressedButtons = 0;  // player 1
    uint8_t heldButtons = 0;          // player 1
    std::array<uint8_t, 14> statsByType{};  // per type: BCD low byte, then hundreds
    std::array<uint8_t, 4> lineClearStatsByType{};  // singles, doubles, triples, tetrises (BCD)
    GameStatus status = GameStatus::Playing;
    std::array<uint8_t, kPlayfieldPageSize> playfield{};

    GameState() { playfield.fill(kTileEmpty); }
    friend bool operator==(const GameState&, const GameState&) = default;
};

// ---- stepping ------------------------------------------------------------------------------
// One frame: the NMI with the buttons held this frame, then the main loop until its next wait.
// Once status is not Playing the game has left the part the model follows and step does nothing.
void step(GameState& state, uint8_t held_buttons);
inline GameState stepped(GameState state, uint8_t held_buttons) {
    step(state, held_buttons);
    return state;
}
// Hate mode (AI_DESIGN.md "Hate mode"): at a spawn the game draws the preview (nextPiece) as
// ever, then an adversary's piece type replaces what it drew. Only nextPiece changes: the RNG and
// the picker's memory (spawnID, spawnCount) stay the game's own, as the cartridge will override
// the draw's result and nothing else. `choose` sees the state after the spawn's frame: the board
// after the last lock (the falling piece is not in the playfield), the level and lines after it.
using NextPieceChoice = std::function<uint8_t(const GameState& at_spawn)>;
void override_next_piece(GameState& state, uint8_t piece_type);  // throws on a type past 6
// One frame (step); when it spawned a piece (play state 8 -> 1: one play state a frame, so no
// other frame does) and `choose` is set, the preview it drew is replaced by choose's type.
// Nothing after the spawn in that frame reads nextPiece, so replacing it at the frame's end is
// replacing it at the draw. Returns whether the frame spawned a piece.
bool step_choosing_next(GameState& state, uint8_t held_buttons, const NextPieceChoice& choose);
// The two halves of a frame, for harnesses that need to stop in between.
void run_nmi(GameState& state, uint8_t held_buttons);
void run_main_loop(GameState& state);

// A frame whose work outlasts the frame (from level ~140, a lock's score loop; MODEL.md
// "Time"): the NMIs that come while the main loop is still at work each render, count the
// frame, step the RNG and poll, as every NMI does, and no main loop follows them; the
// interrupted work goes on with their poll. Where they land matters to the buttons the rest of
// the work reads: gameModeState 6 reads the held buttons (the reset, the Right+Left+Down wait)
// and 7 the new presses (the pause). `poll` gives each one's held buttons, from the state as it
// stands when it comes. The render writes the active player block as well as its saved copy,
// so the player's save keeps what it wrote.
struct LagNmis {
    unsigned in_player_work = 0;  // before gameModeState 6 (in the score loop: nearly all)
    unsigned before_pause = 0;    // after 6 read the held buttons, before 7 reads the new presses
    unsigned in_pause = 0;        // after 7 read them, in a pause's start before it cleared renderMode
    unsigned after = 0;           // after all that (the music)
    // The last NMI in the player's work landed in its save (savePlayer1State) between the load and
    // the store of vramRow: the store writes the value from before the NMI, so the NMI's render
    // advances vramRow for nothing.
    bool stale_vram_row_save = false;
    unsigned total() const { return in_player_work + before_pause + in_pause + after; }
    // Counts one more NMI that landed where the work was: `reached` 6 / 7 or not, or in the
    // pause's start (before it cleared renderMode).
    void add(bool reached_state6, bool reached_state7, bool pausing = false) {
        if (pausing && !after) ++in_pause;
        else ++(reached_state7 || after || in_pause ? after : reached_state6 || before_pause ? before_pause : in_player_work);
    }
};
void step_with_lag(GameState& state, uint8_t held_buttons, LagNmis lag,
                   const std::function<uint8_t(const GameState&)>& poll);

// ---- queries -------------------------------------------------------------------------------
// The frame that runs a lock's score loop (frame_time.hpp) is the one whose main loop finds play
// state 5 (updateLinesAndStatistics, gameModeState 2), the NMI's render having ended a line
// clear's animation or not: what its loop reads, after the lines counter (and a level-up) and the
// soft drop's points. Any other frame: none.
struct ScoreLoopInput {
    uint8_t level = 0, lines = 0;
    std::array<uint8_t, 3> score{};
};
std::optional<ScoreLoopInput> score_loop_input(const GameState& state);

// The game's own collision test (isPositionValid) for orientation `piece` at (x, y).
bool is_position_valid(const GameState& state, uint8_t x, uint8_t y, uint8_t piece);
// Playfield byte of a visible cell or a hidden row (row -2..19, column 0..9).
uint8_t tile_at(const GameState& state, int column, int row);
inline bool is_filled_tile(uint8_t tile) { return tile < kTileEmpty; }  // as the collision test
bool is_paused(const GameState& state);
// The player has topped out: the curtain is falling or down, or the game left the loop.
bool is_topped_out(const GameState& state);
// The piece under the player's control, movable this frame.
bool has_active_piece(const GameState& state);

// One more line of an A-Type game: the lines counter (BCD low byte, the hundreds byte without a
// decimal adjust) and the game's level-up test on every tenth line (a raw BCD byte, compared
// signed with the level; level 255 goes up to 0, the rebirth).
void add_one_line_a_type(std::array<uint8_t, 2>& lines, uint8_t& level);
// The counter where a game from `start_level`, a line at a time, first makes its
// `levels_up`-th level-up (levels past 255 count on: 256 + k is level k after the rebirth).
struct LinesAtLevel {
    std::array<uint8_t, 2> lines{};
    uint8_t level = 0;
    uint32_t count = 0;  // lines made
};
LinesAtLevel first_reaching(uint8_t start_level, unsigned levels_up);

uint32_t bcd_to_int(const uint8_t* bytes_low_first, std::size_t count);
uint32_t lines_count(const GameState& state);   // the lines made (the low byte BCD, the hundreds byte binary)
uint32_t lines_made(uint8_t low, uint8_t hundreds);  // the same from the game's two bytes
uint32_t score_value(const GameState& state);   // score as a number
uint32_t piece_stat(const GameState& state, int piece_type);
inline constexpr uint32_t kMaxScore = 999999;

// ---- whole-state utilities -----------------------------------------------------------------
// The state as a fixed byte string (stable across builds; also what the hash is made of).
inline constexpr std::size_t kSerializedStateSize = 64 + kPlayfieldPageSize;
std::array<uint8_t, kSerializedStateSize> serialize(const GameState& state);
uint64_t hash_value(const GameState& state);

}  // namespace nestris

template <>
struct std::hash<nestris::GameState> {
    std::size_t operator()(const nestris::GameState& s) const noexcept {
        return static_cast<std::size_t>(nestris::hash_value(s));
    }
};
