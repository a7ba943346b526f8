// play: the patched game headless in the embedded NES (emu-test), for players and developers.
#pragma once

#include <CLI/CLI.hpp>

namespace nestris {
void add_play_command(CLI::App& app);
}
