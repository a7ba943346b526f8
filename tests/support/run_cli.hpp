// Runs subcommands in-process as a user runs them (through the command runner), capturing
// stdout, stderr and the exit code.
#pragma once

#include "base/command_runner.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace nestris::test {

struct CliResult {
    int code = 0;
    std::string out, err;
};

// Swaps std::cout/std::cerr for strings while a command runs.
class Capture {
public:
    Capture() : old_out_(std::cout.rdbuf(out.rdbuf())), old_err_(std::cerr.rdbuf(err.rdbuf())) {}
    ~Capture() {
        std::cout.rdbuf(old_out_);
        std::cerr.rdbuf(old_err_);
    }
    Capture(const Capture&) = delete;
    Capture& operator=(const Capture&) = delete;
    std::ostringstream out, err;

private:
    std::streambuf* old_out_;
    std::streambuf* old_err_;
};

// `add` registers the subcommands under test on a fresh "nestris-ai" app.
inline CliResult run_commands(const std::function<void(CLI::App&)>& add, const std::vector<std::string>& args) {
    CLI::App app{"nestris-ai (test)", "nestris-ai"};
    app.require_subcommand(1);
    add(app);
    std::vector<const char*> argv = {"nestris-ai"};
    for (const std::string& a : args) argv.push_back(a.c_str());
    CliResult result;
    Capture capture;
    result.code = run_program(app, static_cast<int>(argv.size()), argv.data());
    result.out = capture.out.str();
    result.err = capture.err.str();
    return result;
}

}  // namespace nestris::test
