// PRG-RAM at $6000-$7FFF: its size from the header (iNES 1.0 byte 8, NES 2.0 byte 10), MMC1B's
// disable bit, and the refusal to run code from PRG-RAM bytes never written since power-on.
// Programs are tiny TestRom images assembled by hand (bytes commented).
#include "tests/emu/emu_test_support.hpp"

#include "emu-test/cartridge.hpp"
#include "emu-test/nes.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

using namespace nestris::emu;
using nestris::emu::test::ines_error;
using nestris::emu::test::TestRom;
using Catch::Matchers::Contains;

namespace {

// Machine code, a few instructions at a time.
struct Code {
    std::vector<uint8_t> b;
    Code& lda(uint8_t v) { return op({0xA9, v}); }
    Code& sta(uint16_t a) { return op({0x8D, lo(a), hi(a)}); }
    Code& lda_abs(uint16_t a) { return op({0xAD, lo(a), hi(a)}); }
    Code& tax() { return op({0xAA}); }
    Code& tay() { return op({0xA8}); }
    Code& jsr(uint16_t a) { return op({0x20, lo(a), hi(a)}); }
    Code& jmp(uint16_t a) { return op({0x4C, lo(a), hi(a)}); }
    // MMC1: the five serial writes of the 5-bit value v to the register at `reg`.
    Code& mmc1(uint16_t reg, uint8_t v) {
        lda(v);
        for (int i = 0; i < 5; ++i) {
            sta(reg);
            if (i < 4) op({0x4A});  // LSR A
        }
        return *this;
    }
    Code& op(std::initializer_list<uint8_t> bytes) {
        b.insert(b.end(), bytes);
        return *this;
    }
    static uint8_t lo(uint16_t a) { return static_cast<uint8_t>(a); }
    static uint8_t hi(uint16_t a) { return static_cast<uint8_t>(a >> 8); }
};

constexpr uint16_t kEnd = 0x9000;  // every program ends in a JMP-to-itself here

// An MMC1 ROM (iNES 1.0 header, byte 8 = 0) whose reset code is `code` at $8000, then JMP kEnd.
TestRom rom_with(const Code& code) {
    TestRom r;
    Code c = code;
    c.jmp(kEnd);
    std::copy(c.b.begin(), c.b.end(), r.prg.begin());
    r.put(kEnd, {0x4C, Code::lo(kEnd), Code::hi(kEnd)});
    r.vectors(kEnd, 0x8000);
    return r;
}

// The image with a NES 2.0 header whose byte 10 is `ram` (low nibble volatile, high battery).
std::vector<uint8_t> nes2(std::vector<uint8_t> img, uint8_t ram) {
    img[7] = 0x08;
    img[10] = ram;
    return img;
}


// Writes $42 to $6000 and $43 to $7FFF, reads $6000 into X and $7800 into Y (the mirror of
// $7800 in 2 KiB), then runs to kEnd.
Code write_then_read() { return Code{}.lda(0x42).sta(0x6000).lda(0x43).sta(0x7FFF).lda_abs(0x6000).tax().lda_abs(0x7800).tay(); }

}  // namespace

TEST_CASE("PRG-RAM size from the header: iNES 1.0 byte 8 (0 = 8 KiB), NES 2.0 byte 10 (0 = none)") {
    const std::vector<uint8_t> ines1 = rom_with(write_then_read()).image();
    REQUIRE(ines1[8] == 0);

    SECTION("iNES 1.0, byte 8 = 0: 8 KiB, as iNES has it") {
        CHECK(parse_ines(ines1)->prg_ram_size == 0x2000);
        Nes nes(ines1);
        REQUIRE(nes.run_until_pc(kEnd, 1000) == RunStatus::Reached);
        CHECK(nes.cpu().x() == 0x42);
        CHECK(nes.cpu().y() == 0x00);  // $7800 is its own byte in 8 KiB
        CHECK(nes.peek(0x6000) == 0x42);
        CHECK(nes.peek(0x7FFF) == 0x43);
        std::vector<uint8_t> img = ines1;
        img[8] = 1;
        CHECK(parse_ines(img)->prg_ram_size == 0x2000);
    }
    SECTION("iNES 1.0, byte 8 = 2 (16 KiB): refused, not clamped") {
        std::vector<uint8_t> img = ines1;
        img[8] = 2;
        CHECK_THAT(ines_error(img), Contains("PRG-RAM of 16 KiB") && Contains("only 8 KiB"));
    }
    SECTION("NES 2.0, byte 10 = 0: no PRG-RAM, the window reads open bus and ignores writes") {
        const std::vector<uint8_t> img = nes2(ines1, 0x00);
        CHECK(parse_ines(img)->prg_ram_size == 0);
        Nes nes(img);
        REQUIRE(nes.run_until_pc(kEnd, 1000) == RunStatus::Reached);
        CHECK(nes.cpu().x() == 0x60);  // open bus: the address's high byte
        CHECK(nes.cpu().y() == 0x78);
        CHECK(nes.peek(0x6000) == 0x60);
        CHECK(nes.peek(0x7FFF) == 0x7F);
        CHECK_FALSE(nes.prg_ram_written(0x6000));
    }
    SECTION("NES 2.0, 8 KiB volatile (7) or battery-backed (7 << 4): RAM") {
        for (const uint8_t ram : {uint8_t{0x07}, uint8_t{0x70}}) {
            const std::vector<uint8_t> img = nes2(ines1, ram);
            CHECK(parse_ines(img)->prg_ram_size == 0x2000);
            Nes nes(img);
            REQUIRE(nes.run_until_pc(kEnd, 1000) == RunStatus::Reached);
            CHECK(nes.cpu().x() == 0x42);
            CHECK(nes.peek(0x7FFF) == 0x43);
        }
    }
    SECTION("NES 2.0, 2 KiB (64 << 5): mirrored through the window") {
        const std::vector<uint8_t> img = nes2(ines1, 0x05);
        CHECK(parse_ines(img)->prg_ram_size == 0x800);
        Nes nes(img);
        REQUIRE(nes.run_until_pc(kEnd, 1000) == RunStatus::Reached);
        CHECK(nes.cpu().x() == 0x42);
        CHECK(nes.cpu().y() == 0x42);  // $7800 = $6000 in 2 KiB
        CHECK(nes.peek(0x6800) == 0x42);
        CHECK(nes.peek(0x67FF) == 0x43);  // $7FFF
    }
    SECTION("NES 2.0, 8 KiB + 8 KiB: more than the window, refused") {
        CHECK_THAT(ines_error(nes2(ines1, 0x77)), Contains("PRG-RAM of 16 KiB"));
        CHECK_THAT(ines_error(nes2(ines1, 0x90)), Contains("PRG-RAM of 32 KiB"));
    }
    SECTION("NROM keeps 8 KiB whatever the header says; a trainer needs PRG-RAM") {
        std::vector<uint8_t> img = nes2(ines1, 0x00);
        img[6] = 0x00;  // mapper 0: 32 KiB PRG, 8 KiB CHR
        CHECK(parse_ines(img)->prg_ram_size == 0x2000);
        Nes nes(img);
        REQUIRE(nes.run_until_pc(kEnd, 1000) == RunStatus::Reached);
        CHECK(nes.cpu().x() == 0x42);
        std::vector<uint8_t> trained = nes2(ines1, 0x00);
        trained[6] |= 0x04;
        trained.insert(trained.begin() + 16, 512, 0x60);
        CHECK_THAT(ines_error(trained), Contains("trainer") && Contains("no PRG-RAM"));
    }
}

TEST_CASE("MMC1B: PRG bit 4 set disables PRG-RAM (reads open bus, writes dropped), clear enables it") {
    Code c;
    c.lda(0x11).sta(0x6000);                        // enabled: written
    c.mmc1(0xE000, 0x10);                           // PRG register: bit 4 set
    c.lda(0x22).sta(0x6000).sta(0x6001);            // dropped
    c.lda_abs(0x6000).tax();                        // open bus: $60
    c.mmc1(0xE000, 0x00);                           // enabled again
    c.lda_abs(0x6000).tay();                        // the value from before: $11
    Nes nes(rom_with(c).image());
    REQUIRE(nes.run_until_pc(kEnd, 2000) == RunStatus::Reached);
    CHECK(nes.mmc1().prg_ram_enabled());
    CHECK(nes.cpu().x() == 0x60);
    CHECK(nes.cpu().y() == 0x11);
    CHECK(nes.peek(0x6000) == 0x11);
    CHECK(nes.peek(0x6001) == 0x00);
    CHECK(nes.prg_ram_written(0x6000));
    CHECK_FALSE(nes.prg_ram_written(0x6001));  // the dropped write wrote nothing

    // Disabled at the end: peek shows open bus too.
    Code d = c;
    d.mmc1(0xE000, 0x10);
    Nes off(rom_with(d).image());
    REQUIRE(off.run_until_pc(kEnd, 3000) == RunStatus::Reached);
    CHECK_FALSE(off.mmc1().prg_ram_enabled());
    CHECK(off.peek(0x6000) == 0x60);
}

TEST_CASE("PRG-RAM code: a byte never written stops the CPU there with UnwrittenCode, saying where") {
    SECTION("a jump into untouched PRG-RAM") {
        Nes nes(rom_with(Code{}.jmp(0x6123)).image());
        CHECK(nes.run_frame() == RunStatus::UnwrittenCode);
        CHECK(nes.cpu().pc() == 0x6123);
        const uint64_t at = nes.cycles();
        CHECK(nes.stop_message(RunStatus::UnwrittenCode) ==
              "the CPU ran code at $6123 in PRG-RAM that was never written");
        // It stays stopped: nothing of the instruction runs, whichever way it is run.
        CHECK(nes.run_until_pc(kEnd, 1000) == RunStatus::UnwrittenCode);
        CHECK(nes.step() == RunStatus::UnwrittenCode);
        CHECK(nes.run_cycles(100) == RunStatus::UnwrittenCode);
        CHECK(nes.cycles() == at);
        CHECK(nes.cpu().pc() == 0x6123);
        CHECK(std::string(to_string(RunStatus::UnwrittenCode)).find("never written") != std::string::npos);
    }
    SECTION("byte by byte: written code runs up to the first byte never written") {
        // $6000: LDA #$05 written, $6002 not.
        Nes nes(rom_with(Code{}.lda(0xA9).sta(0x6000).lda(0x05).sta(0x6001).jmp(0x6000)).image());
        CHECK(nes.run_frame() == RunStatus::UnwrittenCode);
        CHECK(nes.cpu().pc() == 0x6002);
        CHECK(nes.cpu().a() == 0x05);
    }
    SECTION("with an instruction hook too") {
        Nes nes(rom_with(Code{}.jmp(0x7FF0)).image());
        int calls = 0;
        nes.set_instruction_hook([&](const Nes&) { ++calls; });
        CHECK(nes.run_frame() == RunStatus::UnwrittenCode);
        CHECK(nes.cpu().pc() == 0x7FF0);
        CHECK(calls == 2);  // the JMP, and the refused fetch
    }
    SECTION("a cartridge without PRG-RAM: writes there write nothing, so code there never runs") {
        Nes nes(nes2(rom_with(Code{}.lda(0x60).sta(0x6000).jsr(0x6000)).image(), 0x00));
        CHECK(nes.run_frame() == RunStatus::UnwrittenCode);
        CHECK(nes.cpu().pc() == 0x6000);
    }
}

TEST_CASE("PRG-RAM code: code written there runs, and so does a trainer's") {
    SECTION("a routine copied to $6100 and called") {
        // $6100: LDA #$42 / STA $00 / RTS
        Code c;
        const uint8_t routine[] = {0xA9, 0x42, 0x85, 0x00, 0x60};
        for (int i = 0; i < 5; ++i) c.lda(routine[i]).sta(static_cast<uint16_t>(0x6100 + i));
        c.jsr(0x6100);
        Nes nes(rom_with(c).image());
        CHECK(nes.run_until_pc(kEnd, 1000) == RunStatus::Reached);
        CHECK(nes.read_ram(0x00) == 0x42);
    }
    SECTION("the trainer's bytes at $7000 count as written") {
        std::vector<uint8_t> img = rom_with(Code{}.jsr(0x7000)).image();
        img[6] |= 0x04;
        std::vector<uint8_t> trainer(512, 0x00);
        const uint8_t routine[] = {0xA9, 0x77, 0x85, 0x01, 0x60};  // LDA #$77 / STA $01 / RTS
        std::copy(std::begin(routine), std::end(routine), trainer.begin());
        img.insert(img.begin() + 16, trainer.begin(), trainer.end());
        Nes nes(img);
        CHECK(nes.prg_ram_written(0x7000));
        CHECK(nes.prg_ram_written(0x71FF));
        CHECK_FALSE(nes.prg_ram_written(0x7200));
        CHECK(nes.run_until_pc(kEnd, 1000) == RunStatus::Reached);
        CHECK(nes.read_ram(0x01) == 0x77);
    }
    SECTION("the record survives the reset button, not a power cycle") {
        Nes nes(rom_with(Code{}.lda(0x60).sta(0x6000)).image());
        REQUIRE(nes.run_until_pc(kEnd, 1000) == RunStatus::Reached);
        nes.reset();
        CHECK(nes.prg_ram_written(0x6000));
        nes.power_on();
        CHECK_FALSE(nes.prg_ram_written(0x6000));
    }
}

TEST_CASE("PRG-RAM code: snapshots, restore and == carry the written record") {
    // Writes RTS at $6000 (stop at $8005), then calls it.
    const Code c = Code{}.lda(0x60).sta(0x6000).jsr(0x6000);
    Nes nes(rom_with(c).image());
    const NesState before = nes.snapshot();
    REQUIRE(nes.run_until_pc(0x8005, 1000) == RunStatus::Reached);
    const NesState written = nes.snapshot();
    CHECK(written.prg_ram_written[0]);
    CHECK_FALSE(before.prg_ram_written[0]);

    // The same machine but for the record: == tells them apart, and it decides what runs.
    NesState unrecorded = written;
    unrecorded.prg_ram_written.reset();
    CHECK_FALSE(unrecorded == written);
    nes.restore(unrecorded);
    CHECK(nes.peek(0x6000) == 0x60);
    CHECK(nes.run_until_pc(kEnd, 1000) == RunStatus::UnwrittenCode);
    CHECK(nes.cpu().pc() == 0x6000);

    nes.restore(written);
    CHECK(nes.snapshot() == written);
    Nes copy = nes;  // a copy carries it too
    CHECK(nes.run_until_pc(kEnd, 1000) == RunStatus::Reached);
    CHECK(copy.run_until_pc(kEnd, 1000) == RunStatus::Reached);
    CHECK(copy == nes);

    nes.restore(before);
    CHECK_FALSE(nes.prg_ram_written(0x6000));
    REQUIRE(nes.run_until_pc(0x8005, 1000) == RunStatus::Reached);
    CHECK(nes.snapshot() == written);
}
