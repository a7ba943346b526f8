// nestris-ai: one command line for players and developers. Each area of the project registers
// its own subcommands; this file only puts them together.
#include "base/checksums.hpp"
#include "base/command_runner.hpp"
#include "emu-test/debug/emu_commands.hpp"
#include "patcher/cart_image.hpp"
#include "patcher/patch.hpp"
#include "tools/cli/model_commands.hpp"
#include "tools/cli/patcher_commands.hpp"
#include "tools/cli/play_command.hpp"
#include "tools/harness/version.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

int main(int argc, char** argv) {
    CLI::App app{"nestris-ai: an AI that plays NES Tetris on the cartridge itself.\n"
                 "Builds the IPS and BPS patches for Tetris (USA), applies and checks them, and runs the\n"
                 "game, the AI and the embedded NES emulator headless.",
                 "nestris-ai"};
    app.require_subcommand(1);
    app.set_version_flag("--version", nestris::tools::version_text());
    nestris::add_patcher_commands(app);
    nestris::add_play_command(app);
    nestris::add_emu_commands(app);
    nestris::add_simulate_command(app);
    nestris::add_fidelity_command(app);
    nestris::add_render_command(app);
    if (argc <= 1) {  // nothing typed: the commands there are, as --help lists them (a usage error)
        std::cerr << app.help() << "nestris-ai: give a command (nestris-ai COMMAND --help says more of each)\n";
        return 2;
    }
    return nestris::run_program(app, argc, argv);
}
