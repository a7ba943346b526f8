// The game hooks without the game: where they are, what bytes they write, and what the hook
// code does, run on the flat 6502 machine with stand-ins for the few game routines it calls.
// (The real game: the other files of this suite, with TETRIS_ROM.)
#include "emu-test/flat_machine.hpp"
#include "game/hooks_map.hpp"
#include "game/tetris_map.hpp"
#include "patcher/cart_image.hpp"
#include "patcher/hook_table.hpp"
#include "tools/harness/cart_ai.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace nestris;

namespace {

const CartSegment* segment_at(const CartImage& cart, uint16_t address) {
    for (const CartSegment* s : cart.rom_segments())
        if (s->address == address) return s;
    return nullptr;
}

constexpr uint8_t kJsr = 0x20, kJmp = 0x4C, kNop = 0xEA, kStaZp = 0x85, kRts = 0x60;
constexpr uint8_t kZ = 0x02;  // the Z flag in P

std::vector<uint8_t> call_bytes(uint8_t opcode, uint16_t target) {
    return {opcode, static_cast<uint8_t>(target), static_cast<uint8_t>(target >> 8)};
}

// The flat machine with the cartridge loaded and the game's RAM cleared.
struct Machine {
    const CartImage& cart = shipped_cart();
    emu::FlatMachine m;
    Machine() { tools::load_cart(m, cart); }
    uint16_t sym(const char* name) const { return cart.require(name); }
    uint8_t ram(const char* name) const { return m.read(sym(name)); }
    void set(const char* name, uint8_t v) { m.write(sym(name), v); }
    // Calls a routine; returns P after it.
    uint8_t call(const char* name) {
        const emu::CallResult r = m.call(sym(name), 100'000);
        REQUIRE(r.ok());
        return m.cpu().p();
    }
};

}  // namespace

// The hook sites as game/hooks.inc declares them, once.
static std::vector<HookSite> hook_sites() {
    std::ifstream in(std::string(NESTRIS_SOURCE_DIR) + "/game/hooks.inc");
    REQUIRE(in);
    std::ostringstream text;
    text << in.rdbuf();
    return parse_hook_table(text.str());
}

TEST_CASE("every hook site is rewritten exactly at its place in the game") {
    const CartImage& cart = shipped_cart();
    const std::vector<HookSite> sites = hook_sites();
    REQUIRE_FALSE(sites.empty());
    int hook_regions = 0;
    for (const CartRegion& r : cart.regions) hook_regions += r.is_hook_site();
    CHECK(hook_regions == static_cast<int>(sites.size()));
    for (const HookSite& s : sites) {
        INFO(s.area());
        const CartRegion& r = cart.region(s.area());
        CHECK(r.is_hook_site());
        CHECK(r.start == cart.require(s.site));  // game/tetris.inc: what is there in the game
        CHECK(r.size == s.size);
        const CartSegment* seg = segment_at(cart, r.start);
        REQUIRE(seg != nullptr);
        CHECK(seg->name == s.area());
        CHECK(seg->bytes.size() == r.size);  // the patch writes all of the site and nothing more
        CHECK(r.used == r.size);
    }
}

TEST_CASE("the hook table: malformed lines, twice the same name and unknown sites are refused") {
    CHECK(parse_hook_table("hook A, game_x, 3 ; a\n  hook_begin A\nhookB = 1\n").size() == 1);
    CHECK_THROWS_AS(parse_hook_table("hook A, game_x\n"), HookTableError);
    CHECK_THROWS_AS(parse_hook_table("hook A, game_x, 0\n"), HookTableError);
    CHECK_THROWS_AS(parse_hook_table("hook A, game_x, 3\nhook A, game_y, 3\n"), HookTableError);
    const std::string config = "MEMORY {\n    R: start = $8000, size = $10;\n}\nSEGMENTS {\n    S: load = R;\n}\n";
    const auto hooks = parse_hook_table("hook A, game_x, 3 ; what\nhook B, $9000, 2\n");
    const std::string out = config_with_hook_sites(config, hooks, parse_asm_constants("game_x = $8148 ; here\n"));
    CHECK(out.find("HOOK_A: start = $8148, size = $0003, type = ro, file = %O;  # what") < out.find("}\nSEGMENTS"));
    CHECK(out.find("HOOK_B: start = $9000, size = $0002") != std::string::npos);
    CHECK(out.find("HOOK_A: load = HOOK_A, type = ro;") > out.find("SEGMENTS"));
    CHECK_THROWS_AS(config_with_hook_sites(config, hooks, {}), HookTableError);
}

TEST_CASE("the hook sites hold the calls into the AI and the hook code") {
    const CartImage& cart = shipped_cart();
    auto bytes = [&](const char* region_name) { return segment_at(cart, cart.region(region_name).start)->bytes; };
    auto with_nops = [](std::vector<uint8_t> v, int n) {
        v.insert(v.end(), static_cast<size_t>(n), kNop);
        return v;
    };
    CHECK(bytes("HOOK_IDLE") == with_nops(call_bytes(kJmp, cart.require("ai_idle")), 2));
    CHECK(bytes("HOOK_POLL") == call_bytes(kJmp, cart.require("ai_poll")));
    CHECK(bytes("HOOK_TITLE_ENTER") == with_nops(call_bytes(kJsr, cart.require("title_enter")), 1));
    CHECK(cart.require("ai_mode") < 0x100);
    CHECK(bytes("HOOK_GAME_OVER") == call_bytes(kJsr, cart.require("game_over")));
    CHECK(bytes("HOOK_LEVEL_START") == with_nops(call_bytes(kJsr, cart.require("level_start")), 1));
    CHECK(bytes("HOOK_LEVEL_B_BACK") == with_nops(call_bytes(kJsr, cart.require("level_b_back")), 1));
    CHECK(bytes("HOOK_LEVEL_MENU_HINT") == call_bytes(kJsr, cart.require("level_menu_hint")));
    CHECK(bytes("HOOK_DEMO_PICK") == call_bytes(kJmp, cart.require("demo_pick")));
}

TEST_CASE("free regions and hook sites do not overlap and the AI's RAM is where the map says") {
    const CartImage& cart = shipped_cart();
    for (size_t i = 0; i < cart.regions.size(); ++i)
        for (size_t j = i + 1; j < cart.regions.size(); ++j) {
            const CartRegion& a = cart.regions[i];
            const CartRegion& b = cart.regions[j];
            INFO(a.name << " / " << b.name);
            CHECK((a.start + a.size <= b.start || b.start + b.size <= a.start));
        }
    CHECK(cart.region("AI_ZP").start == 0x1B);
    CHECK(cart.region("AI_ZP").size == 0x18);
    CHECK(cart.region("AI_RAM7").start == 0x755);  // above what the sprite loader reads in AI games
}

TEST_CASE("level_start: Select held at Start switches the AI on, Select and B hate mode too, B the coach, and A still adds 10 levels") {
    Machine t;
    struct Case {
        uint8_t held;  // the game's bits: A $80, B $40, Select $20, Start $10
        uint8_t ai_mode;
        bool plus_ten;
        bool hate;
    };
    const Case cases[] = {
        {0x10, hooks::AI_MODE_HUMAN, false, false}, {0x90, hooks::AI_MODE_HUMAN, true, false},
        {0x30, hooks::AI_MODE_GAME, false, false},  {0xB0, hooks::AI_MODE_GAME, true, false},
        {0x50, hooks::AI_MODE_COACH, false, false}, {0xD0, hooks::AI_MODE_COACH, true, false},
        {0x70, hooks::AI_MODE_GAME, false, true},   {0xF0, hooks::AI_MODE_GAME, true, true},
        {0x11, hooks::AI_MODE_HUMAN, false, false}, {0x71, hooks::AI_MODE_GAME, false, true},
    };
    for (const Case& c : cases) {
        INFO("held " << int(c.held));
        t.set("ai_mode", 0x77);
        t.set("hate_on", 0);  // (PRG_RAM_CLEARED: 0 before every game)
        t.set("b_first", 0);
        t.set("hate_for", 0x99);
        t.m.write(tetris::spawnCount, 0x42);
        t.set("heldButtons_player1", c.held);
        const uint8_t p = t.call("level_start");
        CHECK(t.ram("ai_mode") == c.ai_mode);
        CHECK(((p & kZ) != 0) == c.plus_ten);
        CHECK((t.ram("hate_on") != 0) == c.hate);
        // hate mode: no spawn before the task's first choice deals (the game draws twice next)
        CHECK(t.ram("hate_for") == (c.hate ? 0x42 : 0x99));
        CHECK(t.ram("heldButtons_player1") == c.held);
    }
    // B held since before Select (the coach's chord, then Select): the person plays against hate
    // mode, with the coach; other buttons held first change nothing.
    for (const uint8_t held : {uint8_t{0x70}, uint8_t{0xF0}}) {
        for (const uint8_t first : {uint8_t{tetris::BUTTON_B}, uint8_t{tetris::BUTTON_A}}) {
            INFO("held " << int(held) << ", first " << int(first));
            t.set("hate_on", 0);
            t.set("b_first", first);
            t.set("heldButtons_player1", held);
            const uint8_t p = t.call("level_start");
            CHECK(t.ram("ai_mode") == (first == tetris::BUTTON_B ? hooks::AI_MODE_COACH : hooks::AI_MODE_GAME));
            CHECK(t.ram("hate_on") != 0);
            CHECK(((p & kZ) != 0) == (held == 0xF0));
        }
    }
}

// Hate mode's dealer at savePlayer1State's end: out of hate mode the original's 8 cycles to the
// rts; in it, the chosen type's spawn orientation into the preview in the frame of the spawn it
// was chosen for, and nothing otherwise.
TEST_CASE("hate_deal: the hook takes the original's cycles out of hate mode, and deals only the choice made for this spawn") {
    Machine t;
    tools::load_game_tables(t.m);  // (the game's spawn table)
    const uint16_t site = tetris::game_savePlayer1State_players;
    auto run = [&](uint8_t spawn, uint8_t next) {
        t.m.write(tetris::spawnCount, spawn);
        t.m.write(tetris::nextPiece, next);
        const emu::CallResult r = t.m.call(site, 1'000);
        REQUIRE(r.ok());
        return r.cycles;
    };
    t.set("hate_on", 0);
    t.set("hate_for", 9);
    t.set("hate_type", 3);
    const uint64_t off = run(9, 0x12);
    CHECK(t.m.read(tetris::nextPiece) == 0x12);  // out of hate mode: nothing dealt
    // The original's lda zp (3) / cmp # (2) / beq taken (3) / rts (6), and the call's jsr (6).
    CHECK(off == 3 + 2 + 3 + 6 + 6);
    t.set("hate_on", 1);
    run(8, 0x12);  // not the spawn it was chosen for
    CHECK(t.m.read(tetris::nextPiece) == 0x12);
    CHECK(t.ram("hate_for") == 9);
    run(9, 0x12);  // its spawn: O ($0A)
    CHECK(t.m.read(tetris::nextPiece) == 0x0A);
    CHECK(t.ram("hate_for") == 8);
    run(9, 0x12);  // dealt once: the frames after the spawn keep the preview
    CHECK(t.m.read(tetris::nextPiece) == 0x12);
    run(10, 0x02);  // a choice not made for this spawn (not ready): the game's draw stays
    CHECK(t.m.read(tetris::nextPiece) == 0x02);
}

// The level menu's B test, frame after frame: B pressed alone goes back (Z = 1), as in the
// original, but for the coach's chord, B within COACH_CHORD_FRAMES frames of A with A held, and
// hate mode's, B with Select held.
TEST_CASE("level_b_back: B alone goes back to the type menu, but not within the coach's chord or with Select held") {
    Machine t;
    constexpr uint8_t A = tetris::BUTTON_A, B = tetris::BUTTON_B, R = tetris::BUTTON_RIGHT, S = tetris::BUTTON_SELECT;
    struct Frame {
        uint8_t held;   // the buttons held this frame (the poll's)
        bool back;      // Z = 1: the original's bne falls through to the type menu
    };
    struct Case {
        const char* name;
        std::vector<Frame> frames;
    };
    const int n = hooks::COACH_CHORD_FRAMES;
    auto a_then_b = [&](int a_frames, bool back) {  // A held a_frames frames, then A and B
        std::vector<Frame> f(static_cast<size_t>(a_frames), Frame{A, false});
        f.push_back({static_cast<uint8_t>(A | B), back});
        return f;
    };
    std::vector<Case> cases = {
        {"B alone", {{0, false}, {B, true}}},
        {"A and B in one frame", {{0, false}, {static_cast<uint8_t>(A | B), false}, {B, false}}},
        {"B with Right", {{0, false}, {static_cast<uint8_t>(B | R), false}}},
        {"A, then B the frame after", a_then_b(1, false)},
        {"A, then B at the window's last frame", a_then_b(n, false)},
        {"A, then B a frame too late", a_then_b(n + 1, true)},
        {"A tapped, then B with A let go", {{A, false}, {0, false}, {B, true}}},
        {"A held long, then B", a_then_b(60, true)},
        {"A again, then B", {{A, false}, {0, false}, {0, false}, {0, false}, {0, false}, {0, false}, {A, false},
                             {static_cast<uint8_t>(A | B), false}}},
        // hate mode's chord: B pressed with Select held, however long after it
        {"Select, then B", {{0, false}, {S, false}, {static_cast<uint8_t>(S | B), false}}},
        {"Select held long, then B", {{S, false}, {S, false}, {S, false}, {S, false}, {S, false}, {S, false},
                                      {S, false}, {static_cast<uint8_t>(S | B), false}}},
        {"B, then Select", {{0, false}, {B, true}}},
        {"Select tapped, then B with it let go", {{S, false}, {0, false}, {B, true}}},
        // the person's: the coach's chord, then Select (b_first keeps B)
        {"A, then B, A let go, then Select", {{A, false}, {static_cast<uint8_t>(A | B), false}, {B, false},
                                              {static_cast<uint8_t>(B | S), false}}},
    };
    for (const Case& c : cases) {
        INFO(c.name);
        t.set("chord_window", 0);  // (PRG_RAM_CLEARED: 0 from the title screen on)
        t.set("b_first", 0);
        uint8_t held_before = 0;
        uint64_t cycles = 0;
        for (size_t i = 0; i < c.frames.size(); ++i) {
            INFO("frame " << i);
            const uint8_t held = c.frames[i].held;
            t.set("heldButtons_player1", held);
            t.set("newlyPressedButtons_player1", static_cast<uint8_t>(held & ~held_before));
            const uint8_t held_before_frame = held_before;
            held_before = held;
            const uint8_t first_before = t.ram("b_first");
            const emu::CallResult r = t.m.call(t.sym("level_b_back"), 1'000);
            REQUIRE(r.ok());
            CHECK(((t.m.cpu().p() & kZ) != 0) == c.frames[i].back);
            // b_first: the buttons held since a press made without Select held
            const uint8_t newly = static_cast<uint8_t>(held & ~held_before_frame);
            const uint8_t want = static_cast<uint8_t>(held & (first_before | (newly & ~(held << 1))));
            CHECK(int(t.ram("b_first")) == int(want));
            CHECK(t.ram("chord_window") <= n + 1);
            // One path whatever the buttons; the call (jsr / nop) took the place of lda zp / cmp #
            // (5 cycles): what it adds is a multiple of the wait's spin (6 cycles).
            if (cycles != 0) CHECK(r.cycles == cycles);
            cycles = r.cycles;
            CHECK((r.cycles + 2 - 5) % 6 == 0);
        }
    }
}

TEST_CASE("game_over: a human game goes on to the high scores and an AI game switches the AI off and clears its RAM (a coach game both)") {
    Machine t;
    const uint16_t hs = t.sym("game_handleHighScoreIfNecessary");
    // Stand-in: the high-score check marks that it ran.
    const uint8_t marker[] = {0xE6, 0xF0, kRts};  // inc $F0 / rts
    t.m.load(hs, marker);
    t.m.write(0xF0, 0);
    const uint16_t ram6 = t.cart.region("PRG_RAM_CLEARED").start, zp = t.cart.region("AI_ZP").start;
    t.m.write(ram6, 0x77);
    t.m.write(zp + 1, 0x77);
    t.set("ai_mode", hooks::AI_MODE_HUMAN);
    t.call("game_over");
    CHECK(t.m.read(0xF0) == 1);
    CHECK(t.m.read(ram6) == 0x77);  // a human game's end leaves RAM alone
    t.set("ai_mode", hooks::AI_MODE_GAME);
    t.call("game_over");
    CHECK(t.m.read(0xF0) == 1);
    CHECK(t.ram("ai_mode") == hooks::AI_MODE_HUMAN);
    CHECK(t.m.read(ram6) == 0);  // the AI state every game begins from
    CHECK(t.m.read(zp + 1) == 0);
    // a coach game is a person's: the high scores, and the AI's RAM cleared too
    t.m.write(ram6, 0x77);
    t.m.write(zp + 1, 0x77);
    t.set("ai_mode", hooks::AI_MODE_COACH);
    t.call("game_over");
    CHECK(t.m.read(0xF0) == 2);
    CHECK(t.ram("ai_mode") == hooks::AI_MODE_HUMAN);
    CHECK(t.m.read(ram6) == 0);
    CHECK(t.m.read(zp + 1) == 0);
}

TEST_CASE("demo_tick: ends the demo the original's way at its end frame or the curtain, and leaves the level alone") {
    Machine t;
    const uint16_t buttons_page = static_cast<uint16_t>(t.sym("demoButtonsAddr") + 1);
    auto tick = [&] {  // the demo ends when the main loop finds its playback at the end page
        t.m.write(buttons_page, 0xDD);
        t.call("demo_tick");
        return t.m.read(buttons_page) == tetris::DEMO_BUTTONS_END;
    };
    t.set("player1_levelNumber", 0);  // (demo_pick raises it, before the first NMI)
    t.set("player1_playState", tetris::PLAY_STATE_ACTIVE);
    t.m.write16(t.sym("frameCounter"), 0x0501);
    CHECK_FALSE(tick());
    CHECK(t.ram("player1_levelNumber") == 0);
    t.m.write16(t.sym("frameCounter"), hooks::DEMO_END_FRAME - 1);
    CHECK_FALSE(tick());
    t.m.write16(t.sym("frameCounter"), hooks::DEMO_END_FRAME);  // the original demo's last frame
    CHECK(tick());
    t.m.write16(t.sym("frameCounter"), 0x0900);
    t.set("player1_playState", tetris::PLAY_STATE_CURTAIN);  // topped out: the curtain falls
    t.set("player1_curtainRow", tetris::CURTAIN_DOWN - 1);
    CHECK_FALSE(tick());
    t.set("player1_curtainRow", tetris::CURTAIN_DOWN);  // down
    CHECK(tick());
    t.set("player1_playState", tetris::PLAY_STATE_ACTIVE);  // a stale curtain row outside the curtain means nothing
    CHECK_FALSE(tick());
}

TEST_CASE("demo_pick: the game's pick on a copy of the RNG and the demo's pieces counted apart") {
    Machine t;
    // Stand-in for the game's pick: counts the piece, steps the seed, sets spawnID.
    const uint16_t pick = t.sym("game_pickRandomTetrimino");
    const uint16_t seed = t.sym("rngSeed"), id = t.sym("spawnID"), count = t.sym("spawnCount");
    const uint8_t stand_in[] = {0xE6, static_cast<uint8_t>(count),                                   // inc spawnCount
                                0xE6, static_cast<uint8_t>(seed), 0xC6, static_cast<uint8_t>(seed + 1),  // inc/dec seed
                                0xA9, 0x0E, 0x85, static_cast<uint8_t>(id), kRts};                         // spawnID = $0E
    t.m.load(pick, stand_in);
    t.m.write(seed, 0x12);
    t.m.write(seed + 1, 0x34);
    t.set("spawnCount", 9);
    t.set("demoIndex", 4);
    t.set("ai_mode", hooks::AI_MODE_HUMAN);
    t.set("player1_levelNumber", 0);  // the game starts the demo at level 0
    REQUIRE(t.m.call(t.sym("game_chooseNextTetrimino_demo"), 10'000).ok());  // through the hook
    CHECK(t.ram("ai_mode") == hooks::AI_MODE_DEMO);  // the demo's first pick turns the AI on
    const uint8_t demo_level = hooks::DEMO_LEVEL;
    CHECK(demo_level >= 18);
    CHECK(t.ram("player1_levelNumber") == demo_level);  // before the first NMI draws the level
    CHECK(t.m.cpu().a() == 0x0E);
    CHECK(t.m.read(seed) == 0x12);
    CHECK(t.m.read(seed + 1) == 0x34);
    CHECK(t.ram("spawnCount") == 10);
    CHECK(t.ram("demoIndex") == 5);
    CHECK(t.ram("spawnID") == 0x0E);
    t.set("player1_levelNumber", 21);  // level-ups stay
    REQUIRE(t.m.call(t.sym("game_chooseNextTetrimino_demo"), 10'000).ok());
    CHECK(t.ram("player1_levelNumber") == 21);
}

TEST_CASE("title_enter: the AI off, the demo's pieces taken off spawnCount, the AI's RAM the original holds at 0 cleared") {
    Machine t;
    const CartImage& cart = shipped_cart();
    for (uint8_t demo_pieces : {uint8_t{0}, uint8_t{37}}) {
        INFO("demo pieces " << int(demo_pieces));
        // What the AI leaves in its RAM, and the game's bytes between its zero-page areas.
        for (uint16_t a = 0; a < 0x800; ++a) t.m.write(a, static_cast<uint8_t>(0x5A ^ a));
        const CartRegion& prg_cleared = cart.region("PRG_RAM_CLEARED");
        for (uint16_t a = 0x6000; a < 0x6200; ++a) t.m.write(a, static_cast<uint8_t>(0xA5 ^ a));
        t.set("ai_mode", 1);
        t.set("renderMode", 3);
        t.set("spawnCount", 20);
        t.set("demoIndex", demo_pieces);
        t.m.cpu().set_a(0);
        const emu::CallResult r = t.m.call(t.sym("title_enter"), 100'000);
        REQUIRE(r.ok());
        CHECK(t.m.cpu().a() == 0);  // the game stores it on
        CHECK(t.ram("ai_mode") == 0);
        CHECK(t.ram("renderMode") == 0);
        CHECK(t.ram("spawnCount") == static_cast<uint8_t>(20 - demo_pieces));
        CHECK(t.ram("demoIndex") == 0);
        // The hook (jsr title_enter / nop) took the place of two zero-page stores (6 cycles):
        // what it adds is a multiple of the wait's spin (6 cycles).
        CHECK((r.cycles + 2 - 6) % 6 == 0);
        for (uint16_t a = 0x6000; a < 0x6200; ++a) {  // the AI's state of a game: PRG_RAM_CLEARED alone
            INFO("$" << std::hex << a);
            if (a < prg_cleared.start + prg_cleared.size) CHECK(t.m.read(a) == 0);
            else CHECK(t.m.read(a) == static_cast<uint8_t>(0xA5 ^ a));
        }
        for (uint16_t a = 0; a < 0x800; ++a) {
            bool cleared = false;  // the AI's zero page; $0600-$067F and $0755-$07FF it no longer uses
            for (const CartRegion& region : cart.regions)
                if (region.is_ram && region.start < 0x100 && a >= region.start && a < region.start + region.size)
                    cleared = true;
            if (a == t.sym("renderMode") || a == t.sym("spawnCount") || a == t.sym("demoIndex")) continue;
            if (a >= 0x100 && a <= 0x1FF) continue;  // the stack (the call's return address)
            INFO("$" << std::hex << a);
            if (cleared) CHECK(t.m.read(a) == 0);
            else CHECK(t.m.read(a) == static_cast<uint8_t>(0x5A ^ a));  // the game's RAM as it was
        }
    }
}

TEST_CASE("the level-menu hint is a copy list of one row of the menu's font") {
    const CartImage& cart = shipped_cart();
    const uint16_t text = cart.require("hint_text");
    const CartSegment* seg = nullptr;
    for (const CartSegment& s : cart.segments)  // (RAM code: the hooks' code is unpacked into PRG-RAM)
        if (text > s.address && text < s.address + s.bytes.size()) seg = &s;
    REQUIRE(seg != nullptr);
    const size_t i = text - seg->address;
    REQUIRE(i >= 3);
    const uint16_t vram = static_cast<uint16_t>(seg->bytes[i - 3] << 8 | seg->bytes[i - 2]);
    const unsigned length = seg->bytes[i - 1];
    CHECK(vram == 0x2000 + 26 * 32 + 4);  // under the high-score table, inside the frame
    CHECK(length == 24);
    REQUIRE(i + length < seg->bytes.size());
    std::string decoded;
    for (unsigned k = 0; k < length; ++k) {
        const uint8_t tile = seg->bytes[i + k];
        decoded += tile == 0xFF ? ' ' : tile < 10 ? static_cast<char>('0' + tile)
                                  : tile < 0x24 ? static_cast<char>('A' + tile - 10)
                                  : tile == 0x24 ? '-' : '?';
    }
    CHECK(decoded == " HOLD SELECT-AI B-COACH ");
    CHECK(seg->bytes[i + length] >= 0x80);  // end of the list
}

// A lag NMI of an AI game's scoring frame (AI_MODE_POLL_LAG): the game's own poll, and a stop to
// stageSpriteForCurrentPiece's runaway loop: an NMI that lands in its loop over the minos with a
// count over 4 (the poll's 0, decremented) sets the count to 1; one in the sprite loader's loop
// (its pointer's high byte in the same byte) leaves A and B held there; anywhere else, or with a
// count of 4 or less, the byte is the poll's.
TEST_CASE("ai_poll: a lag NMI in the current piece's runaway sprite staging or the sprite loader stops it, and nothing else") {
    Machine t;
    const uint16_t gc2 = tetris::generalCounter2;
    const uint8_t poll_stub[] = {0xA9, 0x00, 0x85, static_cast<uint8_t>(gc2), kRts};  // the poll's scratch: 0
    t.m.load(tetris::game_pollController, poll_stub);
    struct Case {
        uint16_t interrupted;
        uint8_t count;
        uint8_t after;
    };
    for (const Case c : {Case{tetris::game_stageMinoLoop, 200, 1}, Case{tetris::game_stageMinoLoopLast, 12, 1},
                         Case{0x8A97, 255, 1},  // its dec of the count
                         Case{tetris::game_stageMinoLoop, 4, 0},
                         Case{tetris::game_stageMinoLoop - 1, 200, 0}, Case{tetris::game_stageMinoLoopLast + 1, 200, 0},
                         Case{tetris::game_scoreLoopDone, 200, 0},  // elsewhere in the frame's work
                         Case{tetris::game_stageMinoLoop + 0x100, 200, 0},
                         // the sprite loader's loop, its pointer on a sprite's page: A and B held
                         Case{tetris::game_spriteLoaderPointerSet, 0x8D, 0xC0},
                         Case{tetris::game_spriteLoaderLoop, 0x8E, 0xC0},
                         Case{tetris::game_spriteLoaderLoopJmp, 0x8D, 0xC0},
                         Case{tetris::game_spriteLoaderPointerSet - 1, 0x8D, 0},
                         Case{tetris::game_spriteLoaderLoopJmp + 1, 0x8D, 0},
                         Case{tetris::game_spriteLoaderLoop, 4, 0}}) {
        INFO("interrupted at $" << std::hex << c.interrupted << ", count " << std::dec << int(c.count));
        t.set("ai_mode", hooks::AI_MODE_POLL_LAG);
        t.m.write(gc2, c.count);
        // The stack as the NMI left it at the poll: the handler's return, Y, X, A, then P, PCL, PCH.
        t.m.cpu().set_s(0xF0);
        t.m.write(0x01F5, static_cast<uint8_t>(c.interrupted & 0xFF));  // (call: its return at $01EF-$01F0)
        t.m.write(0x01F6, static_cast<uint8_t>(c.interrupted >> 8));
        t.call("ai_poll");
        CHECK(t.m.read(gc2) == c.after);
    }
}
