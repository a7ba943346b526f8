// Many games of a Player against the model, on all cores, deterministic for a seed list.
//
// Game i starts from seeded_game(seeds[i], start level, type, height) (power_on.hpp: the
// game's own piece sequences) and runs until the player tops out, the game ends, a line or frame
// limit is reached. Results come back in the order of the seeds whatever the thread count, and
// each game depends only on its seed, the player and hate mode's choice (a function of the
// state), so a seed list always gives the same results.
#pragma once

#include "ai-reference/model/game_model.hpp"
#include "ai-reference/model/player.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace nestris {

struct GameResult;

struct SimulationConfig {
    std::vector<uint32_t> seeds;
    uint8_t start_level = 0;
    uint8_t game_type = 0;
    uint8_t start_height = 0;
    uint64_t max_frames = 0;  // per game; 0 = no limit
    uint32_t max_lines = 0;   // stop a game once it has this many lines; 0 = no limit
    unsigned threads = 0;     // 0 = every core
    // A fresh player for each game (players keep per-game memory).
    std::function<std::unique_ptr<Player>(uint32_t seed)> make_player;
    // Hate mode (AI_DESIGN.md "Hate mode"): at each spawn, the preview the game drew is replaced
    // by this type (step_choosing_next), called from the thread that plays the game. Empty: the
    // game's own pieces. The game's start deals its first two pieces as ever.
    NextPieceChoice choose_next;
    // Called at the end of each game, from the thread that played it, with the final state and
    // the game's player (for pictures of the board and the player's own figures).
    std::function<void(const GameResult&, const GameState& final_state, Player&)> on_game_end;
};

// MayCrash: a lock whose score frame may crash the real game (frame_time.hpp,
// forecast_frame_time with the AI games' cycles, ai_game_work: conservatively); the game ends there.
enum class GameEnd : uint8_t { ToppedOut, LineLimit, FrameLimit, BTypeGoal, LeftGame, MayCrash };
std::string to_string(GameEnd end);

struct GameResult {
    uint32_t seed = 0;
    uint32_t lines = 0;  // A-Type: every line cleared (lines_cleared), B-Type: the counter
    uint32_t score = 0;
    uint32_t start_level = 0;
    uint32_t level = 0;  // level reached
    uint32_t pieces = 0;
    std::array<uint32_t, 4> clears{};  // singles, doubles, triples, tetrises
    uint64_t frames = 0;
    bool maxed_out = false;  // reached the 999 999 cap
    GameEnd end = GameEnd::ToppedOut;
    // The model's lag forecast (ai_game_work) over the game: frames that lag for sure, and more
    // that may (the simulation does not step lag frames: MODEL.md "Time").
    uint64_t lag_sure = 0, lag_may = 0;
};

// Every line a game cleared (the game's own counter wraps at 25 600).
uint32_t lines_cleared(const GameResult& r);

// Runs one game to its end.
GameResult play_game(const SimulationConfig& config, uint32_t seed);

// Runs all games. `progress` (if set) is called from the calling thread with the number of
// finished games, a few times a second and once at the end.
std::vector<GameResult> simulate(const SimulationConfig& config,
                                 const std::function<void(std::size_t done)>& progress = {});

struct Distribution {
    double mean = 0, median = 0, p10 = 0, p25 = 0, p75 = 0, p90 = 0, min = 0, max = 0;
};
Distribution distribution(const std::vector<double>& values);

struct SimulationSummary {
    std::size_t games = 0;
    Distribution lines, score, level, pieces, frames;
    double max_out_rate = 0;  // games that reached 999 999
    double top_out_rate = 0;  // games that ended by topping out
    double may_crash_rate = 0;  // games that ended at a lock that may crash the real game
    double tetris_rate = 0;   // share of cleared lines cleared by tetrises
    uint64_t total_lines = 0, total_pieces = 0, total_frames = 0;
    uint64_t lag_sure = 0, lag_may = 0;  // GameResult's, summed
};
SimulationSummary summarize(const std::vector<GameResult>& results);

void write_summary_json(std::ostream& out, const SimulationSummary& summary,
                        const SimulationConfig& config, const std::string& player, double seconds,
                        const std::vector<std::pair<std::string, double>>& extra = {});
void write_results_csv(std::ostream& out, const std::vector<GameResult>& results);

}  // namespace nestris
