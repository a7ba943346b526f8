// Fuzzes the IPS writer: the input is split into a source and a target file; the patch made
// from their difference must survive writing and reading and turn the source into the target.
#include "patcher/ips.hpp"

#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    // The first two bytes choose where the source ends; the rest is source then target.
    const size_t body = size - 2;
    const size_t split = body == 0 ? 0 : (size_t{data[0]} << 8 | data[1]) % (body + 1);
    const std::vector<uint8_t> source(data + 2, data + 2 + split);
    std::vector<uint8_t> target(data + 2 + split, data + size);
    // Targets that share most bytes with the source are the interesting ones: overlay them.
    if (target.size() >= 1 && (target[0] & 1)) {
        std::vector<uint8_t> overlaid = source;
        for (size_t i = 1; i + 1 < target.size(); i += 2)
            if (!overlaid.empty()) overlaid[target[i] * 7u % overlaid.size()] = target[i + 1];
        target = overlaid;
    }
    const nestris::IpsPatch patch = nestris::diff_ips(source, target);
    const std::vector<uint8_t> written = nestris::serialize_ips(patch);
    if (nestris::parse_ips(written) != patch) std::abort();
    if (nestris::apply_ips(source, patch, {.allow_growth = true, .allow_truncation = true}) != target) std::abort();
    // Never bigger than one literal record per 65535 changed-or-not bytes of the target.
    if (written.size() > 8 + 3 + target.size() + 5 * (target.size() / 65535 + 1)) std::abort();
    return 0;
}
