// The 2A03's APU, as far as a program can time things with it (the sound is apu_sound.hpp's):
//
// * Frame counter ($4017): 4-step and 5-step sequences in CPU cycles (NTSC), the write taking
//   effect 3 CPU cycles after the write cycle when that cycle's count is odd, 4 when it is even;
//   5-step mode clocks the half-frame units at once when it takes effect (unless the sequence
//   clocked them in that cycle or the one before); bit 6 inhibits the frame IRQ and clears its
//   flag at once. At power-on the sequence starts as if $00 had been written before the reset
//   sequence; the reset button restarts it in the mode it had and clears the inhibit bit.
// * Frame IRQ flag: set in the 4-step mode at cycles 29828, 29829 and 29830 of the sequence
//   (counted from the cycle the $4017 write took effect), so a $4015 read that clears it in one
//   of the first two sees it set again a cycle later. Reading $4015 clears it.
// * Length counters of pulse 1/2, triangle and noise: the length table, loaded by
//   $4003/$4007/$400B/$400F only while the channel is enabled in $4015, cleared when disabled,
//   halted by bit 5 of $4000/$4004/$400C and bit 7 of $4008, clocked at half frames. A load
//   and a halt-bit write take effect one cycle after the write: a half-frame clock in that
//   cycle still sees the old halt bit, and a load is dropped when that clock has just
//   decremented the counter (blargg's len_halt_timing / len_reload_timing behaviour).
// * DMC: the timer (16 rates, $4010), the sample's address and length ($4012/$4013), loop, IRQ
//   at the sample's end when enabled ($4010 bit 7; writing $4015 or disabling clears it),
//   $4015 bit 4 starting a finished sample and stopping one. A byte is fetched into the empty
//   sample buffer at once when a sample starts, then one at each output cycle (8 timer clocks);
//   each fetch is a DMA that halts the CPU 4 cycles (on the console 3 when it meets a write
//   cycle, more during OAM DMA: not told apart), handed to the CPU after the instruction.
// * $4015 read: bits 0-3 = length counter > 0, bit 4 = DMC bytes left, bit 6 = frame IRQ flag,
//   bit 7 = DMC IRQ flag; bit 5 is open bus (0 here: the high byte $40 of the address).
//
// The channels' timers, envelopes, sweeps, the triangle's linear counter, the DMC's output level
// and the mixer are ApuSound's (apu_sound.hpp): this model tells it when things happen.
//
// The APU is lazy: run_to(cycle) brings it up to date whenever a register is touched, and the
// machine schedules next_event() (the next time the frame IRQ flag rises, or a DMC byte is
// fetched) with the PPU's events, so nothing is ticked per cycle. Cycle numbers are CPU cycle counts: "cycle N" is the
// N-th CPU cycle since power-on, the one a bus access sees as cycles() == N.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

namespace nestris::emu {

class ApuSound;

struct Apu {
    static constexpr uint64_t kNever = ~uint64_t{0};

    // ---- frame counter ---------------------------------------------------------------------
    uint64_t seq_start = 2;       // cycle at which the sequence (re)started; steps count from it
    uint8_t step = 0;             // next step of the sequence, 0-5
    bool five_step = false;
    bool irq_inhibit = false;
    bool frame_irq = false;
    uint64_t frame_irq_since = 0;  // cycle at which the flag was last set
    bool write_pending = false;    // a $4017 write waiting to take effect
    uint8_t write_value = 0;
    uint64_t write_at = 0;
    uint64_t last_clock = kNever;  // cycle of the last frame counter clock (quarter or half)

    // ---- length counters (pulse 1, pulse 2, triangle, noise) --------------------------------
    std::array<uint8_t, 4> length{};
    uint8_t enabled = 0;    // $4015 bits 0-3
    uint8_t halt = 0;       // halt bits in effect, one per channel
    uint8_t new_halt = 0;   // halt bits written, in effect from load_at
    std::array<uint8_t, 4> load{};       // pending loads (0: none)
    std::array<uint8_t, 4> load_prev{};  // the counter when the load was written
    uint64_t load_at = kNever;           // cycle at which pending loads and halt bits apply

    // ---- DMC (the sample reader and its timer; no output) ---------------------------------------
    uint16_t dmc_period = 428;       // CPU cycles per timer clock (a bit), from $4010's rate
    bool dmc_irq_enable = false;     // $4010 bit 7
    bool dmc_loop = false;           // $4010 bit 6
    uint16_t dmc_start = 0xC000;     // $4012: $C000 + 64 x value
    uint16_t dmc_length = 1;         // $4013: 16 x value + 1
    uint16_t dmc_addr = 0xC000;      // the next byte to fetch
    uint16_t dmc_remaining = 0;      // bytes still to fetch ($4015 bit 4: > 0)
    bool dmc_buffer_full = false;    // the sample buffer holds a byte
    uint8_t dmc_bits = 8;            // timer clocks to the end of the output cycle (1-8)
    uint64_t dmc_timer_next = 0;     // cycle of the timer's next clock
    uint64_t dmc_fetch_at = kNever;  // a fetch due now, not at an output cycle ($4015 started it)
    uint32_t dmc_stall = 0;          // DMA cycles taken from the CPU, not yet handed to it
    bool dmc_irq = false;
    uint64_t dmc_irq_since = 0;      // cycle at which the DMC's IRQ flag was set

    bool operator==(const Apu&) const = default;

    // Processes everything that happens up to and including cycle `cycle`. `sound`, when given,
    // is told of each moment in order and renders the channels up to `cycle` (apu_sound.hpp); a
    // machine that makes sound passes it to every call below, from power-on or from when it
    // started.
    void run_to(uint64_t cycle, ApuSound* sound = nullptr);
    // The next cycle at which the frame IRQ flag could rise, a $4017 write takes effect or the
    // DMC fetches a byte; kNever if none is due. The machine runs the CPU no further than this before run_to().
    uint64_t next_event() const;
    bool irq() const { return frame_irq || dmc_irq; }
    // The cycle the IRQ line fell (the earlier of the flags that hold it).
    uint64_t irq_since() const {
        return frame_irq && dmc_irq ? std::min(frame_irq_since, dmc_irq_since)
                                    : frame_irq ? frame_irq_since : dmc_irq_since;
    }
    // Cycles of DMC DMA since the last call: the machine halts the CPU that long.
    uint32_t take_dmc_stall() {
        const uint32_t c = dmc_stall;
        dmc_stall = 0;
        return c;
    }

    // Register access in cycle `cycle` (the machine calls run_to(cycle) first, inside these).
    uint8_t read_status(uint64_t cycle, ApuSound* sound = nullptr);  // $4015, clears the frame IRQ flag
    uint8_t peek_status() const;          // $4015 without the side effect, as of the last run_to
    // $4000-$4013, $4015, $4017
    void write(uint16_t addr, uint8_t value, uint64_t cycle, ApuSound* sound = nullptr);

    // The reset button, pressed in cycle `cycle` (before the CPU's reset sequence).
    void reset(uint64_t cycle, ApuSound* sound = nullptr);

private:
    void do_step(uint64_t cycle, ApuSound* sound);
    void apply_write(uint64_t cycle, ApuSound* sound);
    void apply_loads();
    void clock_lengths();
    uint64_t dmc_next_output_cycle() const;
    void dmc_advance_idle(uint64_t cycle);
    void dmc_output_cycle(uint64_t cycle, ApuSound* sound);
    void dmc_fetch(uint64_t cycle, ApuSound* sound);
};

// The DMC's timer periods in CPU cycles (NTSC), indexed by $4010's rate (bits 0-3).
inline constexpr std::array<uint16_t, 16> kDmcPeriods = {428, 380, 340, 320, 286, 254, 226, 214,
                                                         190, 160, 142, 128, 106, 84,  72,  54};
// CPU cycles a DMC fetch halts the CPU (3 when it falls on a write cycle; not told apart here).
inline constexpr uint32_t kDmcDmaCycles = 4;

// Length counter load values, indexed by bits 3-7 of $4003/$4007/$400B/$400F.
inline constexpr std::array<uint8_t, 32> kLengthTable = {
    10, 254, 20, 2,  40, 4,  80, 6,  160, 8,  60, 10, 14, 12, 26, 14,
    12, 16,  24, 18, 48, 20, 96, 22, 192, 24, 72, 26, 16, 28, 32, 30};

}  // namespace nestris::emu
