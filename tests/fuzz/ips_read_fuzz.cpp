// Fuzzes the IPS reader: any input is refused with IpsError or read; what is read must write
// back to the very same bytes, and apply to a file exactly as a naive applier does.
#include "patcher/ips.hpp"

#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

namespace {

[[noreturn]] void fail() { std::abort(); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::span<const uint8_t> input(data, size);
    nestris::IpsPatch patch;
    try {
        patch = nestris::parse_ips(input);
    } catch (const nestris::IpsError&) {
        return 0;
    }
    // The reader keeps every detail (record kinds, order, truncation), so writing reproduces
    // the input exactly; a writer error here means reader and writer disagree on the format.
    const std::vector<uint8_t> written = nestris::serialize_ips(patch);
    if (!std::equal(written.begin(), written.end(), input.begin(), input.end())) fail();

    const std::vector<uint8_t> file(4096, 0x5A);
    uint64_t end = file.size();
    for (const nestris::IpsRecord& r : patch.records) end = std::max<uint64_t>(end, r.end());
    if (patch.truncate_to) end = std::max<uint64_t>(end, *patch.truncate_to);
    // Without growth or truncation allowed it applies exactly when nothing reaches past the end
    // of the file and no truncation record cuts it short.
    const bool shortens = patch.truncate_to && *patch.truncate_to < file.size();
    try {
        const std::vector<uint8_t> out = nestris::apply_ips(file, patch);
        if (end != file.size() || shortens) fail();
        if (out.size() != (patch.truncate_to ? *patch.truncate_to : file.size())) fail();
    } catch (const nestris::IpsError&) {
        if (end == file.size() && !shortens) fail();
    }
    if (end > (1u << 22)) return 0;  // keep growth cheap
    std::vector<uint8_t> naive = file;
    for (const nestris::IpsRecord& r : patch.records) {
        if (naive.size() < r.end()) naive.resize(r.end(), 0);
        for (uint32_t i = 0; i < r.length; ++i) naive[r.offset + i] = r.rle ? r.data[0] : r.data[i];
    }
    if (patch.truncate_to) naive.resize(*patch.truncate_to, 0);
    if (nestris::apply_ips(file, patch, {.allow_growth = true, .allow_truncation = true}) != naive) fail();
    return 0;
}
