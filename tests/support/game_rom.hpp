// Tests that need the real game take it from the user's machine: TETRIS_ROM=/path/to/tetris.nes.
// Without it they print a line that ctest reports as "skipped" (never a silent pass).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace nestris::test {

inline std::optional<std::vector<uint8_t>> tetris_rom_or_skip() {
    const char* path = std::getenv("TETRIS_ROM");
    if (!path || !*path) {
        std::cout << "SKIPPED: set TETRIS_ROM=/path/to/tetris.nes (Tetris (USA)) to run this test\n";
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::cout << "SKIPPED: TETRIS_ROM=" << path << " cannot be read\n";
        return std::nullopt;
    }
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

}  // namespace nestris::test
