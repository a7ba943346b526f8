// Disassembly and trace lines in the format of the nestest log (Nintendulator's), so a trace of
// ours can be diffed line by line with that widely used reference:
//
// C000  4C F5 C5  JMP $C5F5                       A:00 X:00 Y:00 P:24 SP:FD PPU:  0, 21 CYC:7
//
// Operands show the effective address and the value there before the instruction runs
// ("LDA ($80),Y = 0300 @ 0300 = 5A"); unofficial opcodes are marked with '*'.
#pragma once

#include "emu-test/cpu.hpp"

#include <cstdint>
#include <functional>
#include <string>

namespace nestris::emu {

// Reads memory without side effects (no PPU latches, no controller shifts).
using PeekFn = std::function<uint8_t(uint16_t)>;

// "JMP $C5F5", "*NOP $A9 = 00", ...: the instruction at pc with nestest's operand annotations
// (registers are needed for the effective addresses). No leading '*' column when
// `mark_unofficial` is false.
std::string disassemble(uint16_t pc, const CpuRegs& regs, const PeekFn& peek,
                        bool mark_unofficial = true);

// The whole nestest-format line (without newline) for the instruction about to run.
std::string trace_line(const CpuRegs& regs, uint64_t cycles, int scanline, int dot,
                       const PeekFn& peek);

// The PPU position nestest prints for a CPU cycle count when rendering is off (no odd-frame
// dot skip): 3 dots per cycle, 341 dots per line, 262 lines.
void ppu_position_for_cycles(uint64_t cycles, int& scanline, int& dot);

}  // namespace nestris::emu
