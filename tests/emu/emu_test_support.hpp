// Helpers shared by the emu tests: tiny iNES images built in C++, and the assembled test
// program of tests/fixtures/emu (ca65/ld65 run once per test process).
#pragma once

#include "base/process.hpp"
#include "emu-test/debug/symbols.hpp"
#include "emu-test/nes.hpp"
#include "tests/support/scratch_dir.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace nestris::emu::test {

// An MMC1 image with 2 x 16 KiB PRG (so $8000-$FFFF is linear at power-on, PRG mode 3) and
// 8 KiB CHR, filled with $EA (NOP). put() places bytes at CPU addresses.
struct TestRom {
    std::vector<uint8_t> prg = std::vector<uint8_t>(0x8000, 0xEA);
    std::vector<uint8_t> chr = std::vector<uint8_t>(0x2000, 0x00);

    TestRom& put(uint16_t addr, std::initializer_list<uint8_t> bytes) {
        size_t at = addr - 0x8000u;
        for (const uint8_t b : bytes) prg.at(at++) = b;
        return *this;
    }
    TestRom& vectors(uint16_t nmi, uint16_t reset, uint16_t irq = 0xFFF0) {
        put(0xFFFA, {static_cast<uint8_t>(nmi), static_cast<uint8_t>(nmi >> 8),
                     static_cast<uint8_t>(reset), static_cast<uint8_t>(reset >> 8),
                     static_cast<uint8_t>(irq), static_cast<uint8_t>(irq >> 8)});
        return *this;
    }
    std::vector<uint8_t> image() const {
        std::vector<uint8_t> img(16 + prg.size() + chr.size(), 0);
        img[0] = 'N';
        img[1] = 'E';
        img[2] = 'S';
        img[3] = 0x1A;
        img[4] = static_cast<uint8_t>(prg.size() / 0x4000);
        img[5] = static_cast<uint8_t>(chr.size() / 0x2000);
        img[6] = 0x10;  // mapper 1
        std::copy(prg.begin(), prg.end(), img.begin() + 16);
        std::copy(chr.begin(), chr.end(), img.begin() + 16 + static_cast<std::ptrdiff_t>(prg.size()));
        return img;
    }
};

// APU on, pulse 1: duty 50 %, constant volume 15, period 253 (440.4 Hz), then an endless loop.
inline TestRom pulse_tone_rom() {
    TestRom rom;
    rom.put(0x8000, {0x78, 0xA9, 0x01, 0x8D, 0x15, 0x40,  // SEI; LDA #1; STA $4015
                     0xA9, 0xBF, 0x8D, 0x00, 0x40,        // LDA #$BF; STA $4000
                     0xA9, 0x08, 0x8D, 0x01, 0x40,        // LDA #8; STA $4001
                     0xA9, 0xFD, 0x8D, 0x02, 0x40,        // LDA #253; STA $4002
                     0xA9, 0x00, 0x8D, 0x03, 0x40,        // LDA #0; STA $4003
                     0x4C, 0x1A, 0x80});                  // JMP *
    rom.vectors(0x8000, 0x8000);
    return rom;
}

// The fixture program tests/fixtures/emu/nes_test.s, assembled with ca65/ld65 (with debug
// info so the label file has every label).
struct AssembledFixture {
    std::vector<uint8_t> image;
    Symbols symbols;
};

inline const AssembledFixture& nes_test_program() {
    static const AssembledFixture fixture = [] {
        namespace fs = std::filesystem;
        const fs::path src = fs::path(NESTRIS_FIXTURES_DIR) / "emu";
        const nestris::test::ScratchDir scratch("emu_fixture");
        const fs::path& dir = scratch.path();
        const auto obj = (dir / "nes_test.o").string();
        const auto rom = (dir / "nes_test.nes").string();
        const auto lbl = (dir / "nes_test.lbl").string();
        auto r = run_process({NESTRIS_CA65, "-g", (src / "nes_test.s").string(), "-o", obj});
        if (r.exit_code != 0) throw std::runtime_error("ca65 failed: " + r.output);
        r = run_process({NESTRIS_LD65, "-C", (src / "nes_test.cfg").string(), obj, "-o", rom, "-Ln", lbl});
        if (r.exit_code != 0) throw std::runtime_error("ld65 failed: " + r.output);
        AssembledFixture f;
        std::ifstream in(rom, std::ios::binary);
        f.image.assign(std::istreambuf_iterator<char>(in), {});
        f.symbols = Symbols::from_label_file(lbl);
        return f;
    }();
    return fixture;
}

// The message parse_ines refuses an image with, or "" when it takes it.
inline std::string ines_error(const std::vector<uint8_t>& img) {
    try {
        parse_ines(img);
    } catch (const InesError& e) {
        return e.what();
    }
    return "";
}

}  // namespace nestris::emu::test
