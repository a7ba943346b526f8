// The simulator (determinism, counting, summaries) and the renderers.
#include "ai-reference/model/player.hpp"
#include "ai-reference/model/power_on.hpp"
#include "ai-reference/model/render.hpp"
#include "ai-reference/model/simulator.hpp"
#include "tests/model/model_test_support.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace nestris;

namespace {

SimulationConfig drop_games(unsigned threads) {
    SimulationConfig c;
    for (uint32_t s = 0; s < 40; ++s) c.seeds.push_back(s * 7);
    c.start_level = 19;
    c.threads = threads;
    c.make_player = [](uint32_t) { return std::make_unique<DropAtSpawnPlayer>(); };
    return c;
}

bool same(const GameResult& a, const GameResult& b) {
    return a.seed == b.seed && a.lines == b.lines && a.score == b.score && a.level == b.level &&
           a.pieces == b.pieces && a.clears == b.clears && a.frames == b.frames && a.end == b.end;
}

}  // namespace

TEST_CASE("simulator: results depend on the seed list only, not on the threads") {
    const auto one = simulate(drop_games(1));
    const auto two = simulate(drop_games(2));
    REQUIRE(one.size() == 40);
    REQUIRE(two.size() == 40);
    for (std::size_t i = 0; i < one.size(); ++i) {
        CHECK(same(one[i], two[i]));
        CHECK(one[i].seed == i * 7);
        CHECK(one[i].end == GameEnd::ToppedOut);
    }
    // The same game played by hand gives the same numbers.
    GameState s = seeded_game(7, 19);
    DropAtSpawnPlayer p;
    uint64_t frames = 0;
    while (s.playState != tetris::PLAY_STATE_CURTAIN) {
        step(s, p.buttons(view_of(s)));
        ++frames;
    }
    CHECK(one[1].frames == frames);
    CHECK(one[1].score == score_value(s));
}

TEST_CASE("simulator: limits, line counting and the summary") {
    SimulationConfig c = drop_games(2);
    c.max_frames = 100;
    for (const GameResult& r : simulate(c)) {
        CHECK(r.frames == 100);
        CHECK(r.end == GameEnd::FrameLimit);
    }
    // An A-Type game's lines are the lines it cleared (the game's counter wraps at 25 600).
    GameResult wrapped;
    wrapped.clears = {18009, 2333, 326, 529};  // 25 769 lines: the counter would show 169
    CHECK(lines_cleared(wrapped) == 25'769);
    SimulationConfig ai = drop_games(3);
    ai.max_lines = 12;
    for (const GameResult& g : simulate(ai)) CHECK(g.lines == lines_cleared(g));
    // The summary, from results made up by hand.
    GameResult r;
    r.lines = 10;
    r.clears = {1, 0, 1, 1};  // 1 + 3 + 4 = 8 cleared lines, 4 by a tetris
    r.end = GameEnd::ToppedOut;
    GameResult m;
    m.lines = 20;
    m.maxed_out = true;
    m.end = GameEnd::LineLimit;
    const SimulationSummary s = summarize({r, m});
    CHECK(s.games == 2);
    CHECK(s.lines.mean == 15);
    CHECK(s.lines.median == 15);
    CHECK(s.top_out_rate == 0.5);
    CHECK(s.max_out_rate == 0.5);
    CHECK(s.tetris_rate == Approx(0.5));
    const Distribution d = distribution({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    CHECK(d.median == 6);
    CHECK(d.p10 == 2);
    CHECK(d.p90 == 10);
    std::ostringstream json, csv;
    write_summary_json(json, s, c, "drop", 1.5);
    write_results_csv(csv, {r, m});
    CHECK(json.str().find("\"games\": 2") != std::string::npos);
    CHECK(json.str().find("\"tetris_rate\": 0.5") != std::string::npos);
    CHECK(csv.str().find("seed,start_level,lines,score") == 0);
    CHECK(csv.str().find("0,0,20,0,0,0,0,0,0,0,0,1,line-limit") != std::string::npos);
}

TEST_CASE("render: text board with the active piece, blocks and counters") {
    GameState s = nestris::test::fresh_piece(orient::iHoriz, 18);
    nestris::test::fill_row(s, 19, 4);
    s.lines = {0x23, 0x01};
    const std::string text = render_text(s);
    std::istringstream lines(text);
    std::vector<std::string> rows;
    for (std::string l; std::getline(lines, l);) rows.push_back(l);
    REQUIRE(rows.size() == 22);
    CHECK(rows[1].substr(0, 12) == "|...@@@@...|");  // I flat at (5, 0): columns 3-6
    CHECK(rows[20].substr(0, 12) == "|####.#####|");
    CHECK(rows[1].find("level 18") != std::string::npos);
    CHECK(rows[2].find("lines 123") != std::string::npos);
    CHECK(render_text(s, {.color = false, .hidden_rows = true}).find(":..........:") != std::string::npos);
}

TEST_CASE("render: PNG-sized image in the level's colours") {
    const GameState s = seeded_game(3, 0);
    const RgbImage one = render_image(s, 1);
    const RgbImage two = render_image(s, 2);
    CHECK(two.width == 2 * one.width);
    CHECK(two.height == 2 * one.height);
    CHECK(one.rgb.size() == static_cast<std::size_t>(one.width * one.height * 3));
    CHECK_THROWS(render_image(s, 0));
    CHECK_THROWS(write_png("/nonexistent-dir/x.png", one));
}
