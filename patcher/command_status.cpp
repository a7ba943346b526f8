#include "command_status.hpp"

namespace nestris {
namespace {
int exit_code = 0;
}
void set_command_exit_code(int code) { exit_code = code; }
int command_exit_code() { return exit_code; }
}  // namespace nestris
