// The input-string grammar ("A*3 .*60 R+B"): refused with InputError or read; what is read
// never exceeds the frame limit, and each frame's buttons format back to a frame that reads the same.
#include "emu-test/input.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<uint8_t> frames;
    try {
        frames = nestris::emu::parse_input(text);
    } catch (const nestris::emu::InputError&) {
        return 0;
    }
    if (frames.size() > nestris::emu::kMaxInputFrames) std::abort();
    for (size_t i = 0; i < frames.size() && i < 64; ++i)
        if (nestris::emu::parse_input(nestris::emu::format_buttons(frames[i])) != std::vector<uint8_t>{frames[i]})
            std::abort();
    return 0;
}
