// Helpers of the real-game tests: the user's ROM (or a skip), and the regions of the map.
#pragma once

#include "tests/support/game_rom.hpp"
#include "tools/harness/access_trace.hpp"
#include "tools/harness/ai_game_original.hpp"
#include "tools/harness/game_harness.hpp"

#include <catch2/catch.hpp>

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

// A person's play from a model-made state at `level` on both games (a coach game on the patched
// one with `coach`), compared every frame, lag NMIs too: none may lag on one game alone.
inline game::AiGameOnOriginal check_high_level_play(const game::GameRoms& roms, uint8_t level, uint64_t seed,
                                                    uint64_t frames, bool coach) {
    const game::AiGameOnOriginal r = game::compare_high_level_play_with_original(roms, shipped_cart(), level, seed, frames, coach);
    INFO(r.mismatch.value_or("identical") << "; " << r.first_lag_difference.value_or("no lag difference"));
    CHECK_FALSE(r.mismatch);
    CHECK(r.lag_patched_only == 0);
    CHECK(r.lag_original_only == 0);
    CHECK(r.compared_frames > 300);
    CHECK(r.level >= level);
    return r;
}

}  // namespace nestris::test
