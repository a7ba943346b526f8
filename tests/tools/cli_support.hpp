// What the command-line tests share: the patcher's commands run in-process, and a synthetic ROM.
#pragma once

#include "tests/patcher/support.hpp"
#include "tests/support/run_cli.hpp"
#include "tools/cli/patcher_commands.hpp"

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace nestris::test {

inline CliResult run_cli(const std::vector<std::string>& args) { return run_commands(add_patcher_commands, args); }

inline void write_plain(const std::filesystem::path& p, const std::vector<uint8_t>& bytes) {
    std::ofstream out(p, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// Random bytes with Tetris (USA)'s header and size: not the game.
inline std::vector<uint8_t> synthetic_rom(uint32_t seed) {
    std::mt19937 rng(seed);
    return concat(tetris_header_bytes(), random_bytes(rng, 49152));
}

}  // namespace nestris::test
