// Cartridge-in-the-loop: the shipped AI bytes (asm/) play the C++ game model, with no ROM.
// Each frame, as on the console: the model's state is mirrored into the emulated RAM, the AI's
// input driver runs as the NMI's controller poll would (ai_poll), the model steps one frame with
// the buttons it left in the game's variables, the state is mirrored again, and the AI's
// background task gets the frame's idle time (ai_idle) until the "NMI" (the vertical-blank flag)
// ends it. The game's own controller read is a stub: no one touches the controller.
#pragma once

#include "flat_machine.hpp"
#include "game_model.hpp"

#include <cstdint>

namespace nestris::tools {

struct CartLoopOptions {
    uint32_t idle_cycles = 20000;  // CPU cycles the game leaves idle per frame (measured ~20000)
    uint8_t ai_mode = 2;           // AI_MODE_GAME (1: the demo)
};

struct CartLoopStats {
    uint64_t frames = 0;
    uint64_t task_cycles = 0;     // cycles the AI's task ran
    uint64_t max_overrun = 0;     // most cycles from the vertical blank until the task gave the
                                  // CPU back (the delay it adds to the game's next frame)
    uint32_t late_pieces = 0;     // pieces whose plan was not there by their first input frame
    uint32_t redone_searches = 0; // searches redone at a spawn (the game differed from the plan)
    uint32_t max_stack = 0;       // the task's stack bytes at a yield, most seen
};

class CartridgeInTheLoop {
public:
    CartridgeInTheLoop(const GameState& start, CartLoopOptions options = {});
    // One frame; returns the buttons the AI held.
    uint8_t frame();
    const GameState& state() const { return state_; }
    const CartLoopStats& stats() const { return stats_; }
    emu::FlatMachine& machine() { return machine_; }

private:
    GameState state_;
    CartLoopOptions options_;
    CartLoopStats stats_;
    emu::FlatMachine machine_;
    uint16_t ai_poll_, ai_idle_, vblank_, held_, drv_active_, task_late_, co_len_;
    uint8_t last_drv_active_ = 0;
    void mirror();
};

}  // namespace nestris::tools
