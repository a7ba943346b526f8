// The 2A03's CPU: an NMOS 6502 without decimal mode (the D flag exists, ADC/SBC ignore it).
//
// Instruction-stepped with exact cycle counts: every instruction adds its cycles (from the
// opcode table, plus page-cross and branch penalties) before its data access, so a bus that
// asks cycles() during an access sees the cycle count at the end of that instruction (data
// accesses happen on an instruction's last cycle, except in read-modify-write instructions).
//
// The CPU holds no pointer to its bus: every call that touches memory takes the bus as a
// template argument (cpu_regs.hpp: CpuBus).
#pragma once

#include "emu-test/cpu_regs.hpp"
#include "emu-test/opcodes.hpp"

#include <cstdint>

namespace nestris::emu {

class Cpu6502 {
public:
    // ---- state -----------------------------------------------------------------------------
    CpuRegs regs() const {
        return {pc_, a_, x_, y_, s_, pack_p()};
    }
    void set_regs(const CpuRegs& r) {
        pc_ = r.pc;
        a_ = r.a;
        x_ = r.x;
        y_ = r.y;
        s_ = r.s;
        unpack_p(r.p);
    }
    uint16_t pc() const { return pc_; }
    void set_pc(uint16_t pc) { pc_ = pc; }
    uint8_t a() const { return a_; }
    uint8_t x() const { return x_; }
    uint8_t y() const { return y_; }
    uint8_t s() const { return s_; }
    uint8_t p() const { return pack_p(); }
    void set_a(uint8_t v) { a_ = v; }
    void set_x(uint8_t v) { x_ = v; }
    void set_y(uint8_t v) { y_ = v; }
    void set_s(uint8_t v) { s_ = v; }
    void set_p(uint8_t v) { unpack_p(v); }

    // CPU cycles since power-on (the machine's clock).
    uint64_t cycles() const { return cycles_; }
    void set_cycles(uint64_t c) { cycles_ = c; }
    // Cycles in which the CPU is halted by the outside (OAM DMA), right after the current
    // instruction's last cycle: the interrupt poll that instruction made stays the one that
    // counts, so an interrupt arriving during the halt waits for the next instruction.
    void stall(uint32_t c) {
        poll_limit_ = cycles_;
        cycles_ += c;
        poll_limit_at_ = cycles_;
    }

    // A JAM opcode halts the CPU; each further step() spends 2 cycles and does nothing.
    bool jammed() const { return jammed_; }

    // ---- interrupts -------------------------------------------------------------------------
    // An NMI edge seen in CPU cycle `cycle` (0-based index). The CPU polls at the end of an
    // instruction's next-to-last cycle, so an edge during the last cycle waits one more
    // instruction, as on the real chip.
    void signal_nmi(uint64_t cycle) {
        nmi_pending_ = true;
        nmi_cycle_ = cycle;
        update_attention();
    }
    void cancel_nmi() {
        nmi_pending_ = false;
        update_attention();
    }
    bool nmi_pending() const { return nmi_pending_; }
    uint64_t nmi_cycle() const { return nmi_cycle_; }  // the cycle the pending NMI was latched in
    // The IRQ input is a level: taken while it is held and I is clear. set_irq_line holds it
    // from the start of time or releases it at once; raise_irq/release_irq give the CPU cycle
    // (0-based index, as for signal_nmi) from which the line is low, or high again. The CPU
    // polls at the end of an instruction's next-to-last cycle (see service()), so an IRQ
    // released in the last cycle of an instruction that polled it low is still taken.
    void set_irq_line(bool asserted) {
        irq_from_ = asserted ? 0 : kNever;
        irq_until_ = kNever;
        update_attention();
    }
    void raise_irq(uint64_t cycle) {
        if (irq_line()) return;
        irq_from_ = cycle;
        irq_until_ = kNever;
        update_attention();
    }
    void release_irq(uint64_t cycle) {
        if (irq_line()) irq_until_ = cycle;
    }
    bool irq_line() const { return irq_from_ != kNever && irq_until_ == kNever; }
    // A taken branch that stays in its page does not poll interrupts in its last cycle, so an
    // interrupt arriving then waits an instruction more (the 2A03 does; FCEUX does not, and its
    // power-on mode turns this off to replay FCEUX's movies). On after power_on().
    void set_branch_delays_interrupts(bool on) { branch_delays_interrupts_ = on; }
    // No interrupt can be entered and the CPU is not halted: only its own instructions change
    // its state until the outside signals something.
    bool quiet() const { return !attention_; }

    // Registers as at power-on (before the reset sequence runs).
    void power_on() {
        *this = Cpu6502{};
    }

    // The reset sequence: 7 cycles, S decremented by 3 without writes, I set, PC from $FFFC.
    template <CpuBus Bus>
    void reset(Bus& bus) {
        s_ = static_cast<uint8_t>(s_ - 3);
        i_ = 1;
        jammed_ = false;
        nmi_pending_ = false;
        update_attention();
        pc_ = read16(bus, vec::RESET);
        cycles_ += 7;
    }

    // Executes one instruction, or enters a pending interrupt (7 cycles), or idles if jammed.
    // A bus with fetch_opcode(pc) may refuse the opcode fetch (a negative result): then nothing
    // happens.
    template <CpuBus Bus>
    void step(Bus& bus) {
        if (attention_) [[unlikely]] {
            if (service(bus)) return;
        }
        if constexpr (requires { { bus.fetch_opcode(pc_) } -> std::convertible_to<int>; }) {
            const int opcode = bus.fetch_opcode(pc_);
            if (opcode < 0) [[unlikely]] return;
            ++pc_;
            dispatch(bus, static_cast<uint8_t>(opcode));
        } else {
            dispatch(bus, bus.read(pc_++));
        }
    }

    // Enters the interrupt sequence now (used by tests and by harnesses that call handlers).
    template <CpuBus Bus>
    void interrupt(Bus& bus, uint16_t vector) {
        enter_interrupt(bus, vector, false);
    }

    bool operator==(const Cpu6502& o) const {
        return regs() == o.regs() && cycles_ == o.cycles_ && nmi_pending_ == o.nmi_pending_ &&
               (!nmi_pending_ || nmi_cycle_ == o.nmi_cycle_) && irq_from_ == o.irq_from_ &&
               irq_until_ == o.irq_until_ && jammed_ == o.jammed_;
    }

private:
    // N and Z are kept lazily: N is bit 7 of n_, Z is set when z_ == 0.
    uint16_t pc_ = 0;
    uint8_t a_ = 0, x_ = 0, y_ = 0, s_ = 0;
    uint8_t n_ = 0, z_ = 1, c_ = 0, v_ = 0, i_ = 1, d_ = 0;
    static constexpr uint64_t kNever = ~uint64_t{0};
    bool branch_delays_interrupts_ = true;
    bool attention_ = false;  // any of: NMI pending, IRQ line low (or released, not yet polled), jammed
    bool nmi_pending_ = false;
    bool jammed_ = false;
    uint64_t irq_from_ = kNever;   // the IRQ line is low from this cycle ...
    uint64_t irq_until_ = kNever;  // ... until this one
    uint8_t i_before_ = 1;                      // I before the last CLI/SEI/PLP ...
    uint64_t i_changed_at_ = kNever;            // ... which ended at this cycle
    // The poll of the instruction that ended at poll_limit_at_ was not at its next-to-last
    // cycle: an interrupt counts when its cycle + 2 <= poll_limit_ (else: <= cycles_).
    uint64_t poll_limit_at_ = kNever;
    uint64_t poll_limit_ = 0;
    uint64_t handler_at_ = kNever;  // an interrupt sequence ended here: no poll before its first instruction
    uint64_t nmi_cycle_ = 0;
    uint64_t cycles_ = 0;

    uint8_t pack_p() const {
        return static_cast<uint8_t>((n_ & 0x80) | (v_ ? flag::V : 0) | flag::U |
                                    (d_ ? flag::D : 0) | (i_ ? flag::I : 0) |
                                    (z_ == 0 ? flag::Z : 0) | (c_ ? flag::C : 0));
    }
    void unpack_p(uint8_t p) {
        n_ = p & flag::N;
        v_ = (p & flag::V) ? 1 : 0;
        d_ = (p & flag::D) ? 1 : 0;
        i_ = (p & flag::I) ? 1 : 0;
        z_ = (p & flag::Z) ? 0 : 1;
        c_ = p & flag::C;
        update_attention();
    }
    // An IRQ line held low while I is set (and was set at the last poll) needs no look before
    // every instruction: whatever clears I (CLI, PLP, RTI, set_p) looks again.
    void update_attention() {
        attention_ = nmi_pending_ || jammed_ ||
                     (irq_from_ != kNever && (!i_ || irq_until_ != kNever || i_changed_at_ == cycles_));
    }
    void set_nz(uint8_t v) { n_ = z_ = v; }

    // ---- bus access: cpu_ops.hpp ------------------------------------------------------------
    template <class Bus>
    static uint16_t read16(Bus& bus, uint16_t addr);
    template <class Bus>
    uint8_t fetch(Bus& bus);
    template <class Bus>
    uint16_t fetch16(Bus& bus);
    template <class Bus>
    void push(Bus& bus, uint8_t v);
    template <class Bus>
    uint8_t pull(Bus& bus);

    // ---- interrupts and opcodes: cpu_exec.hpp -----------------------------------------------
    template <class Bus>
    bool service(Bus& bus);
    template <class Bus>
    void enter_interrupt(Bus& bus, uint16_t vector, bool brk);
    template <uint8_t Opcode, class Bus>
    void exec(Bus& bus);
    template <class Bus>
    void dispatch(Bus& bus, uint8_t opcode);

    // ---- addressing modes and operations: cpu_ops.hpp ---------------------------------------
    template <bool ReadOp, class Bus>
    static void indexed_dummy_read(Bus& bus, uint16_t base, uint16_t addr);
    template <Mode M, bool Penalty, class Bus>
    uint16_t address(Bus& bus, uint8_t& base_hi);
    void adc(uint8_t v);
    void sbc(uint8_t v);
    void compare(uint8_t reg, uint8_t v);
    uint8_t asl(uint8_t v);
    uint8_t lsr(uint8_t v);
    uint8_t rol(uint8_t v);
    uint8_t ror(uint8_t v);
    template <Op O>
    void read_op(uint8_t v);
    template <Op O>
    uint8_t rmw_op(uint8_t v);
    template <class Bus>
    void branch(Bus& bus, bool taken);
    void note_i_change(uint8_t before);
};

}  // namespace nestris::emu

// The member functions that run instructions, in headers of their own to keep each header short;
// they are this header's, never included alone.
#include "emu-test/cpu_exec.hpp"
#include "emu-test/cpu_ops.hpp"
