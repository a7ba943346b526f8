// Every command of nestris-ai and every tool ends the same way (README.md, "Commands"):
//   exit 0  done;
//   exit 1  refused or failed, with one line on stderr: "<program> <command>: error: <what>";
//   exit 2  a usage error: a bad option or argument (CLI11's parse errors included), same line.
// The error line is printable(what, kMaxErrorLine) (error_text.hpp): one line, bounded, control
// bytes as \xNN.
// An allocation refused is said as "out of memory"; an exception no command catches (one escaping
// a thread) ends the program with the same line and exit 1 (std::set_terminate), never with
// std::terminate's message.
// --help and --version print and exit 0.
// SIGINT and SIGTERM: the temporary files of unfinished outputs are removed and the exit status
// is 128 + the signal (130, 143).
// While a command runs, the files it reads are its inputs, which no output may overwrite
// (file_io.hpp, CommandInputs).
#pragma once

#include <functional>
#include <stdexcept>
#include <string>

namespace CLI {
class App;
}

namespace nestris {

inline constexpr int kExitDone = 0, kExitFailed = 1, kExitUsage = 2;

// Thrown by a command body for a usage error the parser cannot see (options that do not go
// together, an argument out of its range): exit 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Runs a subcommand's body inside its CLI11 callback: the body returns the exit code; an
// exception becomes the error line and exit 1 (UsageError: 2). `command` is the full name,
// e.g. "nestris-ai patch".
void run_command(const std::string& command, const std::function<int()>& body);

// Parses the command line and runs: the subcommands' callbacks (which use run_command), then
// `body` if given (a tool without subcommands). Returns the exit code for main().
int run_program(CLI::App& app, int argc, const char* const* argv, const std::function<int()>& body = {});

}  // namespace nestris
