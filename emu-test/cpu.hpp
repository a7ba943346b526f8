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

    template <class Bus>
    static uint16_t read16(Bus& bus, uint16_t addr) {
        const uint8_t lo = bus.read(addr);
        return static_cast<uint16_t>(lo | (bus.read(static_cast<uint16_t>(addr + 1)) << 8));
    }
    template <class Bus>
    uint8_t fetch(Bus& bus) {
        return bus.read(pc_++);
    }
    template <class Bus>
    uint16_t fetch16(Bus& bus) {
        const uint16_t v = read16(bus, pc_);
        pc_ = static_cast<uint16_t>(pc_ + 2);
        return v;
    }
    template <class Bus>
    void push(Bus& bus, uint8_t v) {
        bus.write(static_cast<uint16_t>(0x100 | s_), v);
        s_ = static_cast<uint8_t>(s_ - 1);
    }
    template <class Bus>
    uint8_t pull(Bus& bus) {
        s_ = static_cast<uint8_t>(s_ + 1);
        return bus.read(static_cast<uint16_t>(0x100 | s_));
    }

    // Returns true when the step was spent on an interrupt entry or a halted CPU.
    template <class Bus>
    bool service(Bus& bus) {
        if (jammed_) {
            cycles_ += 2;
            return true;
        }
        // An interrupt sequence does not poll: the handler's first instruction always runs.
        if (cycles_ == handler_at_) return false;
        // The poll was at the end of the last instruction's next-to-last cycle (cycle
        // limit - 2), except after a taken branch that stayed in its page (one cycle earlier) and
        // after OAM DMA (the instruction before the halt).
        const uint64_t limit = cycles_ == poll_limit_at_ ? poll_limit_ : cycles_;
        if (nmi_pending_ && nmi_cycle_ + 2 <= limit) {
            nmi_pending_ = false;
            update_attention();
            enter_interrupt(bus, vec::NMI, false);
            return true;
        }
        if (irq_from_ != kNever) {
            if (irq_from_ + 2 <= limit && (irq_until_ == kNever || limit < irq_until_ + 2)) {
                // CLI, SEI and PLP change I after the interrupt poll: the instruction right
                // after them still sees the old I.
                const uint8_t i_seen = cycles_ == i_changed_at_ ? i_before_ : i_;
                if (!i_seen) {
                    enter_interrupt(bus, vec::IRQ, false);
                    return true;
                }
                update_attention();  // masked: no look again until I changes
            } else if (irq_until_ != kNever && limit >= irq_until_ + 2) {
                irq_from_ = kNever;  // released, and no poll can see it any more
                update_attention();
            }
        }
        return false;
    }

    // The 7-cycle sequence of BRK, IRQ and NMI (cycles s..s+6). An NMI whose edge the CPU has
    // seen by the end of cycle s+3 takes over a BRK or IRQ sequence: the NMI vector is read (B
    // stays as pushed). A bus that runs other chips lazily brings them up to that cycle with
    // sync_to(count) first, so that such an NMI is known.
    template <class Bus>
    void enter_interrupt(Bus& bus, uint16_t vector, bool brk) {
        const uint64_t start = cycles_;
        push(bus, static_cast<uint8_t>(pc_ >> 8));
        push(bus, static_cast<uint8_t>(pc_));
        push(bus, static_cast<uint8_t>(pack_p() | (brk ? flag::B : 0)));
        i_ = 1;
        if (vector != vec::NMI) {
            // Edges in cycles up to s+3 are known once the bus is up to date at count s+5.
            if constexpr (requires { bus.sync_to(start); }) bus.sync_to(start + 5);
            if (nmi_pending_ && nmi_cycle_ <= start + 3) {
                nmi_pending_ = false;
                update_attention();
                vector = vec::NMI;
            }
        }
        pc_ = read16(bus, vector);
        cycles_ += 7;
        handler_at_ = cycles_;
        update_attention();
    }

    // Indexed modes read the address before the high byte's carry is added: reads only when
    // the index crossed a page (the extra cycle), writes and read-modify-writes always. The read
    // matters only where reading has effects (PPU and I/O registers): a bus that has such
    // registers says so with dummy_read(), which it makes only where it matters.
    template <bool ReadOp, class Bus>
    static void indexed_dummy_read(Bus& bus, uint16_t base, uint16_t addr) {
        if constexpr (requires { bus.dummy_read(addr); }) {
            const uint16_t uncarried = static_cast<uint16_t>((base & 0xFF00) | (addr & 0x00FF));
            if (!ReadOp || uncarried != addr) bus.dummy_read(uncarried);
        }
    }

    // ---- addressing ---------------------------------------------------------------------------
    // Effective address of the operand. `Penalty` adds the page-cross cycle (reads only).
    // `base_hi` receives the high byte of the unindexed address (the SH* opcodes use it).
    template <Mode M, bool Penalty, class Bus>
    uint16_t address(Bus& bus, uint8_t& base_hi) {
        if constexpr (M == Mode::Zp) {
            return fetch(bus);
        } else if constexpr (M == Mode::Zpx) {
            return static_cast<uint8_t>(fetch(bus) + x_);
        } else if constexpr (M == Mode::Zpy) {
            return static_cast<uint8_t>(fetch(bus) + y_);
        } else if constexpr (M == Mode::Abs) {
            return fetch16(bus);
        } else if constexpr (M == Mode::Abx || M == Mode::Aby) {
            const uint16_t base = fetch16(bus);
            const uint16_t addr = static_cast<uint16_t>(base + (M == Mode::Abx ? x_ : y_));
            if constexpr (Penalty) cycles_ += ((base ^ addr) >> 8) & 1;
            indexed_dummy_read<Penalty>(bus, base, addr);
            base_hi = static_cast<uint8_t>(base >> 8);
            return addr;
        } else if constexpr (M == Mode::Izx) {
            const uint8_t zp = static_cast<uint8_t>(fetch(bus) + x_);
            const uint8_t lo = bus.read(zp);
            return static_cast<uint16_t>(lo | (bus.read(static_cast<uint8_t>(zp + 1)) << 8));
        } else if constexpr (M == Mode::Izy) {
            const uint8_t zp = fetch(bus);
            const uint8_t lo = bus.read(zp);
            const uint16_t base =
                static_cast<uint16_t>(lo | (bus.read(static_cast<uint8_t>(zp + 1)) << 8));
            const uint16_t addr = static_cast<uint16_t>(base + y_);
            if constexpr (Penalty) cycles_ += ((base ^ addr) >> 8) & 1;
            indexed_dummy_read<Penalty>(bus, base, addr);
            base_hi = static_cast<uint8_t>(base >> 8);
            return addr;
        } else if constexpr (M == Mode::Ind) {
            // The NMOS bug: the pointer's high byte is read from the same page.
            const uint16_t ptr = fetch16(bus);
            const uint8_t lo = bus.read(ptr);
            const uint16_t hi_addr =
                static_cast<uint16_t>((ptr & 0xFF00) | static_cast<uint8_t>(ptr + 1));
            return static_cast<uint16_t>(lo | (bus.read(hi_addr) << 8));
        } else {
            static_assert(M == Mode::Zp, "mode has no memory operand");
            return 0;
        }
    }

    // ---- ALU ------------------------------------------------------------------------------------
    void adc(uint8_t v) {
        const unsigned sum = a_ + v + c_;
        v_ = ((~(a_ ^ v) & (a_ ^ sum)) & 0x80) ? 1 : 0;
        c_ = sum > 0xFF ? 1 : 0;
        a_ = static_cast<uint8_t>(sum);
        set_nz(a_);
    }
    void sbc(uint8_t v) { adc(static_cast<uint8_t>(~v)); }
    void compare(uint8_t reg, uint8_t v) {
        c_ = reg >= v ? 1 : 0;
        set_nz(static_cast<uint8_t>(reg - v));
    }
    uint8_t asl(uint8_t v) {
        c_ = v >> 7;
        v = static_cast<uint8_t>(v << 1);
        set_nz(v);
        return v;
    }
    uint8_t lsr(uint8_t v) {
        c_ = v & 1;
        v = static_cast<uint8_t>(v >> 1);
        set_nz(v);
        return v;
    }
    uint8_t rol(uint8_t v) {
        const uint8_t r = static_cast<uint8_t>((v << 1) | c_);
        c_ = v >> 7;
        set_nz(r);
        return r;
    }
    uint8_t ror(uint8_t v) {
        const uint8_t r = static_cast<uint8_t>((v >> 1) | (c_ << 7));
        c_ = v & 1;
        set_nz(r);
        return r;
    }

    // Operations that only read their operand.
    template <Op O>
    void read_op(uint8_t v) {
        using enum Op;
        if constexpr (O == ADC) adc(v);
        else if constexpr (O == SBC) sbc(v);
        else if constexpr (O == AND) set_nz(a_ &= v);
        else if constexpr (O == ORA) set_nz(a_ |= v);
        else if constexpr (O == EOR) set_nz(a_ ^= v);
        else if constexpr (O == LDA) set_nz(a_ = v);
        else if constexpr (O == LDX) set_nz(x_ = v);
        else if constexpr (O == LDY) set_nz(y_ = v);
        else if constexpr (O == CMP) compare(a_, v);
        else if constexpr (O == CPX) compare(x_, v);
        else if constexpr (O == CPY) compare(y_, v);
        else if constexpr (O == BIT) {
            n_ = v;
            v_ = (v >> 6) & 1;
            z_ = a_ & v;
        } else if constexpr (O == LAX) set_nz(a_ = x_ = v);
        else if constexpr (O == NOP) (void)v;
        else if constexpr (O == LAS) set_nz(a_ = x_ = s_ = static_cast<uint8_t>(v & s_));
        else if constexpr (O == ANC) {
            set_nz(a_ &= v);
            c_ = a_ >> 7;
        } else if constexpr (O == ALR) a_ = lsr(static_cast<uint8_t>(a_ & v));
        else if constexpr (O == ARR) {
            a_ = static_cast<uint8_t>(((a_ & v) >> 1) | (c_ << 7));
            set_nz(a_);
            c_ = (a_ >> 6) & 1;
            v_ = ((a_ >> 6) ^ (a_ >> 5)) & 1;
        } else if constexpr (O == SBX) {
            const uint8_t ax = a_ & x_;
            c_ = ax >= v ? 1 : 0;
            set_nz(x_ = static_cast<uint8_t>(ax - v));
        } else if constexpr (O == ANE) set_nz(a_ = static_cast<uint8_t>((a_ | 0xEE) & x_ & v));
        // LXA: (A | magic) & operand; the NES's 2A03 behaves as magic $FF (blargg's
        // nes_instr_test 02-immediate, whose checksums come from a console, needs that).
        else if constexpr (O == LXA) set_nz(a_ = x_ = v);
        else static_assert(O == ADC, "not a read operation");
    }

    // Read-modify-write operations: the new memory value (flags and A as the op defines).
    template <Op O>
    uint8_t rmw_op(uint8_t v) {
        using enum Op;
        if constexpr (O == ASL) return asl(v);
        else if constexpr (O == LSR) return lsr(v);
        else if constexpr (O == ROL) return rol(v);
        else if constexpr (O == ROR) return ror(v);
        else if constexpr (O == INC) { set_nz(++v); return v; }
        else if constexpr (O == DEC) { set_nz(--v); return v; }
        else if constexpr (O == DCP) { --v; compare(a_, v); return v; }
        else if constexpr (O == ISB) { ++v; sbc(v); return v; }
        else if constexpr (O == SLO) { v = asl(v); set_nz(a_ |= v); return v; }
        else if constexpr (O == RLA) { v = rol(v); set_nz(a_ &= v); return v; }
        else if constexpr (O == SRE) { v = lsr(v); set_nz(a_ ^= v); return v; }
        else if constexpr (O == RRA) { v = ror(v); adc(v); return v; }
        else static_assert(O == ASL, "not a read-modify-write operation");
    }

    template <class Bus>
    void branch(Bus& bus, bool taken) {
        const auto offset = static_cast<int8_t>(fetch(bus));
        if (taken) {
            const uint16_t target = static_cast<uint16_t>(pc_ + offset);
            if ((pc_ ^ target) >> 8) {
                cycles_ += 2;
            } else {
                // Taken, same page: no poll in the last cycle, the one before it counts.
                cycles_ += 1;
                if (branch_delays_interrupts_) {
                    poll_limit_at_ = cycles_;
                    poll_limit_ = cycles_ - 1;
                }
            }
            pc_ = target;
        }
    }

    void note_i_change(uint8_t before) {
        i_before_ = before;
        i_changed_at_ = cycles_;
    }

    // ---- one opcode, generated from its table row ------------------------------------------------
    template <uint8_t Opcode, class Bus>
    void exec(Bus& bus) {
        constexpr OpcodeInfo I = kOpcodes[Opcode];
        constexpr Op O = I.op;
        constexpr Mode M = I.mode;
        constexpr Access A = access_of(O);
        cycles_ += I.cycles;
        uint8_t base_hi = 0;
        using enum Op;

        if constexpr (A == Access::Read) {
            if constexpr (M == Mode::Imp) {
                static_assert(O == NOP);  // the one-byte NOPs read nothing
            } else if constexpr (M == Mode::Imm) {
                read_op<O>(fetch(bus));
            } else {
                const uint16_t addr = address<M, I.page_penalty>(bus, base_hi);
                read_op<O>(bus.read(addr));
            }
        } else if constexpr (A == Access::Write) {
            const uint16_t addr = address<M, false>(bus, base_hi);
            if constexpr (O == STA) bus.write(addr, a_);
            else if constexpr (O == STX) bus.write(addr, x_);
            else if constexpr (O == STY) bus.write(addr, y_);
            else if constexpr (O == SAX) bus.write(addr, static_cast<uint8_t>(a_ & x_));
            else {
                // SHA/SHX/SHY/TAS store reg & (high byte of the base + 1); when the index
                // crosses a page that value also replaces the high byte of the address.
                if constexpr (O == TAS) s_ = a_ & x_;
                uint8_t reg = 0;
                if constexpr (O == SHA) reg = a_ & x_;
                else if constexpr (O == SHX) reg = x_;
                else if constexpr (O == SHY) reg = y_;
                else reg = s_;
                const uint8_t value = static_cast<uint8_t>(reg & (base_hi + 1));
                uint16_t target = addr;
                if ((addr >> 8) != base_hi) target = static_cast<uint16_t>((value << 8) | (addr & 0xFF));
                bus.write(target, value);
            }
        } else if constexpr (A == Access::ReadModifyWrite) {
            if constexpr (M == Mode::Acc) {
                a_ = rmw_op<O>(a_);
            } else {
                const uint16_t addr = address<M, false>(bus, base_hi);
                const uint8_t old = bus.read(addr);
                if constexpr (requires { bus.rmw_dummy_write(addr, old); }) {
                    bus.rmw_dummy_write(addr, old);
                }
                bus.write(addr, rmw_op<O>(old));
            }
        } else if constexpr (O == BPL) branch(bus, !(n_ & 0x80));
        else if constexpr (O == BMI) branch(bus, n_ & 0x80);
        else if constexpr (O == BVC) branch(bus, !v_);
        else if constexpr (O == BVS) branch(bus, v_);
        else if constexpr (O == BCC) branch(bus, !c_);
        else if constexpr (O == BCS) branch(bus, c_);
        else if constexpr (O == BNE) branch(bus, z_ != 0);
        else if constexpr (O == BEQ) branch(bus, z_ == 0);
        else if constexpr (O == JMP) {
            pc_ = address<M, false>(bus, base_hi);
        } else if constexpr (O == JSR) {
            // Pushes the address of its own last byte; RTS adds one.
            const uint8_t lo = fetch(bus);
            push(bus, static_cast<uint8_t>(pc_ >> 8));
            push(bus, static_cast<uint8_t>(pc_));
            pc_ = static_cast<uint16_t>(lo | (bus.read(pc_) << 8));
        } else if constexpr (O == RTS) {
            const uint8_t lo = pull(bus);
            pc_ = static_cast<uint16_t>((lo | (pull(bus) << 8)) + 1);
        } else if constexpr (O == RTI) {
            unpack_p(pull(bus));
            const uint8_t lo = pull(bus);
            pc_ = static_cast<uint16_t>(lo | (pull(bus) << 8));
        } else if constexpr (O == BRK) {
            ++pc_;  // the padding byte after BRK
            cycles_ -= 7;  // enter_interrupt counts the 7 cycles
            enter_interrupt(bus, vec::IRQ, true);
        } else if constexpr (O == PHA) push(bus, a_);
        else if constexpr (O == PHP) push(bus, static_cast<uint8_t>(pack_p() | flag::B));
        else if constexpr (O == PLA) set_nz(a_ = pull(bus));
        else if constexpr (O == PLP) {
            const uint8_t before = i_;
            unpack_p(pull(bus));
            note_i_change(before);
            update_attention();
        } else if constexpr (O == CLC) c_ = 0;
        else if constexpr (O == SEC) c_ = 1;
        else if constexpr (O == CLV) v_ = 0;
        else if constexpr (O == CLD) d_ = 0;
        else if constexpr (O == SED) d_ = 1;
        else if constexpr (O == CLI) { note_i_change(i_); i_ = 0; update_attention(); }
        else if constexpr (O == SEI) { note_i_change(i_); i_ = 1; update_attention(); }
        else if constexpr (O == TAX) set_nz(x_ = a_);
        else if constexpr (O == TAY) set_nz(y_ = a_);
        else if constexpr (O == TXA) set_nz(a_ = x_);
        else if constexpr (O == TYA) set_nz(a_ = y_);
        else if constexpr (O == TSX) set_nz(x_ = s_);
        else if constexpr (O == TXS) s_ = x_;
        else if constexpr (O == INX) set_nz(++x_);
        else if constexpr (O == INY) set_nz(++y_);
        else if constexpr (O == DEX) set_nz(--x_);
        else if constexpr (O == DEY) set_nz(--y_);
        else if constexpr (O == NOP) {
        } else if constexpr (O == JAM) {
            --pc_;  // stays on the JAM opcode
            jammed_ = true;
            update_attention();
        } else {
            static_assert(O == JAM, "opcode without an implementation");
        }
    }

    template <class Bus>
    void dispatch(Bus& bus, uint8_t opcode) {
#define NESTRIS_OP(n) \
    case n:           \
        exec<n>(bus); \
        return;
#define NESTRIS_OP16(h)                                                                        \
    NESTRIS_OP(h + 0x0) NESTRIS_OP(h + 0x1) NESTRIS_OP(h + 0x2) NESTRIS_OP(h + 0x3)             \
    NESTRIS_OP(h + 0x4) NESTRIS_OP(h + 0x5) NESTRIS_OP(h + 0x6) NESTRIS_OP(h + 0x7)             \
    NESTRIS_OP(h + 0x8) NESTRIS_OP(h + 0x9) NESTRIS_OP(h + 0xA) NESTRIS_OP(h + 0xB)             \
    NESTRIS_OP(h + 0xC) NESTRIS_OP(h + 0xD) NESTRIS_OP(h + 0xE) NESTRIS_OP(h + 0xF)
        switch (opcode) {
            NESTRIS_OP16(0x00) NESTRIS_OP16(0x10) NESTRIS_OP16(0x20) NESTRIS_OP16(0x30)
            NESTRIS_OP16(0x40) NESTRIS_OP16(0x50) NESTRIS_OP16(0x60) NESTRIS_OP16(0x70)
            NESTRIS_OP16(0x80) NESTRIS_OP16(0x90) NESTRIS_OP16(0xA0) NESTRIS_OP16(0xB0)
            NESTRIS_OP16(0xC0) NESTRIS_OP16(0xD0) NESTRIS_OP16(0xE0) NESTRIS_OP16(0xF0)
        }
#undef NESTRIS_OP16
#undef NESTRIS_OP
    }
};

}  // namespace nestris::emu
