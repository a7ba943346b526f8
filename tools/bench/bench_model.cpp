// bench-model: speed of the game model (frames per second on one core) and of the simulator
// (games per minute at level 19 with the scripted drop player).
#include "ai-reference/model/game_model.hpp"
#include "ai-reference/model/player.hpp"
#include "ai-reference/model/power_on.hpp"
#include "ai-reference/model/random_movie.hpp"
#include "ai-reference/model/simulator.hpp"
#include "base/command_runner.hpp"
#include "base/worker_pool.hpp"
#include "tools/harness/version.hpp"

#include <CLI/CLI.hpp>

#include <chrono>
#include <iostream>

using namespace nestris;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Steps `frames` frames of games started from seeds, replaying `movie` in a loop, starting a new
// game when one ends. Returns frames per second.
double model_speed(uint64_t frames, const std::vector<uint8_t>& movie, uint8_t level, uint64_t& check) {
    GameState s = seeded_game(0, level);
    uint32_t seed = 0;
    std::size_t at = 0;
    const auto start = std::chrono::steady_clock::now();
    for (uint64_t f = 0; f < frames; ++f) {
        step(s, movie[at]);
        if (++at == movie.size()) at = 0;
        if (s.status != GameStatus::Playing || s.playState == tetris::PLAY_STATE_CURTAIN) {
            check += s.frameCounter;
            s = seeded_game(++seed, level);
        }
    }
    const double t = seconds_since(start);
    check += s.rngSeed;
    return static_cast<double>(frames) / t;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"bench-model: game model frames/s (one core) and simulator games/min", "bench-model"};
    uint64_t frames = 50'000'000;
    uint32_t games = 2000;
    unsigned threads = 0;
    app.add_option("--frames", frames, "model frames per measurement")->capture_default_str();
    app.add_option("--games", games, "simulator games")->capture_default_str();
    app.add_option("--threads", threads, "simulator threads (default: every core)");
    app.set_version_flag("--version", nestris::tools::version_text());
    return nestris::run_program(app, argc, argv, [&]() -> int {
        uint64_t check = 0;
        // Inputs: nothing pressed; a busy human-like movie (taps, turns, soft drops, pauses) made
        // by the random movie generator at level 19.
        const std::vector<uint8_t> idle{0};
        const std::vector<uint8_t> busy = make_random_movie(seeded_game(1, 19), 7, 20000).movie.frames;
        for (int level : {0, 19}) {
            const double idle_fps = model_speed(frames, idle, static_cast<uint8_t>(level), check);
            const double busy_fps = model_speed(frames, busy, static_cast<uint8_t>(level), check);
            std::cout << "model, level " << level << ", one core: " << idle_fps / 1e6
                      << " M frames/s with no input, " << busy_fps / 1e6 << " M frames/s with a busy movie\n";
        }

        for (unsigned t : {1u, worker_threads(threads)}) {
            SimulationConfig config;
            for (uint32_t i = 0; i < games; ++i) config.seeds.push_back(i);
            config.start_level = 19;
            config.threads = t;
            config.make_player = [](uint32_t) { return std::make_unique<DropAtSpawnPlayer>(); };
            const auto start = std::chrono::steady_clock::now();
            const auto results = simulate(config);
            const double secs = seconds_since(start);
            const SimulationSummary summary = summarize(results);
            std::cout << "simulator, level 19, drop player, " << t << " thread(s): " << games << " games in "
                      << secs << " s = " << games * 60.0 / secs << " games/min ("
                      << static_cast<double>(summary.total_frames) / secs / 1e6 << " M frames/s, "
                      << summary.pieces.mean << " pieces and " << summary.frames.mean << " frames per game)\n";
            check += summary.total_frames;
        }
        std::cout << "(checksum " << check << ")\n";
        return 0;
    });
}
