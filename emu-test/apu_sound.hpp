// The APU as a sound source: what the channels play, mixed as the console mixes them, resampled
// to a host rate. Opt-in (Nes::enable_sound): a machine without it synthesizes nothing.
//
// The timing model (apu.hpp: the frame counter, the length counters, the DMC's timer, fetches and
// IRQ) stays the one source of when things happen: ApuSound is told by it, in cycle order, of
// every register write, frame-counter clock and DMC output cycle, renders the channels between
// those moments, and reads the length counters and $4015's enables from it. What ApuSound adds:
//
// * Pulse 1 and 2: the timer (period $4002/3, $4006/7; the sequencer steps every 2 x (period + 1)
//   CPU cycles), the four duty cycles, the envelope (start flag, divider, decay level, loop,
//   constant volume) clocked at quarter frames, the sweep (divider, reload, shift, negate: one's
//   complement on pulse 1, two's on pulse 2) clocked at half frames; silent when the length
//   counter is 0, the period is below 8 or the sweep's target is above $7FF.
// * Triangle: the timer (a step every period + 1 CPU cycles), the 32-step sequence, the linear
//   counter (reload flag set by $400B, control bit = the length counter's halt) at quarter
//   frames; the sequencer stops (holding its output) when either counter is 0, and at periods
//   below 2 (ultrasonic: held rather than aliased, as most emulators do).
// * Noise: the 16 NTSC periods, the 15-bit shift register in both modes (feedback from bit 1, or
//   bit 6 with $400E bit 7), the envelope; silent when its length counter is 0.
// * DMC: the output level (7 bits; $4011 loads it), the shift register and its 8 bits per output
//   cycle, the silence flag when the sample buffer was empty; the bytes come from the bus (the
//   fetch the timing model already makes, with its 4 DMA cycles).
// * The mixer: nesdev's formulas (the nonlinear DACs), evaluated exactly rather than through the
//   approximate 3t+2n+d table:
//     pulse = 95.88 / (8128 / (p1 + p2) + 100)            (0 when p1 + p2 = 0)
//     tnd   = 159.79 / (1 / (t / 8227 + n / 12241 + d / 22638) + 100)   (0 when all are 0)
// * Output: the mixer's piecewise-constant signal integrated exactly over bins of 1/(4 x rate)
//   seconds, a 64-tap Blackman-windowed sinc low-pass (cut-off 0.45 x rate) decimating by 4, then
//   the console's own filters (first-order high-passes at 90 Hz and 440 Hz, low-pass at 14 kHz;
//   nesdev "APU Mixer"). Samples are floats, about -1..1.
//
// Time: the CPU clock (NTSC, 1 789 772.7 Hz); everything is in CPU cycles, the cycle numbers of
// the machine.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace nestris::emu {

struct Apu;

class ApuSound {
public:
    static constexpr double kCpuHz = 236.25e6 / 11.0 / 12.0;  // 1 789 772.72...
    static constexpr int kOversample = 4;
    static constexpr int kTaps = 64;

    // How the DMC reads a sample byte: the machine's bus without side effects, read(context, addr).
    using Reader = uint8_t (*)(const void* context, uint16_t addr);

    // Throws std::invalid_argument for a rate outside 8 000-192 000 Hz.
    ApuSound(int sample_rate, uint64_t start_cycle);
    // The machine says where its bus is before each use (it may have moved since).
    void set_reader(Reader read, const void* context) {
        read_ = read;
        read_context_ = context;
    }

    int sample_rate() const { return rate_; }
    // Samples made so far and not taken.
    const std::vector<float>& samples() const { return out_; }
    void take_samples(std::vector<float>& into);
    void clear_samples() { out_.clear(); }
    // Samples made before, to be taken first (a machine powered on again keeps what it played).
    void keep_samples(std::vector<float> samples);
    // The machine's clock now reads `cycle` (a snapshot restored): the channels go on from there
    // as they were, their timers moved with the clock.
    void rebase(uint64_t cycle);

    // ---- told by the timing model (apu.cpp), in cycle order ------------------------------------
    // Renders everything before `cycle` (the state in effect until then).
    void advance(const Apu& apu, uint64_t cycle);
    void write(uint16_t addr, uint8_t value);
    void quarter_frame();
    void half_frame();
    // The DMC's output cycle began at `cycle`: the sample buffer (if it held a byte) goes into
    // the shift register, else the output is silent for 8 timer clocks.
    void dmc_output_cycle(uint64_t cycle, bool buffer_full, uint16_t period);
    // The DMC fetched the byte at `addr` into its sample buffer.
    void dmc_fetch(uint16_t addr);

    // ---- for tests ---------------------------------------------------------------------------
    // The channels' DAC inputs now: pulse 1, pulse 2, triangle, noise (0-15), DMC (0-127).
    std::array<uint8_t, 5> outputs(const Apu& apu) const;
    // The 11-bit timer periods of pulse 1, pulse 2 and the triangle; the noise's in CPU cycles.
    std::array<uint16_t, 4> periods() const;
    // What each channel plays at, whatever the step of its waveform: pulse 1, pulse 2 and the
    // noise their envelope's volume (0 when the length counter is 0; a pulse's also when it is
    // muted: period below 8, sweep target above $7FF), the triangle 1 while its sequencer runs
    // (both counters non-zero), else 0.
    std::array<uint8_t, 4> volumes(const Apu& apu) const;
    // The noise's period index ($400E bits 0-3) and mode.
    uint8_t noise_period_index() const;
    bool noise_short() const { return noise_.mode; }
    static double mix(unsigned p1, unsigned p2, unsigned t, unsigned n, unsigned d);
    // nesdev's linear approximation instead (pulse 0.00752 (p1 + p2), tnd 0.00851 t + 0.00494 n
    // + 0.00335 d): wrong on purpose, so tests can show their measure tells it from the right one.
    static double mix_linear(unsigned p1, unsigned p2, unsigned t, unsigned n, unsigned d);
    void use_linear_mixer(bool on) { linear_ = on; }

private:
    struct Envelope {
        bool start = false, loop = false, constant = false;
        uint8_t param = 0, divider = 0, decay = 0;
        uint8_t volume() const { return constant ? param : decay; }
        void clock();
    };
    struct Pulse {
        bool ones_complement = false;  // pulse 1's sweep negates with one's complement
        uint16_t period = 0;
        uint8_t duty = 0, seq = 0;
        Envelope env;
        bool sweep_enabled = false, sweep_negate = false, sweep_reload = false;
        uint8_t sweep_period = 0, sweep_shift = 0, sweep_divider = 0;
        uint64_t next = 0;  // cycle of the sequencer's next step
        uint16_t target() const;
        bool muted() const { return period < 8 || target() > 0x7FF; }
        uint8_t output(uint8_t length) const;
        void clock_sweep();
    };
    struct Triangle {
        uint16_t period = 0;
        uint8_t seq = 0;
        uint8_t linear = 0, linear_reload = 0;
        bool control = false, reload = false;
        uint64_t next = 0;
        uint8_t output() const { return seq < 16 ? static_cast<uint8_t>(15 - seq) : static_cast<uint8_t>(seq - 16); }
    };
    struct Noise {
        uint16_t period = 4;
        bool mode = false;
        uint16_t lfsr = 1;
        Envelope env;
        uint64_t next = 0;
    };
    struct Dmc {
        uint8_t level = 0, shift = 0, bits = 0;  // bits left to play from `shift`
        bool silence = true;
        uint8_t buffer = 0;
        uint16_t period = 428;
        uint64_t next = ~uint64_t{0};  // the next bit
        void play_bit();  // the output unit's next bit: the level up or down 2, and the next bit's cycle
    };

    int rate_;
    bool linear_ = false;
    Reader read_ = nullptr;
    const void* read_context_ = nullptr;
    uint64_t now_;
    Pulse pulse_[2];
    Triangle tri_;
    Noise noise_;
    Dmc dmc_;

    // Resampling: the current bin's integral and how many CPU cycles are left in it.
    double bin_cycles_;
    double bin_left_;
    double bin_acc_ = 0;
    std::array<float, kTaps> fir_{};
    std::array<float, 2 * kTaps> hist_{};  // the last kTaps bins, twice, for a straight read
    int hist_pos_ = 0, phase_ = 0;
    double hp90_a_, hp440_a_, lp_a_;
    double hp90_x_ = 0, hp90_y_ = 0, hp440_x_ = 0, hp440_y_ = 0, lp_y_ = 0;
    std::vector<float> out_;

    void render(double value, uint64_t cycles);
    void push_bin(float v);
};

// The noise channel's periods in CPU cycles (NTSC), indexed by $400E bits 0-3.
inline constexpr std::array<uint16_t, 16> kNoisePeriods = {4,   8,   16,  32,  64,  96,   128,  160,
                                                           202, 254, 380, 508, 762, 1016, 2034, 4068};


// A machine's synthesizer, which a copy of the machine does not take along: the copy is silent
// (the sound is an output, like a speaker, not part of the machine).
struct SoundSlot {
    std::unique_ptr<ApuSound> p;
    SoundSlot() = default;
    SoundSlot(const SoundSlot&) {}
    SoundSlot(SoundSlot&&) = default;
    SoundSlot& operator=(const SoundSlot&) {
        p.reset();
        return *this;
    }
    SoundSlot& operator=(SoundSlot&&) = default;
};

}  // namespace nestris::emu
