// run-bin, trace, run-rom: the emulator's subcommands of nestris-ai.
#pragma once

#include "emu-test/debug/fm2.hpp"
#include "emu-test/nes.hpp"

#include <CLI/CLI.hpp>

#include <string>

namespace nestris {
void add_emu_commands(CLI::App& app);

// The movie options run-rom and play share: --movie FILE.fm2 and --power-on hardware|fceux.
void add_movie_options(CLI::App& command, std::string& movie, std::string& power_on);
emu::PowerOn power_on_mode(const std::string& power_on);
// Reads an .fm2 movie for `cart`: Fm2Error naming the file for one it cannot play (a refusal,
// exit 1, like every bad input file); a
// romChecksum of another ROM is a warning on stderr ("nestris-ai <command>: WARNING: ..."), and
// the movie is played anyway, as FCEUX does; otherwise a line on stdout says what was checked.
emu::Fm2Movie load_movie(const std::string& path, const emu::Cartridge& cart, const char* command);
}
