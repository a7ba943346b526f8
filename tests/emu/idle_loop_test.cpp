// Idle-loop skipping (Nes::set_skip_idle_loops): a machine that skips the iterations of a loop
// waiting for the NMI must be, at every point a caller can stop it, the machine that runs them.
#include "emu-test/input.hpp"
#include "tests/emu/emu_test_support.hpp"
#include "tests/support/game_rom.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

using namespace nestris::emu;
using nestris::emu::test::TestRom;

namespace {

// Two machines, one skipping and one running every instruction.
struct Pair {
    std::unique_ptr<Nes> skip, run;
    explicit Pair(const std::vector<uint8_t>& image)
        : skip(std::make_unique<Nes>(image)), run(std::make_unique<Nes>(image)) {
        run->set_skip_idle_loops(false);
    }
    void same(const char* where) const {
        INFO(where << ": cycle " << run->cycles() << " (skipping machine at " << skip->cycles() << ")");
        REQUIRE(skip->snapshot() == run->snapshot());
    }
};

// Reset: NMI on, then the loop at $8010. NMI: INC $10, RTI.
TestRom loop_rom(std::initializer_list<uint8_t> loop) {
    TestRom rom;
    rom.put(0x8000, {0xA9, 0x80, 0x8D, 0x00, 0x20, 0x4C, 0x10, 0x80});  // LDA #$80 STA $2000 JMP $8010
    rom.put(0x8010, loop);
    rom.put(0x8100, {0xE6, 0x10, 0x40});                                // INC $10 RTI
    rom.vectors(0x8100, 0x8000);
    return rom;
}

// Runs both machines in odd-sized slices and by frames, comparing them after each.
void run_compared(Pair& p, int frames) {
    for (int f = 0; f < frames; ++f) {
        p.skip->run_frame();
        p.run->run_frame();
        p.same("frame end");
        p.skip->run_cycles(1237);
        p.run->run_cycles(1237);
        p.same("after 1237 cycles");
    }
}

}  // namespace

TEST_CASE("idle loops: LDA zp / BEQ waiting for the NMI is skipped, and the machine is the same at every stop") {
    // L: LDA $10 ; BEQ L ; LDA #0 ; STA $10 ; JMP L (the NMI makes $10 non-zero once a frame)
    Pair p(loop_rom({0xA5, 0x10, 0xF0, 0xFC, 0xA9, 0x00, 0x85, 0x10, 0x4C, 0x10, 0x80}).image());
    run_compared(p, 120);
    CHECK(p.skip->skipped_cycles() > 100 * 20000);
    CHECK(p.run->skipped_cycles() == 0);
}

TEST_CASE("idle loops: JMP to itself is skipped up to the NMI") {
    Pair p(loop_rom({0x4C, 0x10, 0x80}).image());
    run_compared(p, 60);
    CHECK(p.skip->skipped_cycles() > 50 * 20000);
}

TEST_CASE("idle loops: loops that read a register, write, or change a register are run, not skipped") {
    const std::vector<std::vector<uint8_t>> loops = {
        {0x2C, 0x02, 0x20, 0x10, 0xFB, 0x4C, 0x10, 0x80},  // L: BIT $2002 ; BPL L ; JMP L  (register)
        {0x85, 0x11, 0x4C, 0x10, 0x80},                    // L: STA $11 ; JMP L             (write)
        {0xE8, 0xD0, 0xFD, 0x4C, 0x10, 0x80},              // L: INX ; BNE L ; JMP L         (X changes)
        {0xAD, 0x16, 0x40, 0x4C, 0x10, 0x80},              // L: LDA $4016 ; JMP L           (controller)
    };
    for (const auto& loop : loops) {
        TestRom rom;
        rom.put(0x8000, {0xA9, 0x80, 0x8D, 0x00, 0x20, 0x4C, 0x10, 0x80});
        for (size_t i = 0; i < loop.size(); ++i) rom.put(static_cast<uint16_t>(0x8010 + i), {loop[i]});
        rom.put(0x8100, {0xE6, 0x10, 0x40});
        rom.vectors(0x8100, 0x8000);
        Pair p(rom.image());
        run_compared(p, 10);
        INFO("loop starting with opcode " << int(loop[0]));
        CHECK(p.skip->skipped_cycles() == 0);
    }
}

TEST_CASE("idle loops: run_until_pc inside the loop, hooks and a pending NMI stop the skipping") {
    const auto image = loop_rom({0xA5, 0x10, 0xF0, 0xFC, 0xA9, 0x00, 0x85, 0x10, 0x4C, 0x10, 0x80}).image();
    SECTION("run_until_pc on the branch stops at its next execution") {
        Pair p(image);
        for (int i = 0; i < 50; ++i) {
            REQUIRE(p.skip->run_until_pc(0x8012, 100000) == RunStatus::Reached);
            REQUIRE(p.run->run_until_pc(0x8012, 100000) == RunStatus::Reached);
            p.same("at the branch");
            p.skip->step();
            p.run->step();
        }
    }
    SECTION("an instruction hook sees every instruction") {
        Nes nes(image);
        uint64_t instructions = 0;
        nes.set_instruction_hook([&](const Nes&) { ++instructions; });
        nes.run_frames(10);
        CHECK(nes.skipped_cycles() == 0);
        CHECK(instructions > 10 * 29780 / 6);
    }
}

TEST_CASE("idle loops: the test program (main loop on the NMI, DMA, controller) is the same skipped or run") {
    Pair p(nestris::emu::test::nes_test_program().image);
    for (int f = 0; f < 200; ++f) {
        const uint8_t buttons = static_cast<uint8_t>((f * 37) & 0xFF);
        p.skip->set_buttons(buttons);
        p.run->set_buttons(buttons);
        p.skip->run_frame();
        p.run->run_frame();
        p.same("frame end");
    }
    CHECK(p.skip->skipped_cycles() > 0);
}

TEST_CASE("idle loops: real game: Tetris from power-on through menus and play is the same skipped or run") {
    auto rom = nestris::test::tetris_rom_or_skip();
    if (!rom) return;
    Pair p(*rom);
    p.skip->watch_main_loop(0x8138);
    p.run->watch_main_loop(0x8138);
    // Legal screen, title, game type, level menu, a game from level 0 with presses and drops.
    const std::string input = ".*300 S .*20 S .*20 S .*20 S" + std::string(" (L.R.A..B.D*20 .*30)*40");
    const std::vector<uint8_t> frames = parse_input(input);
    for (size_t f = 0; f < frames.size(); ++f) {
        p.skip->set_buttons(frames[f]);
        p.run->set_buttons(frames[f]);
        p.skip->run_frame();
        p.run->run_frame();
        p.same("frame end");
    }
    CHECK(p.skip->lag_frames() == p.run->lag_frames());
    CHECK(p.skip->skipped_cycles() > frames.size() * 5000);
}
