// play's watch on the run and its summary (tools/cli/play_command.cpp): the frame margin and a
// crash from the CPU's instructions, the counts of AI play, pieces, top-outs and rebirths from the
// game's RAM, and the lines play prints at the end.
#pragma once

#include "emu-test/nes.hpp"
#include "game/tetris_map.hpp"
#include "tools/harness/game_harness.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

namespace nestris {

// printf-style formatting onto std::cout (so the summary goes where the command's output goes).
template <class... Args>
inline void print(const char* format, Args... args) {
    const int n = std::snprintf(nullptr, 0, format, args...);
    std::string text(static_cast<size_t>(n > 0 ? n : 0), '\0');
    std::snprintf(text.data(), text.size() + 1, format, args...);
    std::cout << text;
}

// What the instruction hook sees of the run: the frame's margin, from the moment the game's frame
// work is done (its main loop enters the wait for the vertical blank, ai_idle) to the next NMI,
// the least one seen in play; and a crash: the game's code is all in ROM (and the AI's in ROM and
// PRG-RAM: game::is_game_code), so the CPU running RAM is a jump gone astray (the high levels'
// crash, ai-reference/MODEL.md "Time").
struct RunWatch {
    uint16_t idle_entry = 0, nmi_entry = 0;
    uint64_t waited_at = 0, last_nmi = 0, margin_frames = 0;
    int64_t worst_margin = INT64_MAX;
    bool measuring = false;
    std::optional<uint16_t> crash_pc;
    bool on_the_side = false;  // screen_of_state's extra frame: not part of the run

    void on_instruction(const emu::Nes& n) {
        if (on_the_side) return;
        const uint16_t pc = n.cpu().pc();
        if (!game::is_game_code(pc) && !crash_pc) crash_pc = pc;
        if (pc == idle_entry) {
            waited_at = n.cycles();
        } else if (pc == nmi_entry) {
            const uint8_t state = n.read_ram(tetris::player1_playState);
            if (measuring && state >= 1 && state < tetris::PLAY_STATE_CURTAIN) {
                const int64_t margin = waited_at > last_nmi ? int64_t(n.cycles() - waited_at) : 0;
                worst_margin = std::min(worst_margin, margin);
                ++margin_frames;
            }
            last_nmi = n.cycles();
        }
    }
};

// What the run counts frame by frame from the game's RAM, for its summary. AI play: a game (or
// the demo) the AI plays, from its first frame whose main loop ran (a game's first frames lag in
// the original too: the screen is drawn, B-Type's garbage made) to its end (the curtain and
// B-Type's ending are loops of their own that never reach the main loop, in the original as well).
class PlayCounter {
public:
    PlayCounter(const emu::Nes& nes, uint16_t ai_mode, uint16_t late_plans)
        : ai_mode_(ai_mode), late_plans_(late_plans), last_late_(nes.read_ram(late_plans)),
          last_count_(nes.read_ram(tetris::spawnCount)), last_state_(nes.read_ram(tetris::player1_playState)),
          last_level_(nes.read_ram(tetris::player1_levelNumber)) {
        start_rng = game::rng_seed(nes);
    }

    // Before a frame runs: is it AI play?
    bool frame_is_play(const emu::Nes& nes) {
        const uint8_t state = nes.read_ram(tetris::player1_playState);
        in_game_ = nes.read_ram(tetris::gameMode) >= tetris::GAME_MODE_PLAY && nes.read_ram(ai_mode_) != 0 && state >= 1 &&
                   state < tetris::PLAY_STATE_CURTAIN;
        games += in_game_ && !was_in_game_;
        was_in_game_ = in_game_;
        started_ = in_game_ && started_;
        return started_;
    }
    // After it ran (`in_play`: frame_is_play's answer).
    void count_play(const emu::Nes& nes, bool in_play) {
        if (in_play) {
            ++play_frames;
            // (the AI's count of pieces given the best placement of a search not done at their spawn)
            fallbacks += static_cast<uint8_t>(nes.read_ram(late_plans_) - last_late_);
            play_lag += nes.last_frame_lagged();
            lag_run_ = nes.last_frame_lagged() ? lag_run_ + 1 : 0;
            most_lag_in_a_row = std::max(most_lag_in_a_row, lag_run_);
        }
        started_ = started_ || (in_game_ && !nes.last_frame_lagged());
    }
    // After the frame `f` and whatever a soak pressed after it.
    void count_game(const emu::Nes& nes, uint64_t f) {
        if (nes.read_ram(tetris::spawnCount) != last_count_) ++pieces;
        const uint8_t state = nes.read_ram(tetris::player1_playState);
        if (state == tetris::PLAY_STATE_CURTAIN && last_state_ != tetris::PLAY_STATE_CURTAIN) ++top_outs;
        last_count_ = nes.read_ram(tetris::spawnCount);
        last_late_ = nes.read_ram(late_plans_);
        last_state_ = state;
        const uint8_t level_now = nes.read_ram(tetris::player1_levelNumber);
        if (last_level_ == 255 && level_now == 0 && nes.read_ram(tetris::gameMode) == tetris::GAME_MODE_PLAY && !rebirths++)
            first_rebirth = f;
        last_level_ = level_now;
    }

    uint64_t pieces = 0, top_outs = 0, play_frames = 0, play_lag = 0, games = 0, fallbacks = 0;
    // The longest run of AI play's lag frames in a row: a stall a viewer sees (the sprite loader's
    // ran to 254 frames before build 6789FF42, docs/measurements/lag-and-crashes.md "The stall").
    uint64_t most_lag_in_a_row = 0;
    // The rebirth: level 255 to 0, the level counter's wrap (docs/measurements/lag-and-crashes.md,
    // "The rebirth on the unmodified game").
    uint64_t rebirths = 0, first_rebirth = 0;
    // The RNG's seed as the run starts (after the menu walk): two runs that start from different
    // seeds deal different pieces, so it tells games apart (tools/scripts/rebirth-protocol.sh).
    uint16_t start_rng = 0;

private:
    uint16_t ai_mode_, late_plans_;
    uint8_t last_late_, last_count_, last_state_, last_level_;
    bool in_game_ = false, was_in_game_ = false, started_ = false;
    uint64_t lag_run_ = 0;
};

// What of play's options the summary says.
struct SummaryOptions {
    uint64_t frames = 0;
    bool coach = false, soak = false;
};
// The summary of the run and its game at the end: the screen and the game, the lag, the margin,
// the coach's grade, a crash, the rebirths (`movie_before_run`: the frames a written movie holds
// before the run's first).
void print_summary(const SummaryOptions& o, const std::string& what, const emu::Nes& nes, const PlayCounter& c,
                   const RunWatch& watch, uint64_t crash_frame, std::optional<uint64_t> movie_before_run);

}  // namespace nestris
