// The work of one lock on the real game, traced cycle by cycle in the embedded NES (the
// measurement behind the model's time, MODEL.md "Time"; measure-lock prints it, tests/game
// checks the model's score loop against it).
//
// From a game started at the level menu, the first frame boundary of play is overwritten with a
// model-made state: the given level, score and lines, `k` full rows but for column 9 (their
// lowest at the rest row) and a vertical I above that column, which then falls and locks. The per-instruction hook records
// the frame that runs the score loop: its NMI entry, the loop's first instruction
// (addLineClearPoints) and its end, the main loop's next wait for vertical blank, and every NMI
// that lands before that wait (a lag frame) with the instruction it interrupted.
#pragma once

#include "ai-reference/model/frame_time.hpp"
#include "tools/harness/game_harness.hpp"
#include "tools/harness/model_start.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nestris::game {

struct LockSetup {
    uint8_t level = 29;
    uint8_t lines_cleared = 0;                     // 0-4
    std::array<uint8_t, 3> score{0x99, 0x99, 0x99};  // BCD, low byte first
    std::array<uint8_t, 2> lines{0x01, 0x15};      // 2 101: BCD low byte, then the hundreds (binary past 9)
    int title_wait = 0;                            // extra frames on the legal screen: another frame phase
    // The row the I's lowest cell locks in (4-19): below it, rows with column 9 filled and a gap
    // at column 0 hold it up. A higher lock leaves the NMI's playfield copy longer at work.
    uint8_t rest_row = 19;
    bool preview = true;  // the next piece shown (Select hides it: displayNextPiece 1)
    uint8_t hold_down_points = 0;  // rows soft-dropped (Down held alone), scored before the loop from 2
};

struct LandedNmi {
    uint64_t at = 0;   // cycles from the scoring frame's NMI entry
    uint16_t pc = 0;   // the instruction it interrupted
};

struct LockTiming {
    bool scored = false;          // the score loop ran
    bool crashed = false;         // the CPU left the game's code, or no wait before the next piece
    uint16_t crash_pc = 0;
    uint64_t pre = 0;             // NMI entry -> the loop's first instruction
    uint64_t loop = 0;            // the loop (with any NMI that landed in it)
    uint64_t post = 0;            // the loop's end -> the next wait for vertical blank
    std::vector<LandedNmi> landed;  // NMIs before that wait: the frame lagged
    std::array<uint8_t, 3> score_after{};
    // After the loop, the instructions of the jump-table dispatch (switch_s_plus_2a) between its
    // store of the table address into tmp1/tmp2 and its jmp (tmp1): an NMI landing on one of
    // them has its own dispatch overwrite tmp1/tmp2, and the game jumps astray. Cycles from the
    // loop's end to each such instruction's first cycle, in the order run.
    std::vector<uint64_t> crash_window_starts;
    // The same for the sprite loader (loadSpriteIntoOamStaging) after the loop, from the store of
    // its pointer to its loop's last instruction: an NMI there leaves the pointer at (the render's
    // digits, the buttons the poll read: generalCounter2 is its scratch), RAM, and the loop reads
    // on there to a $FF record (MODEL.md "Time").
    std::vector<uint64_t> loader_window_starts;
    // And the current piece's sprite staging (stageSpriteForCurrentPiece's loop over its minos):
    // an NMI there leaves the buttons the poll read as the loop's count, 0 when none is held, and
    // the loop then runs 256 times, longer than a frame, so the next NMI lands in it again: the
    // game freezes until a button is held (MODEL.md "Time").
    std::vector<uint64_t> mino_window_starts;
};
// stageSpriteForCurrentPiece's loop over the minos.
bool in_mino_window(uint16_t pc);
// The sprite loader's instructions from its pointer's store to its loop's jmp.
bool in_sprite_loader_window(uint16_t pc);

// The instructions of switch_s_plus_2a from its first store into tmp1 to its jmp (tmp1).
bool in_dispatch_crash_window(uint16_t pc);

LockTiming trace_lock(std::span<const uint8_t> original_rom, const LockSetup& setup);

// Every scoring frame of an AI game on the patched game (the menu walk with Select held), as it
// comes: what the frame's time depends on, and what it took.
struct ScoringFrame {
    uint8_t level = 0, lines_cleared = 0, hold_down_points = 0;  // level: as the score loop reads it
    bool level_up = false;          // the lines loop raised the level before the score loop
    uint8_t row5_first_block = kRow5Empty;  // the music's danger test scans row 5 up to its first block
    uint8_t allegro = 0;            // the music's danger state before the frame
    uint8_t vram_row = 0;           // the NMI's playfield copy in progress (32: none)
    std::array<uint8_t, 3> score{}; // before the loop
    std::array<uint8_t, 2> lines{}; // the lines counter before the frame (BCD low byte, hundreds)
    bool preview_shown = true;      // displayNextPiece 0
    uint64_t pre = 0, loop = 0;     // as in LockTiming
    std::vector<LandedNmi> landed;
    bool crashed = false;
    // The pieces at the frame's NMI (the locked one still staged as a sprite, and the preview's),
    // and the first cycle of each dispatch's crash window after the loop's end, as in LockTiming
    // (those of a frame that does not lag: all of them).
    uint8_t piece = 0, piece_x = 0, piece_y = 0, next_piece = 0;
    std::vector<uint64_t> dispatch_windows;
};
// The kind of an AI game's scoring frame (frame_time.hpp), when it is one the kinds describe: from
// a spawn at level 128 or above, the music unchanged (row 5's first block: AiScoringKind::row5_first),
// its work begun at its own NMI (not after a lag), the soft drop's points leaving kSoftDropScore if
// any; nullopt otherwise.
std::optional<AiScoringKind> ai_kind_of(const ScoringFrame& f);
struct AiGameTimes {
    std::vector<ScoringFrame> frames;
    uint64_t frames_run = 0;
    // How it ended: the curtain (a top-out), a crash (the CPU running RAM, or the game out of
    // play without its curtain: a jump astray that landed in game code), or the frames ran out.
    enum class End { FramesRanOut, Curtain, Crash } end = End::FramesRanOut;
    // Every NMI that interrupted the game's own code (not the AI's idle task nor the wait):
    // a frame whose work outlasted it. The frame number, the play state and where it landed.
    struct Lag {
        uint64_t frame = 0;
        uint8_t play_state = 0, level = 0;
        uint16_t pc = 0;
    };
    std::vector<Lag> lags;
    bool crashed = false;  // end == Crash
    uint16_t crash_pc = 0; // where the CPU ran RAM (0: it left play instead, or a dispatch went astray)
    std::string crash_detail;  // what the crash was, for people (empty: thrown out of play)
    uint32_t lines = 0;
    uint8_t level = 0;
};
// A stall: frames in a row whose NMIs each landed in the game's work (a lag NMI in every one), so
// the picture holds that long; a lag NMI in the sprite loader made them up to 256 (MODEL.md
// "Time"). The first frame, how many, the level and where the first NMI landed.
struct Stall {
    uint64_t first_frame = 0;
    uint32_t frames = 0;
    uint8_t level = 0;
    uint16_t pc = 0;
};
// The runs of `lags` (in frame order) of at least `min_frames` frames in a row.
std::vector<Stall> stalls_of(const std::vector<AiGameTimes::Lag>& lags, uint32_t min_frames);

// With `start`, the game goes on from a model-made state (the AI restarts there: AiRestart).
AiGameTimes trace_ai_game_locks(std::span<const uint8_t> patched_rom, const CartImage& cart, const MenuWalk& walk,
                                uint64_t frames, std::optional<ModelStart> start = std::nullopt);

}  // namespace nestris::game
