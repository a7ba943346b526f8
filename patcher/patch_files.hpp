// What a patch file is: identify_patch_file (patch_files.cpp), as `nestris-ai identify` and the
// web page say it.
#pragma once

#include "patcher/ips.hpp"
#include "patcher/rom.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace nestris {

// What a patch file is (IPS or BPS): its format, what it writes, what it patches; nullopt when
// the file is neither. A damaged patch is recognised and says why (`damage`).
struct PatchFileIdentity {
    std::string format;                // "IPS" or "BPS"
    bool readable = false;             // parsed without error
    std::string damage;                // why not (readable false): the parser's words
    bool this_build = false;           // byte for byte this build's patch of that format
    std::vector<std::string> lines;    // for people, one fact each
};
struct PatchIdentifyContext {
    std::span<const KnownRom> catalogue = known_roms();
    const IpsPatch* this_ips = nullptr;               // this build's IPS patch
    std::span<const uint8_t> this_bps;                // this build's BPS file (empty: unknown)
    std::string this_build_name;                      // "nestris-ai 0.1.0, build 1234ABCD"
};
std::optional<PatchFileIdentity> identify_patch_file(std::span<const uint8_t> file, const PatchIdentifyContext& context);

}  // namespace nestris
