// The model against the real game in the embedded emulator (needs TETRIS_ROM; skipped
// otherwise): every frame of 120 games of up to 5 000 frames (at least 500 000 frames in all;
// games that top out end early), start levels 0, 9, 18, 19 and 29,
// A-Type and B-Type, random movies with line clears, pauses and level-ups.
#include "tools/harness/fidelity.hpp"
#include "base/worker_pool.hpp"
#include "tests/support/game_rom.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <iostream>
#include <set>

using namespace nestris;

TEST_CASE("fidelity: 120 games of up to 5000 frames (>= 500 000 frames), model == game every frame") {
    const auto rom = nestris::test::tetris_rom_or_skip();
    if (!rom) return;
    const std::vector<FidelityGame> games = standard_fidelity_games(120, 5000, {0, 9, 18, 19, 29}, 1);
    const unsigned threads = std::min(2u, worker_threads());
    const std::vector<FidelityResult> results = run_fidelity(*rom, games, threads);
    std::size_t frames = 0, clears = 0, b_type = 0, level_ups = 0;
    std::set<int> levels;
    for (const FidelityResult& r : results) {
        INFO(describe(r));
        CHECK(r.error.empty());
        CHECK(r.start_matches_power_on);
        CHECK(!r.diverged);
        frames += r.frames_compared;
        clears += r.line_clears;
        level_ups += r.level_ups;
        b_type += r.game.start.game_type;
        levels.insert(r.game.start.start_level);
    }
    std::cout << "fidelity: " << results.size() << " games, " << frames << " frames compared, " << clears
              << " line clears, " << level_ups << " level-ups\n";
    CHECK(levels == std::set<int>{0, 9, 18, 19, 29});
    CHECK(b_type > 0);
    CHECK(clears > 500);
    CHECK(level_ups > 10);
    // Games that top out end early; most run their full 5000 frames.
    CHECK(frames >= 100 * 5000);
}

TEST_CASE("fidelity: a divergence is reported with both states") {
    FidelityResult r;
    r.game = standard_fidelity_games(1, 300, {9}, 5).front();
    r.start_matches_power_on = true;
    r.frames_compared = 12;
    r.diverged = true;
    r.divergence_frame = 12;
    r.divergence_buttons = tetris::BUTTON_LEFT;
    r.before = seeded_game(4, 9);
    r.model = stepped(r.before, tetris::BUTTON_LEFT);
    GameState game = r.model;
    game.levelNumber = 10;
    game.playfield[199] = kTileBlockB;
    r.rom = game;
    r.end = r.model;
    const std::string text = describe(r);
    CHECK(text.find("DIVERGENCE at frame 12 with buttons .L......") != std::string::npos);
    CHECK(text.find("  model: levelNumber 0x09\n  game:  levelNumber 0x0A") != std::string::npos);
    CHECK(text.find("  model: row 19") != std::string::npos);
    CHECK(text.find("state before the frame") != std::string::npos);
    CHECK(!r.ok());
    CHECK(state_difference(r.model, r.model).empty());
}

TEST_CASE("fidelity: games from model-made high stacks (to_ram into the game), every frame") {
    const auto rom = nestris::test::tetris_rom_or_skip();
    if (!rom) return;
    const std::vector<FidelityGame> games = stacked_fidelity_games(60, 3000, 1);
    const std::vector<FidelityResult> results = run_fidelity(*rom, games, 2);
    std::size_t frames = 0, clears = 0, hidden = 0;
    for (const FidelityResult& r : results) {
        INFO(describe(r));
        CHECK(r.ok());
        frames += r.frames_compared;
        clears += r.line_clears;
        hidden += r.hidden_row_locks;
    }
    std::cout << "fidelity (stacks): " << results.size() << " games, " << frames << " frames, " << clears
              << " line clears, " << hidden << " locks into the hidden rows\n";
    CHECK(clears > 200);
    CHECK(hidden > 0);  // pieces locked partly above the playfield, as the game keeps them
}

TEST_CASE("fidelity: model-made stacks at levels 140-255 and score 999 999, every frame, their lag frames stepped (step_with_lag)") {
    const auto rom = nestris::test::tetris_rom_or_skip();
    if (!rom) return;
    std::vector<uint8_t> levels;
    for (int l = 140; l <= 255; l += 5) levels.push_back(static_cast<uint8_t>(l));
    const std::vector<FidelityGame> games = stacked_fidelity_games(12, 2500, 7, levels, true);
    const std::vector<FidelityResult> results = run_fidelity(*rom, games, 2);
    std::size_t frames = 0, lag = 0;
    LagForecastTally forecast;
    for (const FidelityResult& r : results) {
        INFO(describe(r));
        CHECK(r.ok());
        frames += r.frames_compared;
        lag += r.lag_frames;
        forecast.merge(r.forecast);
    }
    std::cout << "fidelity (stacks, levels 140-255, score 999 999): " << results.size() << " games, " << frames
              << " frames, " << lag << " lag frames; " << forecast.summary() << "\n";
    CHECK(lag > 10);  // the scoring frames there outlast the NMI
    // The model's forecast (frame_time.hpp) is never wrong, says yes to lag frames, and is unsure
    // ("may") of under 1 % of the frames.
    INFO(forecast.summary());
    CHECK(forecast.wrong == 0);
    CHECK(forecast.count(Maybe::Yes, true) > 0);
    CHECK(100 * (forecast.count(Maybe::May, true) + forecast.count(Maybe::May, false)) < frames);
}

// An NMI that lands in the main loop's dispatch of gameModeState 8 ($AC89, between its pulls and
// its jmp) sends the game into the legal screen's code (traced, game_harness.hpp DispatchWatch):
// the game has left play, at a lock the model called one that may crash. Without the watch the
// game's RAM at the next wait (gameModeState 8) was read as a state the game cannot be in.
TEST_CASE("fidelity: a dispatch sent astray by an NMI ends the game as a crash the model forecast") {
    const auto rom = nestris::test::tetris_rom_or_skip();
    if (!rom) return;
    const FidelityResult r = run_fidelity_game(*rom, stacked_fidelity_games(1, 4000, 4154, {254}, true)[0]);
    INFO(describe(r));
    REQUIRE(r.crash);
    CHECK(r.crash->how.find("dispatch went to $8220") != std::string::npos);
    CHECK(r.crash->predicted);
    CHECK(r.ok());
}
