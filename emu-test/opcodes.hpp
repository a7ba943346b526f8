// The 6502 opcode table: one row per opcode byte, the single source for decoding (the CPU's
// execute templates read it at compile time), cycle counts and disassembly.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace nestris::emu {

// Addressing modes. Rel is the branch offset; Acc the accumulator form of shifts.
enum class Mode : uint8_t { Imp, Acc, Imm, Zp, Zpx, Zpy, Abs, Abx, Aby, Ind, Izx, Izy, Rel };

// Operations. The first block is the official instruction set; after NOP come the unofficial
// ones of the NMOS 6502 (names as in the nestest log where it has them).
enum class Op : uint8_t {
    ADC, AND, ASL, BCC, BCS, BEQ, BIT, BMI, BNE, BPL, BRK, BVC, BVS, CLC, CLD, CLI, CLV, CMP,
    CPX, CPY, DEC, DEX, DEY, EOR, INC, INX, INY, JMP, JSR, LDA, LDX, LDY, LSR, NOP, ORA, PHA,
    PHP, PLA, PLP, ROL, ROR, RTI, RTS, SBC, SEC, SED, SEI, STA, STX, STY, TAX, TAY, TSX, TXA,
    TXS, TYA,
    // Unofficial, stable:
    LAX, SAX, DCP, ISB, SLO, RLA, SRE, RRA, ANC, ALR, ARR, SBX, LAS,
    // Unofficial, unstable on real chips (ANE/LXA depend on a chip constant, SH* on bus
    // timing); emulated with the behaviour most emulators and tests agree on:
    ANE, LXA, SHA, SHX, SHY, TAS,
    // Halts the CPU until reset.
    JAM,
};

inline constexpr std::array<std::string_view, 76> kOpNames = {
    "ADC", "AND", "ASL", "BCC", "BCS", "BEQ", "BIT", "BMI", "BNE", "BPL", "BRK", "BVC", "BVS",
    "CLC", "CLD", "CLI", "CLV", "CMP", "CPX", "CPY", "DEC", "DEX", "DEY", "EOR", "INC", "INX",
    "INY", "JMP", "JSR", "LDA", "LDX", "LDY", "LSR", "NOP", "ORA", "PHA", "PHP", "PLA", "PLP",
    "ROL", "ROR", "RTI", "RTS", "SBC", "SEC", "SED", "SEI", "STA", "STX", "STY", "TAX", "TAY",
    "TSX", "TXA", "TXS", "TYA", "LAX", "SAX", "DCP", "ISB", "SLO", "RLA", "SRE", "RRA", "ANC",
    "ALR", "ARR", "SBX", "LAS", "ANE", "LXA", "SHA", "SHX", "SHY", "TAS", "JAM"};
static_assert(kOpNames.size() == static_cast<size_t>(Op::JAM) + 1);

constexpr std::string_view op_name(Op op) { return kOpNames[static_cast<size_t>(op)]; }

struct OpcodeInfo {
    Op op;
    Mode mode;
    uint8_t cycles;     // base cycle count
    bool page_penalty;  // +1 cycle when the indexed address crosses a page (reads only)
    bool official;
};

// How an operation uses its operand; decides the memory accesses the CPU performs.
enum class Access : uint8_t { None, Read, Write, ReadModifyWrite };

constexpr Access access_of(Op op) {
    switch (op) {
    case Op::ADC: case Op::AND: case Op::BIT: case Op::CMP: case Op::CPX: case Op::CPY:
    case Op::EOR: case Op::LDA: case Op::LDX: case Op::LDY: case Op::ORA: case Op::SBC:
    case Op::LAX: case Op::NOP: case Op::LAS: case Op::ANC: case Op::ALR: case Op::ARR:
    case Op::SBX: case Op::ANE: case Op::LXA:
        return Access::Read;
    case Op::STA: case Op::STX: case Op::STY: case Op::SAX: case Op::SHA: case Op::SHX:
    case Op::SHY: case Op::TAS:
        return Access::Write;
    case Op::ASL: case Op::LSR: case Op::ROL: case Op::ROR: case Op::INC: case Op::DEC:
    case Op::DCP: case Op::ISB: case Op::SLO: case Op::RLA: case Op::SRE: case Op::RRA:
        return Access::ReadModifyWrite;
    default:
        return Access::None;
    }
}

// Bytes of the instruction including the opcode.
constexpr int instruction_length(Mode mode) {
    switch (mode) {
    case Mode::Imp: case Mode::Acc: return 1;
    case Mode::Abs: case Mode::Abx: case Mode::Aby: case Mode::Ind: return 3;
    default: return 2;
    }
}

namespace detail {
constexpr OpcodeInfo O(Op op, Mode m, int c, bool pp = false) {
    return {op, m, static_cast<uint8_t>(c), pp, true};
}
constexpr OpcodeInfo U(Op op, Mode m, int c, bool pp = false) {
    return {op, m, static_cast<uint8_t>(c), pp, false};
}
}  // namespace detail

// Indexed by opcode byte. Branch cycles are the not-taken count (+1 taken, +1 more across a
// page). JAM's cycle count is what one step of a halted CPU costs (it re-reads the bus).
inline constexpr std::array<OpcodeInfo, 256> kOpcodes = [] {
    using enum Op;
    using M = Mode;
    using detail::O;
    using detail::U;
    constexpr bool P = true;  // page-cross penalty
    return std::array<OpcodeInfo, 256>{
        // 0x00
        O(BRK, M::Imp, 7), O(ORA, M::Izx, 6), U(JAM, M::Imp, 2), U(SLO, M::Izx, 8),
        U(NOP, M::Zp, 3), O(ORA, M::Zp, 3), O(ASL, M::Zp, 5), U(SLO, M::Zp, 5),
        O(PHP, M::Imp, 3), O(ORA, M::Imm, 2), O(ASL, M::Acc, 2), U(ANC, M::Imm, 2),
        U(NOP, M::Abs, 4), O(ORA, M::Abs, 4), O(ASL, M::Abs, 6), U(SLO, M::Abs, 6),
        // 0x10
        O(BPL, M::Rel, 2), O(ORA, M::Izy, 5, P), U(JAM, M::Imp, 2), U(SLO, M::Izy, 8),
        U(NOP, M::Zpx, 4), O(ORA, M::Zpx, 4), O(ASL, M::Zpx, 6), U(SLO, M::Zpx, 6),
        O(CLC, M::Imp, 2), O(ORA, M::Aby, 4, P), U(NOP, M::Imp, 2), U(SLO, M::Aby, 7),
        U(NOP, M::Abx, 4, P), O(ORA, M::Abx, 4, P), O(ASL, M::Abx, 7), U(SLO, M::Abx, 7),
        // 0x20
        O(JSR, M::Abs, 6), O(AND, M::Izx, 6), U(JAM, M::Imp, 2), U(RLA, M::Izx, 8),
        O(BIT, M::Zp, 3), O(AND, M::Zp, 3), O(ROL, M::Zp, 5), U(RLA, M::Zp, 5),
        O(PLP, M::Imp, 4), O(AND, M::Imm, 2), O(ROL, M::Acc, 2), U(ANC, M::Imm, 2),
        O(BIT, M::Abs, 4), O(AND, M::Abs, 4), O(ROL, M::Abs, 6), U(RLA, M::Abs, 6),
        // 0x30
        O(BMI, M::Rel, 2), O(AND, M::Izy, 5, P), U(JAM, M::Imp, 2), U(RLA, M::Izy, 8),
        U(NOP, M::Zpx, 4), O(AND, M::Zpx, 4), O(ROL, M::Zpx, 6), U(RLA, M::Zpx, 6),
        O(SEC, M::Imp, 2), O(AND, M::Aby, 4, P), U(NOP, M::Imp, 2), U(RLA, M::Aby, 7),
        U(NOP, M::Abx, 4, P), O(AND, M::Abx, 4, P), O(ROL, M::Abx, 7), U(RLA, M::Abx, 7),
        // 0x40
        O(RTI, M::Imp, 6), O(EOR, M::Izx, 6), U(JAM, M::Imp, 2), U(SRE, M::Izx, 8),
        U(NOP, M::Zp, 3), O(EOR, M::Zp, 3), O(LSR, M::Zp, 5), U(SRE, M::Zp, 5),
        O(PHA, M::Imp, 3), O(EOR, M::Imm, 2), O(LSR, M::Acc, 2), U(ALR, M::Imm, 2),
        O(JMP, M::Abs, 3), O(EOR, M::Abs, 4), O(LSR, M::Abs, 6), U(SRE, M::Abs, 6),
        // 0x50
        O(BVC, M::Rel, 2), O(EOR, M::Izy, 5, P), U(JAM, M::Imp, 2), U(SRE, M::Izy, 8),
        U(NOP, M::Zpx, 4), O(EOR, M::Zpx, 4), O(LSR, M::Zpx, 6), U(SRE, M::Zpx, 6),
        O(CLI, M::Imp, 2), O(EOR, M::Aby, 4, P), U(NOP, M::Imp, 2), U(SRE, M::Aby, 7),
        U(NOP, M::Abx, 4, P), O(EOR, M::Abx, 4, P), O(LSR, M::Abx, 7), U(SRE, M::Abx, 7),
        // 0x60
        O(RTS, M::Imp, 6), O(ADC, M::Izx, 6), U(JAM, M::Imp, 2), U(RRA, M::Izx, 8),
        U(NOP, M::Zp, 3), O(ADC, M::Zp, 3), O(ROR, M::Zp, 5), U(RRA, M::Zp, 5),
        O(PLA, M::Imp, 4), O(ADC, M::Imm, 2), O(ROR, M::Acc, 2), U(ARR, M::Imm, 2),
        O(JMP, M::Ind, 5), O(ADC, M::Abs, 4), O(ROR, M::Abs, 6), U(RRA, M::Abs, 6),
        // 0x70
        O(BVS, M::Rel, 2), O(ADC, M::Izy, 5, P), U(JAM, M::Imp, 2), U(RRA, M::Izy, 8),
        U(NOP, M::Zpx, 4), O(ADC, M::Zpx, 4), O(ROR, M::Zpx, 6), U(RRA, M::Zpx, 6),
        O(SEI, M::Imp, 2), O(ADC, M::Aby, 4, P), U(NOP, M::Imp, 2), U(RRA, M::Aby, 7),
        U(NOP, M::Abx, 4, P), O(ADC, M::Abx, 4, P), O(ROR, M::Abx, 7), U(RRA, M::Abx, 7),
        // 0x80
        U(NOP, M::Imm, 2), O(STA, M::Izx, 6), U(NOP, M::Imm, 2), U(SAX, M::Izx, 6),
        O(STY, M::Zp, 3), O(STA, M::Zp, 3), O(STX, M::Zp, 3), U(SAX, M::Zp, 3),
        O(DEY, M::Imp, 2), U(NOP, M::Imm, 2), O(TXA, M::Imp, 2), U(ANE, M::Imm, 2),
        O(STY, M::Abs, 4), O(STA, M::Abs, 4), O(STX, M::Abs, 4), U(SAX, M::Abs, 4),
        // 0x90
        O(BCC, M::Rel, 2), O(STA, M::Izy, 6), U(JAM, M::Imp, 2), U(SHA, M::Izy, 6),
        O(STY, M::Zpx, 4), O(STA, M::Zpx, 4), O(STX, M::Zpy, 4), U(SAX, M::Zpy, 4),
        O(TYA, M::Imp, 2), O(STA, M::Aby, 5), O(TXS, M::Imp, 2), U(TAS, M::Aby, 5),
        U(SHY, M::Abx, 5), O(STA, M::Abx, 5), U(SHX, M::Aby, 5), U(SHA, M::Aby, 5),
        // 0xA0
        O(LDY, M::Imm, 2), O(LDA, M::Izx, 6), O(LDX, M::Imm, 2), U(LAX, M::Izx, 6),
        O(LDY, M::Zp, 3), O(LDA, M::Zp, 3), O(LDX, M::Zp, 3), U(LAX, M::Zp, 3),
        O(TAY, M::Imp, 2), O(LDA, M::Imm, 2), O(TAX, M::Imp, 2), U(LXA, M::Imm, 2),
        O(LDY, M::Abs, 4), O(LDA, M::Abs, 4), O(LDX, M::Abs, 4), U(LAX, M::Abs, 4),
        // 0xB0
        O(BCS, M::Rel, 2), O(LDA, M::Izy, 5, P), U(JAM, M::Imp, 2), U(LAX, M::Izy, 5, P),
        O(LDY, M::Zpx, 4), O(LDA, M::Zpx, 4), O(LDX, M::Zpy, 4), U(LAX, M::Zpy, 4),
        O(CLV, M::Imp, 2), O(LDA, M::Aby, 4, P), O(TSX, M::Imp, 2), U(LAS, M::Aby, 4, P),
        O(LDY, M::Abx, 4, P), O(LDA, M::Abx, 4, P), O(LDX, M::Aby, 4, P), U(LAX, M::Aby, 4, P),
        // 0xC0
        O(CPY, M::Imm, 2), O(CMP, M::Izx, 6), U(NOP, M::Imm, 2), U(DCP, M::Izx, 8),
        O(CPY, M::Zp, 3), O(CMP, M::Zp, 3), O(DEC, M::Zp, 5), U(DCP, M::Zp, 5),
        O(INY, M::Imp, 2), O(CMP, M::Imm, 2), O(DEX, M::Imp, 2), U(SBX, M::Imm, 2),
        O(CPY, M::Abs, 4), O(CMP, M::Abs, 4), O(DEC, M::Abs, 6), U(DCP, M::Abs, 6),
        // 0xD0
        O(BNE, M::Rel, 2), O(CMP, M::Izy, 5, P), U(JAM, M::Imp, 2), U(DCP, M::Izy, 8),
        U(NOP, M::Zpx, 4), O(CMP, M::Zpx, 4), O(DEC, M::Zpx, 6), U(DCP, M::Zpx, 6),
        O(CLD, M::Imp, 2), O(CMP, M::Aby, 4, P), U(NOP, M::Imp, 2), U(DCP, M::Aby, 7),
        U(NOP, M::Abx, 4, P), O(CMP, M::Abx, 4, P), O(DEC, M::Abx, 7), U(DCP, M::Abx, 7),
        // 0xE0
        O(CPX, M::Imm, 2), O(SBC, M::Izx, 6), U(NOP, M::Imm, 2), U(ISB, M::Izx, 8),
        O(CPX, M::Zp, 3), O(SBC, M::Zp, 3), O(INC, M::Zp, 5), U(ISB, M::Zp, 5),
        O(INX, M::Imp, 2), O(SBC, M::Imm, 2), O(NOP, M::Imp, 2), U(SBC, M::Imm, 2),
        O(CPX, M::Abs, 4), O(SBC, M::Abs, 4), O(INC, M::Abs, 6), U(ISB, M::Abs, 6),
        // 0xF0
        O(BEQ, M::Rel, 2), O(SBC, M::Izy, 5, P), U(JAM, M::Imp, 2), U(ISB, M::Izy, 8),
        U(NOP, M::Zpx, 4), O(SBC, M::Zpx, 4), O(INC, M::Zpx, 6), U(ISB, M::Zpx, 6),
        O(SED, M::Imp, 2), O(SBC, M::Aby, 4, P), U(NOP, M::Imp, 2), U(ISB, M::Aby, 7),
        U(NOP, M::Abx, 4, P), O(SBC, M::Abx, 4, P), O(INC, M::Abx, 7), U(ISB, M::Abx, 7),
    };
}();

// Consistency of the table with itself, checked at compile time: only reads take the page
// penalty, and only in the indexed modes that have one.
constexpr bool table_is_consistent() {
    int official = 0;
    for (const auto& e : kOpcodes) {
        official += e.official ? 1 : 0;
        if (e.page_penalty) {
            if (access_of(e.op) != Access::Read) return false;
            if (e.mode != Mode::Abx && e.mode != Mode::Aby && e.mode != Mode::Izy) return false;
        }
    }
    return official == 151;  // the documented 6502 instruction set
}
static_assert(table_is_consistent());

}  // namespace nestris::emu
