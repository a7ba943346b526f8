// The real game in the emulator (only where TETRIS_ROM points to a Tetris (USA) image; skipped
// otherwise). Addresses are the public facts of the brief: NMI $8005, main loop $8138, game
// mode $C0, play state $48, piece x/y $40/$41, level $44.
#include "emu-test/nes.hpp"
#include "game/tetris_map.hpp"
#include "tests/support/game_rom.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <set>
#include <string>

using namespace nestris::emu;

namespace {

namespace t = nestris::tetris;

// Legal screen (it ends by itself after 300 frames... or Start), title, game type, level menu.
const char* kToLevelMenu = ".*300 S .*20 S .*20 S .*20";

std::unique_ptr<Nes> tetris() {
    auto rom = nestris::test::tetris_rom_or_skip();
    if (!rom) return nullptr;
    return std::make_unique<Nes>(*rom);
}

// Frames between the piece's row changes while nothing is pressed, from the first drop on.
std::vector<uint64_t> fall_intervals(Nes& nes, int rows) {
    std::vector<uint64_t> out;
    uint8_t y = nes.read_ram(t::tetriminoY);
    uint64_t since = 0, last_change = 0;
    bool first = true;
    for (uint64_t f = 0; f < 2000 && static_cast<int>(out.size()) < rows; ++f) {
        nes.run_frames(1);
        ++since;
        if (nes.read_ram(t::tetriminoY) != y) {
            if (!first) out.push_back(since - last_change);
            first = false;
            last_change = since;
            y = nes.read_ram(t::tetriminoY);
        }
    }
    return out;
}

}  // namespace

TEST_CASE("Tetris: boots to the legal screen, then title, menus and an A-Type game") {
    auto nes = tetris();
    if (!nes) return;
    nes->run_frames(300);
    CHECK(nes->read_ram(t::gameMode) == t::GAME_MODE_LEGAL);  // legal screen
    // The picture: black background with text in several colours.
    const Image img = nes->screenshot();
    std::set<uint32_t> colours;
    size_t black = 0;
    for (size_t i = 0; i < img.rgb.size(); i += 3) {
        const uint32_t c = (img.rgb[i] << 16) | (img.rgb[i + 1] << 8) | img.rgb[i + 2];
        colours.insert(c);
        black += c == 0;
    }
    CHECK(colours.size() >= 3);
    CHECK(black > img.rgb.size() / 3 / 2);
    nes->run_input("S .*20");
    CHECK(nes->read_ram(t::gameMode) == t::GAME_MODE_TITLE);  // title
    nes->run_input("S .*20");
    CHECK(nes->read_ram(t::gameMode) == t::GAME_MODE_GAME_TYPE);  // game type
    nes->run_input("S .*20");
    CHECK(nes->read_ram(t::gameMode) == t::GAME_MODE_LEVEL_MENU);  // level
    nes->run_input("S .*10");
    CHECK(nes->read_ram(t::gameMode) == t::GAME_MODE_PLAY);  // playing
    CHECK(nes->read_ram(t::levelNumber) == 0);
    CHECK(nes->read_ram(t::tetriminoX) == 5);    // spawned at column 5
}

TEST_CASE("Tetris: gravity is 48 frames a row at level 0, 2 at level 19 (the +10 trick)") {
    auto nes = tetris();
    if (!nes) return;
    const NesState boot = [&] {
        nes->run_input(kToLevelMenu);
        return nes->snapshot();
    }();
    nes->run_input("S .*10");
    REQUIRE(nes->read_ram(t::playState) == 1);
    for (const uint64_t d : fall_intervals(*nes, 5)) CHECK(d == 48);

    nes->restore(boot);
    nes->run_input("(R.)*9 A A+S .*10");  // level 9, then A held with Start: +10
    REQUIRE(nes->read_ram(t::levelNumber) == 19);
    for (const uint64_t d : fall_intervals(*nes, 10)) CHECK(d == 2);
}

TEST_CASE("Tetris: one NMI per frame and no lag frames while playing") {
    auto nes = tetris();
    if (!nes) return;
    nes->run_input(std::string(kToLevelMenu) + " S .*10");
    uint64_t nmis = 0;
    nes->set_instruction_hook([&](const Nes& n) { nmis += n.cpu().pc() == t::game_nmi; });
    nes->watch_main_loop(t::game_mainLoop);
    // Moves, rotations and soft drops for 1200 frames.
    nes->run_input("((L.)*3 A . (R.)*4 B . D*20 .*10)*20");
    const uint64_t frames = nes->watched_frames();
    CHECK(frames == 20 * (6 + 2 + 8 + 2 + 20 + 10));
    CHECK(nmis == frames);
    CHECK(nes->lag_frames() == 0);
}

TEST_CASE("Tetris: runs are deterministic and snapshots restore exactly") {
    auto rom = nestris::test::tetris_rom_or_skip();
    if (!rom) return;
    Nes a(*rom), b(*rom);
    const std::string input = std::string(kToLevelMenu) + " S (L.)*3 A D*30 (R.)*5 B D*40";
    a.run_input(input);
    b.run_input(input);
    CHECK(a == b);
    const NesState snap = a.snapshot();
    a.run_input("(L.)*10 D*100");
    const NesState later = a.snapshot();
    a.restore(snap);
    a.run_input("(L.)*10 D*100");
    CHECK(a.snapshot() == later);
}

TEST_CASE("Tetris: left alone at the title, the demo starts") {
    auto nes = tetris();
    if (!nes) return;
    nes->run_input(".*300 S");
    for (int i = 0; i < 3000 && nes->read_ram(t::gameMode) != t::GAME_MODE_DEMO; ++i) nes->run_frames(1);
    CHECK(nes->read_ram(t::gameMode) == t::GAME_MODE_DEMO);
    // Its first frames set the playfield up outside the main loop; once a piece is in play,
    // the demo runs without lag.
    for (int i = 0; i < 100 && nes->read_ram(t::playState) != 1; ++i) nes->run_frames(1);
    REQUIRE(nes->read_ram(t::playState) == 1);
    nes->watch_main_loop(t::game_mainLoop);
    nes->run_frames(600);
    CHECK(nes->lag_frames() == 0);
}
