#include "emu-test/ppu.hpp"

#include <algorithm>
#include <cmath>

namespace nestris::emu {

// ---- timing ----------------------------------------------------------------------------------

uint64_t Ppu::event_dot() const {
    switch (next_event) {
    case 0: return frame_start + kVblankSetDot;
    case 1: return frame_start + kVblankClearDot;
    case 2: return frame_start + kSkipDecisionDot;
    default: return frame_start + frame_length;
    }
}

bool Ppu::process_event(Cpu6502& cpu) {
    switch (next_event) {
    case 0: {
        const uint64_t dot = event_dot();
        dead_frame = dead_vblanks != 0;
        if (dead_vblanks) {
            --dead_vblanks;
        } else if (!suppress_vblank) {
            status |= 0x80;
            vblank_dot = dot;
            // The cycle whose end-of-cycle sample sees it; FCEUX takes the NMI at the first
            // instruction boundary 12 dots after its flag (one dot before ours).
            if (ctrl & 0x80) cpu.signal_nmi(fceux ? (dot + 13) / 3 - 2 : (dot - 1) / 3);
        }
        suppress_vblank = false;
        ++vblanks;
        next_event = 1;
        return true;
    }
    case 1:
        status &= 0x1F;  // vblank, sprite-0 hit and overflow end with the pre-render line
        next_event = 2;
        return false;
    case 2:
        // Odd frames skip the last dot of the pre-render line when rendering is on.
        frame_length = (odd && (fceux ? !dead_frame : rendering())) ? kFrameDots - 1 : kFrameDots;
        next_event = 3;
        return false;
    default:
        frame_start += frame_length;
        odd = !odd;
        ++frame;
        sprite0_known = false;
        next_event = 0;
        return false;
    }
}

void Ppu::position(uint64_t cycles, int& scanline, int& dot) const {
    uint64_t p = cycles * 3 - frame_start;
    // Between the end of a frame and the event that starts the next one.
    if (p >= frame_length) p -= frame_length;
    scanline = static_cast<int>(p / kDotsPerLine);
    dot = static_cast<int>(p % kDotsPerLine);
}

// ---- registers -------------------------------------------------------------------------------

uint8_t Ppu::read_register(unsigned reg, uint64_t cycles, Cpu6502& cpu, const VideoMap& map) {
    switch (reg & 7) {
    case 2: {
        // The access falls on the last dot of the CPU cycle (dots before it have happened).
        const uint64_t read_dot = cycles * 3 - 1;
        if (!(status & 0x40)) {
            update_sprite0(read_dot, map);
            if (read_dot >= sprite0_dot && read_dot < frame_start + kVblankClearDot) status |= 0x40;
        }
        // Reading on the dot the flag is set or one after reads it set but cancels the NMI;
        // reading one dot before reads it clear, and neither flag nor NMI come this frame.
        if (!fceux) {
            if ((status & 0x80) && read_dot - vblank_dot <= 1) cpu.cancel_nmi();
            if (next_event == 0 && event_dot() == read_dot + 1) suppress_vblank = true;
        }
        const uint8_t r = static_cast<uint8_t>((status & 0xE0) | (open_bus & 0x1F));
        status &= 0x7F;
        w = false;
        open_bus = r;
        return r;
    }
    case 4: {
        uint8_t r = oam[oam_addr];
        if ((oam_addr & 3) == 2) r &= 0xE3;  // attribute bits 2-4 do not exist
        open_bus = r;
        return r;
    }
    case 7: {
        const uint16_t addr = v & 0x3FFF;
        uint8_t r;
        if (addr >= 0x3F00) {
            // Palette reads are direct; the buffer gets the nametable byte "under" it.
            r = static_cast<uint8_t>((palette[palette_index(addr)] & 0x3F) | (open_bus & 0xC0));
            read_buffer = vram_read(static_cast<uint16_t>(addr - 0x1000), map);
        } else {
            r = read_buffer;
            read_buffer = vram_read(addr, map);
        }
        v = static_cast<uint16_t>((v + ((ctrl & 0x04) ? 32 : 1)) & 0x7FFF);
        open_bus = r;
        return r;
    }
    default:
        return open_bus;  // write-only registers
    }
}

uint8_t Ppu::peek_register(unsigned reg, const VideoMap&) const {
    switch (reg & 7) {
    case 2: return static_cast<uint8_t>((status & 0xE0) | (open_bus & 0x1F));
    case 4: return oam[oam_addr];
    case 7: return read_buffer;
    default: return open_bus;
    }
}

void Ppu::write_register(unsigned reg, uint8_t value, uint64_t cycles, Cpu6502& cpu,
                         const VideoMap& map) {
    open_bus = value;
    switch (reg & 7) {
    case 0: {
        const bool was_enabled = ctrl & 0x80;
        ctrl = value;
        t = static_cast<uint16_t>((t & ~0x0C00) | ((value & 3) << 10));
        // The CPU samples /NMI (vblank flag AND enable) once a cycle, at its end (dot 3c + 3
        // for cycle c): an edge is latched at the first sample that sees the line low.
        // Enabling NMI during vblank raises it at once (taken after the next instruction),
        // unless the flag clears at that very sample.
        const bool clears_at_sample = next_event == 1 && event_dot() == cycles * 3;
        if (!was_enabled && (value & 0x80) && (status & 0x80) && !clears_at_sample) cpu.signal_nmi(cycles - 1);
        // Disabling it in the cycle the flag was set, before that cycle's sample: no edge.
        if (was_enabled && !(value & 0x80) && cpu.nmi_pending() && cpu.nmi_cycle() == cycles - 1) cpu.cancel_nmi();
        break;
    }
    case 1: mask = value; break;
    case 2: break;  // read-only
    case 3: oam_addr = value; break;
    case 4: oam[oam_addr++] = value; break;
    case 5:
        if (!w) {
            t = static_cast<uint16_t>((t & ~0x001F) | (value >> 3));
            fine_x = value & 7;
        } else {
            t = static_cast<uint16_t>((t & ~0x73E0) | ((value & 0x07) << 12) | ((value & 0xF8) << 2));
        }
        w = !w;
        break;
    case 6:
        if (!w) {
            t = static_cast<uint16_t>((t & 0x00FF) | ((value & 0x3F) << 8));
        } else {
            t = static_cast<uint16_t>((t & 0xFF00) | value);
            v = t;
        }
        w = !w;
        break;
    case 7:
        vram_write(v & 0x3FFF, value, map);
        v = static_cast<uint16_t>((v + ((ctrl & 0x04) ? 32 : 1)) & 0x7FFF);
        break;
    }
}

uint8_t Ppu::vram_read(uint16_t addr, const VideoMap& map) const {
    addr &= 0x3FFF;
    if (addr < 0x2000) return map.chr[addr >> 12][addr & 0x0FFF];
    if (addr < 0x3F00) return ciram[nametable_index(addr, map.mirroring)];
    return palette[palette_index(addr)];
}

void Ppu::vram_write(uint16_t addr, uint8_t value, const VideoMap& map) {
    addr &= 0x3FFF;
    if (addr < 0x2000) {
        if (uint8_t* ram = map.chr_ram[addr >> 12]) ram[addr & 0x0FFF] = value;
    } else if (addr < 0x3F00) {
        ciram[nametable_index(addr, map.mirroring)] = value;
    } else {
        palette[palette_index(addr)] = value & 0x3F;
    }
}

// ---- pictures --------------------------------------------------------------------------------

namespace {

struct Frame {
    const Ppu& ppu;
    const VideoMap& map;

    uint8_t chr(unsigned addr) const { return map.chr[(addr >> 12) & 1][addr & 0x0FFF]; }

    // Background palette entry (0-15; 0 = transparent) at screen pixel x, y, scrolled by t and
    // fine x as they are now.
    uint8_t background(int x, int y) const {
        const unsigned t = ppu.t;
        const unsigned base_x = ((t & 0x1F) << 3) + ppu.fine_x + ((t & 0x400) ? 256 : 0);
        const unsigned base_y = (((t >> 5) & 0x1F) << 3) + ((t >> 12) & 7) + ((t & 0x800) ? 240 : 0);
        const unsigned wx = (base_x + static_cast<unsigned>(x)) % 512;
        const unsigned wy = (base_y + static_cast<unsigned>(y)) % 480;
        const unsigned table = (wx / 256) + 2 * (wy / 240);
        const unsigned tx = (wx % 256) / 8, ty = (wy % 240) / 8;
        const uint16_t nt = static_cast<uint16_t>(0x2000 + table * 0x400);
        const uint8_t tile = ppu.ciram[nametable_index(static_cast<uint16_t>(nt + ty * 32 + tx), map.mirroring)];
        const uint8_t attr = ppu.ciram[nametable_index(
            static_cast<uint16_t>(nt + 0x3C0 + (ty / 4) * 8 + tx / 4), map.mirroring)];
        const unsigned shift = ((ty & 2) << 1) | (tx & 2);
        const unsigned pattern = ((ppu.ctrl & 0x10) ? 0x1000u : 0u) + tile * 16u + (wy % 240) % 8;
        const unsigned bit = 7 - (wx & 7);
        const unsigned pix = ((chr(pattern) >> bit) & 1) | (((chr(pattern + 8) >> bit) & 1) << 1);
        return pix ? static_cast<uint8_t>((((attr >> shift) & 3) << 2) | pix) : 0;
    }

    // Pattern pixel (0-3) of OAM sprite i at row r (0-based, inside the sprite), column c.
    unsigned sprite_pixel(int i, int r, int c) const {
        const uint8_t tile = ppu.oam[i * 4 + 1], attr = ppu.oam[i * 4 + 2];
        const bool tall = ppu.ctrl & 0x20;
        const int height = tall ? 16 : 8;
        if (attr & 0x80) r = height - 1 - r;  // vertical flip
        if (attr & 0x40) c = 7 - c;           // horizontal flip
        unsigned pattern;
        if (tall) {
            pattern = ((tile & 1) ? 0x1000u : 0u) + (tile & 0xFEu) * 16u + (r >= 8 ? 16u : 0u) + (r & 7);
        } else {
            pattern = ((ppu.ctrl & 0x08) ? 0x1000u : 0u) + tile * 16u + static_cast<unsigned>(r);
        }
        const int bit = 7 - c;
        return ((chr(pattern) >> bit) & 1) | (((chr(pattern + 8) >> bit) & 1) << 1);
    }
};

}  // namespace

void Ppu::update_sprite0(uint64_t now_dot, const VideoMap& map) {
    if (sprite0_known) return;
    if (!((mask & 0x08) && (mask & 0x10))) return;  // needs both layers; re-evaluated later
    if (now_dot < frame_start) return;
    sprite0_known = true;
    sprite0_dot = ~uint64_t{0};
    const Frame f{*this, map};
    const int top = oam[0] + 1, left = oam[3];
    const int height = (ctrl & 0x20) ? 16 : 8;
    for (int r = 0; r < height; ++r) {
        const int y = top + r;
        if (y >= 240) break;
        for (int c = 0; c < 8; ++c) {
            const int x = left + c;
            if (x >= 255) break;  // never at x = 255
            if (x < 8 && (!(mask & 0x02) || !(mask & 0x04))) continue;
            if (f.sprite_pixel(0, r, c) && f.background(x, y)) {
                sprite0_dot = frame_start + static_cast<uint64_t>(y) * kDotsPerLine + x + 2;
                return;
            }
        }
    }
}

void Ppu::render(const VideoMap& map, Image& out) const {
    if (out.width != 256 || out.height != 240) out = Image(256, 240);
    const auto& colours = nes_palette();
    const uint8_t grey = (mask & 0x01) ? 0x30 : 0x3F;
    const bool show_bg = mask & 0x08, show_sprites = mask & 0x10;
    const int height = (ctrl & 0x20) ? 16 : 8;
    const Frame f{*this, map};

    for (int y = 0; y < 240; ++y) {
        uint8_t bg[256] = {};
        if (show_bg) {
            for (int x = (mask & 0x02) ? 0 : 8; x < 256; ++x) bg[x] = f.background(x, y);
        }
        // Sprite pixels of this line: the first (lowest OAM index) opaque sprite pixel wins,
        // even when it is behind the background; at most 8 sprites per line.
        uint8_t spr[256] = {};   // palette entry 16-31, 0 = none
        bool behind[256] = {};
        if (show_sprites) {
            int on_line = 0;
            for (int i = 0; i < 64 && on_line < 8; ++i) {
                const int r = y - (oam[i * 4] + 1);
                if (r < 0 || r >= height) continue;
                ++on_line;
                const uint8_t attr = oam[i * 4 + 2];
                for (int c = 0; c < 8; ++c) {
                    const int x = oam[i * 4 + 3] + c;
                    if (x > 255) break;
                    if (spr[x] || (x < 8 && !(mask & 0x04))) continue;
                    const unsigned pix = f.sprite_pixel(i, r, c);
                    if (!pix) continue;
                    spr[x] = static_cast<uint8_t>(16 + ((attr & 3) << 2) + pix);
                    behind[x] = attr & 0x20;
                }
            }
        }
        for (int x = 0; x < 256; ++x) {
            unsigned entry = bg[x];
            if (spr[x] && (!behind[x] || !bg[x])) entry = spr[x];
            const uint8_t colour = palette[palette_index(static_cast<uint16_t>(entry))] & grey;
            const auto& rgb = colours[colour & 0x3F];
            uint8_t* p = out.pixel(x, y);
            p[0] = rgb[0];
            p[1] = rgb[1];
            p[2] = rgb[2];
        }
    }
}

const std::array<std::array<uint8_t, 3>, 64>& nes_palette() {
    // The 2C02 makes each colour as a square wave between two voltage levels, 12 phases per
    // colour-subcarrier cycle; hue n is "high" for 6 consecutive phases starting at phase n.
    // Demodulating that wave to YIQ and converting to RGB gives the palette a TV shows. The
    // hue offset and saturation were fitted by eye and least squares to common emulator
    // palettes (about 20 levels RMS from them).
    static const auto table = [] {
        std::array<std::array<uint8_t, 3>, 64> out{};
        // Signal levels relative to black (0) and white (1), low and high per luma row.
        constexpr double lo[4] = {-0.117, 0.000, 0.308, 0.715};
        constexpr double hi[4] = {0.397, 0.681, 1.000, 1.000};
        constexpr double pi = 3.14159265358979323846;
        constexpr double hue_offset = 118.0 * pi / 180.0;  // puts hue 6 on red
        constexpr double saturation = 0.9;
        for (int c = 0; c < 64; ++c) {
            const int hue = c & 15, row = c >> 4;
            if (hue >= 14) continue;  // $xE, $xF: black
            double y = 0, i = 0, q = 0;
            for (int p = 0; p < 12; ++p) {
                const bool high = hue == 0 || (hue < 13 && (hue + p) % 12 < 6);
                const double level = high ? hi[row] : lo[row];
                const double angle = pi * p / 6.0 + hue_offset;
                y += level;
                i += level * std::cos(angle);
                q += level * std::sin(angle);
            }
            y /= 12.0;
            i = i * 2.0 / 12.0 * saturation;
            q = q * 2.0 / 12.0 * saturation;
            const double rgb[3] = {y + 0.956 * i + 0.621 * q, y - 0.272 * i - 0.647 * q,
                                   y - 1.106 * i + 1.703 * q};
            for (int k = 0; k < 3; ++k) {
                const double v = std::clamp(rgb[k], 0.0, 1.0);
                out[c][k] = static_cast<uint8_t>(std::lround(255.0 * v));
            }
        }
        return out;
    }();
    return table;
}

}  // namespace nestris::emu
