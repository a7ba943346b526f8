// The AI's games on the real ROM (TETRIS_ROM; skipped without) are the cartridge-in-the-loop
// games: from the first frame of play, the game model with the shipped AI bytes in the loop,
// given each frame the idle time the real game left the AI, holds the real game's state at every
// frame boundary, pieces, board, score and all (ai_game_loop.hpp, compare_ai_game_with_loop).
// The search's timing is part of the game (a piece that spawns before its search is done gets
// the best placement found so far), so the loop gets the real idle time, not a constant.
#include "tools/harness/ai_game_loop.hpp"
#include "tests/game/game_support.hpp"
#include "tools/harness/model_start.hpp"

#include <catch2/catch.hpp>

#include <iostream>

using namespace nestris;
using namespace nestris::test;

namespace {

game::AiGameComparison compare(const game::MenuWalk& walk, uint64_t frames) {
    auto roms = game_roms_or_skip();
    if (!roms) return {};
    const game::AiGameComparison c = game::compare_ai_game_with_loop(roms->patched, shipped_cart(), walk, frames);
    std::cout << "level " << walk.level << (walk.b_type ? " B-Type" : " A-Type") << ": " << c.frames
              << " frames, " << c.pieces << " pieces, " << c.lines << " lines, " << c.real_fallbacks
              << " fallback pieces, game over " << c.game_over << ", idle " << c.idle_min << "-" << c.idle_max
              << (c.mismatch ? ", MISMATCH " + *c.mismatch : std::string()) << "\n";
    return c;
}

}  // namespace

TEST_CASE("real game: an AI game from level 19 is the cartridge-in-the-loop game, frame by frame") {
    if (!tetris_rom_or_skip()) return;
    const game::AiGameComparison c = compare({.level = 19}, 12000);
    INFO(c.mismatch.value_or("no mismatch"));
    CHECK_FALSE(c.mismatch);
    CHECK(c.frames >= 2000);
    CHECK(c.pieces >= 100);
    CHECK(c.lines >= 30);
    CHECK(c.real_fallbacks == c.loop_fallbacks);
}

TEST_CASE("real game: other AI games (another RNG state, B-Type) are the cartridge-in-the-loop games") {
    if (!tetris_rom_or_skip()) return;
    for (const game::MenuWalk& walk :
         {game::MenuWalk{.level = 19, .title_wait = 37}, game::MenuWalk{.level = 18, .b_type = true, .height = 3}}) {
        const game::AiGameComparison c = compare(walk, 8000);
        INFO(c.mismatch.value_or("no mismatch"));
        CHECK_FALSE(c.mismatch);
        CHECK(c.pieces >= 10);
        CHECK(c.real_fallbacks == c.loop_fallbacks);
    }
}

// Hate mode (Select, then B, held at Start): the real game's dealer (hate_deal, in the game's
// frame) and the loop's model, which deals the cartridge's choice by the same rule, agree at every
// frame; the adversary deals every preview after the first two, and the game is lost soon.
TEST_CASE("real game: hate-mode AI games are the cartridge-in-the-loop games, every preview dealt by the adversary") {
    if (!tetris_rom_or_skip()) return;
    for (const game::MenuWalk& walk : {game::MenuWalk{.level = 19, .title_wait = 5, .hate = true},
                                       game::MenuWalk{.level = 0, .title_wait = 9, .hate = true}}) {
        const game::AiGameComparison c = compare(walk, 30000);
        INFO("level " << walk.level << ": " << c.mismatch.value_or("no mismatch"));
        CHECK_FALSE(c.mismatch);
        CHECK(c.game_over);
        CHECK(c.pieces >= 20);
        CHECK(c.hate_dealt == c.pieces);  // (pieces: the spawns in play, the game's first piece not one)
        CHECK(c.hate_kept == 0);
        CHECK(c.real_fallbacks == c.loop_fallbacks);
    }
}

// From a model-made state at level 178 (score 999 999, a stack 8 rows high): the scoring frames
// outlast their NMI, and the loop steps each lag frame as the game has it (the harness starts the
// loop where the state was written, and the AI over there: AiRestart). At frame 2 530 (level 181)
// a lag NMI lands in the current piece's sprite staging ($8A57), whose count of minos the poll
// zeroes: the original freezes there (no button held; `check-identity tetris.nes --ai-games 1
// --from-level 178 --first-seed 7 --title-wait 2 --frames 6000 --against-original` parts there)
// and ai_poll stops that runaway loop. (Seed 2, the start before, tops out at frame 2 612 since
// the level-29 weights of 2026-11-27; seed 3 at level 174, before it, since the soft drop stopped.)
TEST_CASE("real game: an AI game from a model-made state at level 178 is the cartridge-in-the-loop game, lag frames included, past a freeze") {
    auto roms = game_roms_or_skip();
    if (!roms) return;
    const game::AiGameComparison c = game::compare_ai_game_with_loop(roms->patched, shipped_cart(), {.level = 19, .title_wait = 2},
                                                                     6000, game::ModelStart{178, 7, {}});
    INFO(c.mismatch.value_or("no mismatch") << "; " << game::describe_end(c));
    std::cout << "level 178 (model-made): " << c.frames << " frames, " << c.pieces << " pieces, " << c.lines << " lines, "
              << c.lag_frames << " lag frames, " << c.real_fallbacks << " fallback pieces\n";
    CHECK_FALSE(c.mismatch);
    CHECK(c.end != game::AiGameComparison::End::Crash);
    CHECK(c.frames == 6000);
    CHECK(c.lines >= 60);
    CHECK(c.lag_frames >= 10);
    CHECK(c.real_fallbacks == c.loop_fallbacks);
    // the breakdown by the stack's band covers every level-29+ piece and fallback once
    uint32_t pieces = 0, fallbacks = 0;
    for (unsigned band = 0; band < 8; ++band) {
        pieces += c.pieces_29_by_band[band];
        fallbacks += c.fallbacks_29_by_band[band];
        CHECK((band < 4 ? c.pieces_29_by_band[band] == 0 : true));  // every piece spawns at 138 or above
    }
    CHECK(pieces == c.pieces_29);
    CHECK(fallbacks == c.fallbacks_29);
}

TEST_CASE("a level-29+ piece's fallback band: its stack's height (every column) and whether its level lags") {
    GameState s;
    s.levelNumber = 29;
    CHECK(game::fallback_band(s) == 0);  // empty
    s.playfield[19 * 10 + 9] = 0x7B;     // one block in the bottom row, the well column
    CHECK(game::fallback_band(s) == 0);
    s.playfield[14 * 10 + 0] = 0x7B;     // 6 high
    CHECK(game::fallback_band(s) == 1);
    s.playfield[12 * 10 + 3] = 0x7B;     // 8 high
    CHECK(game::fallback_band(s) == 1);
    s.playfield[11 * 10 + 3] = 0x7B;     // 9 high
    CHECK(game::fallback_band(s) == 2);
    s.playfield[8 * 10 + 5] = 0x7B;      // 12 high
    CHECK(game::fallback_band(s) == 3);
    s.levelNumber = 138;
    CHECK(game::fallback_band(s) == 7);
    CHECK(game::fallback_band_name(7) == "levels 138+, stack 12+");
    CHECK(game::fallback_band_name(0) == "levels 29-137, stack 0-5");
}

// A game the AI loses at level 253 (model-made state): its last locks leave blocks in row 5, and
// between each and its scoring frame the cartridge presses Select for the preview row 5's first
// block wants (the crash rule's row5_preview_hidden), frame for frame as the reference does.
// (`check-identity tetris.nes --ai-games 1 --from-level 253 --first-seed 15 --title-wait 0
// --frames 3000`: 36 pieces, 8 lines; seed 30 at title wait 29 before build CCCE0F86, whose game
// from there now goes on past 3 000 frames.)
TEST_CASE("real game: a game the AI loses at level 253, its preview after locks in row 5 included, is the cartridge-in-the-loop game") {
    auto roms = game_roms_or_skip();
    if (!roms) return;
    const game::AiGameComparison c = game::compare_ai_game_with_loop(roms->patched, shipped_cart(), {.level = 19, .title_wait = 0},
                                                                     3000, game::ModelStart{253, 15, {}});
    INFO(c.mismatch.value_or("no mismatch") << "; " << game::describe_end(c));
    CHECK_FALSE(c.mismatch);
    CHECK(c.end == game::AiGameComparison::End::Curtain);
    CHECK(c.pieces >= 10);
}

// The rebirth (level 255 to 0) counted with its frame: a model-made state at level 255 with the
// lines a game from level 19 has there (first_reaching), so that ten lines more take the level to
// 0 as in a long game (the protocol's count: tools/scripts/rebirth-protocol.sh, check-identity).
TEST_CASE("real game: an AI game from a model-made state at level 255 passes the rebirth, counted with its frame") {
    auto roms = game_roms_or_skip();
    if (!roms) return;
    const game::ModelStart start{255, 1, first_reaching(19, 255 - 19).lines};
    const game::AiGameComparison c =
        game::compare_ai_game_with_loop(roms->patched, shipped_cart(), {.level = 19, .title_wait = 0}, 3000, start);
    INFO(c.mismatch.value_or("no mismatch") << "; " << game::describe_end(c) << "; " << c.lines << " lines, level "
                                            << static_cast<int>(c.level));
    std::cout << "level 255 (model-made): the rebirth in frame " << c.first_rebirth << " of " << c.frames << ", "
              << c.lines << " lines\n";
    CHECK_FALSE(c.mismatch);
    CHECK(c.rebirths == 1);
    CHECK(c.first_rebirth > 0);
    CHECK(c.first_rebirth < c.frames);
    CHECK(c.level < 10);
}
