// run-bin, trace, run-rom: the emulator's subcommands of nestris-ai.
#pragma once

#include <CLI/CLI.hpp>

namespace nestris {
void add_emu_commands(CLI::App& app);
}
