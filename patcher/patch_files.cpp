#include "patcher/patch_files.hpp"

#include "base/checksums.hpp"
#include "base/hex.hpp"
#include "patcher/bps.hpp"
#include "patcher/rom.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace nestris {
namespace {

// Which known ROM a checksum and size are: the standard file or a headerless dump of it.
std::string name_of(std::span<const KnownRom> catalogue, uint64_t size, uint32_t crc) {
    for (const KnownRom& k : catalogue) {
        const uint64_t payload = k.header.prg_rom_bytes + k.header.chr_rom_bytes;
        if (crc == k.file_crc32 && size == payload + kInesHeaderSize) return std::string(k.name) + " (standard header)";
        if (crc == k.payload_crc32 && size == payload) return std::string(k.name) + " without its header";
    }
    return "";
}

void describe_ips(std::span<const uint8_t> file, const PatchIdentifyContext& context, PatchFileIdentity& id) {
    IpsPatch patch;
    try {
        patch = parse_ips(file);
    } catch (const IpsError& e) {
        id.damage = e.what();
        return;
    }
    id.readable = true;
    uint64_t written = 0, rle = 0, first = UINT64_MAX, end = 0;
    for (const IpsRecord& r : patch.records) {
        written += r.length;
        rle += r.rle ? 1 : 0;
        first = std::min<uint64_t>(first, r.offset);
        end = std::max<uint64_t>(end, r.end());
    }
    std::string what = std::to_string(patch.records.size()) + " record(s) (" + std::to_string(rle) + " RLE) writing " +
                       std::to_string(written) + " bytes";
    if (!patch.records.empty()) what += " between file offsets " + hex(first, 5) + " and " + hex(end - 1, 5);
    id.lines.push_back(what);
    if (patch.truncate_to) id.lines.push_back("truncates the file to " + std::to_string(*patch.truncate_to) + " bytes");
    id.lines.push_back("an IPS patch holds no checksum: it cannot tell which file it is for");
    if (context.this_ips && patch == *context.this_ips) {
        id.this_build = true;
        id.lines.push_back("this is " + context.this_build_name +
                           "'s patch, for Tetris (USA) with its standard 16-byte iNES header (a headerless dump "
                           "must get the header first; nestris-ai patch does that)");
    }
}

void describe_bps(std::span<const uint8_t> file, const PatchIdentifyContext& context, PatchFileIdentity& id) {
    BpsHeader h;
    try {
        h = parse_bps(file);
    } catch (const BpsError& e) {
        id.damage = e.what();
        return;
    }
    id.readable = true;
    const std::string source = name_of(context.catalogue, h.source_size, h.source_crc32);
    id.lines.push_back("source: " + std::to_string(h.source_size) + " bytes, CRC32 " + crc32_hex(h.source_crc32) +
                       (source.empty() ? " (no ROM this nestris-ai knows)" : " = " + source));
    id.lines.push_back("target: " + std::to_string(h.target_size) + " bytes, CRC32 " + crc32_hex(h.target_crc32));
    id.lines.push_back(std::to_string(h.actions) + " action(s), " + std::to_string(h.literal_bytes) +
                       " bytes carried in the patch; the patch's own CRC32 " + crc32_hex(h.patch_crc32) + " checks out");
    if (!h.metadata.empty()) id.lines.push_back("metadata: " + std::to_string(h.metadata.size()) + " bytes");
    if (!context.this_bps.empty() && std::equal(file.begin(), file.end(), context.this_bps.begin(), context.this_bps.end())) {
        id.this_build = true;
        id.lines.push_back("this is " + context.this_build_name + "'s patch");
    }
}

}  // namespace

std::optional<PatchFileIdentity> identify_patch_file(std::span<const uint8_t> file, const PatchIdentifyContext& context) {
    PatchFileIdentity id;
    if (file.size() >= 5 && std::memcmp(file.data(), "PATCH", 5) == 0) {
        id.format = "IPS";
        describe_ips(file, context, id);
    } else if (file.size() >= 4 && std::memcmp(file.data(), "BPS1", 4) == 0) {
        id.format = "BPS";
        describe_bps(file, context, id);
    } else {
        return std::nullopt;
    }
    return id;
}

}  // namespace nestris
