// Lock, entry delay, line clears, lines/level/score, B-Type, top-out, pause and the
// Right+Left+Down quirk; expected frame counts and values are worked out from the game's code:
// the NMI copies four playfield rows per frame and the game waits for that copy before locking,
// before checking rows (one row per frame, four rows) and before spawning.
#include "ai-reference/model/rng.hpp"
#include "ai-reference/model/state_io.hpp"
#include "tests/model/model_test_support.hpp"

#include <catch2/catch.hpp>

using namespace nestris;
using nestris::test::fill_row;
using nestris::test::frames_until;
using nestris::test::fresh_piece;

namespace {

bool spawned(const GameState& s) { return s.playState == tetris::PLAY_STATE_ACTIVE; }

// A flat I resting on blocks under columns 3-6 at pivot row y, level 29 (gravity every frame).
GameState resting_i(int y) {
    GameState s = fresh_piece(orient::iHoriz, 29);
    s.tetriminoY = static_cast<uint8_t>(y);
    if (y < 19)
        for (int c = 3; c <= 6; ++c) s.playfield[static_cast<std::size_t>((y + 1) * 10 + c)] = kTileBlockC;
    return s;
}

// Runs play state 5 (lines, level, score) once for `lines` cleared lines.
void score_lines(GameState& s, uint8_t lines) {
    s.playState = tetris::PLAY_STATE_UPDATE_LINES;
    s.completedLines = lines;
    step(s, 0);
}

}  // namespace

TEST_CASE("entry delay: spawn 2n + 8 frames after the failed drop, n = copy frames of the rows") {
    // Frame 1: the drop fails (playState 2, vramRow = pivot - 2). The lock waits for the NMI's
    // copy of rows vramRow..19 (n frames of four rows), the row check waits for it again, checks
    // four rows on four frames, then the whole playfield is copied (5 frames) before the spawn.
    for (const auto& [y, n] : {std::pair{19, 1}, {18, 1}, {17, 2}, {14, 2}, {10, 3}, {6, 4}, {2, 5}, {0, 5}}) {
        INFO("pivot row " << y);
        GameState s = resting_i(y);
        step(s, 0);
        REQUIRE(s.playState == tetris::PLAY_STATE_LOCK);
        const auto frames = frames_until(s, 0, spawned);
        REQUIRE(frames);
        // Frame 1 was the failed drop; the spawn comes 2n + 8 frames later (10 to 18).
        CHECK(*frames == 2 * n + 8);
        // The new piece is the preview, at the spawn point.
        CHECK(s.currentPiece == orient::iHoriz);
        CHECK(s.tetriminoX == 5);
        CHECK(s.tetriminoY == 0);
    }
}

TEST_CASE("line clear: the animation takes the 5 frames with frameCounter % 4 == 0 from its start") {
    for (int phase = 0; phase < 4; ++phase) {
        INFO("frameCounter phase " << phase);
        GameState s = resting_i(19);
        fill_row(s, 19, 3);
        for (int c = 4; c <= 6; ++c) s.playfield[static_cast<std::size_t>(190 + c)] = kTileEmpty;
        s.frameCounter = static_cast<uint16_t>(phase);
        // Frame 1: the drop fails; 2: lock; 3-6: row checks (rows 17, 18, 19, 20; 19 is
        // complete); the animation runs in the NMIs from frame 7 on.
        const auto frames = frames_until(s, 0, spawned);
        REQUIRE(frames);
        // The animation's NMIs read frameCounter before counting: frame 7 reads phase + 6.
        const int first_tick = (4 - (phase + 6) % 4) % 4;  // frames after 7 to the first tick
        const int fifth_tick_frame = 7 + first_tick + 16;
        CHECK(*frames == fifth_tick_frame + 5);
        CHECK(lines_count(s) == 1);
        CHECK(score_value(s) == 40 * 30);  // single at level 29
        for (int c = 0; c < 10; ++c) CHECK(tile_at(s, c, 19) == kTileEmpty);
    }
}

TEST_CASE("line clear: rows above a cleared row move down, rows below stay") {
    GameState s = resting_i(17);
    fill_row(s, 17, 3);
    for (int c = 4; c <= 6; ++c) s.playfield[static_cast<std::size_t>(170 + c)] = kTileEmpty;
    s.playfield[16 * 10 + 0] = kTileBlockB;  // above: must move to row 17
    fill_row(s, 19, 9);                     // below: stays
    s.playfield[18 * 10 + 2] = kTileBlockC; // row 18 is the floor for the I (columns 3-6)
    REQUIRE(frames_until(s, 0, spawned));
    CHECK(lines_count(s) == 1);
    CHECK(tile_at(s, 0, 17) == kTileBlockB);
    CHECK(tile_at(s, 0, 16) == kTileEmpty);
    for (int c = 3; c <= 6; ++c) CHECK(tile_at(s, c, 18) == kTileBlockC);
    CHECK(tile_at(s, 2, 18) == kTileBlockC);
    CHECK(tile_at(s, 9, 19) == kTileEmpty);
    CHECK(tile_at(s, 0, 19) == kTileBlockA);
    CHECK(s.lineClearStatsByType[0] == 0x01);
}

TEST_CASE("line clear: a complete row 0 makes the game move the whole page down") {
    // The row move walks an 8-bit index down from (10 * row - 1): for row 0 that is 255, so the
    // game moves all 256 bytes of the page down by a row (row 19 into the unseen bytes 200-209,
    // hidden row -1 out to $0500), clears row 0, then finds the completed row again at row 1
    // and clears it normally: one row scores as a double, and row 19 of the stack is lost.
    GameState s = fresh_piece(orient::iHoriz, 29);
    for (int r = 0; r < kPlayfieldHeight; ++r) fill_row(s, r, r == 0 ? -1 : r % 9);
    for (int c = 3; c <= 6; ++c) s.playfield[static_cast<std::size_t>(c)] = kTileEmpty;  // the I's place
    const GameState start = s;
    REQUIRE(frames_until(s, 0, spawned));
    CHECK(lines_count(s) == 2);
    CHECK(score_value(s) == 100 * 30);
    for (int c = 0; c < 10; ++c) {
        CHECK(tile_at(s, c, 0) == kTileEmpty);
        CHECK(tile_at(s, c, 1) == kTileEmpty);
        for (int r = 2; r < kPlayfieldHeight; ++r) CHECK(tile_at(s, c, r) == tile_at(start, c, r - 1));
        CHECK(s.playfield[static_cast<std::size_t>(200 + c)] == tile_at(start, c, 19));
    }
}

TEST_CASE("level: first level-up for start levels 0-19, with the BCD reading of the check") {
    // The check compares the level with lines / 10 read as a BCD byte taken as binary: 100
    // lines read as $10 = 16, so start levels 10-15 level up at 100 lines, 16 at 110, ...
    // 19 at 140 ($14 = 20 > 19).
    const std::array<int, 20> first_level_up{10,  20,  30,  40,  50,  60,  70,  80,  90,  100,
                                             100, 100, 100, 100, 100, 100, 110, 120, 130, 140};
    for (int start = 0; start < 20; ++start) {
        INFO("start level " << start);
        GameState s = fresh_piece(orient::tDown, static_cast<uint8_t>(start));
        int at = -1;
        for (int line = 1; line <= 300 && at < 0; ++line) {
            score_lines(s, 1);
            if (s.levelNumber != start) at = line;
        }
        CHECK(at == first_level_up[static_cast<std::size_t>(start)]);
        // From then on every 10 lines.
        for (int line = 0; line < 10; ++line) score_lines(s, 1);
        CHECK(s.levelNumber == start + 2);
    }
}

TEST_CASE("level: a tetris across a multiple of 10 levels up once, at the tenth line") {
    GameState s = fresh_piece(orient::tDown, 0);
    s.lines = {0x08, 0x00};
    score_lines(s, 4);
    CHECK(s.lines[0] == 0x12);
    CHECK(s.levelNumber == 1);
    // Lines past 999 keep counting in the hundreds byte.
    s.lines = {0x99, 0x09};
    score_lines(s, 1);
    CHECK(s.lines == std::array<uint8_t, 2>{0x00, 0x0A});
    CHECK(lines_count(s) == 1000);
}

TEST_CASE("long games: lines past 999 and levels past 255 are states like any other") {
    // The hundreds byte of lines has no decimal adjust: 1 000 lines read $0A00, and every
    // value of that byte follows. Such states validate, round-trip through text, and step.
    GameState s = fresh_piece(orient::tDown, 155);
    s.lines = {0x99, 0x14};  // $1499: 2 099 lines (the game shows it with a tile of its own)
    s.score = {0x99, 0x99, 0x99};
    CHECK(validate(s).empty());
    for (uint8_t hundreds : {0x0A, 0x0F, 0x10, 0x99, 0xFF}) {
        GameState t = s;
        t.lines[1] = hundreds;
        INFO("lines hundreds byte " << int(hundreds));
        CHECK(validate(t).empty());
        CHECK(state_from_text(state_to_text(t)) == t);
    }
    GameState bad = s;
    bad.lines[0] = 0x0A;
    CHECK_THROWS_WITH(state_from_text(state_to_text(bad)), Catch::Contains("lines is not BCD (low byte 0x0A)"));
    // $FF99 + 1 line: the low byte carries into a hundreds byte of $FF, which wraps to 0.
    GameState wrap = s;
    wrap.lines = {0x99, 0xFF};
    score_lines(wrap, 1);
    CHECK(wrap.lines == std::array<uint8_t, 2>{0x00, 0x00});
    // Level 255 levels up to 0 (rebirth). At $3250 lines the tens byte is $25; the game's
    // test is the sign of level - tens: 255 - $25 = $DA, negative, so the level goes up.
    GameState top = fresh_piece(orient::tDown, 255);
    top.lines = {0x49, 0x32};
    score_lines(top, 1);
    CHECK(top.lines == std::array<uint8_t, 2>{0x50, 0x32});
    CHECK(top.levelNumber == 0);
    CHECK(frames_per_drop(top.levelNumber) == 48);
}

TEST_CASE("score: 40/100/300/1200 times (level + 1), the 999 999 cap, level 255") {
    const std::array<uint32_t, 5> base{0, 40, 100, 300, 1200};
    for (int level : {0, 1, 9, 18, 19, 29, 100}) {
        for (uint8_t lines = 1; lines <= 4; ++lines) {
            GameState s = fresh_piece(orient::tDown, static_cast<uint8_t>(level));
            score_lines(s, lines);
            CHECK(score_value(s) == base[lines] * static_cast<uint32_t>(level + 1));
        }
    }
    // Level 255: (255 + 1) counted in 8 bits is 0, which the loop runs as 256 additions.
    GameState high = fresh_piece(orient::tDown, 255);
    score_lines(high, 1);
    CHECK(score_value(high) == 40u * 256u);
    GameState cap = fresh_piece(orient::tDown, 0);
    cap.score = {0x00, 0x88, 0x99};  // 998 800
    score_lines(cap, 4);
    CHECK(score_value(cap) == kMaxScore);
}

TEST_CASE("score: soft drop adds rows - 1, losing the units when the tens carry") {
    GameState s = fresh_piece(orient::tDown, 0);
    s.holdDownPoints = 10;
    score_lines(s, 0);
    CHECK(score_value(s) == 9);
    CHECK(s.holdDownPoints == 0);
    GameState one = fresh_piece(orient::tDown, 0);
    one.holdDownPoints = 1;
    score_lines(one, 0);
    CHECK(score_value(one) == 0);
    // 95 + 7: the game's fix-up makes $9C -> $A2, then keeps only the tens: 100, not 102.
    GameState quirk = fresh_piece(orient::tDown, 0);
    quirk.score = {0x95, 0x00, 0x00};
    quirk.holdDownPoints = 8;
    score_lines(quirk, 0);
    CHECK(score_value(quirk) == 100);
}

TEST_CASE("B-Type: lines count down to 0 and the goal ends the game") {
    GameState s = fresh_piece(orient::tDown, 5);
    s.gameType = 1;
    s.lines = {0x10, 0x00};
    score_lines(s, 1);
    CHECK(s.lines[0] == 0x09);
    CHECK(s.levelNumber == 5);  // no level-ups in B-Type
    s.lines = {0x02, 0x00};
    score_lines(s, 4);
    CHECK(s.lines[0] == 0x00);
    CHECK(s.playState == tetris::PLAY_STATE_B_TYPE_GOAL_CHECK);
    step(s, 0);
    CHECK(s.status == GameStatus::BTypeGoal);
}

TEST_CASE("top-out: a piece spawned into the stack locks into the curtain") {
    GameState s = fresh_piece(orient::tDown, 29);
    s.playfield[5] = kTileBlockA;       // (5, 0) taken: the piece overlaps it
    s.playfield[2 * 10 + 5] = kTileBlockA;  // (5, 2) taken: it cannot fall either
    step(s, 0);                         // the drop fails at once (gravity every frame)
    CHECK(s.playState == tetris::PLAY_STATE_LOCK);
    step(s, 0);                    // the lock finds the piece overlapping
    CHECK(s.playState == tetris::PLAY_STATE_CURTAIN);
    CHECK(s.curtainRow == 0xF0);
    CHECK(is_topped_out(s));
    // The curtain moves on every frame whose (counted) frameCounter % 4 == 0: 16 waits, then
    // rows 0-19.
    const auto frames = frames_until(s, 0, [](const GameState& g) { return g.curtainRow == 20; });
    REQUIRE(frames);
    CHECK(*frames >= 36 * 4 - 3);
    CHECK(*frames <= 36 * 4);
    for (int r = 0; r < 20; ++r) CHECK(tile_at(s, 3, r) == kTileCurtain);
    CHECK(s.vramRow == 19);
    // Then the game waits for Start (score below 30 000) and leaves.
    for (int i = 0; i < 10; ++i) step(s, 0);
    CHECK(s.status == GameStatus::Playing);
    step(s, tetris::BUTTON_START);
    CHECK(s.playState == tetris::PLAY_STATE_UNASSIGN);
    step(s, 0);
    CHECK(s.status == GameStatus::GameOver);
    GameState rich = fresh_piece(orient::tDown, 0);
    rich.score = {0x00, 0x00, 0x03};
    rich.playState = tetris::PLAY_STATE_CURTAIN;
    rich.curtainRow = 20;
    step(rich, 0);
    CHECK(rich.status == GameStatus::Ending);
}

TEST_CASE("pause: Start stops the game until a new press of Start alone") {
    GameState s = fresh_piece(orient::tDown, 19);
    step(s, tetris::BUTTON_START);
    CHECK(is_paused(s));
    CHECK(s.gameModeState == 7);
    const GameState paused = s;
    for (int i = 0; i < 20; ++i) step(s, i % 2 ? tetris::BUTTON_A : tetris::BUTTON_RIGHT);
    CHECK(s.tetriminoY == paused.tetriminoY);
    CHECK(s.tetriminoX == paused.tetriminoX);
    CHECK(s.currentPiece == paused.currentPiece);
    CHECK(s.frameCounter == paused.frameCounter + 20);
    CHECK(s.rngSeed != paused.rngSeed);
    step(s, 0);
    step(s, tetris::BUTTON_START | tetris::BUTTON_A);  // not Start alone: still paused
    CHECK(is_paused(s));
    step(s, 0);
    step(s, tetris::BUTTON_START);
    CHECK(!is_paused(s));
    CHECK(s.gameModeState == 2);
    CHECK(s.vramRow == 0);  // the playfield is redrawn
}

TEST_CASE("quirk: holding exactly Right+Left+Down skips the game's logic every other frame") {
    GameState s = fresh_piece(orient::tDown, 0);
    for (int i = 0; i < 10; ++i) step(s, tetris::BUTTON_RIGHT | tetris::BUTTON_LEFT | tetris::BUTTON_DOWN);
    CHECK(s.fallTimer == 5);
    CHECK(s.gameModeState == 2);
    step(s, tetris::BUTTON_RIGHT | tetris::BUTTON_LEFT | tetris::BUTTON_DOWN);
    CHECK(s.gameModeState == 7);
    GameState other = fresh_piece(orient::tDown, 0);
    for (int i = 0; i < 10; ++i) step(other, tetris::BUTTON_RIGHT | tetris::BUTTON_DOWN);
    CHECK(other.fallTimer == 10);
}

TEST_CASE("statistics: the spawn counts pieces by type in BCD") {
    GameState s = resting_i(19);
    s.statsByType[12] = 0x99;  // I pieces: 99
    REQUIRE(frames_until(s, 0, spawned));  // the preview (an I) spawns
    CHECK(s.statsByType[12] == 0x00);
    CHECK(s.statsByType[13] == 0x01);
    CHECK(piece_stat(s, 6) == 100);
    CHECK(s.spawnCount == 1);
}

TEST_CASE("lag frame: the NMI in the work renders, counts, steps the RNG and polls, the rest of the work reads its poll") {
    // The scoring frame of a clear whose work outlasts the frame: its NMI ends the line
    // clear's animation, its main loop runs play state 5 (the score loop), and the NMI that
    // lands in that work copies the first four playfield rows.
    GameState s = fresh_piece(orient::iHoriz, 160);
    s.playState = tetris::PLAY_STATE_LINE_CLEAR;
    s.rowY = 4;
    s.frameCounter = 4;  // the animation's last step: the NMI moves play state 4 on to 5
    s.completedLines = 1;
    const GameState start = s;

    GameState plain = start;
    step(plain, tetris::BUTTON_LEFT);
    REQUIRE(plain.playState == tetris::PLAY_STATE_B_TYPE_GOAL_CHECK);

    int polls = 0;
    GameState lagged = start;
    step_with_lag(lagged, tetris::BUTTON_LEFT, LagNmis{1, 0, 0}, [&](const GameState& now) {
        ++polls;
        CHECK(now.playState == tetris::PLAY_STATE_B_TYPE_GOAL_CHECK);  // after the player's work
        return uint8_t(tetris::BUTTON_LEFT | tetris::BUTTON_A);
    });
    CHECK(polls == 1);
    CHECK(lagged.frameCounter == plain.frameCounter + 1);
    CHECK(lagged.rngSeed == rng_step(plain.rngSeed));
    CHECK(lagged.heldButtons == (tetris::BUTTON_LEFT | tetris::BUTTON_A));
    CHECK(lagged.newlyPressedButtons == tetris::BUTTON_A);
    CHECK(plain.vramRow == 0);   // the frame's NMI ended the animation (and set the copy back to row 0)
    CHECK(lagged.vramRow == 4);  // the lag NMI copied rows 0-3
    CHECK(lagged.gameModeState == 2);

    // The rest of the work reads the lag NMI's poll: Right+Left+Down held there makes the main
    // loop wait after gameModeState 6; Start pressed there pauses; after the work, neither.
    GameState quirk = start;
    step_with_lag(quirk, tetris::BUTTON_LEFT, LagNmis{1, 0, 0}, [](const GameState&) { return uint8_t(tetris::BUTTON_RIGHT | tetris::BUTTON_LEFT | tetris::BUTTON_DOWN); });
    CHECK(quirk.gameModeState == 7);
    GameState pause = start;
    step_with_lag(pause, tetris::BUTTON_LEFT, LagNmis{1, 0, 0}, [](const GameState&) { return uint8_t(tetris::BUTTON_START); });
    CHECK(pause.renderMode == 0);
    GameState late = start;
    step_with_lag(late, tetris::BUTTON_LEFT, LagNmis{0, 0, 0, 1}, [](const GameState&) { return uint8_t(tetris::BUTTON_START); });
    CHECK(late.renderMode == 3);
    CHECK(late.heldButtons == tetris::BUTTON_START);
    GameState between = start;  // 6 read the frame's buttons, 7 the lag NMI's
    step_with_lag(between, tetris::BUTTON_LEFT, LagNmis{0, 1, 0}, [](const GameState&) { return uint8_t(tetris::BUTTON_RIGHT | tetris::BUTTON_LEFT | tetris::BUTTON_DOWN | tetris::BUTTON_START); });
    CHECK(between.gameModeState == 7);
    CHECK(between.renderMode == 0);

    // The lag NMI on the player's save's store of vramRow (X = 9, the old value loaded): the
    // store undoes the render's advance (traced on the game: level 165, NMI at $87B2).
    GameState stale = start;
    LagNmis on_save{1, 0, 0, 0};
    on_save.stale_vram_row_save = true;
    step_with_lag(stale, tetris::BUTTON_LEFT, on_save, [](const GameState&) { return uint8_t(0); });
    CHECK(stale.vramRow == 0);
    CHECK(stale.frameCounter == lagged.frameCounter);  // the NMI itself was run: counted, polled

    // The frame pauses (Start pressed at its NMI): an NMI in the pause's start, before it cleared
    // renderMode, still copies rows (traced: level 250, NMI at $A3A3); one after it does not.
    GameState pausing = start;
    step_with_lag(pausing, tetris::BUTTON_START, LagNmis{0, 0, 1, 0}, [](const GameState&) { return uint8_t(tetris::BUTTON_START); });
    CHECK(pausing.renderMode == 0);
    CHECK(pausing.vramRow == 4);
    GameState paused = start;
    step_with_lag(paused, tetris::BUTTON_START, LagNmis{0, 0, 0, 1}, [](const GameState&) { return uint8_t(tetris::BUTTON_START); });
    CHECK(paused.renderMode == 0);
    CHECK(paused.vramRow == 0);
    // Where the harnesses count an NMI: in the pause's start only until an NMI came after it.
    LagNmis counted;
    counted.add(true, true, true);
    counted.add(true, true, false);
    CHECK(counted.in_pause == 1);
    CHECK(counted.after == 1);
}

TEST_CASE("first_reaching: the lines of a game's level-ups, past the rebirth") {
    // The known transitions: a game from level 19 first levels up at 140 lines, from 29 at 200,
    // from 0 at 10 (the BCD test: lines $0140 reads $14 = 20 > 19).
    CHECK(first_reaching(19, 1).count == 140);
    CHECK(first_reaching(29, 1).count == 200);
    CHECK(first_reaching(0, 1).count == 10);
    CHECK(first_reaching(19, 1).level == 20);
    // Every level-up after the first is 10 lines later until the tens byte wraps.
    CHECK(first_reaching(19, 2).count == 150);
    // The rebirth: level 255 goes up to 0, and the count goes on past it.
    const LinesAtLevel rebirth = first_reaching(19, 256 - 19);
    CHECK(rebirth.level == 0);
    const LinesAtLevel before = first_reaching(19, 255 - 19);
    CHECK(before.level == 255);
    CHECK(rebirth.count > before.count);
    // The counter is the game's: one line at a time from 0 gives the same bytes.
    std::array<uint8_t, 2> lines{};
    uint8_t level = 19;
    for (uint32_t i = 0; i < rebirth.count; ++i) add_one_line_a_type(lines, level);
    CHECK(lines == rebirth.lines);
    CHECK(level == 0);
    GameState counted = fresh_piece(orient::tDown, 0);
    counted.lines = rebirth.lines;
    CHECK(lines_count(counted) == rebirth.count);
}

TEST_CASE("lines_count: the hundreds byte counts in binary past 999 lines") {
    GameState s = fresh_piece(orient::tDown, 155);
    s.lines = {0x99, 0x09};
    CHECK(lines_count(s) == 999);
    s.lines = {0x00, 0x10};  // 1 600 lines: $0F99 + 1 line carries into $10
    CHECK(lines_count(s) == 1600);
    GameState t = fresh_piece(orient::tDown, 155);
    t.lines = {0x99, 0x0F};
    score_lines(t, 1);
    CHECK(t.lines == std::array<uint8_t, 2>{0x00, 0x10});
    CHECK(lines_count(t) == 1600);
    s.lines = {0x99, 0xFF};
    CHECK(lines_count(s) == 25599);
}
