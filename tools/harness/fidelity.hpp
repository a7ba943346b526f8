// The fidelity check: the real game in the embedded emulator against the C++ model, frame by
// frame, on the same input movie.
//
// Each game: power the emulated NES on, take a known menu path (PowerOnSequence: Start at the
// earliest frame of each screen plus the given extra frames; B-Type by Right in the type menu;
// the start level and height written to player1_startLevel/player1_startHeight in the level
// menu, so that any level 0-255 can be started), and stop at the first frame boundary of the
// game. The model is then started from the game's RAM (from_ram), and, separately, the RAM is
// checked against power_on_game() for the same path (the "seeded" start without a ROM). Both
// then run the same random movie (make_random_movie, drawn on the model before the run); after
// every frame the whole model state is compared with the state read from the game's RAM.
//
// Frame boundaries in the emulator are the NMI entries that find the main loop waiting for the
// NMI: the RAM there is the state at the model's boundary, and the buttons set there are what
// that NMI polls. An NMI that lands in the frame's work instead (a lag frame, from level ~140)
// polls the movie's next pad and is stepped with step_with_lag; the comparison waits for the
// next boundary.
#pragma once

#include "ai-reference/model/frame_time.hpp"
#include "ai-reference/model/game_model.hpp"
#include "ai-reference/model/player.hpp"
#include "ai-reference/model/power_on.hpp"
#include "emu-test/nes.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace nestris {

struct FidelityGame {
    PowerOnSequence start;   // level_menu_frames >= 1 (the level is written in that time)
    std::size_t frames = 5000;
    uint64_t movie_seed = 0;
    // Written into the lines counter at the first frame (BCD, e.g. 0x0137), to reach level-ups
    // within the game's frames; the power-on comparison is made before it.
    std::optional<uint16_t> lines = std::nullopt;
    // When set (0-19): at the first frame the playfield gets a random stack from this row down
    // (one gap per row), written into the game's RAM with to_ram, so that the game and the
    // model continue from a model-made state: high stacks, locks into the hidden rows, clears
    // near the top.
    std::optional<uint8_t> stack_top = std::nullopt;
    // With the stack: the score set to 999 999 as well (as in any game that reaches the high
    // levels; each lock's score loop then takes its longest, and lags from level ~140).
    bool max_score = false;
};

// The game crashed (from level ~150 a lock's frame can: MODEL.md "Time"): in which frame, how
// the harness saw it, and whether the model called that frame's lock one that may crash.
struct FidelityCrash {
    std::size_t frame = 0;  // 1 = the first frame stepped
    std::string how;
    uint8_t level = 0, lines = 0;  // the level the score loop read and the lines it scored
    bool predicted = false;        // the frame's forecast (forecast_frame_time, the score as it was) said it may crash
};

struct FidelityResult {
    FidelityGame game;
    bool start_matches_power_on = false;  // ROM's first frame == power_on_game(game.start)
    std::string start_difference;         // the differing variables when it does not
    std::size_t frames_compared = 0;
    bool diverged = false;
    std::size_t divergence_frame = 0;     // 1 = the first frame stepped
    uint8_t divergence_buttons = 0;
    GameState before;                     // model (= game) state before the diverging frame
    GameState model;                      // model after it
    std::optional<GameState> rom;         // game after it (empty when its RAM is not a state)
    std::string rom_error;                // why from_ram rejected the game's RAM
    std::string error;                    // the harness failed (menus, emulator)
    // What the game went through.
    std::size_t line_clears = 0, tetrises = 0, pieces = 0, pauses = 0, level_ups = 0;
    std::size_t hidden_row_locks = 0;  // locks that left blocks in the hidden rows
    std::size_t lag_frames = 0;        // NMIs that came in a frame's work (stepped with step_with_lag)
    LagForecastTally forecast;         // the model's lag forecast (kOriginalWork) against the game's frames
    FrameWorkSeen besides_loop;        // scoring frames without lag: their work's cycles but the loop's
    GameState end;
    std::optional<FidelityCrash> crash;  // the game crashed: the run ended there
    // A crash the model predicted ends a game as the model says; one it did not is a failure.
    bool ok() const { return error.empty() && !diverged && start_matches_power_on && (!crash || crash->predicted); }
};

// `observe`, if given, sees every instruction of the game before it runs (access traces).
FidelityResult run_fidelity_game(std::span<const uint8_t> ines_rom, const FidelityGame& game,
                                 std::function<void(const emu::Nes&)> observe = {});

// The standard set: `count` games cycling through the start levels, about one in six B-Type,
// varied menu timings, movie seeds from `seed`; one in three games starts a few lines below a
// level-up.
std::vector<FidelityGame> standard_fidelity_games(std::size_t count, std::size_t frames,
                                                  const std::vector<uint8_t>& levels, uint64_t seed);

// Games that start from random stacks (stack_top 0-15), at start levels cycling 0, 9, 18, 19.
std::vector<FidelityGame> stacked_fidelity_games(std::size_t count, std::size_t frames, uint64_t seed,
                                                  const std::vector<uint8_t>& levels = {0, 9, 18, 19},
                                                  bool max_score = false);

// Runs games on `threads` threads; results in the order of the games.
std::vector<FidelityResult> run_fidelity(std::span<const uint8_t> ines_rom,
                                         const std::vector<FidelityGame>& games, unsigned threads,
                                         const std::function<void(std::size_t done)>& progress = {});

// The variables that differ, one "name: model ... / game ..." line each.
std::string state_difference(const GameState& model, const GameState& game);
// A report for people: the game, and at a divergence both states.
std::string describe(const FidelityResult& result);

}  // namespace nestris
