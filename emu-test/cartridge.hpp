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
    bool vertical_mirroring = false;  // header bit; MMC1 sets mirroring itself
    bool battery = false;
    bool nes2 = false;  // NES 2.0 header

    bool chr_ram() const { return chr.empty(); }
};

// Parses and validates an iNES (or NES 2.0) image. Throws InesError with a message a person
// can act on for: a short or foreign file, a truncated PRG/CHR, zero PRG banks, and any
// mapper other than 0 (NROM, at most 32 KiB PRG and 8 KiB CHR) and 1 (MMC1); MMC1 boards with
// more than 256 KiB PRG (SUROM, SXROM) are refused as well. Bytes after the CHR data are ignored.
std::shared_ptr<const Cartridge> parse_ines(std::span<const uint8_t> image);

}  // namespace nestris::emu
