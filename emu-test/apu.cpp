#include "emu-test/apu.hpp"

#include "emu-test/apu_sound.hpp"

#include <algorithm>

namespace nestris::emu {

namespace {

// Cycles after the sequence's start at which each step happens (NTSC), per mode, and what it
// clocks: 1 quarter frame, 2 half frame (with a quarter frame), 0 nothing. In the 4-step mode
// steps 3-5 also set the frame IRQ flag; the last step of either mode restarts the sequence.
constexpr uint32_t kStepCycles[2][6] = {{7457, 14913, 22371, 29828, 29829, 29830},
                                        {7457, 14913, 22371, 29829, 37281, 37282}};
constexpr uint8_t kStepKind[6] = {1, 2, 1, 0, 2, 0};

// Halt bit of each channel's first register: bit 5, bit 7 for the triangle.
constexpr uint8_t kHaltBit[4] = {0x20, 0x20, 0x80, 0x20};

}  // namespace

void Apu::run_to(uint64_t cycle, ApuSound* sound) {
    for (;;) {
        const uint64_t step_at = seq_start + kStepCycles[five_step][step];
        const uint64_t write = write_pending ? write_at : kNever;
        const uint64_t output = dmc_next_output_cycle();
        const uint64_t next = std::min({step_at, write, load_at, output, dmc_fetch_at});
        if (next > cycle) break;
        if (sound) sound->advance(*this, next);
        // In one cycle: the sequence's step, then a $4017 write taking effect, then loads.
        if (step_at == next) do_step(next, sound);
        if (write == next) apply_write(next, sound);
        if (load_at == next) apply_loads();
        if (output == next) dmc_output_cycle(next, sound);
        if (dmc_fetch_at == next) {
            dmc_fetch_at = kNever;
            if (!dmc_buffer_full && dmc_remaining) dmc_fetch(next, sound);
        }
    }
    dmc_advance_idle(cycle);
    if (sound) sound->advance(*this, cycle);
}

// ---- DMC --------------------------------------------------------------------------------------
// The timer clocks every dmc_period cycles; every 8 clocks an output cycle begins, which empties
// the sample buffer into the shifter; an empty buffer with bytes left is filled at once by a DMA
// fetch. Only those moments matter to the timing (ApuSound plays the bits): while the DMC has nothing to play, its timer
// is brought forward arithmetically.

// The cycle the current output cycle ends, when that can change something (a byte to move or
// fetch); kNever when the DMC is idle.
uint64_t Apu::dmc_next_output_cycle() const {
    if (!dmc_buffer_full && dmc_remaining == 0) return kNever;
    return dmc_timer_next + uint64_t{dmc_bits - 1u} * dmc_period;
}

void Apu::dmc_advance_idle(uint64_t cycle) {
    if (dmc_timer_next > cycle) return;
    const uint64_t clocks = (cycle - dmc_timer_next) / dmc_period + 1;
    dmc_timer_next += clocks * dmc_period;
    if (clocks < dmc_bits) {
        dmc_bits = static_cast<uint8_t>(dmc_bits - clocks);
    } else {
        dmc_bits = static_cast<uint8_t>(8 - (clocks - dmc_bits) % 8);
    }
}

void Apu::dmc_output_cycle(uint64_t cycle, ApuSound* sound) {
    if (sound) sound->dmc_output_cycle(cycle, dmc_buffer_full, dmc_period);
    dmc_timer_next = cycle + dmc_period;
    dmc_bits = 8;
    dmc_buffer_full = false;  // into the shifter (or silence)
    if (dmc_remaining) dmc_fetch(cycle, sound);
}

void Apu::dmc_fetch(uint64_t cycle, ApuSound* sound) {
    if (sound) sound->dmc_fetch(dmc_addr);
    dmc_buffer_full = true;
    dmc_stall += kDmcDmaCycles;
    dmc_addr = dmc_addr == 0xFFFF ? 0x8000 : static_cast<uint16_t>(dmc_addr + 1);
    if (--dmc_remaining == 0) {
        if (dmc_loop) {
            dmc_addr = dmc_start;
            dmc_remaining = dmc_length;
        } else if (dmc_irq_enable && !dmc_irq) {
            dmc_irq = true;
            dmc_irq_since = cycle;
        }
    }
}

void Apu::do_step(uint64_t cycle, ApuSound* sound) {
    if (!five_step && step >= 3 && !irq_inhibit && !frame_irq) {
        frame_irq = true;
        frame_irq_since = cycle;
    }
    const uint8_t kind = kStepKind[step];
    if (kind != 0) {
        if (kind == 2) clock_lengths();
        if (sound) {
            sound->quarter_frame();
            if (kind == 2) sound->half_frame();
        }
        last_clock = cycle;
    }
    if (++step == 6) {
        step = 0;
        seq_start = cycle;
    }
}

void Apu::apply_write(uint64_t cycle, ApuSound* sound) {
    write_pending = false;
    five_step = write_value & 0x80;
    step = 0;
    seq_start = cycle;
    // The 5-step mode clocks at once, unless the sequence clocked in this cycle or the last.
    const bool just_clocked = last_clock != kNever && cycle - last_clock <= 1;
    if (five_step && !just_clocked) {
        clock_lengths();
        if (sound) {
            sound->quarter_frame();
            sound->half_frame();
        }
        last_clock = cycle;
    }
}

void Apu::apply_loads() {
    for (unsigned ch = 0; ch < 4; ++ch) {
        // A load is dropped when a half-frame clock changed the counter since it was written.
        if (load[ch] && length[ch] == load_prev[ch]) length[ch] = load[ch];
        load[ch] = 0;
    }
    halt = new_halt;
    load_at = kNever;
}

void Apu::clock_lengths() {
    for (unsigned ch = 0; ch < 4; ++ch) {
        if (length[ch] && !(halt & (1u << ch))) --length[ch];
    }
}

uint64_t Apu::next_event() const {
    const uint64_t dmc = std::min(dmc_next_output_cycle(), dmc_fetch_at);
    if (write_pending) return std::min(write_at, dmc);
    if (five_step || irq_inhibit || frame_irq) return dmc;
    return std::min(seq_start + kStepCycles[0][std::max<uint8_t>(step, 3)], dmc);
}

uint8_t Apu::peek_status() const {
    uint8_t r = 0;
    for (unsigned ch = 0; ch < 4; ++ch) {
        if (length[ch]) r |= static_cast<uint8_t>(1u << ch);
    }
    if (dmc_remaining) r |= 0x10;
    if (frame_irq) r |= 0x40;
    if (dmc_irq) r |= 0x80;
    return r;
}

uint8_t Apu::read_status(uint64_t cycle, ApuSound* sound) {
    run_to(cycle, sound);
    const uint8_t r = peek_status();
    frame_irq = false;
    return r;
}

void Apu::write(uint16_t addr, uint8_t value, uint64_t cycle, ApuSound* sound) {
    run_to(cycle, sound);
    if (sound) sound->write(addr, value);
    switch (addr) {
    case 0x4000: case 0x4004: case 0x4008: case 0x400C: {
        const unsigned ch = (addr >> 2) & 3;
        const uint8_t bit = static_cast<uint8_t>(1u << ch);
        new_halt = static_cast<uint8_t>((value & kHaltBit[ch]) ? (new_halt | bit) : (new_halt & ~bit));
        load_at = cycle + 1;
        break;
    }
    case 0x4003: case 0x4007: case 0x400B: case 0x400F: {
        const unsigned ch = (addr >> 2) & 3;
        if (enabled & (1u << ch)) {
            load[ch] = kLengthTable[value >> 3];
            load_prev[ch] = length[ch];
            load_at = cycle + 1;
        }
        break;
    }
    case 0x4010:
        dmc_irq_enable = value & 0x80;
        if (!dmc_irq_enable) dmc_irq = false;  // DMC IRQ disabled: its flag clears
        dmc_loop = value & 0x40;
        dmc_period = kDmcPeriods[value & 0x0F];  // from the timer's next reload
        break;
    case 0x4012:
        dmc_start = static_cast<uint16_t>(0xC000 + value * 64);
        break;
    case 0x4013:
        dmc_length = static_cast<uint16_t>(value * 16 + 1);
        break;
    case 0x4015:
        if (!(value & 0x10)) {
            dmc_remaining = 0;  // stops after the byte in the buffer
        } else if (dmc_remaining == 0) {
            dmc_addr = dmc_start;
            dmc_remaining = dmc_length;
            if (!dmc_buffer_full) dmc_fetch_at = cycle + 2;
        }
        enabled = value & 0x0F;
        for (unsigned ch = 0; ch < 4; ++ch) {
            if (!(enabled & (1u << ch))) {
                length[ch] = 0;
                load[ch] = 0;
            }
        }
        dmc_irq = false;
        break;
    case 0x4017:
        write_pending = true;
        write_value = value;
        write_at = cycle + ((cycle & 1) ? 3 : 4);
        irq_inhibit = value & 0x40;
        if (irq_inhibit) frame_irq = false;
        break;
    default:
        break;  // timers, envelopes, sweeps, linear counter, the DMC's output: ApuSound's
    }
}

void Apu::reset(uint64_t cycle, ApuSound* sound) {
    run_to(cycle, sound);
    // As if $4017 were written with its mode bit (inhibit clear) just before the reset
    // sequence; $4015 = 0 silences every channel.
    write_pending = true;
    write_value = five_step ? 0x80 : 0x00;
    write_at = cycle + 2;
    irq_inhibit = false;
    frame_irq = false;
    enabled = 0;
    length = {};
    load = {};
    load_at = kNever;
    halt = new_halt;
    dmc_irq = false;
    dmc_remaining = 0;
    dmc_fetch_at = kNever;
}

}  // namespace nestris::emu
