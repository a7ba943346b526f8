// The emulator's iNES loader: any bytes are refused with InesError or make a machine that runs.
#include "emu-test/cartridge.hpp"
#include "emu-test/nes.hpp"

#include <cstdint>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::span<const uint8_t> input(data, size);
    try {
        nestris::emu::parse_ines(input);
    } catch (const nestris::emu::InesError&) {
        return 0;
    }
    nestris::emu::Nes nes(input);  // what parses also boots
    for (int i = 0; i < 500; ++i) nes.step();
    return 0;
}
