// The 2C02 PPU, as much as a game like Tetris needs, without per-dot rendering:
//
// * Timing is exact at the event level: 262 lines x 341 dots, 3 dots per CPU cycle, CPU cycle
//   0 = line 0 dot 0. The vblank flag is set at line 241 dot 1 (NMI then if enabled; the CPU
//   samples /NMI at the end of each of its cycles, dot 3c + 3 of cycle c), cleared
//   with sprite-0 hit and overflow at line 261 dot 1; odd frames are one dot shorter when
//   rendering is on (decided at line 261 dot 338, as ppu_vbl_nmi 10 measures). Nothing runs between events: the machine
//   brings the PPU up to date before every register access and at every event.
// * Registers: $2000 (NMI enable raises NMI at once if vblank is already set), $2001, $2002
//   (clears vblank and the write latch; the vblank/NMI race when read within a dot of the flag
//   being set), $2003/$2004, $2005/$2006 with the shared latch and the t/v/x registers,
//   $2007 with the read buffer (palette reads are direct) and +1/+32 increments.
// * Memory: 2 KiB nametable RAM mirrored as the mapper says, 32-byte palette with its
//   mirrors, 256-byte OAM; pattern tables come from the cartridge.
// * Pictures: render() draws the whole frame from the current state (background with the
//   scroll in t, 8x8 or 8x16 sprites with priority, 8 per line, left-column clipping,
//   greyscale) into RGB with a computed NTSC palette.
// * Sprite-0 hit is evaluated once per frame from the state at the first $2002 read that could
//   see it. Not emulated: mid-frame raster effects, $2007 access during rendering, sprite
//   overflow, colour emphasis, the power-up write-ignore period.
#pragma once

#include "emu-test/cpu.hpp"
#include "emu-test/image.hpp"
#include "emu-test/mmc1.hpp"

#include <array>
#include <cstdint>

namespace nestris::emu {

// Where the PPU's pattern tables and nametables are, as the mapper has them now.
struct VideoMap {
    const uint8_t* chr[2] = {nullptr, nullptr};  // 4 KiB at $0000 and $1000
    uint8_t* chr_ram[2] = {nullptr, nullptr};    // the same windows when writable, else null
    Mirroring mirroring = Mirroring::Horizontal;
};

// One PPU register write (or OAM DMA), for comparing what two programs show frame by frame.
struct PpuWrite {
    uint64_t frame = 0;    // Ppu::frame at the time
    uint16_t scanline = 0;
    uint16_t dot = 0;
    uint16_t reg = 0;      // $2000-$2007, or $4014 for OAM DMA
    uint8_t value = 0;
    uint16_t vram_addr = 0;  // for $2007: the VRAM address written
    bool operator==(const PpuWrite&) const = default;
};

struct Ppu {
    static constexpr uint32_t kDotsPerLine = 341;
    static constexpr uint32_t kLines = 262;
    static constexpr uint32_t kFrameDots = kDotsPerLine * kLines;  // 89342
    static constexpr uint32_t kVblankSetDot = 241 * kDotsPerLine + 1;
    static constexpr uint32_t kVblankClearDot = 261 * kDotsPerLine + 1;
    static constexpr uint32_t kSkipDecisionDot = 261 * kDotsPerLine + 338;

    // ---- registers and memory ---------------------------------------------------------------
    uint8_t ctrl = 0, mask = 0, status = 0, oam_addr = 0;
    uint16_t v = 0, t = 0;  // current and temporary VRAM address (scroll)
    uint8_t fine_x = 0;
    bool w = false;  // $2005/$2006 write latch
    uint8_t read_buffer = 0;
    uint8_t open_bus = 0;  // last value on the PPU's data bus (what write-only registers read)
    std::array<uint8_t, 2048> ciram{};
    std::array<uint8_t, 32> palette{};
    std::array<uint8_t, 256> oam{};

    // ---- timing ---------------------------------------------------------------------------------
    uint64_t frame_start = 0;  // absolute dot (3 per CPU cycle) of line 0 dot 0 of this frame
    uint64_t frame = 0;        // frames begun since power-on (0 = the first)
    uint64_t vblanks = 0;      // vblank starts since power-on, including suppressed ones
    uint64_t vblank_dot = 0;   // absolute dot at which the vblank flag was last set
    uint32_t frame_length = kFrameDots;
    uint8_t next_event = 0;    // 0 vblank set, 1 vblank clear, 2 skip decision, 3 next frame
    bool odd = false;
    bool suppress_vblank = false;  // $2002 was read one dot before the flag: skip it and NMI
    // Vblank starts still to come that set no flag and raise no NMI: FCEUX's warm-up frames
    // after power and reset ("ppudead", see Nes::power_on(PowerOn::Fceux)); 0 on hardware.
    uint8_t dead_vblanks = 0;
    // FCEUX's timing (its old PPU): every odd frame one dot shorter ("kook"), rendering on or
    // off, except the dead frames, which are always whole; and no $2002/vblank race (a read just
    // before or as the flag is set neither suppresses it nor cancels the NMI).
    // dead_frame: this frame's vblank was dead.
    bool fceux = false;
    bool dead_frame = false;
    bool sprite0_known = false;    // sprite0_dot is computed for this frame
    uint64_t sprite0_dot = ~uint64_t{0};

    bool operator==(const Ppu&) const = default;

    bool rendering() const { return mask & 0x18; }

    // Absolute dot of the next event, and the first CPU cycle count at which it has happened.
    uint64_t event_dot() const;
    uint64_t next_event_cycle() const { return event_dot() / 3 + 1; }
    // Processes every event before `cycles` CPU cycles have elapsed. Returns true when a
    // vblank started.
    bool catch_up(uint64_t cycles, Cpu6502& cpu) {
        bool vblank = false;
        const uint64_t now = cycles * 3;
        while (event_dot() < now) vblank |= process_event(cpu);
        return vblank;
    }
    // Line (0-261) and dot (0-340) after `cycles` CPU cycles; needs catch_up(cycles) first.
    void position(uint64_t cycles, int& scanline, int& dot) const;

    // CPU side: reg is the address's low 3 bits; `cycles` is the CPU cycle count at the end of
    // the access. The caller has run catch_up(cycles) before.
    uint8_t read_register(unsigned reg, uint64_t cycles, Cpu6502& cpu, const VideoMap& map);
    void write_register(unsigned reg, uint8_t value, uint64_t cycles, Cpu6502& cpu,
                        const VideoMap& map);
    // What a read would return, without its side effects (for traces and debuggers).
    uint8_t peek_register(unsigned reg, const VideoMap& map) const;

    // PPU address space ($0000-$3FFF).
    uint8_t vram_read(uint16_t addr, const VideoMap& map) const;
    void vram_write(uint16_t addr, uint8_t value, const VideoMap& map);

    // Draws the frame the current state shows.
    void render(const VideoMap& map, Image& out) const;
    Image render(const VideoMap& map) const {
        Image img(256, 240);
        render(map, img);
        return img;
    }

private:
    bool process_event(Cpu6502& cpu);
    void update_sprite0(uint64_t now_dot, const VideoMap& map);
};

// The 64 NES colours as RGB, computed once from a model of the NTSC signal the 2C02 makes.
const std::array<std::array<uint8_t, 3>, 64>& nes_palette();

// Index into the 2 KiB nametable RAM for a PPU address $2000-$2FFF (and mirrors).
constexpr unsigned nametable_index(uint16_t addr, Mirroring m) {
    const unsigned table = (addr >> 10) & 3;
    unsigned page = 0;
    switch (m) {
    case Mirroring::OneScreenLower: page = 0; break;
    case Mirroring::OneScreenUpper: page = 1; break;
    case Mirroring::Vertical: page = table & 1; break;
    case Mirroring::Horizontal: page = table >> 1; break;
    }
    return page * 0x400 + (addr & 0x3FF);
}

// Index into the 32-byte palette RAM: $3F10/$3F14/$3F18/$3F1C mirror $3F00/$3F04/...
constexpr unsigned palette_index(uint16_t addr) {
    unsigned i = addr & 0x1F;
    if ((i & 0x13) == 0x10) i &= 0x0F;
    return i;
}

}  // namespace nestris::emu
