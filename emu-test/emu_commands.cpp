#include "emu_commands.hpp"

namespace nestris {
void add_emu_commands(CLI::App&) {}
}  // namespace nestris
