#include "patcher/release_record.hpp"

#include "base/checksums.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

namespace nestris {
namespace {

std::string trim(std::string_view s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return std::string(s.substr(b, e - b));
}

bool is_hex(const std::string& s, size_t digits) {
    if (s.size() != digits) return false;
    for (char c : s)
        if (!std::isxdigit(static_cast<unsigned char>(c)) || std::islower(static_cast<unsigned char>(c))) return false;
    return true;
}

}  // namespace

ReleaseRecord parse_release_record(std::string_view text) {
    static const char* const kKeys[] = {"version", "build", "ips_sha1", "bps_sha1", "patched_sha1", "patched_crc32"};
    std::map<std::string, std::string> values;
    std::istringstream in{std::string(text)};
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string content = trim(line.substr(0, line.find('#')));
        if (content.empty()) continue;
        const size_t eq = content.find('=');
        const std::string where = "release record, line " + std::to_string(number) + ": ";
        if (eq == std::string::npos) throw ReleaseRecordError(where + "expected key = value");
        const std::string key = trim(std::string_view(content).substr(0, eq));
        const std::string value = trim(std::string_view(content).substr(eq + 1));
        if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys))
            throw ReleaseRecordError(where + "unknown key '" + key + "'");
        if (!values.emplace(key, value).second) throw ReleaseRecordError(where + "'" + key + "' given twice");
        const bool ok = key == "version"                       ? !value.empty()
                        : key == "build" || key == "patched_crc32" ? is_hex(value, 8)
                                                                   : is_hex(value, 40);
        if (!ok) throw ReleaseRecordError(where + "'" + key + "' has a malformed value '" + value + "'");
    }
    for (const char* key : kKeys)
        if (!values.count(key)) throw ReleaseRecordError(std::string("release record: '") + key + "' is missing");
    ReleaseRecord r;
    r.version = values["version"];
    r.build_id = static_cast<uint32_t>(std::stoul(values["build"], nullptr, 16));
    r.ips_sha1 = values["ips_sha1"];
    r.bps_sha1 = values["bps_sha1"];
    r.patched_sha1 = values["patched_sha1"];
    r.patched_crc32 = static_cast<uint32_t>(std::stoul(values["patched_crc32"], nullptr, 16));
    return r;
}

std::string format_release_record(const ReleaseRecord& r) {
    std::ostringstream out;
    out << "# The release in this folder: the build the two patches are, their SHA-1s, and the ROM\n"
           "# they make from Tetris (USA). Written by `nestris-ai release --rom tetris.nes` (the patched\n"
           "# ROM's checksums need the game); `nestris-ai build` takes the patched ROM's CRC32 from here\n"
           "# to write the BPS without the game. Tests check that this build makes both files byte for\n"
           "# byte, and, given the game (TETRIS_ROM), that the patched ROM has these checksums.\n"
        << "version = " << r.version << "\n"
        << "build = " << crc32_hex(r.build_id) << "\n"
        << "ips_sha1 = " << r.ips_sha1 << "\n"
        << "bps_sha1 = " << r.bps_sha1 << "\n"
        << "patched_sha1 = " << r.patched_sha1 << "\n"
        << "patched_crc32 = " << crc32_hex(r.patched_crc32) << "\n";
    return out.str();
}

}  // namespace nestris
