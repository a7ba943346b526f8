// Public NES test ROMs (nestest, blargg's suites), read from the directory NES_TEST_ROMS names
// (the layout of the nes-test-roms collection); never committed. Skipped without it.
#include "emu-test/debug/emu_commands.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/scratch_dir.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <optional>
#include <sstream>

using namespace nestris;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

std::optional<fs::path> test_rom_or_skip(const std::string& relative) {
    const char* dir = std::getenv("NES_TEST_ROMS");
    if (!dir || !*dir) {
        std::cout << "SKIPPED: set NES_TEST_ROMS=/path/to/nes-test-roms to run this test\n";
        return std::nullopt;
    }
    const fs::path p = fs::path(dir) / relative;
    if (!fs::exists(p)) {
        std::cout << "SKIPPED: " << p << " is not there\n";
        return std::nullopt;
    }
    return p;
}

std::string text_of(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    std::string t = s.str(), out;
    for (char c : t)
        if (c != '\r') out += c;
    return out;
}

// Each line without trailing blanks.
std::string trimmed(const std::string& text) {
    std::istringstream in(text);
    std::string line, out;
    while (std::getline(in, line)) {
        line.erase(line.find_last_not_of(' ') + 1);
        out += line + "\n";
    }
    return out;
}

test::CliResult run_emu(const std::vector<std::string>& args) { return test::run_commands(add_emu_commands, args); }

}  // namespace

TEST_CASE("test ROMs: trace nestest.nes --pc C000 matches nestest.log line for line") {
    const auto rom = test_rom_or_skip("other/nestest.nes");
    const auto log = test_rom_or_skip("other/nestest.log");
    if (!rom || !log) return;
    test::ScratchDir dir("nestest");
    const test::CliResult r = run_emu({"trace", rom->string(), "--pc", "C000", "-n", "8991", "-o", (dir / "t.txt").string()});
    REQUIRE(r.code == 0);
    CHECK(trimmed(text_of(dir / "t.txt")) == trimmed(text_of(*log)));
}

TEST_CASE("test ROMs: blargg's instr_test-v5 official_only passes all 16") {
    const auto rom = test_rom_or_skip("instr_test-v5/official_only.nes");
    if (!rom) return;
    const test::CliResult r = run_emu({"run-rom", rom->string(), "--frames", "3000"});
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("test ROM status $00: passed") && Contains("All 16 tests passed"));
}

TEST_CASE("test ROMs: blargg's ppu_vbl_nmi passes all 10 (vblank and NMI timing to the PPU dot)") {
    const auto rom = test_rom_or_skip("ppu_vbl_nmi/ppu_vbl_nmi.nes");
    if (!rom) return;
    const test::CliResult r = run_emu({"run-rom", rom->string(), "--frames", "4000"});
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("test ROM status $00: passed"));
    // The even/odd timing sub-test's own figures, as its source gives them.
    CHECK_THAT(r.out, Contains("08 08 09 07"));
}

namespace {

// Runs every single of a suite; prints each one's result line (the text blargg's shell writes at
// $6004: the test's name, then "Passed" or what failed), and checks each passed.
void run_singles(const std::string& dir, std::initializer_list<const char*> names, const char* frames = "3000") {
    for (const char* name : names) {
        const auto rom = test_rom_or_skip(dir + "/rom_singles/" + name + ".nes");
        if (!rom) return;
        const test::CliResult r = run_emu({"run-rom", rom->string(), "--frames", frames});
        const bool passed = r.code == 0 && r.out.find("test ROM status $00: passed") != std::string::npos;
        std::cout << dir << "/" << name << ": " << (passed ? "Passed" : "FAILED") << "\n";
        INFO(name << "\n" << r.out);
        CHECK(r.code == 0);
        CHECK_THAT(r.out, Contains("test ROM status $00: passed") && Contains(std::string(name) + "\n\nPassed"));
    }
}

}  // namespace

TEST_CASE("test ROMs: blargg's instr_misc 01-04 pass (page wraps, dummy reads, of the APU's $4015 too)") {
    run_singles("instr_misc", {"01-abs_x_wrap", "02-branch_wrap", "03-dummy_reads", "04-dummy_reads_apu"});
}

TEST_CASE("test ROMs: blargg's instr_timing 1-2 pass (every instruction's cycles, timed by the APU)") {
    run_singles("instr_timing", {"1-instr_timing", "2-branch_timing"});
}

TEST_CASE("test ROMs: blargg's cpu_interrupts_v2 1-5 pass (CLI latency, NMI hijacking BRK and IRQ, "
          "IRQ around OAM DMA, branch delay)") {
    run_singles("cpu_interrupts_v2", {"1-cli_latency", "2-nmi_and_brk", "3-nmi_and_irq", "4-irq_and_dma",
                                      "5-branch_delays_irq"});
}

TEST_CASE("test ROMs: blargg's ppu_vbl_nmi singles 01-10 pass") {
    run_singles("ppu_vbl_nmi", {"01-vbl_basics", "02-vbl_set_time", "03-vbl_clear_time", "04-nmi_control",
                                "05-nmi_timing", "06-suppression", "07-nmi_on_timing", "08-nmi_off_timing",
                                "09-even_odd_frames", "10-even_odd_timing"});
}

TEST_CASE("test ROMs: blargg's nes_instr_test 01-11 pass (every instruction, unofficial ones included)") {
    run_singles("nes_instr_test", {"01-implied", "02-immediate", "03-zero_page", "04-zp_xy", "05-absolute",
                                   "06-abs_xy", "07-ind_x", "08-ind_y", "09-branches", "10-stack", "11-special"});
}

TEST_CASE("test ROMs: blargg's apu_test 1-8 pass (length counters, frame IRQ flag and its timing, jitter, "
          "the DMC and its rates)") {
    run_singles("apu_test", {"1-len_ctr", "2-len_table", "3-irq_flag", "4-jitter", "5-len_timing",
                             "6-irq_flag_timing", "7-dmc_basics", "8-dmc_rates"});
}
