// The coach (asm/coach.s) on the real game (TETRIS_ROM; skipped without): a coach game is the
// original game, frame for frame, and its ghost is the reference AI's decision. The big runs:
// check-identity --coach (the movies) and bench-coach (the ghost's latency).
#include "tests/game/game_support.hpp"
#include "tools/harness/coach_run.hpp"
#include "tools/harness/game_driver.hpp"
#include "tools/harness/identity.hpp"
#include "tools/harness/model_start.hpp"

#include "ai-reference/ai/ai_coach.hpp"
#include "ai-reference/ai/ai_player.hpp"
#include "game/hooks_map.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <iostream>
#include <set>

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
            // The classes: the cartridge's equal the reference's grade_lock on every lock the
            // full search had decided (grade_difference), most of them, misses of several classes.
            CHECK(g.classed * 10 >= g.graded * 8);
            CHECK(g.classes[0] >= g.matched);
            CHECK(g.classed - g.classes[0] >= 3);
            std::cout << "coach game, level " << level << (b_type ? " B-Type" : " A-Type") << ": " << g.classed
                      << " locks classed (best to blunder:";
            for (uint16_t n : g.classes) std::cout << " " << n;
            std::cout << "), accuracy " << int(ai::coach_accuracy(g.points, g.classed)) << "\n";
        }
    }
}

// A person against hate mode (the coach's chord, then Select too): the person (the reference AI,
// blind to the preview, as --coach's) locks where it likes, and the cartridge deals from that
// board, in the entry delay, what the reference's adversary deals on the board the game shows;
// the ghost and the grade stay the coach's.
TEST_CASE("real game: a person's hate-mode game deals the reference adversary's pieces from the person's board, with the coach") {
    auto roms = game_roms_or_skip();
    if (!roms) return;
    for (const int level : {9, 18}) {
        game::MenuWalk walk;
        walk.ai = false;
        walk.coach = true;
        walk.hate = true;
        walk.level = level;
        walk.title_wait = level + 5;
        ai::AiPlayer player(ai::default_tables(), false, /*blind_to_preview=*/true);
        const game::CoachGame g = game::run_coach_game(*roms, shipped_cart(), walk, player, 20'000);
        INFO("level " << level << ": " << g.pieces.size() << " pieces, " << g.lines << " lines; dealt " << g.hate_dealt
                      << " (" << g.hate_reference << " the reference's), not ready " << g.hate_kept << "; "
                      << g.first_difference << "; " << g.grade_difference);
        CHECK(g.topped_out);
        CHECK(g.pieces.size() >= 20);
        CHECK(g.hate_reference == g.hate_dealt);
        CHECK(g.hate_dealt * 10 >= (g.hate_dealt + g.hate_kept) * 9);
        CHECK(g.first_difference.empty());
        CHECK(g.grade_difference.empty());
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

// The chord forgives its timing (issue 51): A, then B a few frames later with A held, then Start
// with B held, starts a coach game; B alone, or B a frame past the window, goes back to the type
// menu as in the original (which goes back on every one of these chords).
TEST_CASE("real game: the coach's chord forgives its timing, and B alone still goes back") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    const uint16_t ai_mode = shipped_cart().require("ai_mode");
    const std::string level_menu = ".*300 S .*20 S .*20 S .*20 ";  // power-on to the level menu
    const std::string a_for = "A*";
    struct Case {
        std::string chord;
        bool coach;  // the patched game stays in the level menu, and B+Start starts a coach game
    };
    const Case cases[] = {
        {"A*2 A+B*3", true},  // issue 51's: ".*300 S .*20 S .*20 S .*20 A*2 A+B*3 B*2 B+S ."
        {"A A+B*3", true},
        {a_for + std::to_string(hooks::COACH_CHORD_FRAMES) + " A+B*3", true},
        {a_for + std::to_string(hooks::COACH_CHORD_FRAMES + 1) + " A+B*3", false},
        {"B*3", false},
        {"A . B*3", false},
    };
    for (const Case& c : cases) {
        INFO(c.chord);
        emu::Nes x(roms->original), y(roms->patched);
        x.run_input(level_menu + c.chord);
        y.run_input(level_menu + c.chord);
        CHECK(x.read_ram(tetris::gameMode) == tetris::GAME_MODE_GAME_TYPE);
        CHECK(y.read_ram(tetris::gameMode) == (c.coach ? tetris::GAME_MODE_LEVEL_MENU : tetris::GAME_MODE_GAME_TYPE));
        y.run_input("B*2 B+S .*60");
        if (c.coach) {
            CHECK(y.read_ram(tetris::gameMode) == tetris::GAME_MODE_PLAY);
            CHECK(y.read_ram(ai_mode) == hooks::AI_MODE_COACH);
        } else {
            CHECK(y.read_ram(tetris::gameMode) == tetris::GAME_MODE_LEVEL_MENU);  // B+Start on the type menu: forward
            CHECK(y.read_ram(ai_mode) == hooks::AI_MODE_HUMAN);
        }
    }
}

namespace {

// CIE L*a*b* of an sRGB colour (D65), for the distance a person sees between two colours.
std::array<double, 3> lab(const std::array<uint8_t, 3>& rgb) {
    auto linear = [](uint8_t u) {
        const double c = u / 255.0;
        return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    const double r = linear(rgb[0]), g = linear(rgb[1]), b = linear(rgb[2]);
    const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, y = 0.2126 * r + 0.7152 * g + 0.0722 * b,
                 z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    auto f = [](double t) { return t > 216.0 / 24389 ? std::cbrt(t) : (24389.0 / 27 * t + 16) / 116; };
    return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

double delta_e(uint8_t nes_a, uint8_t nes_b) {
    const auto a = lab(emu::nes_palette()[nes_a & 0x3F]), b = lab(emu::nes_palette()[nes_b & 0x3F]);
    return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

}  // namespace

// The ghost (issue 51): one tile and palette for all seven pieces, in colours that no level's
// stack has. At each level's palette (levels 0-9; 10-29 repeat them), in a coach game: the four
// cells the coach stages, the colours its tile draws with (the pattern's pixels, through the
// sprite palette as the PPU holds it) against the stack's (background palette 2, which the game
// sets for the level, and the black around it), as the CIE76 distance. Prints the figures.
TEST_CASE("real game: the ghost is one tile in colours no level's stack has") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    double least = 1e9;
    for (int level = 0; level < 10; ++level) {
        INFO("level " << level);
        emu::Nes nes(roms->patched);
        nes.run_input(game::menu_walk_input(game::MenuWalk{.level = level, .ai = false, .coach = true}));
        int frames = 0;
        while (!game::ghost_slots_used(nes) && frames++ < 120) nes.run_frame();
        REQUIRE(game::ghost_slots_used(nes));
        std::set<unsigned> indexes;  // the colour numbers the ghost's tile draws with (1-3)
        const emu::VideoMap video = nes.video_map();
        const uint8_t* pattern = video.chr[(nes.ppu().ctrl & 0x08) ? 1 : 0] + hooks::GHOST_TILE * 16;
        for (int row = 0; row < 8; ++row)
            for (int bit = 0; bit < 8; ++bit) {
                const unsigned c = ((pattern[row] >> bit) & 1) | ((pattern[row + 8] >> bit) & 1) << 1;
                if (c) indexes.insert(c);
            }
        for (unsigned slot = hooks::GHOST_OAM; slot < 0x100; slot += 4) {
            CHECK(nes.read_ram(static_cast<uint16_t>(tetris::oamStaging + slot + 1)) == hooks::GHOST_TILE);
            CHECK(nes.read_ram(static_cast<uint16_t>(tetris::oamStaging + slot + 2)) == hooks::GHOST_ATTRIBUTES);
        }
        const auto& palette = nes.ppu().palette;
        const uint8_t stack[] = {palette[0], palette[8 + 1], palette[8 + 2], palette[8 + 3]};  // black, the level's
        std::cout << "level " << level << ": the stack's colours";
        for (uint8_t c : stack) std::cout << " $" << std::hex << int(c) << std::dec;
        std::cout << "; the ghost's";
        for (unsigned i : indexes) {
            const uint8_t ghost = palette[0x10 + 4 * (hooks::GHOST_ATTRIBUTES & 3) + i];
            std::cout << " $" << std::hex << int(ghost) << std::dec;
            for (uint8_t c : stack) {
                CHECK(ghost != c);
                least = std::min(least, delta_e(ghost, c));
            }
        }
        std::cout << "\n";
    }
    std::cout << "the least distance between a ghost colour and a stack colour (CIE76): " << least << "\n";
    CHECK(least >= 20);  // the grey, white and cyan of the old ghost: 0 (the white stack cells)
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
