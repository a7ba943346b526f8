// The APU as a sound source (apu_sound.hpp), without any ROM: each channel's pitch against the
// formulas of nesdev's APU pages, the envelope, sweep, length and linear counters, the noise's
// sequence lengths, the DMC's delta output, the mixer against nesdev's lookup tables, the sample
// rate, and the machine: sound on changes nothing in the emulation.
#include "tests/emu/emu_test_support.hpp"

#include "emu-test/apu.hpp"
#include "emu-test/apu_sound.hpp"
#include "emu-test/nes.hpp"
#include "emu-test/wav.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace nestris::emu;
using nestris::emu::test::TestRom;

namespace {

constexpr int kRate = 48000;
constexpr double kCpu = ApuSound::kCpuHz;

// An APU and its sound, register writes at given cycles, run for a while.
struct Rig {
    Apu apu;
    ApuSound sound{kRate, 0};
    uint64_t now = 10;
    Rig() {
        apu.write(0x4017, 0x40, now, &sound);  // 4-step, no IRQ
        now += 10;
    }
    void w(uint16_t addr, uint8_t v) { apu.write(addr, v, now++, &sound); }
    void run_cycles(uint64_t n) {
        now += n;
        apu.run_to(now, &sound);
    }
    void run_seconds(double s) { run_cycles(static_cast<uint64_t>(s * kCpu)); }
    std::vector<float> take() {
        std::vector<float> v;
        sound.take_samples(v);
        return v;
    }
};

// Frequency by autocorrelation over the samples after the first 0.1 s (the filters settle):
// the first lag whose correlation is near the largest gives the period roughly; the peak
// nearest m times it (m as large as fits) refined by a parabola gives it to a fraction of a
// sample over m periods. (Zero crossings would not do: the console's two high-passes make a
// pulse overshoot and cross zero more than once a period.)
double frequency(const std::vector<float>& all) {
    const size_t from = kRate / 10;
    if (all.size() < from + kRate / 4) return 0;
    const std::vector<float> s(all.begin() + static_cast<std::ptrdiff_t>(from), all.end());
    const size_t n = std::min<size_t>(s.size() / 2, kRate / 4);
    auto corr = [&](size_t lag) {
        double c = 0;
        for (size_t i = 0; i < n; ++i) c += double{s[i]} * s[i + lag];
        return c;
    };
    const size_t min_lag = kRate / 4000, max_lag = kRate / 40;
    std::vector<double> c(max_lag + 2);
    double top = 0;
    for (size_t lag = min_lag; lag <= max_lag + 1; ++lag) {
        c[lag] = corr(lag);
        top = std::max(top, c[lag]);
    }
    // The first lag near the top, then the largest correlation in the third of a period after it.
    size_t first = 0;
    for (size_t lag = min_lag + 1; lag <= max_lag && !first; ++lag) {
        if (c[lag] >= 0.9 * top) first = lag;
    }
    if (!first) return 0;
    for (size_t lag = first, end = std::min(max_lag, first + first / 3); lag <= end; ++lag) {
        if (c[lag] > c[first]) first = lag;
    }
    auto refine = [&](size_t lag) {  // the parabola's vertex through the peak and its neighbours
        const double a = corr(lag - 1), b = corr(lag), d = corr(lag + 1);
        return static_cast<double>(lag) + (a - d) / (2 * (a - 2 * b + d));
    };
    const double p1 = refine(first);
    const size_t m = static_cast<size_t>((static_cast<double>(s.size() - n) - 2 - p1) / p1);
    const double around = static_cast<double>(m) * p1;
    size_t best = 0;
    double best_c = -1e300;
    for (size_t lag = static_cast<size_t>(around - p1 / 3); lag <= static_cast<size_t>(around + p1 / 3); ++lag) {
        const double v = corr(lag);
        if (v > best_c) best_c = v, best = lag;
    }
    return static_cast<double>(kRate) * static_cast<double>(m) / refine(best);
}

double rms(const std::vector<float>& s, size_t from, size_t to) {
    double sum = 0;
    for (size_t i = from; i < to; ++i) sum += double{s[i]} * s[i];
    return std::sqrt(sum / static_cast<double>(to - from));
}

}  // namespace

TEST_CASE("sound: a pulse plays at CPU / (16 x (period + 1)), every duty cycle") {
    for (const uint16_t period : {253, 100, 600}) {
        for (const uint8_t duty : {0, 1, 2, 3}) {
            Rig r;
            r.w(0x4015, 0x01);
            r.w(0x4000, static_cast<uint8_t>(duty << 6 | 0x30 | 15));  // halt, constant volume 15
            r.w(0x4001, 0x08);                                          // sweep off (negate: never mutes)
            r.w(0x4002, static_cast<uint8_t>(period));
            r.w(0x4003, static_cast<uint8_t>(period >> 8));
            r.run_seconds(1.0);
            const double want = kCpu / (16.0 * (period + 1));
            INFO("period " << period << " duty " << int{duty} << " want " << want);
            CHECK(frequency(r.take()) == Approx(want).epsilon(0.003));
        }
    }
}

TEST_CASE("sound: pulse 2 plays too, and periods below 8 are silent") {
    Rig r;
    r.w(0x4015, 0x02);
    r.w(0x4004, 0xBF);
    r.w(0x4005, 0x08);
    r.w(0x4006, 200);
    r.w(0x4007, 0x00);
    r.run_seconds(0.5);
    auto loud = r.take();
    CHECK(frequency(loud) == Approx(kCpu / (16.0 * 201)).epsilon(0.003));
    CHECK(rms(loud, kRate / 10, loud.size()) > 0.02);
    r.w(0x4006, 7);
    r.run_seconds(0.5);
    auto quiet = r.take();
    CHECK(rms(quiet, kRate / 10, quiet.size()) < 1e-4);
}

TEST_CASE("sound: the triangle plays at CPU / (32 x (period + 1)) while both counters run") {
    for (const uint16_t period : {126, 300}) {
        Rig r;
        r.w(0x4015, 0x04);
        r.w(0x4008, 0xFF);  // control (halt), linear reload 127
        r.w(0x400A, static_cast<uint8_t>(period));
        r.w(0x400B, static_cast<uint8_t>(period >> 8));
        r.run_seconds(1.0);
        const double want = kCpu / (32.0 * (period + 1));
        INFO("period " << period);
        CHECK(frequency(r.take()) == Approx(want).epsilon(0.003));
    }
}

TEST_CASE("sound: the triangle's linear counter stops it, holding its level (no click to zero)") {
    Rig r;
    r.w(0x4015, 0x04);
    r.w(0x4008, 0x0A);  // control clear: the linear counter counts 10 quarter frames (~42 ms)
    r.w(0x400A, 100);
    r.w(0x400B, 0x08);
    r.run_cycles(100);
    const uint8_t at_start = r.sound.outputs(r.apu)[2];
    r.run_seconds(0.02);
    bool moved = false;
    for (int i = 0; i < 64 && !moved; ++i) {
        r.run_cycles(101);
        moved = r.sound.outputs(r.apu)[2] != at_start;
    }
    CHECK(moved);
    r.run_seconds(0.1);  // past 10 quarter frames: stopped
    const uint8_t held = r.sound.outputs(r.apu)[2];
    for (int i = 0; i < 64; ++i) {
        r.run_cycles(101);
        REQUIRE(r.sound.outputs(r.apu)[2] == held);
    }
}

TEST_CASE("sound: the length counter silences a channel when it runs out, unless halted") {
    for (const bool halted : {false, true}) {
        Rig r;
        r.w(0x4015, 0x01);
        r.w(0x4000, static_cast<uint8_t>(0x80 | (halted ? 0x30 : 0x10) | 15));
        r.w(0x4001, 0x08);
        r.w(0x4002, 200);
        r.w(0x4003, 0x00);  // length index 0: 10 half frames (4-step: ~83 ms)
        r.run_seconds(0.4);
        const auto s = r.take();
        INFO("halted " << halted);
        CHECK(rms(s, kRate / 100, kRate / 20) > 0.02);      // 10-50 ms: playing
        const double late = rms(s, kRate * 3 / 10, s.size());  // 300-400 ms
        if (halted) CHECK(late > 0.02);
        else CHECK(late < 1e-3);
        CHECK((r.apu.peek_status() & 1) == (halted ? 1 : 0));
    }
}

TEST_CASE("sound: the envelope decays 15 to 0 in 15 x (P + 1) quarter frames, or loops") {
    for (const bool loop : {false, true}) {
        Rig r;
        r.w(0x4015, 0x01);
        r.w(0x4000, static_cast<uint8_t>(0x80 | (loop ? 0x20 : 0x00) | 3));  // decay, P = 3; loop = halt
        r.w(0x4001, 0x08);
        r.w(0x4002, 100);
        r.w(0x4003, 0xF8);  // length index 31: 30 half frames (~250 ms)
        const double quarter = 7457.0 / kCpu;
        uint8_t max_vol = 0;
        // The volume, read while the duty is high: sample the outputs often for a quarter frame.
        auto volume_now = [&] {
            uint8_t v = 0;
            for (int i = 0; i < 16; ++i) {
                r.run_cycles(101);
                v = std::max(v, r.sound.outputs(r.apu)[0]);
            }
            return v;
        };
        r.run_seconds(quarter * 2.5);
        max_vol = volume_now();
        CHECK(max_vol >= 13);
        r.run_seconds(quarter * 8 * 4);  // ~8 steps later: about 15 - 10
        const uint8_t mid = volume_now();
        CHECK(mid >= 3);
        CHECK(mid <= 7);
        r.run_seconds(quarter * 10 * 4);  // past 15 steps
        const uint8_t late = volume_now();
        if (loop) CHECK(late > 0);
        else CHECK(late == 0);
    }
}

TEST_CASE("sound: the sweep moves the period (one's complement on pulse 1, two's on pulse 2) and mutes past $7FF") {
    Rig r;
    r.w(0x4015, 0x03);
    r.w(0x4000, 0xBF);
    r.w(0x4004, 0xBF);
    r.w(0x4002, 0x00);
    r.w(0x4003, 0x04);  // period $400
    r.w(0x4006, 0x00);
    r.w(0x4007, 0x04);
    r.w(0x4001, 0x89);  // enabled, divider period 0, negate, shift 1
    r.w(0x4005, 0x89);
    // The first half frame: the divider is 0, so it sweeps (and reloads); period 0: every one.
    r.run_seconds(14913.0 / kCpu + 0.001);
    CHECK(r.sound.periods()[0] == 0x1FF);  // $400 - $200 - 1
    CHECK(r.sound.periods()[1] == 0x200);  // $400 - $200
    r.run_seconds(14913.0 / kCpu);
    CHECK(r.sound.periods()[0] == 0xFF);  // $1FF - $FF - 1
    CHECK(r.sound.periods()[1] == 0x100);
    // Up: $600 + $300 = $900 > $7FF: muted, even with the sweep disabled.
    r.w(0x4001, 0x01);  // disabled, shift 1
    r.w(0x4002, 0x00);
    r.w(0x4003, 0x06);
    r.run_seconds(0.01);
    for (int i = 0; i < 200; ++i) {
        r.run_cycles(97);
        REQUIRE(r.sound.outputs(r.apu)[0] == 0);
    }
}

TEST_CASE("sound: the noise's shift register repeats after 32767 steps, or 93 in the short mode") {
    for (const bool short_mode : {false, true}) {
        Rig r;
        r.w(0x4015, 0x08);
        r.w(0x400C, 0x3F);  // halt, constant 15
        r.w(0x400E, static_cast<uint8_t>((short_mode ? 0x80 : 0) | 4));  // period 64 cycles
        r.w(0x400F, 0x00);
        // The output after each of 2 x 32767 + 10 steps, read mid-step.
        r.run_cycles(32);
        std::vector<uint8_t> bits;
        for (int i = 0; i < 2 * 32767 + 10; ++i) {
            r.run_cycles(64);
            bits.push_back(r.sound.outputs(r.apu)[3] != 0);
        }
        auto repeats_after = [&](size_t n) {
            for (size_t i = 0; i + n < bits.size(); ++i)
                if (bits[i] != bits[i + n]) return false;
            return true;
        };
        INFO("short " << short_mode);
        if (short_mode) {
            CHECK(repeats_after(93));
            CHECK_FALSE(repeats_after(31));
        } else {
            CHECK(repeats_after(32767));
            CHECK_FALSE(repeats_after(93));
            CHECK_FALSE(repeats_after(4681));  // 32767 = 7 x 31 x 151
            CHECK_FALSE(repeats_after(1057));
        }
    }
}

TEST_CASE("sound: the DMC's output follows the sample's bits, 2 a bit, within 0-127, $4011 loads it") {
    Rig r;
    static const uint8_t sample[2] = {0xFF, 0x00};
    r.sound.set_reader([](const void*, uint16_t a) { return sample[a & 1]; }, nullptr);
    r.w(0x4011, 10);
    CHECK(r.sound.outputs(r.apu)[4] == 10);
    r.w(0x4012, 0x00);  // $C000: byte $FF, then $C001: $00
    r.w(0x4013, 0x00);  // 1 byte
    r.w(0x4010, 0x0F);  // fastest: 54 cycles a bit
    r.w(0x4015, 0x10);
    r.run_cycles(54 * 8 * 3);  // the byte reaches the shift register and plays
    CHECK(r.sound.outputs(r.apu)[4] == 26);  // 10 + 8 x 2
    r.w(0x4011, 125);
    r.w(0x4012, 0x00);
    r.w(0x4013, 0x00);
    r.w(0x4015, 0x10);
    r.run_cycles(54 * 8 * 3);
    CHECK(r.sound.outputs(r.apu)[4] == 127);  // clipped: 125 + 2, then no further
}

TEST_CASE("sound: the mixer is nesdev's: its formulas, near nesdev's lookup tables") {
    // nesdev "APU Mixer", lookup table: pulse_table[n] = 95.52 / (8128.0 / n + 100);
    // tnd_table[n] = 163.67 / (24329.0 / n + 100), n = 3 t + 2 n + d: an approximation of the
    // formula (which weighs t, n and d a little differently: up to 4 % apart).
    for (unsigned n = 1; n <= 30; ++n) {
        const double table = 95.52 / (8128.0 / n + 100);
        INFO("pulse " << n);
        CHECK(ApuSound::mix(n / 2, n - n / 2, 0, 0, 0) == Approx(table).epsilon(0.005));
    }
    for (unsigned t = 0; t <= 15; t += 5)
        for (unsigned n = 0; n <= 15; n += 5)
            for (unsigned d = 0; d <= 127; d += 42) {
                const unsigned k = 3 * t + 2 * n + d;
                if (!k) continue;
                const double table = 163.67 / (24329.0 / k + 100);
                INFO("t " << t << " n " << n << " d " << d);
                CHECK(ApuSound::mix(0, 0, t, n, d) == Approx(table).epsilon(0.045));
            }
    CHECK(ApuSound::mix(0, 0, 0, 0, 0) == 0);
    // The known end points: both pulses at 15: 0.2585; triangle, noise, DMC at full: 0.7417.
    CHECK(ApuSound::mix(15, 15, 0, 0, 0) == Approx(0.25848).epsilon(1e-4));
    CHECK(ApuSound::mix(0, 0, 15, 15, 127) == Approx(0.74179).epsilon(1e-3));
    // Nonlinear: two pulses at 15 are less than twice one.
    CHECK(ApuSound::mix(15, 15, 0, 0, 0) < 2 * ApuSound::mix(15, 0, 0, 0, 0) * 0.9);
}

TEST_CASE("sound: samples come at the rate asked, and a bad rate is refused") {
    for (const int rate : {44100, 48000, 22050}) {
        Apu apu;
        ApuSound s(rate, 0);
        apu.run_to(static_cast<uint64_t>(kCpu * 2), &s);  // two seconds
        INFO("rate " << rate);
        CHECK(std::abs(static_cast<double>(s.samples().size()) - 2.0 * rate) <= 1.0);
    }
    CHECK_THROWS_AS(ApuSound(1000, 0), std::invalid_argument);
    CHECK_THROWS_AS(ApuSound(400000, 0), std::invalid_argument);
}

TEST_CASE("sound: a machine with sound on runs exactly as one without, and hears its program") {
    const TestRom rom = nestris::emu::test::pulse_tone_rom();
    Nes quiet(rom.image()), loud(rom.image());
    loud.enable_sound(kRate);
    std::vector<float> heard;
    for (int f = 0; f < 60; ++f) {
        quiet.run_frame();
        loud.run_frame();
        const size_t before = heard.size();
        loud.take_samples(heard);
        if (f > 0) CHECK(std::abs(static_cast<double>(heard.size() - before) - kRate / 60.0988) <= 1.5);
    }
    // The same machine: everything but the APU equal, and the APU equal once both are brought up to
    // date (it is lazy: the sound brings it up to date more often, which changes no outcome).
    NesState a = quiet.snapshot(), b = loud.snapshot();
    a.apu.run_to(quiet.cycles());
    b.apu.run_to(loud.cycles());
    CHECK(a == b);
    CHECK(frequency(heard) == Approx(kCpu / (16.0 * 254)).epsilon(0.003));
    Nes copy = loud;  // a copy is silent
    CHECK_FALSE(copy.sound_enabled());
    CHECK_THROWS_AS(quiet.enable_sound(5), std::invalid_argument);
    CHECK_FALSE(quiet.sound_enabled());
}

TEST_CASE("sound: a power cycle keeps what was played, a restored snapshot plays on from its cycle") {
    TestRom rom;
    rom.put(0x8000, {0x78, 0xA9, 0x01, 0x8D, 0x15, 0x40, 0xA9, 0xBF, 0x8D, 0x00, 0x40, 0xA9, 0x08, 0x8D, 0x01, 0x40,
                     0xA9, 0xFD, 0x8D, 0x02, 0x40, 0xA9, 0x00, 0x8D, 0x03, 0x40, 0x4C, 0x1A, 0x80});
    rom.vectors(0x8000, 0x8000);
    Nes nes(rom.image());
    nes.enable_sound(kRate);
    const double per_frame = kRate / 60.0988;
    nes.run_frames(30);
    nes.power_on();  // the 30 frames' samples are not taken yet: they stay
    nes.run_frames(30);
    std::vector<float> heard;
    nes.take_samples(heard);
    CHECK(std::abs(static_cast<double>(heard.size()) - 60 * per_frame) < per_frame);
    const NesState at = nes.snapshot();
    nes.run_frames(30);
    nes.restore(at);
    nes.run_frames(30);
    nes.take_samples(heard);
    CHECK(std::abs(static_cast<double>(heard.size()) - 120 * per_frame) < per_frame);
    // The tone plays on through the restore.
    const std::vector<float> last(heard.end() - static_cast<std::ptrdiff_t>(30 * per_frame), heard.end());
    CHECK(frequency(last) == Approx(kCpu / (16.0 * 254)).epsilon(0.003));
}

TEST_CASE("sound: WAV files are 16-bit PCM mono and read back as written") {
    const std::vector<int16_t> s = {0, 1, -1, 32767, -32768, 1234};
    const auto bytes = wav_bytes(s, 44100);
    CHECK(bytes.size() == 44 + 12);
    const Wav w = parse_wav(bytes);
    CHECK(w.sample_rate == 44100);
    CHECK(w.samples == s);
    CHECK(pcm16(2.0f) == 32767);
    CHECK(pcm16(-2.0f) == -32768);
    CHECK(pcm16(0.5f) == 16384);
    auto bad = bytes;
    bad[22] = 2;  // stereo
    CHECK_THROWS_WITH(parse_wav(bad), Catch::Contains("2 channels"));
}
