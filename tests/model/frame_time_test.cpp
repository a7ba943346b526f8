// The score loop's cycles (frame_time.hpp). The figures pinned here were traced on the game by
// `measure-lock` (score 999 999, no NMI inside the loop); tests/game/lock_timing_test.cpp
// compares the function with the game on random levels and scores whenever the ROM is present.
#include "ai-reference/model/frame_time.hpp"
#include "tests/model/model_test_support.hpp"

#include <catch2/catch.hpp>

using namespace nestris;

namespace {
constexpr std::array<uint8_t, 3> kMaxed{0x99, 0x99, 0x99};
}

TEST_CASE("time: the score loop's cycles at 999 999, as traced on the game") {
    // measure-lock tetris.nes --levels 29,100,140 --clears 0-4
    struct Row {
        uint8_t level;
        std::array<uint64_t, 5> cycles;  // 0-4 lines cleared
    };
    const Row rows[] = {{29, {2505, 4095, 3765, 3765, 3765}},
                        {100, {8398, 13751, 12640, 12640, 12640}},
                        {140, {11718, 19191, 17640, 17640, 17640}}};
    for (const Row& r : rows)
        for (uint8_t k = 0; k <= 4; ++k) {
            INFO("level " << int(r.level) << ", " << int(k) << " lines");
            const ScoreLoopWork w = score_loop_work(r.level, k, kMaxed);
            CHECK(w.cycles == r.cycles[k]);
            CHECK(w.score == kMaxed);
        }
    // Linear in level + 1 at the cap: 83 cycles an addition of nothing, 136 of a single, 125 of more.
    CHECK(score_loop_work(255, 0, kMaxed).cycles == 21263);  // 256 additions
    CHECK(score_loop_work(201, 1, kMaxed).cycles - score_loop_work(200, 1, kMaxed).cycles == 136);
    CHECK(score_loop_work(201, 4, kMaxed).cycles - score_loop_work(200, 4, kMaxed).cycles == 125);
}

TEST_CASE("time: the loop's score is the game's: points x (level + 1) in BCD, the cap") {
    // Below the cap, each addition's branches depend on the digits, and the score is exact.
    CHECK(score_loop_work(0, 4, {0, 0, 0}).score == std::array<uint8_t, 3>{0x00, 0x12, 0x00});
    CHECK(score_loop_work(18, 4, {0, 0, 0}).score == std::array<uint8_t, 3>{0x00, 0x28, 0x02});  // 22 800
    CHECK(score_loop_work(9, 1, {0x60, 0x99, 0x00}).score == std::array<uint8_t, 3>{0x60, 0x03, 0x01});  // 9 960 + 400
    CHECK(score_loop_work(0, 4, {0x00, 0x88, 0x99}).score == kMaxed);  // 998 800 + 1 200: capped
    // A loop that carries costs more than one that does not.
    CHECK(score_loop_work(0, 1, {0x60, 0x00, 0x00}).cycles > score_loop_work(0, 1, {0x00, 0x00, 0x00}).cycles);
}

TEST_CASE("time: the wide forecast holds every crash measure-lock traced, and none of the lags in the loop") {
    // measure-lock --levels 100-255 --clears 0-4 --phases 4, and --ai-game: (level read, lines)
    const std::pair<uint8_t, uint8_t> crashed[] = {{155, 1}, {157, 1}, {169, 2}, {173, 2}, {168, 3}, {172, 3}, {169, 4}};
    for (const auto& [level, lines] : crashed) {
        INFO("level " << int(level) << ", " << int(lines) << " lines");
        CHECK(score_frame_may_crash(level, lines));
    }
    // Frames whose NMI landed in the loop (levels 175-255 with lines) or that did not lag.
    for (uint8_t lines = 1; lines <= 4; ++lines) {
        CHECK_FALSE(score_frame_may_crash(140, lines));
        CHECK_FALSE(score_frame_may_crash(200, lines));
        CHECK_FALSE(score_frame_may_crash(255, lines));
    }
    // The traced crashes without a line (the original game's cycles
    // before the loop are within the AI games' range), and none before the frame can lag.
    for (uint8_t level : {249, 253, 255}) CHECK(score_frame_may_crash(level, 0));
    CHECK_FALSE(score_frame_may_crash(150, 0));
}


TEST_CASE("time: the forecast finds the scoring frame and says yes, may or no by its cycles") {
    GameState s;
    s.score = kMaxed;
    s.gameModeState = 2;
    s.playState = tetris::PLAY_STATE_ACTIVE;
    s.levelNumber = 255;
    CHECK_FALSE(score_loop_input(s).has_value());  // a frame without a lock's score loop
    CHECK(forecast_frame_time(s, kOriginalWork).lag == Maybe::No);
    // A lock without a line: play state 5 at the boundary, the loop reads the level as it is.
    s.playState = tetris::PLAY_STATE_UPDATE_LINES;
    REQUIRE(score_loop_input(s).has_value());
    CHECK(score_loop_input(s)->level == 255);
    CHECK(score_loop_input(s)->lines == 0);
    // 256 additions of 0 at 83 cycles (21 263), with 7 888-12 867 besides: it may lag.
    FrameTimeForecast f = forecast_frame_time(s, kOriginalWork);
    CHECK(f.scoring);
    CHECK(f.loop_cycles == score_loop_work(255, 0, kMaxed).cycles);
    CHECK(f.lag == Maybe::May);
    // A single's 256 additions at 136 cycles: past the frame whatever the rest takes.
    s.completedLines = 1;
    CHECK(forecast_frame_time(s, kOriginalWork).lag == Maybe::Yes);
    s.levelNumber = 19;
    CHECK(forecast_frame_time(s, kOriginalWork).lag == Maybe::No);
    // The last step of a line clear's animation: the NMI's render (frameCounter a multiple of 4,
    // rowY 4) moves play state 4 on to 5, and the same frame scores. A single at level 150:
    // 151 x 136 cycles, with 7 888-12 867 besides, may or may not reach the NMI.
    s.playState = tetris::PLAY_STATE_LINE_CLEAR;
    s.rowY = 4;
    s.frameCounter = 0x340;
    s.completedLines = 1;
    s.levelNumber = 150;
    REQUIRE(score_loop_input(s).has_value());
    CHECK(score_loop_input(s)->lines == 1);
    f = forecast_frame_time(s, kOriginalWork);
    CHECK(f.loop_cycles == score_loop_work(150, 1, kMaxed).cycles);
    CHECK(f.lag == Maybe::May);
    s.frameCounter = 0x341;  // not a step of the animation: nothing scores in this frame
    CHECK_FALSE(score_loop_input(s).has_value());
    // The tally: a wrong forecast is counted and described.
    LagForecastTally t;
    t.add(forecast_frame_time(s, kOriginalWork), true, "here");
    CHECK(t.wrong == 1);
    CHECK(t.first_wrong.find("here: forecast no") == 0);
    CHECK(t.summary().find("wrong 1") != std::string::npos);
}

TEST_CASE("time: the AI's scoring frames by kind: where the first lag NMI lands, and the windows") {
    // The windows' union is the one range the crash bands use.
    CHECK(kDispatchWindows.front().first >= kDispatchWindowsAfterLoop.first);
    CHECK(kDispatchWindows.back().last <= kDispatchWindowsAfterLoop.last);
    // A kind never traced says nothing: it may land anywhere.
    CHECK(ai_scoring_nmi_landing(200, AiScoringKind{0, true, false}, true, 0).crash == Maybe::May);
    CHECK_FALSE(ai_pre_loop(AiScoringKind{1, false, true}));
    // Level 255, no line: 256 additions of nothing; the NMI lands 1 563-1 575 cycles after the
    // loop's end, between the first two windows (1 529-1 556, 1 589-1 616)...
    const NmiLanding at255 = ai_scoring_nmi_landing(255, AiScoringKind{}, true, 0);
    CHECK(at255.earliest == 29777 - 6951 - 21263);
    CHECK(at255.latest == 29784 - 6946 - 21263);
    CHECK(at255.crash == Maybe::No);
    // ...which 8 cycles of margin each side no longer clear; hidden, every window is 394 sooner.
    CHECK(ai_scoring_nmi_landing(255, AiScoringKind{}, true, 8).crash == Maybe::May);
    CHECK(ai_scoring_nmi_landing(255, AiScoringKind{}, false, 8).crash == Maybe::No);
    // Below level 230 a lock without a line never lags: the NMI lands after the frame's work.
    CHECK(ai_scoring_nmi_landing(200, AiScoringKind{}, true, 8).earliest > 2118);
}

TEST_CASE("time: a scoring frame's kind from the lines counter: the tens and hundreds digits") {
    // $0D99 + 1 line: the tens and the hundreds change; $0D95 + 1: neither; $0D86 + 4: the tens.
    CHECK(scoring_kind(0x99, 1, true).tens);
    CHECK(scoring_kind(0x99, 1, true).hundreds);
    CHECK_FALSE(scoring_kind(0x95, 1, false).tens);
    CHECK(scoring_kind(0x86, 4, false).tens);
    CHECK_FALSE(scoring_kind(0x86, 4, false).hundreds);
    CHECK_FALSE(scoring_kind(0x90, 0, false).hundreds);
    // The hundreds' increment costs 12 cycles more than the kind without it.
    const AiScoringKind plain = scoring_kind(0x89, 1, true), hundreds = scoring_kind(0x99, 1, true);
    REQUIRE(ai_pre_loop(plain));
    REQUIRE(ai_pre_loop(hundreds));
    CHECK(ai_pre_loop(hundreds)->first == ai_pre_loop(plain)->first + 12);
    CHECK(ai_pre_loop(hundreds)->last == ai_pre_loop(plain)->last + 12);
}

// A block in row 5 ends the music's scan sooner, 16 cycles a column nearer its start: the kinds'
// ranges move by row5_scan_sooner. Traced (measure-lock tetris.nes --ai-game 3000 --from-level L
// --first-seed S --title-wait T): no line at 254 with a block at column 4, 6 863-6 866 (L 252, S 29,
// T 28) and 6 861-6 865 at 254-255 (a game from level 19, title wait 19; L 254, S 39, T 38); at 253
// with column 3, 6 845-6 849 (L 253, S 30, T 29).
TEST_CASE("time: a block in row 5 moves the scoring frame's cycles by its column, as traced") {
    CHECK(row5_scan_sooner(kRow5Empty) == 0);
    CHECK(row5_scan_sooner(9) == 5);
    CHECK(row5_scan_sooner(0) == 149);
    AiScoringKind kind;
    kind.piece_sooner = 0;
    const auto pre = [&](uint8_t row5_first) {
        kind.row5_first = row5_first;
        return ai_pre_loop(kind).value();
    };
    for (const uint32_t traced : {6861u, 6863u, 6865u, 6866u}) {
        CHECK(pre(4).first <= traced);
        CHECK(pre(4).last >= traced);
    }
    for (const uint32_t traced : {6845u, 6849u}) {
        CHECK(pre(3).first <= traced);
        CHECK(pre(3).last >= traced);
    }
    CHECK(pre(kRow5Empty).first - pre(0).first == 149);
    CHECK(ai_scoring_nmi_landing(254, AiScoringKind{0, false, false, false, false, 0, 4}, true, 0).earliest ==
          ai_scoring_nmi_landing(254, AiScoringKind{0, false, false, false, false, 0}, true, 0).earliest + 85);
    // The AI's forecast reads row 5 of a lock without a line: at 254 a T (orientation 2) with the
    // preview hidden may crash with a block at column 5 (the landing +1 707-1 735 with the margin,
    // the last hidden window for a T 1 685-1 712), not with one at column 0 (+1 787-1 815).
    GameState s;
    s.score = kMaxed;
    s.gameModeState = 2;
    s.playState = tetris::PLAY_STATE_UPDATE_LINES;
    s.levelNumber = 254;
    s.currentPiece = 2;
    s.displayNextPiece = 1;  // hidden
    s.playfield[5 * kPlayfieldWidth + 5] = 0x7B;
    CHECK(forecast_ai_frame_time(s).crash == Maybe::May);
    s.playfield[5 * kPlayfieldWidth + 0] = 0x7B;
    CHECK(forecast_ai_frame_time(s).crash == Maybe::No);
    // A clear that leaves row 5 filled may change the tune: not a kind, the wide forecast.
    s.completedLines = 1;
    s.levelNumber = 150;
    CHECK(forecast_ai_frame_time(s).crash == forecast_frame_time(s, ai_game_work(150)).crash);
}
