// The state as a value, files, RAM, the power-on start and the players.
#include "ai-reference/model/player.hpp"
#include "ai-reference/model/power_on.hpp"
#include "ai-reference/model/ram_map.hpp"
#include "ai-reference/model/render.hpp"
#include "ai-reference/model/rng.hpp"
#include "ai-reference/model/state_io.hpp"
#include "tests/model/model_test_support.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <unordered_set>

using namespace nestris;
using nestris::test::fresh_piece;

TEST_CASE("state: a plain value - copies compare equal, hash equal, and differ when stepped") {
    const GameState a = seeded_game(3, 18);
    GameState b = a;
    CHECK(a == b);
    CHECK(std::hash<GameState>{}(a) == std::hash<GameState>{}(b));
    step(b, tetris::BUTTON_LEFT);
    CHECK(!(a == b));
    std::unordered_set<GameState> seen;
    GameState s = a;
    for (int i = 0; i < 500; ++i) {
        seen.insert(s);
        step(s, static_cast<uint8_t>(i % 3 == 0 ? tetris::BUTTON_RIGHT : 0));
    }
    CHECK(seen.size() == 500);  // the frame counter alone makes every frame different
}

TEST_CASE("state: text round trip, and clear errors for impossible or malformed states") {
    const GameState s = stepped(seeded_game(11, 9, 1, 3), tetris::BUTTON_DOWN);
    const std::string text = state_to_text(s);
    CHECK(state_from_text(text) == s);

    auto with = [&](const std::string& from, const std::string& to) {
        std::string t = text;
        const auto at = t.find(from);
        REQUIRE(at != std::string::npos);
        t.replace(at, from.size(), to);
        return t;
    };
    CHECK_THROWS_WITH(state_from_text(with("levelNumber 0x09", "levelNumber 256")),
                      Catch::Contains("levelNumber: 256 is out of range 0-255"));
    CHECK_THROWS_WITH(state_from_text(with("levelNumber 0x09", "levelNumber nine")),
                      Catch::Contains("not a number"));
    CHECK_THROWS_WITH(state_from_text(with("nestris-state 1", "nestris-state 2")),
                      Catch::Contains("header"));
    CHECK_THROWS_WITH(state_from_text(with("levelNumber 0x09\n", "")), Catch::Contains("missing levelNumber"));
    CHECK_THROWS_WITH(state_from_text(text + "levelNumber 3\n"), Catch::Contains("given twice"));
    CHECK_THROWS_WITH(state_from_text(text + "colour 3\n"), Catch::Contains("unknown variable"));
    CHECK_THROWS_WITH(state_from_text(with("score 0x", "score 0x1A 0x")), Catch::Contains("expected 3 value"));
    CHECK_THROWS_WITH(state_from_text(""), Catch::Contains("empty"));

    // A piece overlapping the stack away from its spawn point cannot happen in the game.
    GameState overlap = fresh_piece(orient::tDown, 0);
    overlap.tetriminoY = 10;
    overlap.playfield[10 * 10 + 5] = kTileBlockA;
    CHECK_THROWS_WITH(state_from_text(state_to_text(overlap)), Catch::Contains("overlaps the stack"));
    // ... but at the spawn point it can (the frame before the top-out).
    GameState at_spawn = fresh_piece(orient::tDown, 0);
    at_spawn.playfield[5] = kTileBlockA;
    CHECK(validate(at_spawn).empty());
    GameState bad = fresh_piece(orient::tDown, 0);
    bad.nextPiece = orient::tUp;
    bad.score = {0x0A, 0x00, 0x00};
    bad.playfield[50] = 0x12;
    const auto problems = validate(bad);
    CHECK(problems.size() == 3);
}

TEST_CASE("RAM: to_ram then from_ram gives the state back, the addresses come from tetris.inc") {
    std::array<uint8_t, kCpuRamSize> ram{};
    GameState s = seeded_game(7, 19);
    for (int i = 0; i < 300; ++i) step(s, i % 4 == 0 ? tetris::BUTTON_DOWN : 0);
    to_ram(s, ram);
    CHECK(from_ram(ram) == s);
    // The game's own layout: the playfield row-major, 10 per row; the piece in the player block
    // and in its player-1 copy; the RNG big endian.
    namespace t = tetris;
    CHECK(ram[t::playfield + 19 * 10 + 0] == s.playfield[190]);
    CHECK(ram[t::tetriminoX] == s.tetriminoX);
    CHECK(ram[t::tetriminoX + kPlayer1Offset] == s.tetriminoX);
    CHECK(ram[t::rngSeed] == (s.rngSeed >> 8));
    CHECK(ram[t::nextPiece] == s.nextPiece);
    // Not in a game: a clear error.
    ram[t::gameMode] = t::GAME_MODE_LEVEL_MENU;
    CHECK_THROWS_WITH(from_ram(ram), Catch::Contains("not in a game"));
    ram[t::gameMode] = t::GAME_MODE_PLAY;
    ram[t::currentPiece + kPlayer1Offset] = 0x13;  // no piece
    ram[t::playState + kPlayer1Offset] = 1;        // ... while in control of a piece
    CHECK_THROWS_WITH(from_ram(ram), Catch::Contains("currentPiece"));
}

TEST_CASE("power-on: the first game's start, from the NMI counts of the menu path") {
    const GameState s = power_on_game({});
    // 276 NMIs to the level menu, Start at once, 5 NMIs of game setup; the title screen cleared
    // the high byte of frameCounter after NMI 267 (when the low byte was 267 - 256 = 11).
    CHECK(s.frameCounter == 276 + 5 - 256);
    // The RNG: one step per NMI, one between the two picks, and a reroll per pick at most.
    uint16_t rng = kPowerOnRngSeed;
    for (int i = 0; i < 276 + 5 + 1; ++i) rng = rng_step(rng);
    const uint16_t one_more = rng_step(rng), two_more = rng_step(one_more);
    CHECK((s.rngSeed == rng || s.rngSeed == one_more || s.rngSeed == two_more));
    CHECK(s.spawnCount == 2);
    CHECK(s.spawnID == s.nextPiece);
    CHECK(is_spawn_orientation(s.currentPiece));
    CHECK(piece_stat(s, kTypeOfOrientation[s.currentPiece]) == 1);
    // After the first frame: the hold counter counted once, the fall timer once, the NMI of the
    // setup copied rows 0-3.
    CHECK(s.autorepeatY == 0xA1);
    CHECK(s.fallTimer == 1);
    CHECK(s.vramRow == 4);
    CHECK(s.playState == tetris::PLAY_STATE_ACTIVE);
    CHECK(validate(s).empty());
    // Extra frames anywhere on the path shift everything by that many NMIs.
    PowerOnSequence later;
    later.legal_frames = 10;
    later.title_frames = 3;
    CHECK(power_on_game(later).frameCounter == 276 + 5 + 13 - 256);
    // Different level-menu times give different games.
    std::unordered_set<uint64_t> starts;
    for (uint32_t seed = 0; seed < 50; ++seed) starts.insert(hash_value(seeded_game(seed, 0)));
    CHECK(starts.size() == 50);
    CHECK_THROWS(power_on_game({.legal_frames = 256}));
    CHECK_THROWS(power_on_game({.game_type = 1}));  // B-Type needs the Right press frame
    CHECK_THROWS_WITH(power_on_game({.title_frames = 2000}), Catch::Contains("demo"));
}

TEST_CASE("power-on: B-Type garbage rows by height, with a hole in every row") {
    const std::array<int, 6> garbage_rows{0, 3, 5, 8, 10, 12};
    for (uint8_t height = 0; height <= 5; ++height) {
        INFO("height " << int(height));
        const GameState s = seeded_game(5, 9, 1, height);
        CHECK(lines_count(s) == 25);
        const int top = kPlayfieldHeight - garbage_rows[height];
        for (int r = 0; r < kPlayfieldHeight; ++r) {
            int filled = 0;
            for (int c = 0; c < kPlayfieldWidth; ++c) filled += is_filled_tile(tile_at(s, c, r));
            if (r < top) CHECK(filled == 0);
            if (r >= top) CHECK(filled < 10);
        }
        // The game clears the first cell of the top garbage row too.
        if (height > 0) CHECK(tile_at(s, 0, top) == kTileEmpty);
    }
}

TEST_CASE("players: the view hides the RNG and the preview when it is off") {
    GameState s = seeded_game(1, 0);
    s.playfield[246] = kTileBlockA;  // row -1, column 0
    PlayerView v = view_of(s);
    CHECK(v.nextPiece == s.nextPiece);
    CHECK(v.hidden_rows[1] == 1);
    CHECK(v.active);
    s.displayNextPiece = 1;
    CHECK(view_of(s).nextPiece == kOrientationHidden);
}

TEST_CASE("players: the drop player soft-drops every piece, re-pressing Down after a spawn") {
    GameState s = seeded_game(2, 19);
    DropAtSpawnPlayer player;
    int pieces = 1;
    uint8_t last_state = s.playState;
    for (int f = 0; f < 3000 && !is_topped_out(s); ++f) {
        step(s, player.buttons(view_of(s)));
        if (last_state == tetris::PLAY_STATE_SPAWN && s.playState == tetris::PLAY_STATE_ACTIVE) ++pieces;
        last_state = s.playState;
    }
    CHECK(is_topped_out(s));
    // Dropped pieces pile up in the middle: a dozen or so before the top-out.
    CHECK(pieces > 5);
    CHECK(pieces < 30);
    CHECK(score_value(s) > 0);  // soft-drop points
}

TEST_CASE("movies: parse, repeat counts, round trip and errors") {
    const Movie m = parse_movie("nestris-movie 1\n# comment\nR.D..... *3\n.......A\n........\n");
    CHECK(m.frames == std::vector<uint8_t>{5, 5, 5, 0x80, 0});
    CHECK(parse_movie(movie_to_text(m)).frames == m.frames);
    CHECK_THROWS_WITH(parse_movie("R......."), Catch::Contains("header"));
    CHECK_THROWS_WITH(parse_movie("nestris-movie 1\nL.......\n"), Catch::Contains("line 2: place 1 must be 'R'"));
    CHECK_THROWS_WITH(parse_movie("nestris-movie 1\nR......\n"), Catch::Contains("8 button places"));
    CHECK_THROWS_WITH(parse_movie("nestris-movie 1\nR....... *0\n"), Catch::Contains("repeat count"));
    CHECK_THROWS_WITH(parse_movie("nestris-movie 1\nR....... x3\n"), Catch::Contains("*N"));
    MoviePlayer player(m);
    const PlayerView v{};
    for (uint8_t expected : {5, 5, 5, 0x80, 0, 0, 0}) CHECK(player.buttons(v) == expected);
}

TEST_CASE("robustness: any bytes in a state step, view and render without undefined behaviour") {
    // validate() keeps such states out of files and RAM; the model itself must still be safe
    // on them (checked under the sanitizers).
    uint64_t x = 0x243F6A8885A308D3ull;
    auto next = [&x] {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return static_cast<uint8_t>(x);
    };
    for (int round = 0; round < 300; ++round) {
        GameState s;
        std::array<uint8_t, kSerializedStateSize> bytes{};
        for (uint8_t& b : bytes) b = next();
        s.tetriminoX = bytes[0];
        s.tetriminoY = bytes[1];
        s.currentPiece = bytes[2];
        s.levelNumber = bytes[3];
        s.fallTimer = bytes[4];
        s.autorepeatX = bytes[5];
        s.playState = static_cast<uint8_t>(bytes[6] % 14);
        s.vramRow = bytes[7];
        s.completedRow = {bytes[8], bytes[9], bytes[10], bytes[11]};
        s.autorepeatY = bytes[12];
        s.holdDownPoints = bytes[13];
        s.lines = {bytes[14], bytes[15]};
        s.rowY = bytes[16];
        s.score = {bytes[17], bytes[18], bytes[19]};
        s.completedLines = bytes[20];
        s.lineIndex = bytes[21];
        s.curtainRow = bytes[22];
        s.rngSeed = static_cast<uint16_t>(bytes[23] << 8 | bytes[24]);
        s.spawnID = bytes[25];
        s.spawnCount = bytes[26];
        s.nextPiece = bytes[27];
        s.gameType = bytes[28];
        s.gameModeState = bytes[29] & 1 ? 2 : 7;
        s.renderMode = bytes[30] & 1 ? 3 : 0;
        s.heldButtons = bytes[31];
        for (std::size_t i = 0; i < s.statsByType.size(); ++i) s.statsByType[i] = bytes[32 + i];
        for (std::size_t i = 0; i < s.playfield.size(); ++i) s.playfield[i] = next();
        for (int f = 0; f < 200; ++f) step(s, next());
        CHECK(view_of(s).rows.size() == 20);
        CHECK(!render_text(s).empty());
        CHECK(render_image(s, 1).width > 0);
        (void)validate(s);
    }
}
