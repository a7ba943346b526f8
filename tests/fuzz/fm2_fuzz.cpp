// FCEUX movies (.fm2): any bytes are refused with Fm2Error or read; a movie read writes back,
// frame by frame, to lines that read as the same frames, and plays on a tiny NROM cartridge.
#include "emu-test/debug/fm2.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

// 16 KiB of NOPs (vectors into them) and 8 KiB of CHR RAM: a program that runs forever.
std::vector<uint8_t> nop_cartridge() {
    std::vector<uint8_t> image(16 + 0x4000, 0xEA);
    const uint8_t header[16] = {'N', 'E', 'S', 0x1A, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    std::copy(header, header + 16, image.begin());
    for (size_t v = 16 + 0x3FFA; v < 16 + 0x4000; v += 2) {
        image[v] = 0x00;
        image[v + 1] = 0x80;
    }
    return image;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace nestris::emu;
    Fm2Movie movie;
    try {
        movie = parse_fm2(std::string_view(reinterpret_cast<const char*>(data), size));
    } catch (const Fm2Error&) {
        return 0;
    }
    std::string again = "version 3\nport0 1\nport1 0\n";  // fm2_line's ports (as fm2_header writes them)
    for (const Fm2Frame& f : movie.frames) again += fm2_line(f);
    if (parse_fm2(again).frames != movie.frames) std::abort();
    static const std::vector<uint8_t> image = nop_cartridge();
    Nes nes(image);
    fm2_power_on(nes, movie, PowerOn::Fceux);
    for (size_t i = 0; i < movie.frames.size() && i < 8; ++i) run_fm2_frame(nes, movie, i);
    return 0;
}
