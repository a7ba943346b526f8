// A 6502 on a flat 64 KiB RAM bus: for CPU tests, raw binaries (the functional test) and
// "cartridge-in-the-loop" runs, where the assembled AI segments sit at their addresses, a test
// writes a game state into RAM and calls the AI's subroutines many times per frame.
//
// A FlatMachine is a plain value (64 KiB + registers): copy it to snapshot, compare with ==,
// run as many as you like in parallel threads.
#pragma once

#include "emu-test/cpu.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

namespace nestris::emu {

struct FlatBus {
    uint8_t* mem;
    uint8_t read(uint16_t addr) const { return mem[addr]; }
    void write(uint16_t addr, uint8_t value) const { mem[addr] = value; }
};

// How a run that waits for something ended.
enum class RunStatus : uint8_t {
    Reached,     // the awaited event happened (return, PC, trap, frame)
    CycleLimit,  // the cycle budget ran out first
    Jammed,      // the CPU executed a JAM opcode
    // The NES only: the CPU was about to fetch an opcode from PRG-RAM ($6000-$7FFF) at a byte
    // never written since power-on (the trainer's bytes count as written). Nothing of that
    // instruction ran: PC is that address (Nes::stop_message says it).
    UnwrittenCode,
};

const char* to_string(RunStatus s);

// Result of call()/call_nmi(): how the routine ended and what it cost.
struct CallResult {
    RunStatus status = RunStatus::Reached;
    // Cycles of the whole call as a caller on the real machine spends them: the JSR (6) or the
    // interrupt entry (7), the routine, its RTS/RTI. On a cycle limit: cycles spent so far.
    uint64_t cycles = 0;
    bool ok() const { return status == RunStatus::Reached; }
};

// Result of run_until_trap(): the address of the one-instruction loop the program ended in
// (JMP * or a branch to itself), as the functional test signals success and failure.
struct TrapResult {
    RunStatus status = RunStatus::Reached;
    uint16_t pc = 0;        // trap address (or where the run stopped)
    uint64_t cycles = 0;    // cycles from the start of the run to the trap instruction
    uint64_t instructions = 0;
};

class FlatMachine {
public:
    // Where call() returns to: a return address pushed on the stack before jumping to the
    // routine. Nothing of ours lives at $5FF0 ($4020-$5FFF is unmapped on an MMC1 cartridge);
    // the run also requires S to be back at its level, so a stray jump there is not a return.
    static constexpr uint16_t kDefaultSentinel = 0x5FF0;

    // All memory zero; registers as after a reset: S=$FD, P=$24 (I set), PC=$0000.
    FlatMachine();

    // ---- memory -----------------------------------------------------------------------------
    std::span<uint8_t, 0x10000> memory() { return mem_; }
    std::span<const uint8_t, 0x10000> memory() const { return mem_; }
    uint8_t read(uint16_t addr) const { return mem_[addr]; }
    void write(uint16_t addr, uint8_t value) { mem_[addr] = value; }
    uint16_t read16(uint16_t addr) const;  // little-endian
    void write16(uint16_t addr, uint16_t value);
    // Copies bytes to addr..; throws std::out_of_range if they run past $FFFF.
    void load(uint16_t addr, std::span<const uint8_t> bytes);

    // ---- CPU --------------------------------------------------------------------------------
    Cpu6502& cpu() { return cpu_; }
    const Cpu6502& cpu() const { return cpu_; }
    // Runs the reset sequence (PC from $FFFC, 7 cycles).
    void reset();
    void step() {
        FlatBus bus{mem_.data()};
        cpu_.step(bus);
    }
    uint64_t cycles() const { return cpu_.cycles(); }
    // Enters an NMI now, as the hardware does between two instructions: pushes PC and P, sets
    // I, jumps through the vector at $FFFA (7 cycles).
    void nmi() {
        FlatBus bus{mem_.data()};
        cpu_.interrupt(bus, vec::NMI);
    }

    // Calls the subroutine at addr as JSR would: pushes a return address, runs until the
    // routine's RTS comes back (PC == sentinel with S at its level again). A, X, Y and flags go
    // in and come out through cpu(). max_cycles bounds the routine; on the limit the machine is
    // left where it stopped (the caller may inspect it, or restore a snapshot).
    CallResult call(uint16_t addr, uint64_t max_cycles = 10'000'000);
    // Runs the routine at addr as an interrupt handler: pushes return address and P, sets I,
    // runs until its RTI comes back.
    CallResult call_nmi(uint16_t addr, uint64_t max_cycles = 10'000'000);
    void set_sentinel(uint16_t addr) { sentinel_ = addr; }
    uint16_t sentinel() const { return sentinel_; }

    // Runs until PC == pc (before executing it), for at most max_cycles more cycles.
    RunStatus run_until_pc(uint16_t pc, uint64_t max_cycles);
    // Runs until an instruction jumps to itself, for at most max_cycles more cycles.
    TrapResult run_until_trap(uint64_t max_cycles);

    // A snapshot is a copy of the machine; restore by assignment.
    FlatMachine snapshot() const { return *this; }
    void restore(const FlatMachine& s) { *this = s; }
    bool operator==(const FlatMachine& o) const = default;

private:
    Cpu6502 cpu_;
    uint16_t sentinel_ = kDefaultSentinel;
    std::array<uint8_t, 0x10000> mem_{};

    CallResult run_to_sentinel(uint8_t s_level, uint64_t overhead, uint64_t max_cycles);
};

}  // namespace nestris::emu
