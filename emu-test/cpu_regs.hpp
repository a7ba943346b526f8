// The 6502's programmer-visible state (registers, status flags, vectors) and what the CPU asks
// of a bus.
//
// The CPU holds no pointer to its bus: every call that touches memory takes the bus as a
// template argument (static dispatch, fully inlined), so a Cpu6502 is a plain value that can
// be copied, compared and run in any number of threads. A bus needs
//     uint8_t read(uint16_t addr);  void write(uint16_t addr, uint8_t value);
// and may add  void rmw_dummy_write(uint16_t addr, uint8_t old_value);  which receives the
// extra write of the old value that read-modify-write instructions make one cycle before the
// real write (memory-mapped registers such as MMC1's notice it), and
//     int fetch_opcode(uint16_t pc);
// which reads each opcode instead of read() (after any interrupt entry): a negative result
// refuses the fetch and leaves the CPU untouched, nothing of the instruction done (the NES
// refuses code in PRG-RAM never written).
#pragma once

#include <concepts>
#include <cstdint>

namespace nestris::emu {

template <class B>
concept CpuBus = requires(B bus, uint16_t addr, uint8_t value) {
    { bus.read(addr) } -> std::convertible_to<uint8_t>;
    bus.write(addr, value);
};

// Status register bits.
namespace flag {
inline constexpr uint8_t C = 0x01, Z = 0x02, I = 0x04, D = 0x08, B = 0x10, U = 0x20, V = 0x40,
                         N = 0x80;
}

// The programmer-visible registers. P as pushed by PHP would have B set; here B is clear and
// U (bit 5) set, as the nestest log prints it.
struct CpuRegs {
    uint16_t pc = 0;
    uint8_t a = 0, x = 0, y = 0;
    uint8_t s = 0;
    uint8_t p = flag::U | flag::I;
    bool operator==(const CpuRegs&) const = default;
};

namespace vec {
inline constexpr uint16_t NMI = 0xFFFA, RESET = 0xFFFC, IRQ = 0xFFFE;
}

}  // namespace nestris::emu
