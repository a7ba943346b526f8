// run-rom --wav / --sample-rate / --sound-trace on a small program that plays pulse 1 at 440 Hz:
// the WAV is 16-bit PCM mono at the rate asked, as long as the run, and holds that tone; bad
// paths and options are refused with the reason, and nothing is written.
#include "emu-test/debug/emu_commands.hpp"
#include "emu-test/wav.hpp"
#include "tests/emu/emu_test_support.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/scratch_dir.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

using namespace nestris;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

// The 440 Hz pulse program (emu_test_support.hpp) as a file.
fs::path tone_rom(const fs::path& dir) {
    const fs::path p = dir / "tone.nes";
    const auto image = emu::test::pulse_tone_rom().image();
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(image.data()), static_cast<std::streamsize>(image.size()));
    return p;
}

std::vector<uint8_t> bytes_of(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

test::CliResult run_emu(const std::vector<std::string>& args) { return test::run_commands(add_emu_commands, args); }

// Rising crossings of the 16-bit samples through +1000 after being below -1000, per second.
double crossings_per_second(const emu::Wav& w) {
    size_t n = 0;
    bool low = false;
    for (size_t i = static_cast<size_t>(w.sample_rate) / 10; i < w.samples.size(); ++i) {
        if (w.samples[i] < -1000) low = true;
        else if (low && w.samples[i] > 1000) {
            ++n;
            low = false;
        }
    }
    return static_cast<double>(n) / (static_cast<double>(w.samples.size()) / w.sample_rate - 0.1);
}

}  // namespace

TEST_CASE("sound commands: run-rom --wav writes the run's sound, 16-bit PCM mono, at the rate asked") {
    test::ScratchDir dir("wav");
    const fs::path rom = tone_rom(dir.path());
    for (const int rate : {48000, 44100}) {
        const fs::path wav = dir / ("tone" + std::to_string(rate) + ".wav");
        std::vector<std::string> args = {"run-rom", rom.string(), "--frames", "120", "--wav", wav.string()};
        if (rate != 48000) args.insert(args.end(), {"--sample-rate", std::to_string(rate)});
        const test::CliResult r = run_emu(args);
        INFO(r.out << r.err);
        REQUIRE(r.code == 0);
        CHECK_THAT(r.out, Contains("sound: " + wav.string()) && Contains("at " + std::to_string(rate) + " Hz"));
        const emu::Wav w = emu::parse_wav(bytes_of(wav));
        CHECK(w.sample_rate == rate);
        // As long as the run: the CPU cycles it printed (120 frames from power-on, the first one
        // shorter: power-on to the first vblank) at the CPU's clock.
        const size_t at = r.out.find(" frames, ");
        REQUIRE(at != std::string::npos);
        const double cycles = std::stod(r.out.substr(at + 9));
        CHECK(cycles > 119 * 29780.0);
        CHECK(std::abs(static_cast<double>(w.samples.size()) - cycles / emu::ApuSound::kCpuHz * rate) < 2);
        CHECK(crossings_per_second(w) == Approx(emu::ApuSound::kCpuHz / (16.0 * 254)).epsilon(0.01));
    }
}

TEST_CASE("sound commands: run-rom --sound-trace writes each channel's volume and period after every frame") {
    test::ScratchDir dir("sound_trace");
    const fs::path rom = tone_rom(dir.path());
    const test::CliResult r = run_emu({"run-rom", rom.string(), "--frames", "3", "--sound-trace", (dir / "t.txt").string()});
    REQUIRE(r.code == 0);
    std::ifstream in(dir / "t.txt");
    std::string line;
    std::vector<std::string> lines;
    while (std::getline(in, line)) lines.push_back(line);
    REQUIRE(lines.size() == 3);
    CHECK(lines[2] == "3 15 253 0 0 0 0 0 0 0 0");  // pulse 1 at volume 15, period 253; the rest silent
}

TEST_CASE("sound commands: bad --wav paths and options are refused with the reason, nothing written") {
    test::ScratchDir dir("wav_bad");
    const fs::path rom = tone_rom(dir.path());
    test::CliResult r = run_emu({"run-rom", rom.string(), "--wav", (dir / "no" / "such" / "dir.wav").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("cannot write") && Contains("dir.wav"));
    r = run_emu({"run-rom", rom.string(), "--sample-rate", "44100"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("--sample-rate is for --wav"));
    r = run_emu({"run-rom", rom.string(), "--wav", (dir / "x.wav").string(), "--sample-rate", "100"});
    CHECK(r.code == 2);
    CHECK_FALSE(fs::exists(dir / "x.wav"));
    r = run_emu({"run-rom", rom.string(), "--wav", (dir / "x.wav").string(), "--frames", "216001"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("at most 216000 frames"));
    // The ROM itself as the target: an input is never overwritten.
    r = run_emu({"run-rom", rom.string(), "--wav", rom.string()});
    CHECK(r.code != 0);
    CHECK(bytes_of(rom).size() > 16 + 0x8000);
}
