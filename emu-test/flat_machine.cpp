#include "emu-test/flat_machine.hpp"
#include "base/hex.hpp"

#include <algorithm>
#include <cstdio>

namespace nestris::emu {

const char* to_string(RunStatus s) {
    switch (s) {
    case RunStatus::Reached: return "reached";
    case RunStatus::CycleLimit: return "cycle limit reached";
    case RunStatus::Jammed: return "CPU jammed (JAM opcode)";
    case RunStatus::UnwrittenCode: return "the CPU ran code in PRG-RAM that was never written";
    }
    return "?";
}

FlatMachine::FlatMachine() {
    CpuRegs r;
    r.s = 0xFD;
    r.p = flag::U | flag::I;
    cpu_.set_regs(r);
}

uint16_t FlatMachine::read16(uint16_t addr) const {
    return static_cast<uint16_t>(mem_[addr] | (mem_[static_cast<uint16_t>(addr + 1)] << 8));
}

void FlatMachine::write16(uint16_t addr, uint16_t value) {
    mem_[addr] = static_cast<uint8_t>(value);
    mem_[static_cast<uint16_t>(addr + 1)] = static_cast<uint8_t>(value >> 8);
}

void FlatMachine::load(uint16_t addr, std::span<const uint8_t> bytes) {
    if (addr + bytes.size() > mem_.size()) {
        throw std::out_of_range("load of " + std::to_string(bytes.size()) + " bytes at " + hex(addr, 4) + " runs past $FFFF");
    }
    std::copy(bytes.begin(), bytes.end(), mem_.begin() + addr);
}

void FlatMachine::reset() {
    FlatBus bus{mem_.data()};
    cpu_.reset(bus);
}

CallResult FlatMachine::run_to_sentinel(uint8_t s_level, uint64_t overhead, uint64_t max_cycles) {
    FlatBus bus{mem_.data()};
    const uint64_t start = cpu_.cycles();
    const uint64_t limit = start + max_cycles;
    CallResult r;
    while (cpu_.cycles() < limit) {
        if (cpu_.pc() == sentinel_ && cpu_.s() == s_level) {
            r.cycles = cpu_.cycles() - start + overhead;
            return r;
        }
        cpu_.step(bus);
        if (cpu_.jammed()) [[unlikely]] {
            r.status = RunStatus::Jammed;
            r.cycles = cpu_.cycles() - start + overhead;
            return r;
        }
    }
    // The limit may fall exactly on the return.
    r.status = (cpu_.pc() == sentinel_ && cpu_.s() == s_level) ? RunStatus::Reached
                                                                : RunStatus::CycleLimit;
    r.cycles = cpu_.cycles() - start + overhead;
    return r;
}

CallResult FlatMachine::call(uint16_t addr, uint64_t max_cycles) {
    const uint8_t s_level = cpu_.s();
    // What JSR leaves on the stack: the return address minus one, high byte first.
    const uint16_t ret = static_cast<uint16_t>(sentinel_ - 1);
    uint8_t s = s_level;
    mem_[0x100 | s] = static_cast<uint8_t>(ret >> 8);
    s = static_cast<uint8_t>(s - 1);
    mem_[0x100 | s] = static_cast<uint8_t>(ret);
    s = static_cast<uint8_t>(s - 1);
    cpu_.set_s(s);
    cpu_.set_pc(addr);
    return run_to_sentinel(s_level, 6, max_cycles);
}

CallResult FlatMachine::call_nmi(uint16_t addr, uint64_t max_cycles) {
    const uint8_t s_level = cpu_.s();
    cpu_.set_pc(sentinel_);
    FlatBus bus{mem_.data()};
    cpu_.interrupt(bus, vec::NMI);  // pushes PC and P, sets I, 7 cycles ...
    cpu_.set_cycles(cpu_.cycles() - 7);  // ... which run_to_sentinel counts as overhead
    cpu_.set_pc(addr);
    return run_to_sentinel(s_level, 7, max_cycles);
}

RunStatus FlatMachine::run_until_pc(uint16_t pc, uint64_t max_cycles) {
    FlatBus bus{mem_.data()};
    const uint64_t limit = cpu_.cycles() + max_cycles;
    while (cpu_.pc() != pc) {
        if (cpu_.cycles() >= limit) return RunStatus::CycleLimit;
        cpu_.step(bus);
        if (cpu_.jammed()) [[unlikely]] return RunStatus::Jammed;
    }
    return RunStatus::Reached;
}

TrapResult FlatMachine::run_until_trap(uint64_t max_cycles) {
    FlatBus bus{mem_.data()};
    const uint64_t start = cpu_.cycles();
    const uint64_t limit = start + max_cycles;
    TrapResult r;
    while (cpu_.cycles() < limit) {
        const uint16_t pc = cpu_.pc();
        const uint64_t before = cpu_.cycles();
        cpu_.step(bus);
        ++r.instructions;
        if (cpu_.pc() == pc) {
            r.status = cpu_.jammed() ? RunStatus::Jammed : RunStatus::Reached;
            r.pc = pc;
            r.cycles = before - start;
            return r;
        }
    }
    r.status = RunStatus::CycleLimit;
    r.pc = cpu_.pc();
    r.cycles = cpu_.cycles() - start;
    return r;
}

}  // namespace nestris::emu
