// The patched game (TETRIS_ROM; skipped without): the AI demo, AI-played games, the level-menu
// hint, and the free space the patched game leaves alone.
//
// The cartridge's AI plays (nobody touches the controller but to start, pause and leave); the
// checks are about the game around the AI: when the demo starts and ends, its level and pieces,
// the RNG, how AI games start, pause and end. (That the AI's play is the cartridge-in-the-loop's:
// ai_game_loop_test.cpp.)
#include "game/tetris_map.hpp"
#include "tests/game/game_support.hpp"
#include "tools/harness/game_driver.hpp"

#include "emu-test/image.hpp"
#include "emu-test/input.hpp"
#include "game/hooks_map.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <iostream>
#include <memory>

using namespace nestris;
using namespace nestris::test;

namespace {


uint32_t lines_of(const emu::Nes& nes) {
    const uint8_t lo = nes.read_ram(tetris::lines), hi = nes.read_ram(static_cast<uint16_t>(tetris::lines + 1));
    return (lo & 0xF) + 10u * (lo >> 4) + 100u * (hi & 0xF);
}

// Legal screen, title, game type (B-Type: Right), to the level menu.
std::string to_level_menu(bool b_type) { return std::string(".*300 S .*20 S .*20 ") + (b_type ? "R .*5 " : "") + "S .*20"; }

}  // namespace

TEST_CASE("real game: the AI demo starts and ends with the original's and leaves the RNG alone") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    emu::Nes o(roms->original), p(roms->patched);  // from power-on, with no input at all
    uint64_t o_start = 0, o_end = 0, p_start = 0, p_end = 0;
    bool topped_out = false, rng_same = true;
    uint8_t max_ai_mode = 0;
    std::vector<uint8_t> o_pieces, p_pieces;
    uint32_t demo_lines = 0;
    for (uint64_t f = 1; f <= 7000 && !(p_end && o_end); ++f) {
        o.run_frame();
        p.run_frame();
        const uint8_t om = o.read_ram(tetris::gameMode), pm = p.read_ram(tetris::gameMode);
        if (om == tetris::GAME_MODE_DEMO && !o_start) o_start = f;
        if (pm == tetris::GAME_MODE_DEMO && !p_start) p_start = f;
        if (o_start && !o_end && om == tetris::GAME_MODE_TITLE) o_end = f;
        if (p_start && !p_end && pm == tetris::GAME_MODE_TITLE) p_end = f;
        if (pm == tetris::GAME_MODE_DEMO) {
            if (p.read_ram(tetris::player1_playState) == tetris::PLAY_STATE_CURTAIN) topped_out = true;
            max_ai_mode = std::max(max_ai_mode, p.read_ram(game::ai_mode_address()));
            demo_lines = std::max(demo_lines, lines_of(p));
            if (p.read_ram(tetris::gameModeState) >= 2)
                CHECK(p.read_ram(tetris::levelNumber) >= shipped_cart().require("DEMO_LEVEL"));
            if (p_pieces.empty() || p_pieces.back() != p.read_ram(tetris::nextPiece)) p_pieces.push_back(p.read_ram(tetris::nextPiece));
        }
        if (om == tetris::GAME_MODE_DEMO && (o_pieces.empty() || o_pieces.back() != o.read_ram(tetris::nextPiece)))
            o_pieces.push_back(o.read_ram(tetris::nextPiece));
        // The seed steps once per NMI; while both play the demo, their NMIs match frame for frame.
        if (om == tetris::GAME_MODE_DEMO && pm == tetris::GAME_MODE_DEMO)
            rng_same = rng_same && o.read_ram(tetris::rngSeed) == p.read_ram(tetris::rngSeed) &&
                       o.read_ram(static_cast<uint16_t>(tetris::rngSeed + 1)) == p.read_ram(static_cast<uint16_t>(tetris::rngSeed + 1));
        // The piece counter counts the AI demo's pieces (the original demo's stays put), and is as
        // the original's again once the title is back.
        if (pm == tetris::GAME_MODE_TITLE && p_end)
            rng_same = rng_same && p.read_ram(tetris::spawnCount) == o.read_ram(tetris::spawnCount);
    }
    std::cout << "demo: frames " << p_start << "-" << p_end << " (original " << o_start << "-" << o_end << "), "
              << demo_lines << " lines, " << p_pieces.size() << " pieces" << (topped_out ? ", topped out" : "") << "\n";
    CHECK(o_start > 0);
    CHECK(p_start == o_start);
    CHECK(max_ai_mode == hooks::AI_MODE_DEMO);
    CHECK(p.read_ram(game::ai_mode_address()) == hooks::AI_MODE_HUMAN);  // back on the title screen
    CHECK(rng_same);                      // the seed and the piece counter follow the original's
    CHECK(p_pieces != o_pieces);          // live random pieces, not the recorded ones
    CHECK(p_pieces.size() > 20);
    CHECK(demo_lines > 0);
    REQUIRE(p_end > 0);
    if (!topped_out) {
        CHECK(p_end == o_end);  // the original's length
        CHECK(o.read_ram(tetris::rngSeed) == p.read_ram(tetris::rngSeed));
    }
}

// The LEVEL box's pixels (its label and its two digits, nametable $22BA-$22BB: tile row 21,
// columns 26-27) on the screen of the frame.
static std::vector<uint8_t> level_box_pixels(const emu::Nes& nes) {
    const emu::Image shot = nes.screenshot();
    std::vector<uint8_t> out;
    for (int y = 152; y < 184; ++y)
        for (int x = 200; x < 232; ++x) out.insert(out.end(), shot.pixel(x, y), shot.pixel(x, y) + 3);
    return out;
}

// Runs `nes` to the first frame of its game's play (player1_playState set by the game's init).
static void run_to_play(emu::Nes& nes, uint8_t game_mode) {
    for (int f = 0; f < 9000; ++f) {
        if (nes.read_ram(tetris::gameMode) == game_mode && nes.read_ram(tetris::player1_playState) != 0) return;
        nes.run_frame();
    }
    FAIL("the game never started");
}

TEST_CASE("real game: the demo shows LEVEL 19 in level 19's colours from its first frame, as an AI game at 19 does") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    emu::Nes demo(roms->patched), game(roms->patched);
    run_to_play(demo, tetris::GAME_MODE_DEMO);  // no input: the title times out into the demo
    game.run_input(game::menu_walk_input(game::MenuWalk{.level = 19}));
    run_to_play(game, tetris::GAME_MODE_PLAY);
    // Frame by frame from there: the same LEVEL box and the same palette (the level's colours).
    for (int f = 0; f < 60; ++f) {
        INFO("frame " << f << " of play");
        CHECK((level_box_pixels(demo) == level_box_pixels(game)));  // (not expanded: 3 072 bytes)
        CHECK((demo.ppu().palette == game.ppu().palette));
        demo.run_frame();
        game.run_frame();
    }
    CHECK(demo.read_ram(tetris::gameMode) == tetris::GAME_MODE_DEMO);
    CHECK(demo.read_ram(tetris::player1_levelNumber) == 19);
    CHECK(game.read_ram(tetris::player1_levelNumber) == 19);
    // The digits drawn are 1 and 9 (this game's digit tiles are their values).
    CHECK(demo.ppu().ciram[0x2BA] == 1);
    CHECK(demo.ppu().ciram[0x2BB] == 9);
}

TEST_CASE("real game: Start in the AI demo goes back to the title as in the original") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    emu::Nes o(roms->original), p(roms->patched);
    o.run_frames(1900);  // 100 frames into the demo
    p.run_frames(1900);
    REQUIRE(o.read_ram(tetris::gameMode) == tetris::GAME_MODE_DEMO);
    REQUIRE(p.read_ram(tetris::gameMode) == tetris::GAME_MODE_DEMO);
    o.run_input("S .");
    p.run_input("S .");
    for (int f = 0; f < 30; ++f) {
        CHECK(o.read_ram(tetris::gameMode) == p.read_ram(tetris::gameMode));
        o.run_frame();
        p.run_frame();
    }
    CHECK(p.read_ram(tetris::gameMode) == tetris::GAME_MODE_TITLE);
    CHECK(p.read_ram(game::ai_mode_address()) == hooks::AI_MODE_HUMAN);
}

TEST_CASE("real game: Select held at Start in the level menu starts an AI game at any level") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    struct Case {
        bool b_type;
        const char* moves;  // in the level menu
        const char* start;  // the frames that hold Select (and A) and press Start
        uint8_t ai_mode, level;
    };
    const Case cases[] = {
        {false, "R .*3 R .*3 ", "E*3 E+S", hooks::AI_MODE_GAME, 2},
        {false, "D .*3 R .*3 ", "A+E*3 A+E+S", hooks::AI_MODE_GAME, 16},  // the +10 trick
        {false, "R .*3 ", "S", hooks::AI_MODE_HUMAN, 1}, // a human game
        {false, "R .*3 ", "A*3 A+S", hooks::AI_MODE_HUMAN, 11},
        {true, "L .*3 ", "E*3 E+S", hooks::AI_MODE_GAME, 0}, // B-Type
        {true, "D .*3 ", "A+E*3 A+E+S", hooks::AI_MODE_GAME, 15},
    };
    for (const Case& c : cases) {
        INFO((c.b_type ? "B-Type " : "A-Type ") << c.moves << c.start);
        emu::Nes p(roms->patched);
        p.run_input(to_level_menu(c.b_type) + c.moves + c.start + " .*30");
        CHECK(p.read_ram(tetris::gameMode) == tetris::GAME_MODE_PLAY);
        CHECK(p.read_ram(tetris::gameType) == (c.b_type ? 1 : 0));
        CHECK(p.read_ram(game::ai_mode_address()) == c.ai_mode);
        CHECK(p.read_ram(tetris::player1_levelNumber) == c.level);
    }
}

TEST_CASE("real game: an AI game pauses and ends with the AI off and no high-score entry") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    emu::Nes p(roms->patched);
    p.run_input(to_level_menu(false) + "D .*3 R .*3 A+E*3 A+E+S .*100");  // level 16
    REQUIRE(p.read_ram(game::ai_mode_address()) == hooks::AI_MODE_GAME);
    // Start pauses and resumes, as in a human game.
    p.run_input("S .*20");
    CHECK(p.read_ram(tetris::renderMode) == 0);
    const uint8_t y = p.read_ram(tetris::tetriminoY);  // tetriminoY stays
    p.run_frames(30);
    CHECK(p.read_ram(tetris::tetriminoY) == y);
    p.run_input("S .*5");
    CHECK(p.read_ram(tetris::renderMode) == 3);
    // A score for the table, then a full playfield: the next piece tops out.
    std::array<uint8_t, 12> table_before{};
    const uint16_t table = tetris::highScoreScoresA;
    for (uint16_t i = 0; i < table_before.size(); ++i) table_before[i] = p.read_ram(static_cast<uint16_t>(table + i));
    for (int i = 0; i < 3; ++i) p.write_ram(static_cast<uint16_t>(tetris::score + i), 0x99);
    for (int i = 0; i < 3; ++i) p.write_ram(static_cast<uint16_t>(tetris::score + 0x20 + i), 0x99);
    for (uint16_t cell = 20; cell < 200; ++cell)
        if (cell % 10 != 0 && cell % 10 != 5) p.write_ram(static_cast<uint16_t>(0x400 + cell), 0x7B);
    bool curtain = false;
    for (int f = 0; f < 20000 && p.read_ram(tetris::gameMode) == tetris::GAME_MODE_PLAY; ++f) {
        curtain |= p.read_ram(tetris::player1_playState) == tetris::PLAY_STATE_CURTAIN;
        p.set_buttons(f % 60 == 0 ? emu::button::Start : 0);  // through the curtain and the ending
        p.run_frame();
        CHECK(p.read_ram(tetris::renderMode) != 2);  // never the high-score entry
    }
    CHECK(curtain);
    CHECK(p.read_ram(tetris::gameMode) == tetris::GAME_MODE_LEVEL_MENU);
    CHECK(p.read_ram(game::ai_mode_address()) == hooks::AI_MODE_HUMAN);
    for (uint16_t i = 0; i < table_before.size(); ++i) CHECK(p.read_ram(static_cast<uint16_t>(table + i)) == table_before[i]);
}

TEST_CASE("real game: a Start held over several frames pauses an AI game once as in a human game") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    for (bool ai : {false, true}) {
        INFO((ai ? "AI game" : "human game"));
        emu::Nes p(roms->patched);
        // A player's Start lasts several frames: it starts the game and is still held in it.
        p.run_input(to_level_menu(false) + (ai ? "E*3 E+S*8 " : "S*9 ") + ".*60");
        CHECK(p.read_ram(game::ai_mode_address()) == (ai ? hooks::AI_MODE_GAME : hooks::AI_MODE_HUMAN));
        CHECK(p.read_ram(tetris::renderMode) == 3);  // not paused
        p.run_input("S*10");
        CHECK(p.read_ram(tetris::renderMode) == 0);  // paused, and stays so while Start is held
        p.run_input(".*5");
        CHECK(p.read_ram(tetris::renderMode) == 0);
        p.run_input("S*10 .*5");
        CHECK(p.read_ram(tetris::renderMode) == 3);  // resumed
    }
}

TEST_CASE("real game: the level menu shows the hint and nothing else of it changes") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    for (bool b_type : {false, true}) {
        emu::Nes o(roms->original), p(roms->patched);
        o.run_input(to_level_menu(b_type) + ".*30");
        p.run_input(to_level_menu(b_type) + ".*30");
        REQUIRE(p.read_ram(tetris::gameMode) == tetris::GAME_MODE_LEVEL_MENU);
        const emu::VideoMap om = o.video_map(), pm = p.video_map();
        const uint16_t text = shipped_cart().require("hint_text");
        std::string hint_tiles;
        for (uint16_t addr = 0x2000; addr < 0x2400; ++addr) {
            const uint8_t x = o.ppu().vram_read(addr, om), y = p.ppu().vram_read(addr, pm);
            if (addr >= 0x2344 && addr < 0x2344 + 24) {
                CHECK(x == 0xFF);  // blank in the original
                hint_tiles += static_cast<char>(y);
                const emu::Nes& q = p;
                CHECK(y == q.peek(static_cast<uint16_t>(text + (addr - 0x2344))));
            } else {
                INFO("VRAM $" << std::hex << addr);
                CHECK(x == y);
            }
        }
        CHECK(hint_tiles.size() == 24);
    }
}

TEST_CASE("real game: the patched game touches free ROM only where the patch put its bytes") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    for (uint64_t seed : {11, 12}) {
        const std::vector<game::WatchedRange> watched = free_rom_ranges();
        game::AccessTrace trace(watched);
        emu::Nes p(roms->patched);
        trace.attach(p);
        game::DriverOptions options;
        options.seed = seed;
        options.watch_demo = true;
        options.select_in_level_menu = seed % 2 == 1;  // AI games too
        game::GameDriver driver(options);
        for (int f = 0; f < 40'000; ++f) {
            p.set_buttons(driver.next(p));
            p.run_frame();
        }
        uint64_t touched = 0;
        for (const game::WatchedRange& r : watched)
            for (uint32_t addr = r.first; addr <= r.last; ++addr) {
                const uint8_t kind = trace.touched(static_cast<uint16_t>(addr));
                if (!kind) continue;
                ++touched;
                INFO(r.name << ": " << game::access_kind_name(kind) << " of $" << std::hex << addr);
                CHECK(patch_byte(static_cast<uint16_t>(addr)));
                CHECK((kind & game::kWrite) == 0);
            }
        std::cout << "patched game, seed " << seed << ": " << touched << " bytes of free regions touched, all the patch's; "
                  << driver.stats().games << " games, " << driver.stats().demos << " demos\n";
        CHECK(driver.stats().demos >= 1);
    }
}

TEST_CASE("real game: the legal screen unpacks the AI's code into PRG-RAM, long before the title") {
    const auto roms = game_roms_or_skip();
    if (!roms) return;
    const CartImage& cart = shipped_cart();
    const CartRegion& code = cart.region("PRG_RAM_CODE");
    for (const emu::PowerOn mode : {emu::PowerOn::Hardware, emu::PowerOn::Fceux}) {
        emu::Nes p(roms->patched);
        p.power_on(mode);
        uint64_t unpacking = 0, unpacked = 0, title = 0;
        for (uint64_t f = 1; f <= 600 && !title; ++f) {
            REQUIRE(p.run_frame() == emu::RunStatus::Reached);
            const uint8_t mode_now = p.read_ram(game::ai_mode_address());
            if (mode_now == hooks::AI_MODE_UNPACK && !unpacking) unpacking = f;
            if (unpacking && !unpacked && mode_now == hooks::AI_MODE_HUMAN) unpacked = f;
            if (p.read_ram(tetris::gameMode) == tetris::GAME_MODE_TITLE) title = f;
        }
        INFO((mode == emu::PowerOn::Fceux ? "FCEUX's power-on" : "hardware power-on"));
        REQUIRE(unpacking > 0);
        REQUIRE(unpacked > unpacking);
        REQUIRE(title > unpacked);
        WARN("unpacked in frames " << unpacking << "-" << unpacked << ", the title at " << title);
        CHECK(unpacked - unpacking < 60);
        CHECK(title - unpacked > 200);  // the legal screen's 255 frames: the margin
        for (const CartSegment& s : cart.segments) {
            if (s.region != code.name) continue;
            for (size_t i = 0; i < s.bytes.size(); ++i) {
                const uint16_t at = static_cast<uint16_t>(s.address + i);
                if (p.peek(at) != s.bytes[i] || !p.prg_ram_written(at)) FAIL(s.name << " differs at " << at);
            }
        }
    }
}
