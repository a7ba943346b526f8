// Cpu6502's addressing modes and operations (cpu.hpp, which includes this at its end): what the
// opcodes of cpu_exec.hpp are made of.
#pragma once

#include "emu-test/cpu.hpp"
#include "emu-test/opcodes.hpp"

#include <cstdint>

namespace nestris::emu {

// ---- bus access -------------------------------------------------------------------------
template <class Bus>
inline uint16_t Cpu6502::read16(Bus& bus, uint16_t addr) {
    const uint8_t lo = bus.read(addr);
    return static_cast<uint16_t>(lo | (bus.read(static_cast<uint16_t>(addr + 1)) << 8));
}

template <class Bus>
inline uint8_t Cpu6502::fetch(Bus& bus) {
    return bus.read(pc_++);
}

template <class Bus>
inline uint16_t Cpu6502::fetch16(Bus& bus) {
    const uint16_t v = read16(bus, pc_);
    pc_ = static_cast<uint16_t>(pc_ + 2);
    return v;
}

template <class Bus>
inline void Cpu6502::push(Bus& bus, uint8_t v) {
    bus.write(static_cast<uint16_t>(0x100 | s_), v);
    s_ = static_cast<uint8_t>(s_ - 1);
}

template <class Bus>
inline uint8_t Cpu6502::pull(Bus& bus) {
    s_ = static_cast<uint8_t>(s_ + 1);
    return bus.read(static_cast<uint16_t>(0x100 | s_));
}

// Indexed modes read the address before the high byte's carry is added: reads only when
// the index crossed a page (the extra cycle), writes and read-modify-writes always. The read
// matters only where reading has effects (PPU and I/O registers): a bus that has such
// registers says so with dummy_read(), which it makes only where it matters.
template <bool ReadOp, class Bus>
inline void Cpu6502::indexed_dummy_read(Bus& bus, uint16_t base, uint16_t addr) {
    if constexpr (requires { bus.dummy_read(addr); }) {
        const uint16_t uncarried = static_cast<uint16_t>((base & 0xFF00) | (addr & 0x00FF));
        if (!ReadOp || uncarried != addr) bus.dummy_read(uncarried);
    }
}

// ---- addressing -------------------------------------------------------------------------
// Effective address of the operand. `Penalty` adds the page-cross cycle (reads only).
// `base_hi` receives the high byte of the unindexed address (the SH* opcodes use it).
template <Mode M, bool Penalty, class Bus>
inline uint16_t Cpu6502::address(Bus& bus, uint8_t& base_hi) {
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

// ---- ALU --------------------------------------------------------------------------------
inline void Cpu6502::adc(uint8_t v) {
    const unsigned sum = a_ + v + c_;
    v_ = ((~(a_ ^ v) & (a_ ^ sum)) & 0x80) ? 1 : 0;
    c_ = sum > 0xFF ? 1 : 0;
    a_ = static_cast<uint8_t>(sum);
    set_nz(a_);
}

inline void Cpu6502::sbc(uint8_t v) { adc(static_cast<uint8_t>(~v)); }

inline void Cpu6502::compare(uint8_t reg, uint8_t v) {
    c_ = reg >= v ? 1 : 0;
    set_nz(static_cast<uint8_t>(reg - v));
}

inline uint8_t Cpu6502::asl(uint8_t v) {
    c_ = v >> 7;
    v = static_cast<uint8_t>(v << 1);
    set_nz(v);
    return v;
}

inline uint8_t Cpu6502::lsr(uint8_t v) {
    c_ = v & 1;
    v = static_cast<uint8_t>(v >> 1);
    set_nz(v);
    return v;
}

inline uint8_t Cpu6502::rol(uint8_t v) {
    const uint8_t r = static_cast<uint8_t>((v << 1) | c_);
    c_ = v >> 7;
    set_nz(r);
    return r;
}

inline uint8_t Cpu6502::ror(uint8_t v) {
    const uint8_t r = static_cast<uint8_t>((v >> 1) | (c_ << 7));
    c_ = v & 1;
    set_nz(r);
    return r;
}

// Operations that only read their operand.
template <Op O>
inline void Cpu6502::read_op(uint8_t v) {
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
inline uint8_t Cpu6502::rmw_op(uint8_t v) {
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
inline void Cpu6502::branch(Bus& bus, bool taken) {
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

inline void Cpu6502::note_i_change(uint8_t before) {
    i_before_ = before;
    i_changed_at_ = cycles_;
}

}  // namespace nestris::emu
