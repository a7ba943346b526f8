#include "emu-test/debug/disasm.hpp"

#include <cstdio>

namespace nestris::emu {

std::string disassemble(uint16_t pc, const CpuRegs& r, const PeekFn& peek, bool mark_unofficial) {
    const OpcodeInfo& info = kOpcodes[peek(pc)];
    const unsigned b1 = peek(static_cast<uint16_t>(pc + 1));
    const unsigned b2 = peek(static_cast<uint16_t>(pc + 2));
    const unsigned abs = b1 | (b2 << 8);
    auto zp16 = [&](unsigned z) {
        return static_cast<unsigned>(peek(static_cast<uint8_t>(z)) |
                                     (peek(static_cast<uint8_t>(z + 1)) << 8));
    };
    auto at = [&](unsigned a) { return static_cast<unsigned>(peek(static_cast<uint16_t>(a))); };

    char operand[64] = "";
    const size_t n = sizeof operand;
    switch (info.mode) {
    case Mode::Imp: break;
    case Mode::Acc: std::snprintf(operand, n, "A"); break;
    case Mode::Imm: std::snprintf(operand, n, "#$%02X", b1); break;
    case Mode::Zp: std::snprintf(operand, n, "$%02X = %02X", b1, at(b1)); break;
    case Mode::Zpx:
    case Mode::Zpy: {
        const bool x = info.mode == Mode::Zpx;
        const unsigned a = (b1 + (x ? r.x : r.y)) & 0xFF;
        std::snprintf(operand, n, "$%02X,%c @ %02X = %02X", b1, x ? 'X' : 'Y', a, at(a));
        break;
    }
    case Mode::Abs:
        if (info.op == Op::JMP || info.op == Op::JSR) {
            std::snprintf(operand, n, "$%04X", abs);
        } else {
            std::snprintf(operand, n, "$%04X = %02X", abs, at(abs));
        }
        break;
    case Mode::Abx:
    case Mode::Aby: {
        const bool x = info.mode == Mode::Abx;
        const unsigned a = (abs + (x ? r.x : r.y)) & 0xFFFF;
        std::snprintf(operand, n, "$%04X,%c @ %04X = %02X", abs, x ? 'X' : 'Y', a, at(a));
        break;
    }
    case Mode::Ind: {
        // The NMOS bug: the pointer's high byte comes from the same page.
        const unsigned hi = (abs & 0xFF00) | ((abs + 1) & 0xFF);
        std::snprintf(operand, n, "($%04X) = %04X", abs, at(abs) | (at(hi) << 8));
        break;
    }
    case Mode::Izx: {
        const unsigned z = (b1 + r.x) & 0xFF;
        const unsigned a = zp16(z);
        std::snprintf(operand, n, "($%02X,X) @ %02X = %04X = %02X", b1, z, a, at(a));
        break;
    }
    case Mode::Izy: {
        const unsigned base = zp16(b1);
        const unsigned a = (base + r.y) & 0xFFFF;
        std::snprintf(operand, n, "($%02X),Y = %04X @ %04X = %02X", b1, base, a, at(a));
        break;
    }
    case Mode::Rel:
        std::snprintf(operand, n, "$%04X", (pc + 2 + static_cast<int8_t>(b1)) & 0xFFFF);
        break;
    }
    std::string text;
    if (mark_unofficial) text += info.official ? ' ' : '*';
    text += op_name(info.op);
    if (operand[0]) {
        text += ' ';
        text += operand;
    }
    return text;
}

std::string trace_line(const CpuRegs& r, uint64_t cycles, int scanline, int dot, const PeekFn& peek) {
    const int len = instruction_length(kOpcodes[peek(r.pc)].mode);
    char head[24];
    int used = std::snprintf(head, sizeof head, "%04X  ", r.pc);
    for (int i = 0; i < 3; ++i) {
        if (i < len) {
            used += std::snprintf(head + used, sizeof head - static_cast<size_t>(used), "%02X ",
                                  peek(static_cast<uint16_t>(r.pc + i)));
        } else {
            used += std::snprintf(head + used, sizeof head - static_cast<size_t>(used), "   ");
        }
    }
    // Column 15 holds the unofficial marker, the mnemonic starts at 16, registers at 48.
    std::string line = head;
    line += disassemble(r.pc, r, peek, true);
    if (line.size() < 48) line.resize(48, ' ');
    else line += ' ';
    char regs[96];
    std::snprintf(regs, sizeof regs, "A:%02X X:%02X Y:%02X P:%02X SP:%02X PPU:%3d,%3d CYC:%llu",
                  r.a, r.x, r.y, r.p, r.s, scanline, dot,
                  static_cast<unsigned long long>(cycles));
    line += regs;
    return line;
}

void ppu_position_for_cycles(uint64_t cycles, int& scanline, int& dot) {
    const uint64_t pos = (cycles * 3) % (341 * 262);
    scanline = static_cast<int>(pos / 341);
    dot = static_cast<int>(pos % 341);
}

}  // namespace nestris::emu
