// blargg's apu_mixer ROMs (square, triangle, noise, dmc; from the directory NES_TEST_ROMS names,
// skipped without it): each plays a beep, then its channel against the inverse wave made with the
// DMC's DAC, then a beep again. With the console's nonlinear mixer the two cancel to near silence
// (the noise test: noise, but no tone). The measure, over the test section (from 0.35 s after the
// first beep ends to 0.35 s before the second begins, the ROM's 300 ms gaps left out):
//   square, triangle, dmc: the RMS of the output, in dB below the beep's RMS;
//   noise: the level of the test's tone (CPU / 1792 = 998.7 Hz, the rate the ROM toggles the
//          noise's volume and the DMC) by Goertzel over the section, in dB below the beep's.
// Each ROM is also run with nesdev's linear approximation of the mixer: the measure must be
// clearly worse there, or it could not tell a right mixer from a wrong one.
#include "emu-test/apu_sound.hpp"
#include "emu-test/nes.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

using namespace nestris::emu;
namespace fs = std::filesystem;

namespace {

constexpr int kRate = 48000;

std::optional<fs::path> mixer_rom_or_skip(const std::string& name) {
    const char* dir = std::getenv("NES_TEST_ROMS");
    if (!dir || !*dir) {
        std::cout << "SKIPPED: set NES_TEST_ROMS=/path/to/nes-test-roms to run this test\n";
        return std::nullopt;
    }
    const fs::path p = fs::path(dir) / "apu_mixer" / name;
    if (!fs::exists(p)) {
        std::cout << "SKIPPED: " << p << " is not there\n";
        return std::nullopt;
    }
    return p;
}

struct Section {
    double beep_rms = 0;  // the first beep's RMS
    size_t from = 0, to = 0;
};

double rms(const std::vector<float>& s, size_t from, size_t to) {
    double sum = 0;
    for (size_t i = from; i < to; ++i) sum += double{s[i]} * s[i];
    return std::sqrt(sum / static_cast<double>(to - from));
}

// The amplitude of the component at `hz` (Goertzel, Hann window), as the RMS of that sine.
double tone_rms(const std::vector<float>& s, size_t from, size_t to, double hz) {
    const double w = 2 * std::numbers::pi * hz / kRate;
    double s1 = 0, s2 = 0, wsum = 0;
    const size_t n = to - from;
    for (size_t i = 0; i < n; ++i) {
        const double win = 0.5 - 0.5 * std::cos(2 * std::numbers::pi * i / (n - 1));
        wsum += win;
        const double x = s[from + i] * win + 2 * std::cos(w) * s1 - s2;
        s2 = s1;
        s1 = x;
    }
    const double power = s1 * s1 + s2 * s2 - 2 * std::cos(w) * s1 * s2;
    return std::sqrt(power) / wsum * std::sqrt(2.0);  // amplitude / sqrt 2
}

// The beeps: runs of 10 ms windows louder than a quarter of the loudest, at least 200 ms long
// (runs less than 100 ms apart merged: a beep's start is louder than its rest, the high-passes settling); the test lies
// between the first run and the second (the ROM's result beeps come after).
Section find_section(const std::vector<float>& s) {
    const size_t win = kRate / 100;
    std::vector<double> level;
    for (size_t i = 0; i + win <= s.size(); i += win) level.push_back(rms(s, i, i + win));
    double top = 0;
    for (const double l : level) top = std::max(top, l);
    std::vector<std::pair<size_t, size_t>> runs;  // [start, end) in windows
    for (size_t i = 0; i < level.size(); ++i) {
        if (level[i] < top / 4) continue;
        if (!runs.empty() && i - runs.back().second < 10) runs.back().second = i + 1;
        else runs.push_back({i, i + 1});
    }
    // Beeps last 300 ms: shorter runs are clicks (power-on, a channel switched on).
    std::erase_if(runs, [](const auto& r) { return r.second - r.first < 20; });
    Section sec;
    if (runs.size() < 2) return sec;
    sec.beep_rms = rms(s, runs.front().first * win, runs.front().second * win);
    sec.from = runs.front().second * win + kRate * 35 / 100;
    const size_t second = runs[1].first * win;
    sec.to = second > kRate * 35 / 100 ? second - kRate * 35 / 100 : 0;
    return sec;
}

std::vector<float> mixer_rom_sound(const fs::path& rom, bool linear) {
    std::ifstream in(rom, std::ios::binary);
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
    Nes nes(bytes);
    nes.enable_sound(kRate);
    nes.sound()->use_linear_mixer(linear);
    std::vector<float> s;
    // The ROM is done when it reports at $6000 ($80: running); at most 60 s.
    for (int f = 0; f < 3600; ++f) {
        nes.run_frame();
        nes.take_samples(s);
        if (f > 60 && nes.peek(0x6001) == 0xDE && nes.peek(0x6000) < 0x80) break;
    }
    return s;
}

double level_db(const std::vector<float>& s, const Section& sec, bool tone) {
    const double level = tone ? tone_rms(s, sec.from, sec.to, ApuSound::kCpuHz / 1792) : rms(s, sec.from, sec.to);
    return 20 * std::log10(level / sec.beep_rms);
}

void check_mixer_rom(const std::string& name, bool tone, double limit_db) {
    const auto rom = mixer_rom_or_skip(name);
    if (!rom) return;
    const std::vector<float> right = mixer_rom_sound(*rom, false);
    // The section is found in the right mixer's sound; the machine runs the same with either
    // mixer, so the same samples are the section in the wrong one's.
    const Section sec = find_section(right);
    REQUIRE(sec.to > sec.from + kRate);  // at least a second of test
    const std::vector<float> wrong = mixer_rom_sound(*rom, true);
    REQUIRE(wrong.size() == right.size());
    const double right_db = level_db(right, sec, tone), wrong_db = level_db(wrong, sec, tone);
    std::cout << "apu_mixer/" << name << ": " << (tone ? "998.7 Hz tone" : "residual RMS") << " " << right_db
              << " dB below the beep over " << static_cast<double>(sec.to - sec.from) / kRate
              << " s; with the linear mixer " << wrong_db << " dB\n";
    CHECK(right_db < limit_db);
    CHECK(wrong_db > right_db + 6);  // the measure tells them apart (2 x the level)
}

}  // namespace

TEST_CASE("test ROMs: apu_mixer/square.nes cancels to near silence") { check_mixer_rom("square.nes", false, -30); }
TEST_CASE("test ROMs: apu_mixer/triangle.nes cancels to near silence") { check_mixer_rom("triangle.nes", false, -30); }
TEST_CASE("test ROMs: apu_mixer/dmc.nes cancels to near silence") { check_mixer_rom("dmc.nes", false, -30); }
TEST_CASE("test ROMs: apu_mixer/noise.nes leaves no tone") { check_mixer_rom("noise.nes", true, -30); }
