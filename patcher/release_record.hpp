// The release record (dist/release.txt): which build the patches in dist/ are, and the
// checksums of the two patch files and of the ROM they make. It is the one place the patched
// ROM's checksum lives, because computing it needs the game: `nestris-ai release --rom` writes
// it, `nestris-ai build` reads the CRC32 from it to write the BPS without the game, and the
// tests check it against the build (and, given the game, against the patched ROM).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace nestris {

struct ReleaseRecordError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ReleaseRecord {
    std::string version;       // "0.1.0"
    uint32_t build_id = 0;     // the cartridge's build id (CRC32 of its code)
    std::string ips_sha1, bps_sha1, patched_sha1;  // upper-case hex, 40 digits
    uint32_t patched_crc32 = 0;
    bool operator==(const ReleaseRecord&) const = default;
};

// Reads "key = value" lines ('#' starts a comment). Throws ReleaseRecordError naming the line
// of a problem, an unknown key, or a key missing.
ReleaseRecord parse_release_record(std::string_view text);
// The file's text, comments included; parse_release_record reads it back equal.
std::string format_release_record(const ReleaseRecord& record);

}  // namespace nestris
