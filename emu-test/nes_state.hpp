// What changes in a NES (nes.hpp) as one plain value, for snapshots, restores and comparisons,
// and the ways the machine can come out of power-on.
#pragma once

#include "emu-test/apu.hpp"
#include "emu-test/controller.hpp"
#include "emu-test/cpu.hpp"
#include "emu-test/mmc1.hpp"
#include "emu-test/ppu.hpp"

#include <array>
#include <bitset>
#include <cstdint>
#include <vector>

namespace nestris::emu {

struct NesState {
    Cpu6502 cpu;
    Ppu ppu;
    Apu apu;
    Mmc1 mmc1;
    Controller pad1;
    std::array<uint8_t, 0x800> ram{};
    std::array<uint8_t, 0x2000> prg_ram{};  // the first Cartridge::prg_ram_size bytes are used
    // The PRG-RAM bytes written since power-on (by the CPU, or loaded from the trainer): the CPU
    // is stopped before it runs an opcode from any other (RunStatus::UnwrittenCode).
    std::bitset<0x2000> prg_ram_written;
    std::vector<uint8_t> chr_ram;  // 8 KiB when the cartridge has no CHR ROM
    // Derived from mmc1 on every register write (byte offsets into PRG/CHR; whether $6000-$7FFF
    // is PRG-RAM now: the cartridge has some and MMC1 enables it, or NROM).
    uint32_t prg_offset[2] = {0, 0};
    uint32_t chr_offset[2] = {0, 0};
    bool prg_ram_on = false;
    bool mmc1_skip_write = false;  // the write after a read-modify-write's dummy write
    // Lag-frame bookkeeping (see Nes::watch_main_loop).
    bool watch_hit = false;
    uint64_t lag_frames = 0;
    uint64_t watched_frames = 0;

    bool operator==(const NesState&) const = default;
};

// How the machine comes out of power-on (and of the reset button).
//   Hardware: what the console does, as far as reproducible: RAM zeroed; the PPU at the top of
//     the picture (CPU cycle 0 = line 0 dot 0), so the first vblank flag comes 241 lines after
//     power (~27 394 CPU cycles; nesdev measures ~27 384); 7-cycle reset sequence.
//   Fceux: what FCEUX 2.6 (its default, old PPU) does, so a .fm2 movie from power-on replays
//     identically: RAM $00 $00 $00 $00 $FF $FF $FF $FF repeated; the first instruction at line
//     240 dot 0, i.e. at the start of FCEUX's frame, which runs line 240 to line 239; the first
//     two frames "dead" (no vblank flag, no NMI: FCEUX's ppudead), so the first vblank flag is
//     set 525 lines (59 675 CPU cycles) after power, two frames later than on hardware; a reset
//     takes no cycles and leaves S alone, sets P to I only, clears the PPU's registers, v and t,
//     and makes the next two frames dead again; odd frames one dot shorter with rendering on or
//     off; no $2002/vblank race; the NMI 12 dots after the flag; a taken branch does not delay
//     an interrupt. See emu-test/README.md.
enum class PowerOn { Hardware, Fceux };

}  // namespace nestris::emu
