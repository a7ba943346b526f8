#include "patcher_commands.hpp"

namespace nestris {
void add_patcher_commands(CLI::App&) {}
}  // namespace nestris
