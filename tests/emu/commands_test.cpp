// The emulator's subcommands (run-bin, trace, run-rom) as a user runs them: outputs written
// atomically or not at all, inputs checked before they are opened, numbers that do not wrap.
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "emu-test/debug/emu_commands.hpp"
#include "tests/emu/emu_test_support.hpp"
#include "tests/support/file_size_limit.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/scratch_dir.hpp"

#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

using namespace nestris;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

test::CliResult run_emu(const std::vector<std::string>& args) { return test::run_commands(add_emu_commands, args); }

void write_bytes(const fs::path& p, const std::vector<uint8_t>& bytes) {
    std::ofstream f(p, std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// An MMC1 image that loops at $8000 forever, the NMI off.
std::vector<uint8_t> looping_rom() {
    emu::test::TestRom rom;
    rom.put(0x8000, {0x4C, 0x00, 0x80}).vectors(0x8000, 0x8000);
    return rom.image();
}

}  // namespace

TEST_CASE("emu commands: run-rom writes its PNG and RAM atomically, never onto its input or a device") {
    test::ScratchDir dir("emu_cmd_out");
    write_bytes(dir / "loop.nes", looping_rom());
    test::CliResult r = run_emu({"run-rom", (dir / "loop.nes").string(), "--frames", "2", "--png", (dir / "s.png").string(),
                     "--ram", (dir / "ram.bin").string()});
    REQUIRE(r.code == 0);
    CHECK(read_file(dir / "ram.bin").size() == 2048);
    const std::vector<uint8_t> png = read_file(dir / "s.png");
    REQUIRE(png.size() > 8);
    CHECK(png[1] == 'P');
    CHECK_THAT(r.out, Contains("ran 2 frames"));
    // Onto the ROM it ran: refused, the ROM untouched.
    r = run_emu({"run-rom", (dir / "loop.nes").string(), "--frames", "1", "--ram", (dir / "loop.nes").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("nestris-ai run-rom: error:") && Contains("is an input"));
    CHECK(read_file(dir / "loop.nes") == looping_rom());
    // Into a directory that does not exist, or onto a device: an error, nothing written.
    r = run_emu({"run-rom", (dir / "loop.nes").string(), "--frames", "1", "--png", (dir / "no" / "s.png").string()});
    CHECK(r.code == 1);
    r = run_emu({"run-rom", (dir / "loop.nes").string(), "--frames", "1", "--png", "/dev/null"});
    CHECK(r.code == 1);
    CHECK(fs::is_character_file("/dev/null"));
    CHECK(dir.listing() == std::vector<std::string>{"loop.nes", "ram.bin", "s.png"});
}

TEST_CASE("emu commands: run-rom reports the frames run when the CPU jams, not the frames asked for") {
    test::ScratchDir dir("emu_cmd_rate");
    emu::test::TestRom rom;
    rom.put(0x8000, {0x02}).vectors(0x8000, 0x8000);  // KIL: the CPU jams at once
    write_bytes(dir / "jam.nes", rom.image());
    const test::CliResult r = run_emu({"run-rom", (dir / "jam.nes").string(), "--frames", "100"});
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Contains("ran 1 frames"));
    CHECK_THAT(r.err, Contains("jammed"));
}

TEST_CASE("emu commands: run-rom and trace say where the CPU ran code in PRG-RAM never written") {
    test::ScratchDir dir("emu_cmd_unwritten");
    emu::test::TestRom rom;
    rom.put(0x8000, {0x4C, 0x23, 0x61}).vectors(0x8000, 0x8000);  // JMP $6123: never written
    write_bytes(dir / "wild.nes", rom.image());
    test::CliResult r = run_emu({"run-rom", (dir / "wild.nes").string(), "--frames", "100"});
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Contains("ran 0 frames"));
    CHECK_THAT(r.err, Contains("the CPU ran code at $6123 in PRG-RAM that was never written"));
    r = run_emu({"trace", (dir / "wild.nes").string(), "-n", "100"});
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("# the CPU ran code at $6123 in PRG-RAM that was never written"));
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 3);  // the JMP, the line at $6123, the note
}

TEST_CASE("emu commands: a refused input leaves no trace file, a FIFO is refused, not waited on") {
    test::ScratchDir dir("emu_cmd_in");
    REQUIRE(::mkfifo((dir / "fifo").c_str(), 0644) == 0);
    test::CliResult r = run_emu({"trace", (dir / "fifo").string(), "-o", (dir / "t.txt").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("not a regular file"));
    CHECK_FALSE(fs::exists(dir / "t.txt"));
    r = run_emu({"run-bin", (dir / "fifo").string()});
    CHECK(r.code == 1);
    write_bytes(dir / "empty.bin", {});
    r = run_emu({"run-bin", (dir / "empty.bin").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("is empty"));
    // A load that runs past $FFFF names the address in hex.
    write_bytes(dir / "two.bin", {0xEA, 0xEA});
    r = run_emu({"run-bin", (dir / "two.bin").string(), "--load", "FFFF"});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("at $FFFF runs past"));
}

TEST_CASE("emu commands: a movie run-rom cannot play is a refusal (exit 1), its error line bounded and escaped") {
    test::ScratchDir dir("emu_cmd_movie");
    write_bytes(dir / "loop.nes", looping_rom());
    const std::string rom = (dir / "loop.nes").string(), movie = (dir / "m.fm2").string();
    auto write_movie = [&](const std::string& text) { write_bytes(dir / "m.fm2", std::vector<uint8_t>(text.begin(), text.end())); };
    write_movie("version 3\n|0|........|........||\n");
    test::CliResult r = run_emu({"run-rom", rom, "--movie", movie});
    REQUIRE(r.code == 0);  // the good movie plays
    for (const std::string& bad : {std::string("version 2\n"), std::string("version 3\npalFlag 1\n"),
                                   std::string("version 3\n|0|...X....|........||\n"), std::string("FCM\x1a")}) {
        write_movie(bad);
        r = run_emu({"run-rom", rom, "--movie", movie});
        INFO(bad);
        CHECK(r.code == 1);  // the file is bad, not the command line
        CHECK_THAT(r.err, Contains("nestris-ai run-rom: error: " + movie + ": line "));
    }
    // A 1 MB field and an escape sequence: one short line, nothing a terminal acts on.
    write_movie("version 3\nguid x\n|" + std::string(1 << 20, '9') + "\x1b[2J|........|........||\n");
    r = run_emu({"run-rom", rom, "--movie", movie});
    CHECK(r.code == 1);
    CHECK(r.err.size() < 400);
    CHECK(r.err.find('\x1b') == std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    write_movie("version 3\nport0 1\n|0|..\x1b.....|........||\n");
    r = run_emu({"run-rom", rom, "--movie", movie});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("'\\x1B' in column 3"));
    CHECK(r.err.find('\x1b') == std::string::npos);
}

TEST_CASE("emu commands: a long .fm2 movie over 16 MiB is text and read with the text limit") {
    // 1.2 M frames of 23 bytes: ~28 MB, a valid movie the binary limit (16 MiB) used to refuse.
    test::ScratchDir dir("emu_cmd_long_movie");
    write_bytes(dir / "loop.nes", looping_rom());
    constexpr size_t kFrames = 1'200'000;
    std::string text = "version 3\n";
    const std::string line = "|0|........|........||\n";
    text.reserve(text.size() + kFrames * line.size());
    for (size_t i = 0; i < kFrames; ++i) text += line;
    REQUIRE(text.size() > kMaxBinaryInput);
    REQUIRE(text.size() < kMaxTextInput);
    write_bytes(dir / "long.fm2", std::vector<uint8_t>(text.begin(), text.end()));
    const test::CliResult r =
        run_emu({"run-rom", (dir / "loop.nes").string(), "--movie", (dir / "long.fm2").string(), "--frames", "1"});
    INFO(r.err);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("movie: 1200000 frames"));
}

// A run that fails (the CPU jammed, no trap in time, a trap elsewhere than --success) reports on the
// standard output as before, and says why in the one error line (exit 1).
TEST_CASE("emu commands: run-bin's failures end with the command's error line") {
    test::ScratchDir dir("emu_cmd_fail");
    write_bytes(dir / "jam.bin", {0x02});              // a JAM opcode at $0000
    write_bytes(dir / "trap.bin", {0x4C, 0x00, 0x00});  // JMP $0000: a trap at once
    write_bytes(dir / "run.bin", {0xE8, 0x4C, 0x00, 0x00});  // INX, JMP $0000: no trap
    test::CliResult r = run_emu({"run-bin", (dir / "jam.bin").string(), "--pc", "0"});
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Contains("CPU jammed at $0000"));
    CHECK_THAT(r.err, Contains("nestris-ai run-bin: error: the CPU jammed at $0000"));
    r = run_emu({"run-bin", (dir / "run.bin").string(), "--pc", "0", "--max-cycles", "1000"});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("nestris-ai run-bin: error: no trap within 1000 cycles"));
    r = run_emu({"run-bin", (dir / "trap.bin").string(), "--pc", "0", "--success", "336D"});
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Contains("FAILURE: expected the trap at $336D"));
    CHECK_THAT(r.err, Contains("nestris-ai run-bin: error: trapped at $0000, not at the success address $336D"));
    r = run_emu({"run-bin", (dir / "trap.bin").string(), "--pc", "0", "--success", "0"});
    CHECK(r.code == 0);
    CHECK(r.err.empty());
}

TEST_CASE("emu commands: negative or oversized numbers are usage errors, never wrapped") {
    test::ScratchDir dir("emu_cmd_num");
    write_bytes(dir / "loop.nes", looping_rom());
    write_bytes(dir / "trap.bin", {0x4C, 0x00, 0x00});  // JMP $0000: a trap at once
    test::CliResult r = run_emu({"run-bin", (dir / "trap.bin").string(), "--pc", "0", "--max-cycles", "-1"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("nestris-ai run-bin: error:"));
    r = run_emu({"trace", (dir / "loop.nes").string(), "--skip-frames", "-1"});
    CHECK(r.code == 2);
    r = run_emu({"trace", (dir / "loop.nes").string(), "--skip-frames", "100000000", "-n", "1"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("--skip-frames is larger than"));
    r = run_emu({"trace", (dir / "trap.bin").string(), "--start-cycles", "-1"});
    CHECK(r.code == 2);
}

TEST_CASE("emu commands: on a full disk the PNG, RAM dump and trace are not written, and the command fails") {
    test::ScratchDir dir("emu_cmd_full");
    write_bytes(dir / "loop.nes", looping_rom());
    test::CliResult png, ram, trace;
    {
        const test::FileSizeLimit full_disk(100);  // every output here is bigger
        png = run_emu({"run-rom", (dir / "loop.nes").string(), "--frames", "1", "--png", (dir / "s.png").string()});
        ram = run_emu({"run-rom", (dir / "loop.nes").string(), "--frames", "1", "--ram", (dir / "ram.bin").string()});
        trace = run_emu({"trace", (dir / "loop.nes").string(), "-n", "50", "-o", (dir / "t.txt").string()});
    }
    CHECK(png.code == 1);
    CHECK_THAT(png.err, Contains("nestris-ai run-rom: error:"));
    CHECK(ram.code == 1);
    CHECK(trace.code == 1);
    CHECK(dir.listing() == std::vector<std::string>{"loop.nes"});  // no output, no temporary file
}

TEST_CASE("emu commands: run-rom reads a test ROM's report at $6000 (status, text) and exits by it") {
    test::ScratchDir dir("emu_cmd_report");
    for (const uint8_t status : {uint8_t{0x00}, uint8_t{0x03}}) {
        // NROM, 32 KiB: write the report (status, DE B0 61, "ok\n") to PRG RAM, then loop.
        std::vector<uint8_t> image(16 + 0x8000 + 0x2000, 0xEA);
        const uint8_t header[16] = {'N', 'E', 'S', 0x1A, 2, 1, 0x00, 0};
        std::copy(std::begin(header), std::end(header), image.begin());
        std::vector<uint8_t> program;
        const uint8_t report[] = {status, 0xDE, 0xB0, 0x61, 'o', 'k', '\n', 0};
        for (size_t i = 0; i < sizeof report; ++i) {
            const uint8_t at[] = {0xA9, report[i], 0x8D, static_cast<uint8_t>(i), 0x60};  // LDA #v / STA $60xx
            program.insert(program.end(), std::begin(at), std::end(at));
        }
        const uint16_t loop = static_cast<uint16_t>(0x8000 + program.size());
        program.insert(program.end(), {0x4C, static_cast<uint8_t>(loop), static_cast<uint8_t>(loop >> 8)});
        std::copy(program.begin(), program.end(), image.begin() + 16);
        image[16 + 0x7FFC] = 0x00;
        image[16 + 0x7FFD] = 0x80;
        write_bytes(dir / "report.nes", image);
        const test::CliResult r = run_emu({"run-rom", (dir / "report.nes").string(), "--frames", "2"});
        if (status == 0) {
            CHECK(r.code == 0);
            CHECK_THAT(r.out, Contains("test ROM status $00: passed") && Contains("ok"));
        } else {
            CHECK(r.code == 1);
            CHECK_THAT(r.out, Contains("test ROM status $03: failed"));
        }
    }
}

TEST_CASE("emu commands: trace --movie starts where run-rom --movie stops, from either power-on") {
    test::ScratchDir dir("emu_cmd_trace_movie");
    write_bytes(dir / "loop.nes", looping_rom());
    const std::string rom = (dir / "loop.nes").string(), movie = (dir / "m.fm2").string();
    write_bytes(dir / "m.fm2", [] {
        const std::string text = "version 3\n|0|........|........||\n|0|R.....BA|........||\n|0|........|........||\n";
        return std::vector<uint8_t>(text.begin(), text.end());
    }());
    std::set<std::string> cycles_seen;
    for (const char* power_on : {"hardware", "fceux"}) {
        INFO(power_on);
        const test::CliResult ran = run_emu({"run-rom", rom, "--movie", movie, "--power-on", power_on, "--frames", "3"});
        REQUIRE(ran.code == 0);
        const size_t at = ran.out.find("ran 3 frames, ");
        REQUIRE(at != std::string::npos);
        const std::string cycles = ran.out.substr(at + 14, ran.out.find(' ', at + 14) - (at + 14));
        const test::CliResult traced =
            run_emu({"trace", rom, "--movie", movie, "--power-on", power_on, "--skip-frames", "3", "-n", "1"});
        REQUIRE(traced.code == 0);
        CHECK_THAT(traced.out, Contains("CYC:" + cycles + "\n"));
        cycles_seen.insert(cycles);
    }
    CHECK(cycles_seen.size() == 2);  // the two power-ons are told apart
    const test::CliResult both = run_emu({"trace", rom, "--movie", movie, "--input", "A", "--skip-frames", "1"});
    CHECK(both.code == 2);
    CHECK_THAT(both.err, Contains("--input and --movie"));
}
