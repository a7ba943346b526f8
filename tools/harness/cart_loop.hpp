// Cartridge-in-the-loop: the shipped AI bytes (asm/) play the C++ game model, with no ROM.
// Each frame, in the console's order: the model steps one frame (the game's main loop) with the
// buttons the last NMI's poll left, its state is mirrored into the emulated RAM, and the AI's
// background task gets the frame's idle time (ai_idle, the wait for the vertical blank) until
// an NMI interrupts it, as the real one would, mid-step: a stand-in for the game's handler
// steps the frame counter, flags the vertical blank and polls the controller through the AI's
// driver (ai_poll), and the task gives the CPU back at the end of its step. The game's own
// controller read is a stub: no one touches the controller.
#pragma once

#include "ai-reference/model/game_model.hpp"
#include "ai-reference/model/player.hpp"
#include "base/tally.hpp"
#include "emu-test/flat_machine.hpp"
#include "game/hooks_map.hpp"

#include <cstdint>
#include <functional>

namespace nestris::tools {

struct CartLoopOptions {
    uint32_t idle_cycles = 20000;  // CPU cycles the game leaves idle per frame (measured ~20000)
    uint8_t ai_mode = hooks::AI_MODE_GAME;  // or hooks::AI_MODE_DEMO
    bool hate = false;             // hate mode (the level menu's chord set hate_on): at each spawn
                                   // the model deals as the cartridge's dealer does (hate.s)
    bool measure_steps = false;    // time every step of the task (instruction by instruction: slower)
    uint32_t idle_jitter = 0;      // idle per frame drawn from idle_cycles +- this (reproducibly),
                                   // so the NMI comes at every point of the task
    // When set, each frame's idle cycles come from here instead (a trace measured on the real game).
    std::function<uint32_t()> idle_source;
    // With measure_steps: called before each instruction of the idle time (profilers).
    std::function<void(const emu::FlatMachine&)> on_instruction;
    // Called with the machine just before each frame's idle time (after the mirror) and just
    // after it (tests: what the AI wrote).
    std::function<void(const emu::FlatMachine&, bool after)> around_idle;
};

struct CartLoopStats {
    uint64_t frames = 0;
    uint64_t task_cycles = 0;     // cycles the AI's task ran
    uint64_t max_overrun = 0;     // most cycles from the vertical blank until the task gave the
                                  // CPU back (the delay it adds to the game's next frame)
    uint32_t late_pieces = 0;     // pieces whose plan was not there by their first input frame
                                  // (they fall as they spawned)
    uint32_t fallback_plans = 0;  // pieces whose search was not done at their spawn, given the
                                  // best placement it had found (on time, but not the reference's)
    uint32_t finished_plans = 0;  // pieces whose search was not done at their spawn but was
                                  // finished for their preview before their first input: the
                                  // reference's decision
    uint32_t redone_searches = 0; // searches redone at a spawn (the game differed from the plan)
    uint32_t hate_dealt = 0;      // hate mode: spawns whose preview the adversary dealt
    uint32_t hate_kept = 0;       // and spawns whose choice was not ready (the game's draw stayed)
    uint32_t max_stack = 0;       // the task's stack bytes at a yield, most seen
    // Frames from a spawn to the AI's first input (1: the first frame the game reads input for
    // the piece), over the pieces after a game's first; the first piece waits in its hold.
    Tally<uint64_t> first_input{};
    uint32_t first_piece_input_max = 0;
    // With measure_steps: the longest run of the task between two yields (or from ai_idle's
    // entry to the first), and where it began and ended (the callers of ai_yield; 0: ai_idle).
    uint64_t max_step = 0;
    uint16_t max_step_from = 0, max_step_to = 0;

    // Adds another game's figures to these (totals over many games): counts summed, the
    // largest kept.
    void merge(const CartLoopStats& other);
};

class CartridgeInTheLoop {
public:
    CartridgeInTheLoop(const GameState& start, CartLoopOptions options = {});
    // One frame; returns the buttons the AI held. `lag`: the NMIs that came while the frame's
    // main loop was still at work (lag frames, game_model.hpp step_with_lag): each polls
    // through the AI's driver, with no idle time for the task.
    uint8_t frame(LagNmis lag = {});
    const GameState& state() const { return state_; }
    // The game changed under the AI (a human, a bug, a test): the next frame goes on from this.
    void replace_state(const GameState& state) { state_ = state; }
    const CartLoopStats& stats() const { return stats_; }
    emu::FlatMachine& machine() { return machine_; }

private:
    GameState state_;
    CartLoopOptions options_;
    CartLoopStats stats_;
    emu::FlatMachine machine_;
    uint16_t hate_for_ = 0, hate_type_ = 0;
    uint16_t ai_poll_, ai_idle_, ai_yield_, ai_yield_inline_, vblank_, held_, drv_active_, task_late_, co_len_, late_plans_, late_exact_, plan_ok_;
    uint8_t last_drv_active_ = 0;
    int since_spawn_ = -1;  // frames since the piece at hand spawned; -1: its first input came
    bool first_piece_ = true;
    uint8_t last_late_plans_ = 0, last_late_exact_ = 0;
    uint8_t plan_lost_ = 0;
    uint16_t last_yield_ = 0;
    uint8_t buttons_ = 0;   // what the last NMI's poll left for the next frame
    uint32_t jitter_state_ = 12345;
    uint64_t nmi_at_ = 0;
    void mirror();
    void idle();
    void count_first_input(uint8_t buttons, bool spawned);
    void deal_hate();
};

// The cartridge as a simulator player: it keeps its own copy of the game (the same start, the
// same buttons, so the same state as the simulator's) and answers each frame with the buttons
// its driver held. The view is only checked against that copy.
class CartLoopPlayer final : public Player {
public:
    CartLoopPlayer(const GameState& start, CartLoopOptions options = {}) : loop_(start, options) {}
    uint8_t buttons(const PlayerView& view) override;
    std::string name() const override { return "cart"; }
    const CartLoopStats& stats() const { return loop_.stats(); }
    const GameState& state() const { return loop_.state(); }  // its copy, after its last frame

private:
    CartridgeInTheLoop loop_;
};

}  // namespace nestris::tools
