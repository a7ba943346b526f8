// The identity runs of game_harness.hpp: the original and the patched game side by side.
#include "tools/harness/game_harness.hpp"
#include "base/hex.hpp"

#include "ai-reference/ai/ai_player.hpp"
#include "tools/harness/cart_loop.hpp"
#include "emu-test/opcodes.hpp"
#include "patcher/patch.hpp"
#include "ai-reference/model/player.hpp"
#include "ai-reference/model/ram_map.hpp"
#include "ai-reference/model/state_io.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace nestris::game {
namespace button = emu::button;

RamExclusions ai_owned_ram(const CartImage& cart) {
    RamExclusions e;
    for (const CartRegion& r : cart.regions)
        if (r.is_ram) e.ranges.emplace_back(r.start, static_cast<uint16_t>(r.start + r.size - 1));
    return e;
}

namespace {

// The level-menu hint: the copy list's header (PPU address, length) sits right before its text.
struct HintWrites {
    uint16_t vram = 0;
    unsigned length = 0;
};
HintWrites hint_writes(const CartImage& cart) {
    const uint16_t text = cart.require("hint_text");
    for (const CartSegment* seg : cart.rom_segments()) {
        if (text >= seg->address + 3 && text < seg->address + seg->bytes.size()) {
            const size_t i = text - seg->address;
            return {static_cast<uint16_t>(seg->bytes[i - 3] << 8 | seg->bytes[i - 2]), seg->bytes[i - 1]};
        }
    }
    throw std::runtime_error("hint_text is not in a ROM segment");
}

// Removes the hint's writes ($2006 hi, $2006 lo, $2000, then one $2007 per tile) if present.
void strip_hint(std::vector<emu::PpuWrite>& w, const HintWrites& h) {
    const size_t n = 3 + h.length;
    for (size_t i = 0; i + n <= w.size(); ++i) {
        if (w[i].reg != 0x2006 || w[i].value != (h.vram >> 8) || w[i + 1].reg != 0x2006 ||
            w[i + 1].value != (h.vram & 0xFF) || w[i + 2].reg != 0x2000)
            continue;
        bool all = true;
        for (unsigned k = 0; k < h.length && all; ++k)
            all = w[i + 3 + k].reg == 0x2007 && w[i + 3 + k].vram_addr == h.vram + k;
        if (all) {
            w.erase(w.begin() + static_cast<std::ptrdiff_t>(i), w.begin() + static_cast<std::ptrdiff_t>(i + n));
            return;
        }
    }
}

}  // namespace

std::optional<std::string> compare_frame(const emu::Nes& original, const emu::Nes& patched,
                                         const RamExclusions& exclusions,
                                         std::span<const emu::PpuWrite> original_writes,
                                         std::vector<emu::PpuWrite> patched_writes, const CartImage& cart) {
    const unsigned stack_top = 0x100u + original.cpu().s();  // dead at and below
    for (unsigned addr = 0; addr < 0x800; ++addr) {
        if (addr >= 0x100 && addr <= stack_top) continue;
        bool excluded = false;
        for (const auto& [first, last] : exclusions.ranges) excluded |= addr >= first && addr <= last;
        if (excluded) continue;
        const uint8_t x = original.read_ram(static_cast<uint16_t>(addr)), y = patched.read_ram(static_cast<uint16_t>(addr));
        if (x != y)
            return "RAM " + hex(addr, 4) + ": original " + hex(x, 2) + ", patched " + hex(y, 2);
    }
    static const HintWrites hint = hint_writes(cart);
    strip_hint(patched_writes, hint);
    const size_t n = std::min(original_writes.size(), patched_writes.size());
    for (size_t i = 0; i < n; ++i) {
        const emu::PpuWrite& x = original_writes[i];
        const emu::PpuWrite& y = patched_writes[i];
        if (x.reg != y.reg || x.value != y.value || x.vram_addr != y.vram_addr)
            return "PPU write " + std::to_string(i) + ": original " + hex(x.reg, 4) + "=" + hex(x.value, 2) +
                   " (VRAM " + hex(x.vram_addr, 4) + "), patched " + hex(y.reg, 4) + "=" + hex(y.value, 2) +
                   " (VRAM " + hex(y.vram_addr, 4) + ")";
    }
    if (original_writes.size() != patched_writes.size())
        return "PPU writes: original " + std::to_string(original_writes.size()) + ", patched " +
               std::to_string(patched_writes.size());
    return std::nullopt;
}

IdentityResult run_identity(const GameRoms& roms, const CartImage& cart, const DriverOptions& options,
                            uint64_t frames, std::vector<uint8_t>* buttons_out) {
    const RamExclusions exclusions = ai_owned_ram(cart);
    emu::Nes x(roms.original), y(roms.patched);
    x.log_ppu_writes(true);
    y.log_ppu_writes(true);
    GameDriver driver(options);
    IdentityResult r;
    const uint16_t vbi = tetris::verticalBlankingInterval;
    for (uint64_t f = 0; f < frames; ++f) {
        const uint8_t b = driver.next(x);
        if (buttons_out) buttons_out->push_back(b);
        x.set_buttons(b);
        y.set_buttons(b);
        x.run_frame();
        y.run_frame();
        ++r.frames;
        ++r.frames_per_mode[x.read_ram(tetris::gameMode)];
        if (y.read_ram(ai_mode_address()) != 0) {
            r.mismatch = "frame " + std::to_string(f) + ": the patched game switched the AI on";
            break;
        }
        // Compare where both main loops wait for the NMI (verticalBlankingInterval cleared);
        // a frame that ends while a game is still busy (screen changes with the NMI off) is
        // compared at the next one, with the PPU writes of both frames.
        if (x.read_ram(vbi) != 0 || y.read_ram(vbi) != 0) continue;
        r.ppu_writes += x.ppu_writes().size();
        if (auto m = compare_frame(x, y, exclusions, x.ppu_writes(), y.ppu_writes(), cart)) {
            char where[120];
            std::snprintf(where, sizeof where, "frame %llu (gameMode %u, gameModeState %u, playState %u): ",
                          static_cast<unsigned long long>(f), x.read_ram(tetris::gameMode),
                          x.read_ram(tetris::gameModeState), x.read_ram(tetris::playState));
            r.mismatch = where + *m;
            break;
        }
        ++r.compared_frames;
        x.clear_ppu_writes();
        y.clear_ppu_writes();
    }
    r.stats = driver.stats();
    return r;
}

}  // namespace nestris::game
