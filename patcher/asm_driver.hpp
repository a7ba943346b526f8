// Runs ca65/ld65 over the cartridge sources and reads back what they made: the C++ side of
// "assemble, place code in free space". Used by the build (nestris-asm) and by tests.
#pragma once

#include "patcher/cart_image.hpp"
#include "patcher/ram_code.hpp"

#include <filesystem>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nestris {

// (AssembleError: ram_code.hpp)

struct AssembleOptions {
    std::filesystem::path ca65 = "ca65";
    std::filesystem::path ld65 = "ld65";
    std::filesystem::path od65;                       // segment sizes; default: beside ld65
    std::filesystem::path config;                     // ld65 config: the free-space map
    std::vector<std::filesystem::path> sources;       // .s files, one object each
    std::vector<std::filesystem::path> include_dirs;  // for .include
    std::filesystem::path work_dir;                   // objects, image, labels, map, dbg
    // The asm include that declares the hook sites (game/hooks.inc, hook_table.hpp): their memory
    // areas and segments are added to the config. A site named by the game's map is looked up in
    // the constants of the table and of the files it .includes (found in include_dirs).
    std::filesystem::path hook_table;
};

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


// The build id stamped into the signature: CRC32 of every ROM byte of the patch except the id.
uint32_t compute_build_id(const CartImage& cart);

// Writes a C++ source that defines nestris::shipped_cart() returning this image.
void write_cart_cpp(const CartImage& cart, std::ostream& out);

}  // namespace nestris
