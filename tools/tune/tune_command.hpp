// nestris-tune as a function, so that the tests run it as a user does (tools/tune/nestris_tune.cpp is
// the program).
#pragma once

namespace nestris::tools {
// Parses the command line and tunes; returns the exit code (command_runner.hpp's convention).
int run_tune(int argc, const char* const* argv);
}
