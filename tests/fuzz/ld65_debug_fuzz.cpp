// The ld65 debug-info and config readers the assembler driver uses: refused with Ld65Error or
// read; segments read lie inside 24 bits.
#include "patcher/ld65_files.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const nestris::DebugInfo info = nestris::parse_ld65_debug(text);
        for (const nestris::DebugSegment& s : info.segments)
            if (static_cast<uint64_t>(s.start) + s.size > (1ull << 32)) std::abort();
    } catch (const nestris::Ld65Error&) {
    }
    try {
        nestris::parse_ld65_memory(text);
    } catch (const nestris::Ld65Error&) {
    }
    return 0;
}
