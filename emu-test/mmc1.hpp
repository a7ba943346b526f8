// MMC1 (mapper 1): the serial port at $8000-$FFFF and the banking it controls.
//
// Writes with bit 7 set reset the shift register and set PRG mode 3; otherwise bit 0 is
// shifted in, and the fifth write stores the 5 bits into the register chosen by address bits
// 13-14: $8000 control, $A000 CHR bank 0, $C000 CHR bank 1, $E000 PRG bank. (The chip ignores
// a write on the cycle right after another; the NES bus applies that to read-modify-write
// instructions, the only way the CPU writes on consecutive cycles there.)
#pragma once

#include <cstdint>

namespace nestris::emu {

enum class Mirroring : uint8_t { OneScreenLower, OneScreenUpper, Vertical, Horizontal };

struct Mmc1 {
    uint8_t shift = 0x10;     // the 1 marks where the fifth bit will land
    uint8_t control = 0x0C;   // power-on: PRG mode 3 (last bank fixed at $C000)
    uint8_t chr0 = 0, chr1 = 0, prg = 0;

    bool operator==(const Mmc1&) const = default;

    void write(uint16_t addr, uint8_t value) {
        if (value & 0x80) {
            shift = 0x10;
            control |= 0x0C;
            return;
        }
        const bool full = shift & 1;
        shift = static_cast<uint8_t>((shift >> 1) | ((value & 1) << 4));
        if (!full) return;
        switch ((addr >> 13) & 3) {
        case 0: control = shift; break;
        case 1: chr0 = shift; break;
        case 2: chr1 = shift; break;
        case 3: prg = shift; break;
        }
        shift = 0x10;
    }

    Mirroring mirroring() const { return static_cast<Mirroring>(control & 3); }
    bool prg_ram_enabled() const { return !(prg & 0x10); }  // MMC1B: bit 4 = 1 disables

    // 16 KiB PRG bank numbers mapped at $8000 and $C000, for a PRG of `banks` 16 KiB banks.
    void prg_banks(unsigned banks, unsigned& lo, unsigned& hi) const {
        const unsigned b = prg & 0x0F;
        switch ((control >> 2) & 3) {
        case 0:
        case 1:  // 32 KiB mode: low bit ignored
            lo = b & ~1u;
            hi = lo + 1;
            break;
        case 2:  // first bank fixed at $8000
            lo = 0;
            hi = b;
            break;
        default:  // last bank fixed at $C000
            lo = b;
            hi = banks - 1;
            break;
        }
        lo %= banks;
        hi %= banks;
    }

    // 4 KiB CHR bank numbers at PPU $0000 and $1000, for a CHR of `banks` 4 KiB banks.
    void chr_banks(unsigned banks, unsigned& lo, unsigned& hi) const {
        if (control & 0x10) {  // two 4 KiB banks
            lo = chr0;
            hi = chr1;
        } else {  // one 8 KiB bank: low bit ignored
            lo = chr0 & 0x1Eu;
            hi = lo + 1;
        }
        lo %= banks;
        hi %= banks;
    }
};

}  // namespace nestris::emu
