#include "tool_commands.hpp"

namespace nestris {
void add_tool_commands(CLI::App&) {}
}  // namespace nestris
