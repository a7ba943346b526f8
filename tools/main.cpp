// nestris-ai: one command line for players and developers. Each area of the project registers
// its own subcommands; this file only puts them together.
#include "command_runner.hpp"
#include "emu_commands.hpp"
#include "patcher_commands.hpp"
#include "play_command.hpp"
#include "tool_commands.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

int main(int argc, char** argv) {
    CLI::App app{"nestris-ai: an AI that plays NES Tetris on the cartridge itself.\n"
                 "Builds the IPS patch for Tetris (USA), applies and checks it, and runs the\n"
                 "game, the AI and the embedded NES emulator headless.",
                 "nestris-ai"};
    app.require_subcommand(1);
    app.set_version_flag("--version", NESTRIS_VERSION);
    nestris::add_patcher_commands(app);
    nestris::add_play_command(app);
    nestris::add_emu_commands(app);
    nestris::add_tool_commands(app);
    return nestris::run_program(app, argc, argv);
}
