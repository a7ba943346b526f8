// The assembled cartridge code as the C++ side sees it: the bytes of every ld65 segment with
// the CPU address it loads at, the free regions it was placed in (from the ld65 config, the
// single source of the free-space map) and every symbol (labels and the game addresses of
// game/tetris.inc). Built at run time by the assembler driver, or embedded in the binary.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nestris {

struct CartSegment {
    std::string name;
    uint16_t address = 0;        // CPU address of the first byte
    std::string region;          // memory area of the ld65 config it was placed in
    std::vector<uint8_t> bytes;  // empty for bss segments (RAM)
};

struct CartRegion {
    std::string name;
    uint16_t start = 0;
    uint32_t size = 0;
    uint32_t used = 0;
    bool is_ram = false;  // RAM areas hold variables, nothing of them goes into the patch
    // A hook site (memory area named HOOK_xxxx): game code that the patch rewrites in place,
    // not free space. Reported apart from the free regions.
    bool is_hook_site() const;
};

struct CartSymbol {
    std::string name;  // qualified with its scopes: "ai::search::loop"
    uint16_t value = 0;
    bool is_label = false;  // false: an equate such as a game RAM address
};

struct CartImage {
    std::vector<CartSegment> segments;
    std::vector<CartRegion> regions;
    std::vector<CartSymbol> symbols;

    std::optional<uint16_t> symbol(std::string_view name) const;
    // Like symbol(), but a missing name is a programming error: throws std::runtime_error
    // naming the symbol, so a renamed label fails loudly instead of reading address 0.
    uint16_t require(std::string_view name) const;
    // The region (memory area of the ld65 config) of that name; a missing one throws
    // std::runtime_error naming it, as require() does for symbols.
    const CartRegion& region(std::string_view name) const;

    // The ROM bytes the patch writes: every non-empty segment of a ROM region (not the RAM code,
    // which the patch holds packed: PACKED_* segments).
    std::vector<const CartSegment*> rom_segments() const;
    // Bytes used/free per region, one line each, for people.
    std::string usage_report() const;
};

// The cartridge built from asm/ together with this binary (generated at build time).
const CartImage& shipped_cart();

}  // namespace nestris
