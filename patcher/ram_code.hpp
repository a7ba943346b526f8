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

// Where the RAM code's segments go in its memory area [start, start + size), `taken` ranges
// [from, to) excepted: the code, then the generated tables (RAM_gen_*), each biggest first (then
// by name), each at the lowest address where it overlaps nothing and, under 256 bytes, crosses
// no page; `shuffle` 1-3 sorts each class otherwise (smallest first, by name, the tables smallest
// first), and from 4 also swaps a few neighbours from that seed. Sorted by address. Throws
// AssembleError naming the first segment that has no place.
std::vector<std::pair<std::string, uint16_t>> place_ram_code(const std::vector<std::pair<std::string, uint32_t>>& segments,
                                                             const std::vector<std::pair<uint32_t, uint32_t>>& taken,
                                                             uint32_t start, uint32_t size, uint32_t shuffle = 0);
// Orders of the RAM code assemble_cart links and packs, besides the first (place_ram_code's
// shuffle 1 .. this): it keeps the one whose packed stream is the smallest.
inline constexpr uint32_t kRamCodeOrdersTried = 24;

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
