// A cartridge as the emulator needs it: PRG and CHR bytes from an iNES image, validated.
// Immutable once loaded, so any number of machines (and their snapshots) share one copy.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace nestris::emu {

struct InesError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Cartridge {
    int mapper = 0;
    std::vector<uint8_t> prg;  // a multiple of 16 KiB
    std::vector<uint8_t> chr;  // a multiple of 8 KiB; empty: the board has 8 KiB CHR RAM
    std::vector<uint8_t> trainer;  // 512 bytes loaded at $7000, or empty
    // PRG-RAM at $6000-$7FFF, in bytes: 0 (none: the window reads open bus, writes do nothing)
    // up to 8 KiB; less than 8 KiB is mirrored through the window (rounded up to a power of
    // two). The default is what an iNES 1.0 header with byte 8 = 0 gets.
    uint32_t prg_ram_size = 0x2000;
    bool vertical_mirroring = false;  // header bit; MMC1 sets mirroring itself
    bool battery = false;
    bool nes2 = false;  // NES 2.0 header

    bool chr_ram() const { return chr.empty(); }
};

// Parses and validates an iNES (or NES 2.0) image. Throws InesError with a message a person
// can act on for: a short or foreign file, a truncated PRG/CHR, zero PRG banks, and any
// mapper other than 0 (NROM, at most 32 KiB PRG and 8 KiB CHR) and 1 (MMC1); MMC1 boards with
// more than 256 KiB PRG (SUROM, SXROM) or more than 8 KiB PRG-RAM (SOROM, SXROM: banked
// through the CHR registers, not emulated) are refused as well, and so is a trainer on a
// cartridge that declares no PRG-RAM. Bytes after the CHR data are ignored.
//
// PRG-RAM (prg_ram_size): NES 2.0: byte 10, low nibble volatile, high nibble battery-backed,
// each a shift count (64 << n bytes; 0: none), the two summed. iNES 1.0: byte 8 in 8 KiB units,
// 0 meaning 8 KiB (the iNES convention: Tetris and blargg's MMC1 test ROMs have RAM there);
// ignored, 8 KiB, when bytes 7-15 are an old dumper's text. NROM (mapper 0) always gets 8 KiB,
// whatever the header says, as the test boards have.
std::shared_ptr<const Cartridge> parse_ines(std::span<const uint8_t> image);

}  // namespace nestris::emu
