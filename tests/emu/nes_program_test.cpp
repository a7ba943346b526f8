// End to end with our own iNES program (tests/fixtures/emu/nes_test.s, assembled by ca65 for
// this test): MMC1 banking seen by real code, NMI every frame, controller reads in the NMI,
// lag frames, the picture, the PPU write log, names from the ld65 label file.
#include "tests/emu/emu_test_support.hpp"

#include "emu-test/input.hpp"
#include "emu-test/nes.hpp"

#include <catch2/catch.hpp>

#include <memory>

using namespace nestris::emu;

namespace {

struct Program {
    const test::AssembledFixture& fx = test::nes_test_program();
    std::unique_ptr<Nes> nes = std::make_unique<Nes>(fx.image);
    uint8_t ram(const char* name, int offset = 0) const {
        return nes->read_ram(static_cast<uint16_t>(fx.symbols.require(name) + offset));
    }
    uint16_t ram16(const char* name) const {
        return static_cast<uint16_t>(ram(name) | (ram(name, 1) << 8));
    }
};

}  // namespace

TEST_CASE("test program: MMC1 PRG modes 0/2/3 and CHR 4K/8K as the CPU sees them") {
    Program p;
    p.nes->run_frames(5);
    CHECK(p.ram("prg_ids", 0) == 0x10);
    CHECK(p.ram("prg_ids", 1) == 0x11);
    CHECK(p.ram("prg_ids", 2) == 0x12);
    CHECK(p.ram("mode2_ids", 0) == 0x10);  // first bank fixed at $8000
    CHECK(p.ram("mode2_ids", 1) == 0x11);  // selected bank at $C000
    CHECK(p.ram("mode0_ids", 0) == 0x12);  // 32 KiB: banks 2 and 3
    CHECK(p.ram("mode0_ids", 1) == 0x13);
    const uint8_t chr_fill[] = {0x00, 0xFF, 0x0F, 0xF0};
    for (int i = 0; i < 4; ++i) CHECK(p.ram("chr_ids", i) == chr_fill[i]);
    CHECK(p.ram("chr_ids", 4) == 0x0F);   // CHR1 = bank 2 at $1000
    CHECK(p.ram("chr8_ids", 0) == 0x0F);  // 8 KiB mode, CHR0 = 2: banks 2, 3
    CHECK(p.ram("chr8_ids", 1) == 0xF0);
    // Where the program left MMC1: CHR 4K, PRG mode 3, vertical mirroring, bank 0.
    CHECK(p.nes->mmc1().control == 0x1E);
    CHECK(p.nes->mmc1().prg == 0);
}

TEST_CASE("test program: one NMI per frame, and the main loop runs once per frame") {
    Program p;
    p.nes->run_frames(10);
    const uint16_t nmis = p.ram16("nmi_count");
    const uint16_t loops = p.ram16("main_count");
    REQUIRE(nmis > 0);
    p.nes->run_frames(100);
    CHECK(p.ram16("nmi_count") == nmis + 100);
    CHECK(p.ram16("main_count") == loops + 100);
}

TEST_CASE("test program: the buttons of each frame are what that frame's NMI reads") {
    Program p;
    p.nes->run_frames(10);
    const std::string input = "A B E S U D L R A+B+L . R*3 (U+R .)*2";
    const std::vector<uint8_t> frames = parse_input(input);
    const uint16_t first = static_cast<uint16_t>(p.ram16("nmi_count") + 1);
    // Select makes the main loop slow but the NMI still reads every frame.
    p.nes->run_frames(frames);
    for (size_t i = 0; i < frames.size(); ++i) {
        INFO("frame " << i);
        CHECK(p.ram("button_log", (first + i) & 63) == frames[i]);
    }
}

TEST_CASE("test program: lag frames counted from the main-loop label") {
    Program p;
    p.nes->run_frames(10);  // boot
    p.nes->watch_main_loop(p.fx.symbols.require("main_loop"));
    p.nes->run_input(".*20");
    CHECK(p.nes->lag_frames() == 0);
    CHECK(p.nes->watched_frames() == 20);
    // Select held 10 frames: the main loop takes 1.5 frames, so every other frame has no
    // main-loop start: frames 2, 4, ... 10 after the first Select frame.
    p.nes->run_input("E*10 .*10");
    CHECK(p.nes->lag_frames() == 5);
    CHECK(p.nes->watched_frames() == 40);
    p.nes->watch_main_loop(std::nullopt);
    p.nes->run_input("E*10");
    CHECK(p.nes->lag_frames() == 0);
}

TEST_CASE("test program: the screenshot shows background halves and sprite 0") {
    Program p;
    p.nes->run_frames(10);
    const Image img = p.nes->screenshot();
    REQUIRE(img.width == 256);
    REQUIRE(img.height == 240);
    const auto& pal = nes_palette();
    auto is = [&](int x, int y, int colour) {
        const uint8_t* px = img.pixel(x, y);
        return px[0] == pal[colour][0] && px[1] == pal[colour][1] && px[2] == pal[colour][2];
    };
    CHECK(is(0, 0, 0x16));      // left half: palette 0, colour 3
    CHECK(is(127, 239, 0x16));
    CHECK(is(128, 0, 0x2A));    // right half: palette 1
    CHECK(is(255, 239, 0x2A));
    CHECK(is(100, 100, 0x30));  // sprite 0 at (100, 100): left 4 columns opaque
    CHECK(is(103, 107, 0x30));
    CHECK(is(104, 100, 0x16));  // its transparent half
    CHECK(is(100, 99, 0x16));   // the line above it
    CHECK(is(100, 108, 0x16));  // the line below
}

TEST_CASE("test program: the PPU write log records each frame's NMI writes") {
    Program p;
    p.nes->run_frames(10);
    p.nes->log_ppu_writes(true);
    p.nes->run_frames(1);
    const auto& log = p.nes->ppu_writes();
    // OAMADDR, OAM DMA, two scroll writes, PPUCTRL.
    REQUIRE(log.size() == 5);
    CHECK(log[0].reg == 0x2003);
    CHECK(log[1].reg == 0x4014);
    CHECK(log[1].value == 0x02);
    CHECK(log[2].reg == 0x2005);
    CHECK(log[3].reg == 0x2005);
    CHECK(log[4].reg == 0x2000);
    CHECK(log[4].value == 0x88);
    for (const auto& w : log) {
        CHECK(w.scanline >= 241);  // all in vertical blank
        CHECK(w.frame == log[0].frame);
    }
    p.nes->clear_ppu_writes();
    p.nes->log_ppu_writes(false);
    p.nes->run_frames(1);
    CHECK(p.nes->ppu_writes().empty());
}

TEST_CASE("test program: the instruction hook sees every instruction") {
    Program p;
    uint64_t nmi_entries = 0, instructions = 0;
    const uint16_t nmi = p.fx.symbols.require("nmi");
    p.nes->run_frames(10);
    p.nes->set_instruction_hook([&](const Nes& n) {
        ++instructions;
        if (n.cpu().pc() == nmi) ++nmi_entries;
    });
    p.nes->run_frames(30);
    CHECK(nmi_entries == 30);
    CHECK(instructions > 30 * 1000);
    p.nes->set_instruction_hook(nullptr);
    p.nes->run_frames(5);
    CHECK(nmi_entries == 30);
}

TEST_CASE("test program: sprite-0 hit reads set after sprite 0's line, clear before, and "
          "ends at the pre-render line") {
    Program p;
    p.nes->run_frames(10);
    // Reads $2002 from a scrap of code in RAM ($0600: LDA $2002) and returns bit 6.
    p.nes->write_ram(0x0600, 0xAD);
    p.nes->write_ram(0x0601, 0x02);
    p.nes->write_ram(0x0602, 0x20);
    auto hit_at_line = [&](int wanted) {
        Nes n = *p.nes;  // a copy: the program itself goes on undisturbed
        while (true) {
            int line = 0, dot = 0;
            n.ppu_position(line, dot);
            if (line == wanted) break;
            n.step();
        }
        n.cpu().set_pc(0x0600);
        n.step();
        return (n.cpu().a() & 0x40) != 0;
    };
    CHECK_FALSE(hit_at_line(50));
    CHECK(hit_at_line(120));
    CHECK(hit_at_line(250));  // stays set through vblank
    // From line 261 dot 1 on it is clear again.
    Nes n = *p.nes;
    while (true) {
        int line = 0, dot = 0;
        n.ppu_position(line, dot);
        if (line == 200) break;
        n.step();
    }
    n.cpu().set_pc(0x0600);
    n.step();
    REQUIRE((n.cpu().a() & 0x40) != 0);
    while (true) {
        int line = 0, dot = 0;
        n.ppu_position(line, dot);
        if (line == 261 && dot > 10) break;
        n.step();
    }
    CHECK((n.ppu().status & 0x40) == 0);
}
