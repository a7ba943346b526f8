// Runs ca65/ld65 over the cartridge sources and reads back what they made: the C++ side of
// "assemble, place code in free space". Used by the build (nestris-asm) and by tests.
#pragma once

#include "patcher/cart_image.hpp"

#include <filesystem>
#include <iosfwd>
#include <stdexcept>
#include <string_view>
#include <string>
#include <vector>

namespace nestris {

struct AssembleError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct AssembleOptions {
    std::filesystem::path ca65 = "ca65";
    std::filesystem::path ld65 = "ld65";
    std::filesystem::path od65;                       // segment sizes; default: beside ld65
    std::filesystem::path config;                     // ld65 config: the free-space map
    std::vector<std::filesystem::path> sources;       // .s files, one object each
    std::vector<std::filesystem::path> include_dirs;  // for .include
    std::filesystem::path work_dir;                   // objects, image, labels, map, dbg
    // The asm include that declares the hook sites (asm/hooks.inc, hook_table.hpp): their memory
    // areas and segments are added to the config. A site named by the game's map is looked up in
    // the constants of the table and of the files it .includes (found in include_dirs).
    std::filesystem::path hook_table;
};

// The PRG-RAM code: segments named RAM_* go into this memory area (after the config's own
// segments there), and what ld65 writes of it is packed (code_pack.hpp) into the ROM the PACK_*
// segments leave, in chunks, biggest room first; __PACKED_START__ is exported as the first
// chunk's address for the unpacker (asm/unpack.s).
inline constexpr std::string_view kRamCodeArea = "PRG_RAM_CODE";
inline constexpr std::string_view kRamCodePrefix = "RAM_";
inline constexpr std::string_view kRamTablePrefix = "RAM_gen_";  // the generated tables (ai-reference)

// Assembles and links; throws AssembleError with a message a person can act on (which tool,
// which file, which region overflowed by how much). Leaves cart.lbl, cart.dbg and cart.map in
// work_dir for debuggers and emulators.
//
// Segments named PACK_* are not placed by the config: they are packed into the free ROM regions
// (every read-only memory area but the hook sites), biggest first, each into the region with the
// least room that holds it, after the config's own segments; the config ld65 links with is
// written to work_dir/cart.cfg.
CartImage assemble_cart(const AssembleOptions& options);

// The packing of assemble_cart, exposed for tests: segment sizes by name, the regions' room
// (read-only areas that are not hook sites, less what the config's segments put there) -> the
// region of each packed segment. Each region but the biggest, smallest first, is filled as full
// as the segments left allow (the free space is many small regions); the biggest takes the rest.
// Throws AssembleError when that does not fit.
struct PackRoom {
    std::string region;
    uint32_t free = 0;
};
std::vector<std::pair<std::string, std::string>> pack_segments(
    const std::vector<std::pair<std::string, uint32_t>>& segments, std::vector<PackRoom> rooms);

// Where the RAM code's segments go in its memory area [start, start + size), `taken` ranges
// [from, to) excepted: the code, then the generated tables (RAM_gen_*), each biggest first (then
// by name), each at the lowest address where it
// overlaps nothing and, under 256 bytes, crosses no page. Sorted by address. Throws
// AssembleError naming the first segment that has no place.
std::vector<std::pair<std::string, uint16_t>> place_ram_code(const std::vector<std::pair<std::string, uint32_t>>& segments,
                                                             const std::vector<std::pair<uint32_t, uint32_t>>& taken,
                                                             uint32_t start, uint32_t size, uint32_t shuffle = 0);
// Orders of the RAM code assemble_cart links and packs, besides the first (place_ram_code's
// shuffle 1 .. this): it keeps the one whose packed stream is the smallest.
inline constexpr uint32_t kRamCodeOrdersTried = 24;

// The build id stamped into the signature: CRC32 of every ROM byte of the patch except the id.
uint32_t compute_build_id(const CartImage& cart);

// Writes a C++ source that defines nestris::shipped_cart() returning this image.
void write_cart_cpp(const CartImage& cart, std::ostream& out);

}  // namespace nestris
