// A seeded driver that plays the real game through every screen like a restless person (the
// identity runs and the access trace give it the game to play).
#pragma once

#include "emu-test/nes.hpp"

#include <cstdint>
#include <deque>
#include <memory>
#include <random>

namespace nestris::ai {
class AiPlayer;
}

namespace nestris::game {

// Controller bits (emu::button) from the game's button byte (A = $80 ... Right = $01).
uint8_t pad_from_game(uint8_t game_buttons);

struct DriverOptions {
    uint64_t seed = 1;
    bool watch_demo = false;      // now and then leave the title alone until the demo starts
    bool select_in_level_menu = false;  // hold Select at Start in the level menu (an AI game)
    bool coach_in_level_menu = false;   // hold B at Start in the level menu (a coach game): A and B
                                        // pressed together first (B alone goes back), with A still
                                        // held at Start now and then (+10)
    int give_up_min = 10;         // pieces the driver plays well before it lets a game top out
    int give_up_max = 60;
    int junk_piece_percent = 10;  // pieces played with random buttons instead of well
};

// What to press in the coming frame, from the RAM of the machine it plays (call between
// frames). Menus: random moves, then Start (the level menu: A held at Start now and then, for
// +10). Play: the reference AI places most pieces; some get random buttons; it pauses, toggles
// the preview, holds Right+Left+Down, now and then resets with A+B+Select+Start; after a random
// number of pieces it plays junk until the game tops out, waits for the curtain and presses
// Start; high-score entry gets random letters. Deterministic for a seed.
class GameDriver {
public:
    explicit GameDriver(DriverOptions options);
    ~GameDriver();
    GameDriver(GameDriver&&) noexcept;
    GameDriver& operator=(GameDriver&&) noexcept;
    uint8_t next(const emu::Nes& nes);

    // What the driver saw, for reports.
    struct Stats {
        uint64_t games = 0, b_type_games = 0, pauses = 0, resets = 0, demos = 0,
                 curtains = 0, max_level = 0, high_score_entries = 0, endings = 0;
        uint64_t max_lines = 0;
    };
    const Stats& stats() const { return stats_; }

private:
    uint32_t roll(uint32_t n);  // 0..n-1
    void press(uint8_t b, uint8_t held = 0);  // queues released, pressed, released frames
    uint8_t menu(uint8_t mode, const emu::Nes& nes);
    uint8_t play(const emu::Nes& nes);

    DriverOptions options_;
    std::mt19937_64 rng_;
    Stats stats_;
    uint8_t last_mode_ = 0xFF;
    uint64_t in_mode_ = 0;       // frames since the game mode changed
    uint64_t plan_frame_ = 0;    // menus: the frame at which to press Start
    bool wait_for_demo_ = false;
    int menu_moves_ = 0;
    // play
    std::unique_ptr<ai::AiPlayer> ai_;
    int pieces_ = 0, give_up_at_ = 0;
    bool junk_piece_ = false;
    uint8_t last_play_state_ = 0, last_render_mode_ = 0;
    uint64_t wait_ = 0;          // frames to wait before the next special press
    uint8_t held_ = 0;
    std::deque<uint8_t> script_;  // buttons of the coming frames, before anything else
};

}  // namespace nestris::game
