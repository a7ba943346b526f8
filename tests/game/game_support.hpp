// Helpers of the real-game tests: the user's ROM (or a skip), and the regions of the map.
#pragma once

#include "tools/harness/game_harness.hpp"
#include "tests/support/game_rom.hpp"

#include <optional>
#include <string>
#include <vector>

namespace nestris::test {

// The original and the patched game from TETRIS_ROM, or nullopt after printing SKIPPED.
inline std::optional<game::GameRoms> game_roms_or_skip() {
    auto file = tetris_rom_or_skip();
    if (!file) return std::nullopt;
    return game::make_game_roms(*file, shipped_cart());
}

inline uint16_t region_last(const CartRegion& r) { return static_cast<uint16_t>(r.start + r.size - 1); }

// Every free ROM region of the map (not the hook sites, not RAM).
inline std::vector<game::WatchedRange> free_rom_ranges() {
    std::vector<game::WatchedRange> out;
    for (const CartRegion& r : shipped_cart().regions)
        if (!r.is_ram && !r.is_hook_site()) out.push_back({r.start, region_last(r), r.name});
    return out;
}

// Is this byte written by the patch?
inline bool patch_byte(uint16_t addr) {
    for (const CartSegment* s : shipped_cart().rom_segments())
        if (addr >= s->address && addr < s->address + s->bytes.size()) return true;
    return false;
}

}  // namespace nestris::test
