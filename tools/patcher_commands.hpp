// build, patch, identify: the player-facing subcommands of nestris-ai.
#pragma once

#include <CLI/CLI.hpp>

namespace nestris {
void add_patcher_commands(CLI::App& app);
}
