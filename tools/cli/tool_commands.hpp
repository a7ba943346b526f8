// The developer subcommands of nestris-ai that live in tools/ (fidelity, simulate, render, ...).
#pragma once

#include <CLI/CLI.hpp>

namespace nestris {
void add_tool_commands(CLI::App& app);
}
