// What the web page must show, computed by the native build: a ROM with the page's patch
// applied, then N frames of the embedded NES from power-on with no button held, then M more
// frames with BUTTONS held (controller bits: A 1, B 2, Select 4, Start 8, Up 16, Down 32, Left
// 64, Right 128). Prints JSON for web/test/page_test.mjs: the patched ROM's SHA-1 and the
// SHA-1s of the RGB pictures after the N frames and after the M more.
//   web-expect ROM PATCH.ips FRAMES BUTTONS HELD_FRAMES
#include "base/checksums.hpp"
#include "base/file_io.hpp"
#include "emu-test/nes.hpp"
#include "patcher/ips.hpp"
#include "patcher/patch.hpp"

#include <iostream>
#include <string>

int main(int argc, char** argv) {
    using namespace nestris;
    if (argc != 6) {
        std::cerr << "usage: web-expect ROM PATCH.ips FRAMES BUTTONS HELD_FRAMES\n";
        return 2;
    }
    try {
        const std::vector<uint8_t> rom = read_file(argv[1]);
        const IpsPatch patch = parse_ips(read_file(argv[2]));
        const std::vector<uint8_t> patched = apply_ips(rom, patch);
        check_patched(rom, patch, patched);
        emu::Nes nes(patched);
        const uint64_t frames = std::stoull(argv[3]);
        nes.run_frames(frames, 0);
        const std::string picture = sha1_hex(nes.screenshot().rgb);
        const uint64_t first_frames = nes.frame();
        nes.run_frames(std::stoull(argv[5]), static_cast<uint8_t>(std::stoul(argv[4])));
        std::cout << "{\"patched_sha1\":\"" << sha1_hex(patched) << "\",\"picture_sha1\":\"" << picture
                  << "\",\"frames\":" << first_frames << ",\"held_picture_sha1\":\""
                  << sha1_hex(nes.screenshot().rgb) << "\",\"held_frames\":" << nes.frame() << "}\n";
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "web-expect: error: " << e.what() << "\n";
        return 1;
    }
}
