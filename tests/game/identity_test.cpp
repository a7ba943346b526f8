// Human play untouched (TETRIS_ROM; skipped without): random-input movies through the menus and
// games, on the original and the patched ROM side by side. After every frame at whose end both
// games wait for the NMI: all RAM but the AI's bytes and the dead stack identical, and the PPU
// writes identical (register, value, VRAM address, in order) once the level-menu hint's writes
// are taken out. The driver never holds Select in the level menu (that starts an AI game) and
// always leaves the title before the demo. A bigger run: tools/bench/check_identity.cpp.
#include "tests/game/game_support.hpp"

#include <catch2/catch.hpp>

#include <iostream>

using namespace nestris;
using namespace nestris::test;

namespace {

constexpr uint64_t kFramesPerMovie = 10'000;

void run_movies(uint64_t first_seed, int movies) {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    for (int i = 0; i < movies; ++i) {
        game::DriverOptions options;
        options.seed = first_seed + static_cast<uint64_t>(i);
        const game::IdentityResult r = game::run_identity(*roms, shipped_cart(), options, kFramesPerMovie);
        INFO("movie seed " << options.seed << ": " << r.mismatch.value_or("identical"));
        CHECK_FALSE(r.mismatch);
        CHECK(r.frames == kFramesPerMovie);
        CHECK(r.compared_frames > kFramesPerMovie * 9 / 10);
        CHECK(r.stats.games >= 1);
        std::cout << "movie " << options.seed << ": " << r.frames << " frames, " << r.compared_frames
                  << " compared, " << r.ppu_writes << " PPU writes, " << r.stats.games << " games, "
                  << r.stats.pauses << " pauses, level up to " << r.stats.max_level << "\n";
    }
}

}  // namespace

// 20 movies of 10 000 frames, in four tests so that ctest can run them side by side.
TEST_CASE("real game: human play is frame-identical on the patched ROM (movies 1-5)") { run_movies(101, 5); }
TEST_CASE("real game: human play is frame-identical on the patched ROM (movies 6-10)") { run_movies(106, 5); }
TEST_CASE("real game: human play is frame-identical on the patched ROM (movies 11-15)") { run_movies(111, 5); }
TEST_CASE("real game: human play is frame-identical on the patched ROM (movies 16-20)") { run_movies(116, 5); }

// Below level 124 no frame of either game ends within 40 cycles of the NMI (MODEL.md "Time"), so
// the hooks' few cycles (README, "Human play is untouched") change nothing: a game from a
// model-made state at level 122, score 999 999, lag NMIs compared too.
TEST_CASE("real game: human play at level 122 from a model-made state is identical, lag frames included") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    const game::AiGameOnOriginal r = game::compare_high_level_play_with_original(*roms, shipped_cart(), 122, 5, 3000);
    INFO(r.mismatch.value_or("identical") << "; " << r.first_lag_difference.value_or("no lag difference"));
    CHECK_FALSE(r.mismatch);
    CHECK(r.lag_patched_only == 0);
    CHECK(r.lag_original_only == 0);
    CHECK(r.compared_frames > 300);
    CHECK(r.level >= 122);
}

// An AI game replayed on the original (the AI's buttons at each poll as its controller) is the
// same game every frame: the AI drives the game only through the buttons it holds.
TEST_CASE("real game: an AI game replayed on the original is the same game every frame") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    game::MenuWalk walk;
    walk.level = 19;
    walk.title_wait = 7;
    const game::AiGameOnOriginal r = game::compare_ai_game_with_original(*roms, shipped_cart(), walk, 15'000);
    INFO(r.mismatch.value_or("identical"));
    CHECK_FALSE(r.mismatch);
    CHECK(r.compared_frames > 14'000);
    CHECK(r.lines > 50);
    CHECK(r.lag_patched == 0);
}
