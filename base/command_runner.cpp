#include "base/command_runner.hpp"

#include "base/error_text.hpp"
#include "base/file_io.hpp"

#include <CLI/CLI.hpp>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>

namespace nestris {
namespace {

int exit_code = kExitDone;

// What goes wrong often quotes a file or an argument: the line stays one line, of bounded
// length, with nothing a terminal would act on (error_text.hpp), whatever the message holds.
void error_line(const std::string& command, const char* what) {
    std::cout.flush();
    std::cerr << command << ": error: " << printable(what, kMaxErrorLine) << "\n";
}

// "nestris-ai play" when the parser got as far as a subcommand, else "nestris-ai".
std::string command_name(const CLI::App& app) {
    std::string name = app.get_name();
    const CLI::App* at = &app;
    for (;;) {
        const auto subs = at->get_subcommands();
        if (subs.empty()) break;
        at = subs.front();
        name += " " + at->get_name();
    }
    return name;
}

// CLI11 checks that a subcommand was given before it looks at what it could not place, so
// "nestris-ai frobnicate" would read "A subcommand is required": name what was typed instead.
// Empty when the failure is something else (a subcommand was found, or nothing was left over).
std::string unknown_command(const CLI::App& app) {
    if (app.get_subcommands(std::function<bool(const CLI::App*)>{}).empty() || !app.get_subcommands().empty()) return {};
    const std::vector<std::string> left = app.remaining();
    if (left.empty()) return {};
    const std::string& first = left.front();
    const std::string what = first.rfind("-", 0) == 0 ? "unknown option '" : "unknown command '";
    return what + first + "' (" + app.get_name() + " --help lists the commands)";
}

// CLI11 reads "-1" into an unsigned option as 2^64 - 1: every unsigned option of every command
// gets a check that refuses a negative number (a usage error) before it can wrap.
void refuse_negative_unsigned(CLI::App& app) {
    static const CLI::Validator non_negative(
        [](std::string& text) -> std::string {
            const size_t first = text.find_first_not_of(" \t");
            if (first != std::string::npos && text[first] == '-') return "takes no negative number (got " + text + ")";
            return {};
        },
        "NONNEGATIVE");
    for (CLI::Option* option : app.get_options()) {
        const std::string type = option->get_type_name();
        if (type.rfind("UINT", 0) == 0) option->check(non_negative);
    }
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) refuse_negative_unsigned(*sub);
}

// The standard library's own words for a file system failure ("filesystem error: status: Too
// many levels of symbolic links [a] [b]") as a sentence: what was done to which file, and why.
std::string file_system_failure(const std::filesystem::filesystem_error& e) {
    std::string text = "cannot use '" + e.path1().string() + "'";
    if (!e.path2().empty()) text += " or '" + e.path2().string() + "'";
    if (e.code() == std::errc::too_many_symbolic_link_levels)
        return text + ": too many levels of symbolic links (a link loop?)";
    if (e.code() == std::errc::filename_too_long) return text + ": the name is too long for the file system";
    return text + ": " + e.code().message();
}

// An allocation refused (a limit on the process's memory, a count that asked for too much) says
// so in words: std::bad_alloc's own text is "std::bad_alloc".
std::string what_failed(const std::exception& e) {
    if (dynamic_cast<const std::bad_alloc*>(&e))
        return std::string("out of memory: the system refused an allocation (") + e.what() + ")";
    return e.what();
}

// The program's name for the last resort below: set once, before anything can throw.
char program_name[64] = "nestris";

// The last resort: an exception no command caught (one escaping a thread, or the parser's own
// allocation) ends the program with the error line and exit 1, not std::terminate's message.
[[noreturn]] void on_terminate() noexcept {
    std::string what = "an unexpected failure";
    try {
        if (const std::exception_ptr e = std::current_exception()) std::rethrow_exception(e);
    } catch (const std::exception& e) {
        what = what_failed(e);
    } catch (...) {
    }
    remove_temporary_files();
    std::fflush(stdout);
    std::fprintf(stderr, "%s: error: %s\n", program_name, printable(what, kMaxErrorLine).c_str());
    std::_Exit(kExitFailed);
}

// A cleanup signal (kCleanupSignals: INT, TERM, HUP, QUIT, PIPE): the outputs being written are
// not finished, so their temporary files go (async-signal-safe: unlink only), and the exit
// status is the conventional 128 + the signal.
extern "C" void on_interrupt(int signo) {
    remove_temporary_files();
    ::_exit(128 + signo);
}

void install_interrupt_handler() {
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    for (const int signo : kCleanupSignals) sigaddset(&action.sa_mask, signo);
    for (const int signo : kCleanupSignals) {
        struct sigaction old {};
        // A signal the parent ignores (a background job of a non-interactive shell) stays ignored.
        if (sigaction(signo, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(signo, &action, nullptr);
    }
}

}  // namespace

void run_command(const std::string& command, const std::function<int()>& body) {
    const CommandInputs inputs;  // what the command reads, no output may overwrite
    try {
        exit_code = body();
    } catch (const std::filesystem::filesystem_error& e) {
        error_line(command, file_system_failure(e).c_str());
        exit_code = kExitFailed;
    } catch (const UsageError& e) {
        error_line(command, e.what());
        exit_code = kExitUsage;
    } catch (const std::exception& e) {
        error_line(command, what_failed(e).c_str());
        exit_code = kExitFailed;
    }
}

int run_program(CLI::App& app, int argc, const char* const* argv, const std::function<int()>& body) {
    exit_code = kExitDone;
    std::snprintf(program_name, sizeof program_name, "%s", app.get_name().c_str());
    std::set_terminate(on_terminate);
    install_interrupt_handler();
    refuse_negative_unsigned(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        const std::string unknown = unknown_command(app);
        error_line(command_name(app), unknown.empty() ? e.what() : unknown.c_str());
        std::cerr << "Run with --help for more information.\n";
        return kExitUsage;
    } catch (const std::exception& e) {  // the parser's own failure (an allocation), not the command's
        error_line(command_name(app), what_failed(e).c_str());
        return kExitFailed;
    }
    if (body) run_command(app.get_name(), body);
    return exit_code;
}

}  // namespace nestris
