#include "patcher/patch.hpp"
#include "base/hex.hpp"

#include "base/checksums.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

namespace nestris {
namespace {

// "file offset $000010 (CPU $8000)" for bytes of PRG, just the offset elsewhere.
std::string where(size_t offset) {
    char text[64];
    if (offset >= kInesHeaderSize && offset < kInesHeaderSize + 0x8000)
        std::snprintf(text, sizeof text, "file offset $%06zX (CPU $%04zX)", offset,
                      offset - kInesHeaderSize + kPrgCpuBase);
    else
        std::snprintf(text, sizeof text, "file offset $%06zX", offset);
    return text;
}

const uint8_t* cart_bytes_at(const CartImage& cart, uint16_t address, size_t count) {
    for (const CartSegment* seg : cart.rom_segments())
        if (address >= seg->address && address + count <= seg->address + seg->bytes.size())
            return seg->bytes.data() + (address - seg->address);
    throw PatchError("the cartridge holds no bytes at " + hex(address, 4) +
                     " for its signature (asm/signature.s)");
}

std::string refusal(const RomIdentity& id) {
    switch (id.kind) {
        case RomKind::Refused: return "refusing " + id.summary() + ".";
        case RomKind::Patched:
            return "this ROM is " + id.summary() + ". Patch the original Tetris (USA) instead.";
        default: break;
    }
    std::string text = "this is not the supported ROM, Tetris (USA): its SHA-1 " + id.file_sha1;
    if (id.header) text += " (PRG+CHR " + id.payload_sha1 + ")";
    text += " matches no known dump";
    // One line: an error is said on one (base/command_runner.hpp), where a newline would be \x0A.
    for (size_t i = 0; i < id.notes.size(); ++i) text += (i ? "; " : ": ") + id.notes[i];
    return text + ".";
}

}  // namespace

uint32_t prg_file_offset(uint16_t cpu_address) {
    if (cpu_address < kPrgCpuBase)
        throw PatchError("address " + hex(cpu_address, 4) + " is not in PRG ROM ($8000-$FFFF)");
    return cpu_address - kPrgCpuBase + static_cast<uint32_t>(kInesHeaderSize);
}

bool cart_has_prg_ram(const CartImage& cart) {
    return std::any_of(cart.regions.begin(), cart.regions.end(),
                       [](const CartRegion& r) { return r.is_ram && r.start >= 0x6000 && r.start < 0x8000 && r.used > 0; });
}

IpsPatch cart_patch(const CartImage& cart) {
    std::vector<ByteBlock> blocks;
    if (cart_has_prg_ram(cart)) {
        // The header declares the PRG-RAM: flags 6's battery bit, as TetrisGYM's header does.
        const auto header = encode_ines(tetris_usa_header());
        blocks.push_back({kInesFlags6Offset, {static_cast<uint8_t>(header[kInesFlags6Offset] | kInesFlags6Battery)}});
    }
    for (const CartSegment* seg : cart.rom_segments()) {
        if (seg->address + seg->bytes.size() > 0x10000)
            throw PatchError("segment " + seg->name + " runs past $FFFF");
        blocks.push_back({prg_file_offset(seg->address), seg->bytes});
    }
    return encode_ips(std::move(blocks));
}

uint32_t cart_build_id(const CartImage& cart) {
    const uint8_t* p = cart_bytes_at(cart, cart.require("nestris_build_id"), 4);
    return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

std::string cart_version(const CartImage& cart) {
    const uint16_t at = static_cast<uint16_t>(cart.require("nestris_signature") + kSignatureMagic.size());
    const uint8_t* p = cart_bytes_at(cart, at, 3);
    return std::to_string(p[0]) + "." + std::to_string(p[1]) + "." + std::to_string(p[2]);
}

std::vector<uint8_t> standard_original(std::span<const uint8_t> file, const RomIdentity& identity) {
    if (!identity.patchable() || !identity.game)
        throw PatchError("not the supported original: " + identity.summary());
    // The header is written from the iNES fields of the catalogue, never copied from a file.
    const auto header = encode_ines(identity.game->header);
    std::vector<uint8_t> out(header.begin(), header.end());
    const auto payload = file.subspan(identity.payload_offset());
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
}

void check_patched(std::span<const uint8_t> original, const IpsPatch& patch, std::span<const uint8_t> result) {
    if (result.size() != original.size())
        throw PatchError("the patched ROM is " + std::to_string(result.size()) + " bytes, the original " +
                         std::to_string(original.size()));
    std::vector<std::optional<uint8_t>> intended(original.size());
    for (const IpsRecord& r : patch.records)
        for (uint32_t k = 0; k < r.length; ++k) {
            if (r.offset + k >= original.size())
                throw PatchError("the patch writes " + where(r.offset + k) + ", past the end of the ROM");
            intended[r.offset + k] = r.byte_at(k);
        }
    for (size_t i = 0; i < original.size(); ++i) {
        if (intended[i] && result[i] != *intended[i])
            throw PatchError("patched byte at " + where(i) + " is " + hex(result[i], 2) + ", the patch meant " +
                             hex(*intended[i], 2));
        if (!intended[i] && result[i] != original[i])
            throw PatchError("byte at " + where(i) + ", which the patch does not touch, changed from " +
                             hex(original[i], 2) + " to " + hex(result[i], 2));
    }
}

void check_patch_in_place(const IpsPatch& patch, std::span<const uint8_t> file) {
    for (const IpsRecord& r : patch.records)
        for (uint32_t k = 0; k < r.length; ++k) {
            const size_t at = size_t{r.offset} + k;
            if (at >= file.size())
                throw PatchError("the file ends before " + where(at) + ", which the patch writes");
            if (file[at] != r.byte_at(k))
                throw PatchError("byte at " + where(at) + " is " + hex(file[at], 2) + ", the patch has " + hex(r.byte_at(k), 2));
        }
}

PatchedRom patch_rom(std::span<const uint8_t> file, const CartImage& cart, std::span<const KnownRom> catalogue) {
    return patch_rom(file, cart_patch(cart), cart_build_id(cart), catalogue);
}

std::optional<NestrisSignature> patch_signature(const IpsPatch& patch) {
    // Lay the patch over an empty image of the standard size and look for the signature there.
    std::vector<uint8_t> image(tetris_usa_header().expected_file_size(), 0);
    for (const IpsRecord& r : patch.records)
        for (uint32_t k = 0; k < r.length && r.offset + k < image.size(); ++k) image[r.offset + k] = r.byte_at(k);
    const auto header = encode_ines(tetris_usa_header());
    std::copy(header.begin(), header.end(), image.begin());
    return find_signature(image, 0);
}

PatchedRom patch_rom(std::span<const uint8_t> file, const IpsPatch& patch, uint32_t build_id,
                     std::span<const KnownRom> catalogue) {
    PatchedRom out;
    out.patch = patch;
    out.source = identify_rom(file, {catalogue, build_id, &out.patch});
    if (!out.source.patchable()) throw PatchError(refusal(out.source));
    out.original = standard_original(file, out.source);
    out.bytes = apply_ips(out.original, out.patch);
    check_patched(out.original, out.patch, out.bytes);
    return out;
}

}  // namespace nestris
