// The identity runs (identity.hpp): the original and the patched game side by side.
#include "tools/harness/identity.hpp"
#include "base/hex.hpp"

#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/player.hpp"
#include "ai-reference/model/ram_map.hpp"
#include "ai-reference/model/state_io.hpp"
#include "emu-test/opcodes.hpp"
#include "game/hooks_map.hpp"
#include "patcher/patch.hpp"
#include "tools/harness/cart_loop.hpp"

#include <algorithm>
#include <array>
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
        if (r.is_ram && r.used > 0)  // (a RAM area the AI does not use is compared: AI_RAM6, AI_RAM7)
            e.ranges.emplace_back(r.start, static_cast<uint16_t>(r.start + r.size - 1));
    return e;
}

namespace {

bool slots_used(const emu::Nes& nes, unsigned first, unsigned end) {
    for (unsigned a = tetris::oamStaging + first; a < tetris::oamStaging + end; ++a)
        if (nes.read_ram(static_cast<uint16_t>(a)) != 0xFF) return true;
    return false;
}

// The coach's OAM bytes: the box's slots (the class's label from CLASS_OAM, the grade's digits
// to the ones' slot's end) and the ghost's (GHOST_OAM to the page's end), as [first, end) offsets.
static_assert(hooks::CLASS_OAM < hooks::GRADE_OAM);
constexpr std::array<std::pair<unsigned, unsigned>, 2> kCoachSlots{
    {{hooks::CLASS_OAM, hooks::GRADE_ONES_X + 4u}, {hooks::GHOST_OAM, 0x100u}}};

}  // namespace

bool ghost_slots_used(const emu::Nes& nes) { return slots_used(nes, hooks::GHOST_OAM, 0x100); }

FrameMasks ghost_masks(const emu::Nes& original) {
    for (const auto& [first, end] : kCoachSlots)
        if (slots_used(original, first, end)) return {};
    FrameMasks m;
    for (const auto& [first, end] : kCoachSlots)
        m.ranges.emplace_back(tetris::oamStaging + first, tetris::oamStaging + end - 1);
    return m;
}

namespace {

// The level-menu hint: the copy list's header (PPU address, length) sits right before its text.
struct HintWrites {
    uint16_t vram = 0;
    unsigned length = 0;
};
HintWrites hint_writes(const CartImage& cart) {
    const uint16_t text = cart.require("hint_text");
    for (const CartSegment& seg : cart.segments) {  // (in the RAM code: unpacked into PRG-RAM)
        if (text >= seg.address + 3 && text < seg.address + seg.bytes.size()) {
            const size_t i = text - seg.address;
            return {static_cast<uint16_t>(seg.bytes[i - 3] << 8 | seg.bytes[i - 2]), seg.bytes[i - 1]};
        }
    }
    throw std::runtime_error("hint_text is in no segment of the cartridge");
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
                                         std::vector<emu::PpuWrite> patched_writes, const CartImage& cart,
                                         const FrameMasks& masks) {
    const unsigned stack_top = 0x100u + original.cpu().s();  // dead at and below
    for (unsigned addr = 0; addr < 0x800; ++addr) {
        if (addr >= 0x100 && addr <= stack_top) continue;
        bool excluded = false;
        for (const auto& [first, last] : exclusions.ranges) excluded |= addr >= first && addr <= last;
        for (const auto& [first, last] : masks.ranges) excluded |= addr >= first && addr <= last;
        if (excluded) continue;
        uint8_t x = original.read_ram(static_cast<uint16_t>(addr)), y = patched.read_ram(static_cast<uint16_t>(addr));
        for (const auto& [at, bits] : masks.bits)
            if (at == addr) {
                x &= static_cast<uint8_t>(~bits);
                y &= static_cast<uint8_t>(~bits);
            }
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
                            uint64_t frames, std::vector<uint8_t>* buttons_out, std::vector<uint8_t>* original_buttons_out) {
    const RamExclusions exclusions = ai_owned_ram(cart);
    emu::Nes x(roms.original), y(roms.patched);
    x.log_ppu_writes(true);
    y.log_ppu_writes(true);
    GameDriver driver(options);
    IdentityResult r;
    const uint16_t vbi = tetris::verticalBlankingInterval;
    bool b_left_out = false, b_was_left_out = false;  // the original's pad without B (the +10 coach game)
    for (uint64_t f = 0; f < frames; ++f) {
        const uint8_t b = driver.next(x);
        if (buttons_out) buttons_out->push_back(b);
        // (driver.next read x: the level menu is the original's, where both are alike)
        if (options.coach_in_level_menu && x.read_ram(tetris::gameMode) == tetris::GAME_MODE_LEVEL_MENU &&
            b == (button::A | button::B | button::Start) && !b_left_out) {
            b_left_out = true;
            ++r.coach_plus_10;
        }
        if (!(b & button::B)) b_left_out = false;
        const uint8_t original_pad = b_left_out ? static_cast<uint8_t>(b & ~button::B) : b;
        if (original_buttons_out) original_buttons_out->push_back(original_pad);
        x.set_buttons(original_pad);
        y.set_buttons(b);
        x.run_frame();
        y.run_frame();
        ++r.frames;
        ++r.frames_per_mode[x.read_ram(tetris::gameMode)];
        const uint8_t mode = y.read_ram(ai_mode_address());
        // (AI_MODE_UNPACK: the legal screen unpacking the AI's code, asm/unpack.s)
        const bool unpacking = mode == hooks::AI_MODE_UNPACK && y.read_ram(tetris::gameMode) == tetris::GAME_MODE_LEGAL;
        if (mode != hooks::AI_MODE_HUMAN && !unpacking && !(options.coach_in_level_menu && mode == hooks::AI_MODE_COACH)) {
            r.mismatch = "frame " + std::to_string(f) + ": the patched game switched the AI on (ai_mode " + hex(mode, 2) + ")";
            break;
        }
        r.coach_frames += mode == hooks::AI_MODE_COACH;
        FrameMasks masks;
        if (b_left_out || b_was_left_out) {
            const uint8_t b_bit = tetris::BUTTON_B;
            masks.bits = {{tetris::newlyPressedButtons_player1, b_bit}, {tetris::heldButtons_player1, b_bit},
                          {tetris::newlyPressedButtons, b_bit}, {tetris::generalCounter2, b_bit}};
        }
        b_was_left_out = b_left_out;
        const FrameMasks ghost_out = ghost_masks(x);
        const bool original_sprites_there = ghost_out.ranges.empty();
        if (options.coach_in_level_menu) masks.ranges = ghost_out.ranges;
        // Compare where both main loops wait for the NMI (verticalBlankingInterval cleared);
        // a frame that ends while a game is still busy (screen changes with the NMI off) is
        // compared at the next one, with the PPU writes of both frames.
        if (x.read_ram(vbi) != 0 || y.read_ram(vbi) != 0) continue;
        r.ppu_writes += x.ppu_writes().size();
        r.ghost_frames += ghost_slots_used(y) && !original_sprites_there;
        if (auto m = compare_frame(x, y, exclusions, x.ppu_writes(), y.ppu_writes(), cart, masks)) {
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
