// The code the cartridge runs from PRG-RAM, at link time (assemble_cart, asm_driver.hpp): where
// its segments go in PRG_RAM_CODE, and its packed form (code_pack.hpp) in the ROM left.
#pragma once

#include "patcher/cart_image.hpp"
#include "patcher/code_pack.hpp"
#include "patcher/ld65_files.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nestris {

// The cartridge build's error, with a message a person can act on (assemble_cart and these).
struct AssembleError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The PRG-RAM code: segments named RAM_* go into this memory area (after the config's own
// segments there), and what ld65 writes of it is packed (code_pack.hpp) into the ROM the PACK_*
// segments leave, in chunks, biggest room first; __PACKED_START__ is exported as the first
// chunk's address for the unpacker (asm/unpack.s).
inline constexpr std::string_view kRamCodeArea = "PRG_RAM_CODE";
inline constexpr std::string_view kRamCodePrefix = "RAM_";
inline constexpr std::string_view kRamTablePrefix = "RAM_gen_";  // the generated tables (ai-reference)

// The RAM code's segments (name, size) in the order they are placed.
using RamCodeOrder = std::vector<std::pair<std::string, uint32_t>>;

// A generated table (RAM_gen_*), not code.
bool is_ram_table(const std::string& segment);

// An order of the RAM code's segments: the code, then the generated tables, each biggest first
// (then by name); `shuffle` 1-3 sorts each class otherwise (smallest first, by name, the tables
// smallest first), and from 4 also swaps a few neighbours from that seed.
RamCodeOrder ram_code_order(const RamCodeOrder& segments, uint32_t shuffle = 0);

// Where the segments go in the RAM code's memory area [start, start + size), `taken` ranges
// [from, to) excepted: in `order`, each at the lowest address where it overlaps nothing and, under
// 256 bytes, crosses no page. Sorted by address. Throws AssembleError naming the first segment
// that has no place.
std::vector<std::pair<std::string, uint16_t>> place_ram_code_in_order(const RamCodeOrder& order,
                                                                      const std::vector<std::pair<uint32_t, uint32_t>>& taken,
                                                                      uint32_t start, uint32_t size);
// place_ram_code_in_order in ram_code_order(segments, shuffle).
std::vector<std::pair<std::string, uint16_t>> place_ram_code(const RamCodeOrder& segments,
                                                             const std::vector<std::pair<uint32_t, uint32_t>>& taken,
                                                             uint32_t start, uint32_t size, uint32_t shuffle = 0);
// The orders assemble_cart links and packs, keeping the one whose packed stream is the smallest:
// ram_code_order's shuffles 0 .. kRamCodeOrdersTried, then from the best of them, in turn, each
// pair of neighbours of one class swapped (kept when it packs smaller), kRamCodeSwapPasses times
// over the list. Deterministic: the same code builds the same way every time.
inline constexpr uint32_t kRamCodeOrdersTried = 24;
inline constexpr uint32_t kRamCodeSwapPasses = 1;

// The config's segments in `area` with their start addresses (`start = $XXXX`, which each must
// have: nestris-asm places the rest around them).
struct FixedStart {
    std::string segment;
    uint32_t start = 0;
    std::string line;  // its text in the config
};
std::vector<FixedStart> fixed_starts(const std::string& config_text, const std::string& area);

// The RAM code as ld65 laid it out in `area` (one run from its start, gaps 0), packed into
// `rooms`: its chunks join `cart` as ROM segments PACKED_1, PACKED_2, ..., their regions' use
// counted. Unpacks the stream again and compares; throws AssembleError on any failure.
void add_packed_ram_code(CartImage& cart, const MemoryArea& area, const std::vector<StreamRoom>& rooms);

}  // namespace nestris
