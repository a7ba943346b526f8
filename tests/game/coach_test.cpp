// The coach (asm/coach.s) on the real game (TETRIS_ROM; skipped without): a coach game is the
// original game, frame for frame, and its ghost is the reference AI's decision. The big runs:
// check-identity --coach (the movies) and bench-coach (the ghost's latency).
#include "tests/game/game_support.hpp"
#include "tools/harness/coach_run.hpp"

#include "ai-reference/ai/ai_player.hpp"
#include "generated/hooks_map.hpp"

#include <catch2/catch.hpp>

#include <iostream>

using namespace nestris;
using namespace nestris::test;

namespace {

void run_coach_movies(uint64_t first_seed, int movies) {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    uint64_t plus_10 = 0;
    for (int i = 0; i < movies; ++i) {
        game::DriverOptions options;
        options.seed = first_seed + static_cast<uint64_t>(i);
        options.coach_in_level_menu = true;
        const game::IdentityResult r = game::run_identity(*roms, shipped_cart(), options, 10'000);
        INFO("movie seed " << options.seed << ": " << r.mismatch.value_or("identical"));
        CHECK_FALSE(r.mismatch);
        CHECK(r.frames == 10'000);
        CHECK(r.stats.games >= 1);
        CHECK(r.coach_frames > 3'000);  // the movie's games are coach games
        CHECK(r.ghost_frames > 500);    // with the ghost on screen
        plus_10 += r.coach_plus_10;
        std::cout << "coach movie " << options.seed << ": " << r.compared_frames << " frames compared, "
                  << r.stats.games << " games, " << r.coach_frames << " in coach games, the ghost in "
                  << r.ghost_frames << ", level up to " << r.stats.max_level << ", " << r.coach_plus_10
                  << " started at +10\n";
    }
    CHECK(plus_10 >= 1);  // (the seeds' movies start +10 coach games too)
}

}  // namespace

// Random movies whose games start with the coach's chord (A and B, then B held at Start; A held
// too now and then, +10): the patched game plays them as coach games, the original as plain
// games; compared after every frame as human play is (identity_test.cpp), the ghost's sprites
// left out where the original has none.
TEST_CASE("real game: coach games are the original's games, frame for frame (movies 1-3)") { run_coach_movies(301, 3); }
TEST_CASE("real game: coach games are the original's games, frame for frame (movies 4-6)") { run_coach_movies(304, 3); }

// Each full search's ghost is where the reference AI places the piece, given what the game shows
// at its spawn (board, piece, preview, level, lines), whoever plays: here a player who follows the
// ghost when the preview does not matter and leaves it when it does.
TEST_CASE("real game: the coach's ghost is the reference AI's decision") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    for (const int level : {0, 18}) {
        for (const bool b_type : {false, true}) {
            game::MenuWalk walk;
            walk.ai = false;
            walk.coach = true;
            walk.level = level;
            walk.b_type = b_type;
            walk.title_wait = level + 3;
            ai::AiPlayer player(ai::default_tables(), b_type, /*blind_to_preview=*/true);
            const game::CoachGame g = game::run_coach_game(*roms, shipped_cart(), walk, player, 4'000);
            uint64_t searched = 0, equal = 0, shown = 0, left = 0;
            for (const game::CoachPiece& p : g.pieces) {
                searched += p.searched;
                equal += p.searched && p.equals_reference;
                shown += p.first_ghost >= 0;
                left += p.searched && !p.followed;
            }
            INFO("level " << level << (b_type ? " B-Type" : " A-Type") << ": " << g.pieces.size() << " pieces, "
                          << searched << " searched, " << equal << " as the reference; " << g.first_difference
                          << "; the grade: " << g.matched << " of " << g.graded << "; " << g.grade_difference);
            CHECK(g.pieces.size() > 60);
            CHECK(equal == searched);
            CHECK(searched * 10 >= g.pieces.size() * 9);
            CHECK(shown * 10 >= g.pieces.size() * 9);
            CHECK(left >= 5);  // the player left the ghost: the search at the spawn was tried
            CHECK(g.lag_frames == 0);
            // The grade: the cartridge's counts, share and sprites are the harness's every frame
            // (coach_run.cpp), with locks of both kinds counted.
            CHECK(g.grade_difference.empty());
            CHECK(g.graded * 10 >= g.pieces.size() * 9);
            CHECK(g.matched >= g.graded / 2);
            CHECK(g.matched + 5 <= g.graded);
        }
    }
}

// The menu walk's chord starts a coach game at the level it chose (A held: +10) on both menus.
TEST_CASE("real game: the coach's chord starts a coach game at the chosen level") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    const uint16_t ai_mode = shipped_cart().require("ai_mode");
    for (const int level : {3, 17}) {
        for (const bool b_type : {false, true}) {
            emu::Nes nes(roms->patched);
            nes.run_input(game::menu_walk_input(game::MenuWalk{.level = level, .b_type = b_type, .ai = false, .coach = true}));
            nes.run_frames(60);
            INFO("level " << level << (b_type ? " B-Type" : " A-Type"));
            CHECK(nes.read_ram(tetris::gameMode) == tetris::GAME_MODE_PLAY);
            CHECK(nes.read_ram(tetris::levelNumber) == level);
            CHECK(nes.read_ram(tetris::gameType) == (b_type ? 1 : 0));
            CHECK(nes.read_ram(ai_mode) == hooks::AI_MODE_COACH);
        }
    }
    CHECK_THROWS_AS(game::menu_walk_input(game::MenuWalk{.ai = true, .coach = true}), std::invalid_argument);
}

// Below level 124 no frame of the original ends within 40 cycles of the NMI (identity_test.cpp);
// the coach's task starts a frame's work later by up to a step of the search: a coach game from a
// model-made state at level 122, lag frames compared too.
TEST_CASE("real game: a coach game at level 122 is the original's game, lag frames included") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    check_high_level_play(*roms, 122, 5, 3000, true);
}

// From level 128 (COACH_OFF_LEVEL) a coach game is a person's game alone: at its first frame
// there the coach clears the AI's RAM and goes, and the game lags where the original lags.
TEST_CASE("real game: from level 128 a coach game is a person's game, lag frames included") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    const game::AiGameOnOriginal r = check_high_level_play(*roms, 150, 7, 3000, true);
    CHECK(r.lag_patched > 0);  // the level's scoring frames lag, on both

    // and the coach is gone: ai_mode and the AI's zero page and AI_RAM6 back to 0
    emu::Nes y(roms->patched);
    y.run_input(game::menu_walk_input(game::MenuWalk{.level = 9, .ai = false, .coach = true}));
    REQUIRE(y.read_ram(game::ai_mode_address()) == hooks::AI_MODE_COACH);
    game::start_from_model_state({&y}, game::ModelStart{150, 7, {}});
    y.run_frames(3);
    CHECK(y.read_ram(game::ai_mode_address()) == hooks::AI_MODE_HUMAN);
    for (const CartRegion& region : shipped_cart().regions)
        if (region.is_ram && (region.name == "AI_RAM6" || region.name.rfind("AI_ZP", 0) == 0))
            for (uint32_t a = region.start; a < region.start + region.size; ++a) {
                INFO(region.name << " $" << std::hex << a);
                CHECK(y.read_ram(static_cast<uint16_t>(a)) == 0);
            }
}
