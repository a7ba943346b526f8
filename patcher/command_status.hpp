// Subcommands run inside CLI11 callbacks; they report their exit code here so main() returns it.
#pragma once

namespace nestris {

void set_command_exit_code(int code);
int command_exit_code();

}  // namespace nestris
