// The emulator's commands and their outputs (issue 35, round two): no output onto any input (the
// movie, the label file, not only the ROM), long outputs streamed with bounded counts, and an
// interrupted command (SIGINT, SIGTERM) leaves no temporary file and exits 128 + the signal.
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "emu-test/debug/emu_commands.hpp"
#include "tests/emu/emu_test_support.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/scratch_dir.hpp"

#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>

using namespace nestris;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

test::CliResult run_emu(const std::vector<std::string>& args) { return test::run_commands(add_emu_commands, args); }

void write_text(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

std::string text_of(const fs::path& p) { return read_text_file(p); }

// An MMC1 image that loops at $8000 forever, the NMI off.
std::vector<uint8_t> looping_rom() {
    emu::test::TestRom rom;
    rom.put(0x8000, {0x4C, 0x00, 0x80}).vectors(0x8000, 0x8000);
    return rom.image();
}

// A raw program that never traps (NOP, JMP $0000): trace follows it as long as -n says.
const std::vector<uint8_t> kEndless = {0xEA, 0x4C, 0x00, 0x00};

void write_bytes(const fs::path& p, const std::vector<uint8_t>& bytes) {
    std::ofstream f(p, std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// The temporary files an interrupted writer could leave: ".NAME.XXXXXX".
size_t hidden_files(const test::ScratchDir& dir) {
    size_t n = 0;
    for (const std::string& name : dir.listing()) n += name[0] == '.';
    return n;
}

// Runs `args` in a child process (fork, the command run as main() runs it), returning its pid.
pid_t start_child(const std::vector<std::string>& args) {
    std::cout.flush();
    const pid_t pid = ::fork();
    if (pid == 0) {
        const test::CliResult r = run_emu(args);  // its output captured, not mixed into ours
        ::_exit(r.code);
    }
    return pid;
}

// Waits until `dir` holds a hidden file of at least `bytes` (the output being written).
bool wait_for_partial_output(const test::ScratchDir& dir, uintmax_t bytes) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < give_up) {
        for (const auto& e : fs::directory_iterator(dir.path())) {
            std::error_code ec;
            if (e.path().filename().string()[0] == '.' && fs::file_size(e.path(), ec) >= bytes && !ec) return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
}

}  // namespace

TEST_CASE("outputs: run-rom never writes onto its movie or its label file (path, hard or symbolic link)") {
    test::ScratchDir dir("out_inputs_runrom");
    write_bytes(dir / "loop.nes", looping_rom());
    const std::string rom = (dir / "loop.nes").string(), movie = (dir / "m.fm2").string();
    const std::string movie_text = "version 3\n|0|........|........||\n|0|........|........||\n";
    write_text(movie, movie_text);
    fs::create_hard_link(movie, dir / "hard.fm2");
    fs::create_symlink("m.fm2", dir / "soft.fm2");
    for (const char* option : {"--ram-trace", "--ram", "--png"}) {
        for (const char* name : {"m.fm2", "hard.fm2", "soft.fm2"}) {
            const test::CliResult r = run_emu({"run-rom", rom, "--movie", movie, option, (dir / name).string()});
            INFO(option << " " << name << ": " << r.err);
            CHECK(r.code == 1);
            CHECK_THAT(r.err, Contains("nestris-ai run-rom: error:") && Contains("is an input of this command"));
            CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
            CHECK(text_of(movie) == movie_text);
        }
    }
    write_text(dir / "lab.txt", "al 008000 .start\n");
    test::CliResult r = run_emu({"run-rom", rom, "--frames", "1", "--labels", (dir / "lab.txt").string(), "--ram",
                                 (dir / "lab.txt").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("is an input of this command"));
    CHECK(text_of(dir / "lab.txt") == "al 008000 .start\n");
    // Two outputs onto one file: the first would be lost.
    r = run_emu({"run-rom", rom, "--frames", "1", "--png", (dir / "x").string(), "--ram", (dir / "x").string()});
    CHECK(r.code == 2);  // a usage error
    CHECK_THAT(r.err, Contains("same file"));
    CHECK(dir.listing() == std::vector<std::string>{"hard.fm2", "lab.txt", "loop.nes", "m.fm2", "soft.fm2"});
    // The movie and its RAM trace elsewhere: written.
    r = run_emu({"run-rom", rom, "--movie", movie, "--ram-trace", (dir / "rt.txt").string()});
    CHECK(r.code == 0);
    const std::string trace = text_of(dir / "rt.txt");
    CHECK(std::count(trace.begin(), trace.end(), '\n') == 2);
}

TEST_CASE("outputs: trace never writes onto its label file, used or not") {
    test::ScratchDir dir("out_inputs_trace");
    write_bytes(dir / "loop.nes", looping_rom());
    write_text(dir / "lab.txt", "al 008000 .start\n");
    for (const std::vector<std::string>& extra : {std::vector<std::string>{}, {"--pc", "start"}}) {
        std::vector<std::string> args = {"trace", (dir / "loop.nes").string(), "-n", "5", "--labels",
                                         (dir / "lab.txt").string(), "-o", (dir / "lab.txt").string()};
        args.insert(args.end(), extra.begin(), extra.end());
        const test::CliResult r = run_emu(args);
        CHECK(r.code == 1);
        CHECK_THAT(r.err, Contains("nestris-ai trace: error:") && Contains("is an input of this command"));
        CHECK(text_of(dir / "lab.txt") == "al 008000 .start\n");
    }
    CHECK(dir.listing() == std::vector<std::string>{"lab.txt", "loop.nes"});
}

TEST_CASE("outputs: trace -n is bounded (10^8, named in --help) and the trace is streamed, not held") {
    test::ScratchDir dir("out_trace_bound");
    write_bytes(dir / "endless.bin", kEndless);
    test::CliResult r = run_emu({"trace", (dir / "endless.bin").string(), "-n", "100000001"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("nestris-ai trace: error:"));
    r = run_emu({"trace", "--help"});
    CHECK_THAT(r.out, Contains("at most 10^8"));
    r = run_emu({"run-rom", "--help"});
    CHECK_THAT(r.out, Contains("at most 10000000"));
    // A million instructions (some 85 MB of text, once held whole, twice over) in a child whose
    // memory is then measured.
    std::cout.flush();
    const pid_t pid = ::fork();
    if (pid == 0) {
        const test::CliResult child = run_emu({"trace", (dir / "endless.bin").string(), "-n", "1000000", "-o",
                                               (dir / "t.txt").string()});
        rusage usage{};
        ::getrusage(RUSAGE_SELF, &usage);
        ::_exit(child.code != 0 ? 1 : usage.ru_maxrss > 64 * 1024 ? 3 : 0);  // ru_maxrss in KiB
    }
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);  // 3: more than 64 MB resident
    CHECK(fs::file_size(dir / "t.txt") > 50'000'000);
    CHECK(dir.listing() == std::vector<std::string>{"endless.bin", "t.txt"});
}

TEST_CASE("outputs: SIGINT, TERM, HUP, QUIT or PIPE during trace -o or run-rom --ram-trace leaves no temporary file, exit 128 + signal") {
    struct Case {
        int signo;
        std::vector<std::string> args;
    };
    test::ScratchDir dir("out_signal");
    write_bytes(dir / "endless.bin", kEndless);
    write_bytes(dir / "loop.nes", looping_rom());
    write_text(dir / "tr.txt", "the old trace\n");
    const Case cases[] = {
        {SIGINT, {"trace", (dir / "endless.bin").string(), "-n", "100000000", "-o", (dir / "tr.txt").string()}},
        {SIGTERM, {"trace", (dir / "endless.bin").string(), "-n", "100000000", "-o", (dir / "tr.txt").string()}},
        {SIGHUP, {"trace", (dir / "endless.bin").string(), "-n", "100000000", "-o", (dir / "tr.txt").string()}},
        {SIGQUIT, {"trace", (dir / "endless.bin").string(), "-n", "100000000", "-o", (dir / "tr.txt").string()}},
        {SIGPIPE, {"trace", (dir / "endless.bin").string(), "-n", "100000000", "-o", (dir / "tr.txt").string()}},
        {SIGINT, {"run-rom", (dir / "loop.nes").string(), "--frames", "10000000", "--ram-trace", (dir / "rt.txt").string()}},
        {SIGHUP, {"run-rom", (dir / "loop.nes").string(), "--frames", "10000000", "--ram-trace", (dir / "rt.txt").string()}},
        {SIGQUIT, {"run-rom", (dir / "loop.nes").string(), "--frames", "10000000", "--ram-trace", (dir / "rt.txt").string()}},
    };
    for (const Case& c : cases) {
        const pid_t pid = start_child(c.args);
        REQUIRE(pid > 0);
        const bool writing = wait_for_partial_output(dir, 1 << 20);  // streamed: a partial file grows
        ::kill(pid, c.signo);
        int status = 0;
        REQUIRE(::waitpid(pid, &status, 0) == pid);
        INFO(c.args[0] << " signal " << c.signo);
        CHECK(writing);
        REQUIRE(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 128 + c.signo);
        CHECK(hidden_files(dir) == 0);
        CHECK(text_of(dir / "tr.txt") == "the old trace\n");
    }
    CHECK(dir.listing() == std::vector<std::string>{"endless.bin", "loop.nes", "tr.txt"});
}
