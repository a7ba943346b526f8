// Seed and level lists ("0-99", "3,7,12"): refused with UsageError or read; a list read is
// never longer than its ranges allow and holds only the numbers written.
#include "base/command_runner.hpp"
#include "tools/cli/command_line.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 256) return 0;
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const std::vector<uint32_t> numbers = nestris::parse_number_list(text);
        if (numbers.size() > 100'000'000u * (text.size() + 1)) std::abort();
    } catch (const nestris::UsageError&) {
    }
    return 0;
}
