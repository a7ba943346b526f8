// build, patch, identify: the player-facing subcommands of nestris-ai.
#pragma once

#include "patcher/rom.hpp"

#include <CLI/CLI.hpp>

namespace nestris {
void add_patcher_commands(CLI::App& app);

// What identify_rom needs to say "this build": its build id and its patch (every byte of which a
// ROM must hold to count as patched by it).
IdentifyContext this_build_context();
}
