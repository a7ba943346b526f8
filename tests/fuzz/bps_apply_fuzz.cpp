// Fuzzes the BPS reader and applier. The fuzzer's bytes get a valid patch CRC32 appended (or a
// random patch would never get past it), and once the structure reads, the footer is given the
// source's CRC32 too, so the actions run. Any input is refused with BpsError or applied; what
// applies has the size the header promised and the CRC32 the footer names.
#include "base/checksums.hpp"
#include "patcher/bps.hpp"

#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

namespace {

[[noreturn]] void fail() { std::abort(); }

void put_le32(std::vector<uint8_t>& p, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) p[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::vector<uint8_t> patch(data, data + size);
    patch.resize(patch.size() + 4);
    put_le32(patch, size, nestris::crc32_of(std::span<const uint8_t>(data, size)));
    nestris::BpsHeader header;
    try {
        header = nestris::parse_bps(patch);
    } catch (const nestris::BpsError&) {
        return 0;
    }
    if (header.source_size > (1u << 20)) return 0;
    const std::vector<uint8_t> source(static_cast<size_t>(header.source_size), 0x5A);
    const size_t footer = patch.size() - 12;
    put_le32(patch, footer, nestris::crc32_of(source));
    put_le32(patch, footer + 8, nestris::crc32_of(std::span<const uint8_t>(patch).first(footer + 8)));
    try {
        const std::vector<uint8_t> target = nestris::apply_bps(source, patch);
        if (target.size() != header.target_size) fail();
        if (nestris::crc32_of(target) != header.target_crc32) fail();
    } catch (const nestris::BpsError&) {
    }
    return 0;
}
