// Turning the assembled cartridge code into an IPS patch, and applying it to the supported ROM
// with a byte-for-byte check of the result.
#pragma once

#include "patcher/cart_image.hpp"
#include "patcher/ips.hpp"
#include "patcher/rom.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace nestris {

struct PatchError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Tetris maps its 32 KiB of PRG at $8000-$FFFF right after the 16-byte header:
// file offset = CPU address - $8000 + 16.
inline constexpr uint32_t kPrgCpuBase = 0x8000;
uint32_t prg_file_offset(uint16_t cpu_address);

// The patch: every ROM segment of the cartridge at its file offset; and, when the cartridge uses
// PRG-RAM ($6000-$7FFF), the header's flags 6 with the battery bit, which declares it (what
// emulators and flash carts read as 8 KiB of PRG-RAM, as for TetrisGYM).
IpsPatch cart_patch(const CartImage& cart);
bool cart_has_prg_ram(const CartImage& cart);
inline constexpr uint32_t kInesFlags6Offset = 6;
inline constexpr uint8_t kInesFlags6Battery = 0x02;

// The build id and version stamped into the cartridge's signature (asm/signature.s).
uint32_t cart_build_id(const CartImage& cart);
std::string cart_version(const CartImage& cart);

// The supported game in its standard form: its standard iNES header, then its PRG+CHR taken
// from `file` (which may have had no header, or another one).
std::vector<uint8_t> standard_original(std::span<const uint8_t> file, const RomIdentity& identity);

// Throws PatchError naming the first byte where `result` is not `original` with `patch` on it:
// a patched byte not as intended, any other byte changed, or a different size. Computed
// without apply_ips, so the check does not share its mistakes.
void check_patched(std::span<const uint8_t> original, const IpsPatch& patch, std::span<const uint8_t> result);

// Throws PatchError naming the first byte of `patch` that `file` does not hold.
void check_patch_in_place(const IpsPatch& patch, std::span<const uint8_t> file);

struct PatchedRom {
    RomIdentity source;              // what the input was
    std::vector<uint8_t> original;   // the input in standard form
    IpsPatch patch;                  // what was applied
    std::vector<uint8_t> bytes;      // the patched ROM, checked
};

// Identifies `file` against `catalogue` and patches it if it is the supported original (any
// header or none); throws PatchError saying why not otherwise.
PatchedRom patch_rom(std::span<const uint8_t> file, const CartImage& cart,
                     std::span<const KnownRom> catalogue = known_roms());
// The same with a patch read from a file (the web page's): `build_id` is the one its signature
// carries (see patch_signature).
PatchedRom patch_rom(std::span<const uint8_t> file, const IpsPatch& patch, uint32_t build_id,
                     std::span<const KnownRom> catalogue = known_roms());

// The nestris-ai signature an IPS patch writes (version, build id); nullopt if it writes none.
std::optional<NestrisSignature> patch_signature(const IpsPatch& patch);

}  // namespace nestris
