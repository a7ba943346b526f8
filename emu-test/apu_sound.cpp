#include "emu-test/apu_sound.hpp"

#include "emu-test/apu.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace nestris::emu {

namespace {

// The four waveforms in the order they play from a $4003/$4007 write (nesdev "APU Pulse", its
// "output waveform" column: the sequencer counts down through its lookup table, which this is).
constexpr uint8_t kDuty[4][8] = {{0, 1, 0, 0, 0, 0, 0, 0},
                                 {0, 1, 1, 0, 0, 0, 0, 0},
                                 {0, 1, 1, 1, 1, 0, 0, 0},
                                 {1, 0, 0, 1, 1, 1, 1, 1}};

// First-order filters' coefficients at sample period dt (nesdev "APU Mixer": the console's
// output goes through high-passes at 90 and 440 Hz and a low-pass at 14 kHz).
double high_pass_a(double hz, double dt) {
    const double rc = 1.0 / (2 * std::numbers::pi * hz);
    return rc / (rc + dt);
}
double low_pass_a(double hz, double dt) {
    const double rc = 1.0 / (2 * std::numbers::pi * hz);
    return dt / (rc + dt);
}

}  // namespace

ApuSound::ApuSound(int sample_rate, uint64_t start_cycle) : rate_(sample_rate), now_(start_cycle) {
    if (sample_rate < 8000 || sample_rate > 192000) {
        throw std::invalid_argument("sound: the sample rate must be 8000-192000 Hz, not " + std::to_string(sample_rate));
    }
    pulse_[0].ones_complement = true;
    for (Pulse& p : pulse_) p.next = start_cycle + 2;
    tri_.next = start_cycle + 1;
    noise_.next = start_cycle + noise_.period;
    bin_cycles_ = kCpuHz / (static_cast<double>(rate_) * kOversample);
    bin_left_ = bin_cycles_;
    // The decimating low-pass: a windowed sinc cutting at 0.45 x the output rate.
    const double fc = 0.45 / kOversample;  // in cycles per bin
    double sum = 0;
    for (int i = 0; i < kTaps; ++i) {
        const double x = i - (kTaps - 1) / 2.0;
        const double sinc = x == 0 ? 2 * fc : std::sin(2 * std::numbers::pi * fc * x) / (std::numbers::pi * x);
        const double w = 0.42 - 0.5 * std::cos(2 * std::numbers::pi * i / (kTaps - 1)) +
                         0.08 * std::cos(4 * std::numbers::pi * i / (kTaps - 1));
        fir_[static_cast<size_t>(i)] = static_cast<float>(sinc * w);
        sum += sinc * w;
    }
    for (float& f : fir_) f = static_cast<float>(f / sum);  // unity gain at DC
    const double dt = 1.0 / rate_;
    hp90_a_ = high_pass_a(90, dt);
    hp440_a_ = high_pass_a(440, dt);
    lp_a_ = low_pass_a(14000, dt);
}

void ApuSound::take_samples(std::vector<float>& into) {
    into.insert(into.end(), out_.begin(), out_.end());
    out_.clear();
}

void ApuSound::keep_samples(std::vector<float> samples) {
    samples.insert(samples.end(), out_.begin(), out_.end());
    out_ = std::move(samples);
}

void ApuSound::rebase(uint64_t cycle) {
    const uint64_t old = now_;
    auto move = [&](uint64_t& t) {
        if (t == ~uint64_t{0}) return;
        t = t >= old ? cycle + (t - old) : (cycle >= old - t ? cycle - (old - t) : 0);
    };
    for (Pulse& p : pulse_) move(p.next);
    move(tri_.next);
    move(noise_.next);
    move(dmc_.next);
    now_ = cycle;
}

double ApuSound::mix(unsigned p1, unsigned p2, unsigned t, unsigned n, unsigned d) {
    const double pulse = p1 + p2 == 0 ? 0.0 : 95.88 / (8128.0 / (p1 + p2) + 100.0);
    const double x = t / 8227.0 + n / 12241.0 + d / 22638.0;
    const double tnd = x == 0 ? 0.0 : 159.79 / (1.0 / x + 100.0);
    return pulse + tnd;
}

double ApuSound::mix_linear(unsigned p1, unsigned p2, unsigned t, unsigned n, unsigned d) {
    return 0.00752 * (p1 + p2) + 0.00851 * t + 0.00494 * n + 0.00335 * d;
}

// ---- channels ----------------------------------------------------------------------------------

void ApuSound::Envelope::clock() {
    if (start) {
        start = false;
        decay = 15;
        divider = param;
    } else if (divider == 0) {
        divider = param;
        if (decay) --decay;
        else if (loop) decay = 15;
    } else {
        --divider;
    }
}

uint16_t ApuSound::Pulse::target() const {
    const int change = period >> sweep_shift;
    if (!sweep_negate) return static_cast<uint16_t>(period + change);
    return static_cast<uint16_t>(std::max(0, period - change - (ones_complement ? 1 : 0)));
}

uint8_t ApuSound::Pulse::output(uint8_t length) const {
    if (length == 0 || muted() || !kDuty[duty][seq]) return 0;
    return env.volume();
}

void ApuSound::Pulse::clock_sweep() {
    if (sweep_divider == 0 && sweep_enabled && sweep_shift > 0 && !muted()) period = target();
    if (sweep_divider == 0 || sweep_reload) {
        sweep_divider = sweep_period;
        sweep_reload = false;
    } else {
        --sweep_divider;
    }
}

void ApuSound::Dmc::play_bit() {
    if (shift & 1) {
        if (level <= 125) level = static_cast<uint8_t>(level + 2);
    } else if (level >= 2) {
        level = static_cast<uint8_t>(level - 2);
    }
    shift >>= 1;
    --bits;
    next += period;
}

std::array<uint8_t, 5> ApuSound::outputs(const Apu& apu) const {
    const uint8_t noise = apu.length[3] == 0 || (noise_.lfsr & 1) ? 0 : noise_.env.volume();
    return {pulse_[0].output(apu.length[0]), pulse_[1].output(apu.length[1]), tri_.output(), noise, dmc_.level};
}

std::array<uint16_t, 4> ApuSound::periods() const {
    return {pulse_[0].period, pulse_[1].period, tri_.period, noise_.period};
}

std::array<uint8_t, 4> ApuSound::volumes(const Apu& apu) const {
    return {apu.length[0] && !pulse_[0].muted() ? pulse_[0].env.volume() : uint8_t{0},
            apu.length[1] && !pulse_[1].muted() ? pulse_[1].env.volume() : uint8_t{0},
            static_cast<uint8_t>(apu.length[2] && tri_.linear), apu.length[3] ? noise_.env.volume() : uint8_t{0}};
}

uint8_t ApuSound::noise_period_index() const {
    const auto it = std::find(kNoisePeriods.begin(), kNoisePeriods.end(), noise_.period);
    return static_cast<uint8_t>(it - kNoisePeriods.begin());
}

// ---- rendering ---------------------------------------------------------------------------------

void ApuSound::advance(const Apu& apu, uint64_t cycle) {
    if (cycle <= now_) return;
    // Which channels can change the output before `cycle`: nothing but their own timers runs
    // in here, so that is settled now. The others' timers are brought to `cycle` arithmetically.
    bool pulse_on[2];
    for (int i = 0; i < 2; ++i) {
        Pulse& p = pulse_[i];
        pulse_on[i] = apu.length[static_cast<size_t>(i)] != 0 && !p.muted() && p.env.volume() != 0;
        if (!pulse_on[i] && p.next < cycle) {
            const uint64_t step = 2 * (uint64_t{p.period} + 1);
            const uint64_t k = (cycle - 1 - p.next) / step + 1;
            p.seq = static_cast<uint8_t>((p.seq + k) & 7);
            p.next += k * step;
        }
    }
    const bool tri_on = apu.length[2] != 0 && tri_.linear != 0 && tri_.period >= 2;
    if (!tri_on && tri_.next < cycle) {
        const uint64_t step = uint64_t{tri_.period} + 1;
        tri_.next += ((cycle - 1 - tri_.next) / step + 1) * step;
    }
    const bool noise_on = apu.length[3] != 0 && noise_.env.volume() != 0;
    if (!noise_on) {
        while (noise_.next < cycle) {  // the shift register keeps running, unheard
            const unsigned fb = (noise_.lfsr ^ (noise_.lfsr >> (noise_.mode ? 6 : 1))) & 1;
            noise_.lfsr = static_cast<uint16_t>((noise_.lfsr >> 1) | (fb << 14));
            noise_.next += noise_.period;
        }
    }
    const uint8_t len0 = apu.length[0], len1 = apu.length[1], len3 = apu.length[3];
    while (now_ < cycle) {
        const uint8_t p1 = pulse_[0].output(len0), p2 = pulse_[1].output(len1);
        const uint8_t n = len3 == 0 || (noise_.lfsr & 1) ? 0 : noise_.env.volume();
        const double v = linear_ ? mix_linear(p1, p2, tri_.output(), n, dmc_.level)
                                 : mix(p1, p2, tri_.output(), n, dmc_.level);
        uint64_t next = cycle;
        if (pulse_on[0]) next = std::min(next, pulse_[0].next);
        if (pulse_on[1]) next = std::min(next, pulse_[1].next);
        if (tri_on) next = std::min(next, tri_.next);
        if (noise_on) next = std::min(next, noise_.next);
        if (dmc_.bits && !dmc_.silence) next = std::min(next, dmc_.next);
        render(v, next - now_);
        now_ = next;
        if (now_ >= cycle) break;
        for (int i = 0; i < 2; ++i) {
            Pulse& p = pulse_[i];
            if (pulse_on[i] && p.next == now_) {
                p.seq = static_cast<uint8_t>((p.seq + 1) & 7);
                p.next += 2 * (uint64_t{p.period} + 1);
            }
        }
        if (tri_on && tri_.next == now_) {
            tri_.seq = static_cast<uint8_t>((tri_.seq + 1) & 31);
            tri_.next += uint64_t{tri_.period} + 1;
        }
        if (noise_on && noise_.next == now_) {
            const unsigned fb = (noise_.lfsr ^ (noise_.lfsr >> (noise_.mode ? 6 : 1))) & 1;
            noise_.lfsr = static_cast<uint16_t>((noise_.lfsr >> 1) | (fb << 14));
            noise_.next += noise_.period;
        }
        if (dmc_.bits && !dmc_.silence && dmc_.next == now_) dmc_.play_bit();
    }
}

void ApuSound::render(double value, uint64_t cycles) {
    double c = static_cast<double>(cycles);
    while (c >= bin_left_) {
        bin_acc_ += value * bin_left_;
        c -= bin_left_;
        push_bin(static_cast<float>(bin_acc_ / bin_cycles_));
        bin_acc_ = 0;
        bin_left_ = bin_cycles_;
    }
    bin_acc_ += value * c;
    bin_left_ -= c;
}

void ApuSound::push_bin(float v) {
    hist_[static_cast<size_t>(hist_pos_)] = v;
    hist_[static_cast<size_t>(hist_pos_ + kTaps)] = v;
    hist_pos_ = (hist_pos_ + 1) % kTaps;
    if (++phase_ < kOversample) return;
    phase_ = 0;
    // hist_[hist_pos_ .. hist_pos_ + kTaps) are the last kTaps bins, oldest first.
    float y = 0;
    const float* h = &hist_[static_cast<size_t>(hist_pos_)];
    for (int i = 0; i < kTaps; ++i) y += fir_[static_cast<size_t>(i)] * h[i];
    const double x = y;
    hp90_y_ = hp90_a_ * (hp90_y_ + x - hp90_x_);
    hp90_x_ = x;
    hp440_y_ = hp440_a_ * (hp440_y_ + hp90_y_ - hp440_x_);
    hp440_x_ = hp90_y_;
    lp_y_ += (hp440_y_ - lp_y_) * lp_a_;
    out_.push_back(static_cast<float>(lp_y_));
}

// ---- events from the timing model ----------------------------------------------------------------

void ApuSound::write(uint16_t addr, uint8_t v) {
    switch (addr) {
    case 0x4000: case 0x4004: {
        Pulse& p = pulse_[(addr >> 2) & 1];
        p.duty = v >> 6;
        p.env.loop = v & 0x20;
        p.env.constant = v & 0x10;
        p.env.param = v & 0x0F;
        break;
    }
    case 0x4001: case 0x4005: {
        Pulse& p = pulse_[(addr >> 2) & 1];
        p.sweep_enabled = v & 0x80;
        p.sweep_period = (v >> 4) & 7;
        p.sweep_negate = v & 0x08;
        p.sweep_shift = v & 7;
        p.sweep_reload = true;
        break;
    }
    case 0x4002: case 0x4006: {
        Pulse& p = pulse_[(addr >> 2) & 1];
        p.period = static_cast<uint16_t>((p.period & 0x700) | v);
        break;
    }
    case 0x4003: case 0x4007: {
        Pulse& p = pulse_[(addr >> 2) & 1];
        p.period = static_cast<uint16_t>((p.period & 0xFF) | ((v & 7) << 8));
        p.seq = 0;
        p.env.start = true;
        break;
    }
    case 0x4008:
        tri_.control = v & 0x80;
        tri_.linear_reload = v & 0x7F;
        break;
    case 0x400A:
        tri_.period = static_cast<uint16_t>((tri_.period & 0x700) | v);
        break;
    case 0x400B:
        tri_.period = static_cast<uint16_t>((tri_.period & 0xFF) | ((v & 7) << 8));
        tri_.reload = true;
        break;
    case 0x400C:
        noise_.env.loop = v & 0x20;
        noise_.env.constant = v & 0x10;
        noise_.env.param = v & 0x0F;
        break;
    case 0x400E:
        noise_.mode = v & 0x80;
        noise_.period = kNoisePeriods[v & 0x0F];
        break;
    case 0x400F:
        noise_.env.start = true;
        break;
    case 0x4011:
        dmc_.level = v & 0x7F;
        break;
    default:
        break;  // $4010, $4012, $4013, $4015, $4017: the timing model's
    }
}

void ApuSound::quarter_frame() {
    for (Pulse& p : pulse_) p.env.clock();
    noise_.env.clock();
    if (tri_.reload) tri_.linear = tri_.linear_reload;
    else if (tri_.linear) --tri_.linear;
    if (!tri_.control) tri_.reload = false;
}

void ApuSound::half_frame() {
    for (Pulse& p : pulse_) p.clock_sweep();
}

void ApuSound::dmc_output_cycle(uint64_t cycle, bool buffer_full, uint16_t period) {
    // The timer clock that begins this output cycle also plays the last bit of the one before.
    while (dmc_.bits && !dmc_.silence && dmc_.next <= cycle) dmc_.play_bit();
    dmc_.period = period;
    dmc_.bits = 8;
    dmc_.silence = !buffer_full;
    dmc_.shift = dmc_.buffer;
    dmc_.next = cycle + period;
}

void ApuSound::dmc_fetch(uint16_t addr) { dmc_.buffer = read_ ? read_(read_context_, addr) : 0; }

}  // namespace nestris::emu
