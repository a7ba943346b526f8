// Cpu6502's interrupt entry and its opcodes (cpu.hpp, which includes this at its end): each opcode
// a function generated from its table row (opcodes.hpp), and the switch that calls them.
#pragma once

#include "emu-test/cpu.hpp"
#include "emu-test/opcodes.hpp"

#include <cstdint>

namespace nestris::emu {

// Returns true when the step was spent on an interrupt entry or a halted CPU.
template <class Bus>
inline bool Cpu6502::service(Bus& bus) {
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
inline void Cpu6502::enter_interrupt(Bus& bus, uint16_t vector, bool brk) {
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

// ---- one opcode, generated from its table row -------------------------------------------
template <uint8_t Opcode, class Bus>
inline void Cpu6502::exec(Bus& bus) {
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
inline void Cpu6502::dispatch(Bus& bus, uint8_t opcode) {
#define NESTRIS_OP(n) \
    case n:           \
        exec<n>(bus); \
        return;
#define NESTRIS_OP16(h)                                                                    \
    NESTRIS_OP(h + 0x0) NESTRIS_OP(h + 0x1) NESTRIS_OP(h + 0x2) NESTRIS_OP(h + 0x3)         \
    NESTRIS_OP(h + 0x4) NESTRIS_OP(h + 0x5) NESTRIS_OP(h + 0x6) NESTRIS_OP(h + 0x7)         \
    NESTRIS_OP(h + 0x8) NESTRIS_OP(h + 0x9) NESTRIS_OP(h + 0xA) NESTRIS_OP(h + 0xB)         \
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

}  // namespace nestris::emu
