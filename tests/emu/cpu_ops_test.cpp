// What each instruction computes: results and flags, checked exhaustively against formulas
// written independently of the CPU (signed/unsigned arithmetic, not the CPU's bit tricks),
// unofficial opcodes against the official instructions they combine, and hand-worked cases
// for addressing, the stack, jumps and interrupts.
#include "emu-test/flat_machine.hpp"

#include <catch2/catch.hpp>

#include <initializer_list>
#include <memory>

using namespace nestris::emu;

namespace {

constexpr uint8_t C = 0x01, Z = 0x02, I = 0x04, D = 0x08, B = 0x10, U = 0x20, V = 0x40, N = 0x80;

// A machine with `code` at $0400 and PC there.
std::unique_ptr<FlatMachine> machine(std::initializer_list<uint8_t> code) {
    auto m = std::make_unique<FlatMachine>();
    uint16_t at = 0x0400;
    for (const uint8_t b : code) m->write(at++, b);
    m->cpu().set_pc(0x0400);
    return m;
}

void set(FlatMachine& m, uint8_t a, uint8_t x, uint8_t y, uint8_t p) {
    CpuRegs r = m.cpu().regs();
    r.a = a;
    r.x = x;
    r.y = y;
    r.p = static_cast<uint8_t>(p | U);
    r.pc = 0x0400;
    m.cpu().set_regs(r);
}

uint8_t nz(uint8_t v) { return static_cast<uint8_t>((v & 0x80 ? N : 0) | (v == 0 ? Z : 0)); }

}  // namespace

TEST_CASE("ADC: all operands and carries, decimal flag ignored") {
    auto m = machine({0x69, 0x00});
    for (int a = 0; a < 256; ++a) {
        for (int v = 0; v < 256; ++v) {
            for (int c = 0; c < 2; ++c) {
                m->write(0x0401, static_cast<uint8_t>(v));
                set(*m, static_cast<uint8_t>(a), 0, 0, static_cast<uint8_t>(c | ((a ^ v) & 1 ? D : 0)));
                m->step();
                const int sum = a + v + c;
                const int signed_sum = static_cast<int8_t>(a) + static_cast<int8_t>(v) + c;
                const uint8_t r = static_cast<uint8_t>(sum);
                uint8_t want = nz(r) | (sum > 255 ? C : 0) |
                               (signed_sum < -128 || signed_sum > 127 ? V : 0);
                if ((a ^ v) & 1) want |= D;
                if (m->cpu().a() != r || (m->cpu().p() & ~(U | B)) != want) {
                    FAIL("ADC a=" << a << " v=" << v << " c=" << c);
                }
            }
        }
    }
}

TEST_CASE("SBC ($E9 and unofficial $EB): all operands and borrows") {
    for (const uint8_t op : {uint8_t{0xE9}, uint8_t{0xEB}}) {
        auto m = machine({op, 0x00});
        for (int a = 0; a < 256; ++a) {
            for (int v = 0; v < 256; ++v) {
                for (int c = 0; c < 2; ++c) {
                    m->write(0x0401, static_cast<uint8_t>(v));
                    set(*m, static_cast<uint8_t>(a), 0, 0, static_cast<uint8_t>(c));
                    m->step();
                    const int diff = a - v - (1 - c);
                    const int signed_diff = static_cast<int8_t>(a) - static_cast<int8_t>(v) - (1 - c);
                    const uint8_t r = static_cast<uint8_t>(diff);
                    const uint8_t want = nz(r) | (diff >= 0 ? C : 0) |
                                         (signed_diff < -128 || signed_diff > 127 ? V : 0);
                    if (m->cpu().a() != r || (m->cpu().p() & ~(U | B)) != want) {
                        FAIL("SBC $" << std::hex << int(op) << " a=" << a << " v=" << v << " c=" << c);
                    }
                }
            }
        }
    }
}

TEST_CASE("CMP, CPX, CPY and the logic ops: all operand pairs") {
    struct Op {
        uint8_t opcode;
        int kind;  // 0 CMP, 1 CPX, 2 CPY, 3 AND, 4 ORA, 5 EOR, 6 BIT (zero page $10)
    };
    for (const Op op : {Op{0xC9, 0}, Op{0xE0, 1}, Op{0xC0, 2}, Op{0x29, 3}, Op{0x09, 4},
                        Op{0x49, 5}, Op{0x24, 6}}) {
        auto m = machine({op.opcode, 0x10});
        for (int r = 0; r < 256; ++r) {
            for (int v = 0; v < 256; ++v) {
                const uint8_t reg = static_cast<uint8_t>(r), val = static_cast<uint8_t>(v);
                if (op.kind == 6) m->write(0x10, val);
                else m->write(0x0401, val);
                set(*m, reg, reg, reg, C | V);
                m->step();
                uint8_t want_a = reg, want_p = 0;
                switch (op.kind) {
                case 0: case 1: case 2:
                    want_p = static_cast<uint8_t>((r >= v ? C : 0) | (r == v ? Z : 0) |
                                                  ((r - v) & 0x80 ? N : 0) | V);
                    break;
                case 3: want_a = reg & val; want_p = nz(want_a) | C | V; break;
                case 4: want_a = reg | val; want_p = nz(want_a) | C | V; break;
                case 5: want_a = reg ^ val; want_p = nz(want_a) | C | V; break;
                case 6:
                    want_p = static_cast<uint8_t>((val & N) | (val & V) | ((reg & val) == 0 ? Z : 0) | C);
                    break;
                }
                if (m->cpu().a() != want_a || (m->cpu().p() & ~(U | B)) != want_p) {
                    FAIL("opcode $" << std::hex << int(op.opcode) << " reg=" << r << " v=" << v);
                }
            }
        }
    }
}

TEST_CASE("shifts, rotates, INC and DEC on A and memory: all values and carries") {
    // opcode for A (0 if none), opcode for zero page, result and carry out.
    struct Op {
        uint8_t acc, zp;
        int kind;  // 0 ASL 1 LSR 2 ROL 3 ROR 4 INC 5 DEC
    };
    for (const Op op : {Op{0x0A, 0x06, 0}, Op{0x4A, 0x46, 1}, Op{0x2A, 0x26, 2}, Op{0x6A, 0x66, 3},
                        Op{0x00, 0xE6, 4}, Op{0x00, 0xC6, 5}}) {
        for (int v = 0; v < 256; ++v) {
            for (int c = 0; c < 2; ++c) {
                int r = 0, cout = c;
                switch (op.kind) {
                case 0: r = v * 2; cout = v >> 7; break;
                case 1: r = v / 2; cout = v & 1; break;
                case 2: r = v * 2 + c; cout = v >> 7; break;
                case 3: r = v / 2 + c * 128; cout = v & 1; break;
                case 4: r = v + 1; break;
                case 5: r = v - 1; break;
                }
                const uint8_t res = static_cast<uint8_t>(r);
                const uint8_t want_p = static_cast<uint8_t>(nz(res) | (cout ? C : 0));
                if (op.acc) {
                    auto m = machine({op.acc});
                    set(*m, static_cast<uint8_t>(v), 0, 0, static_cast<uint8_t>(c));
                    m->step();
                    if (m->cpu().a() != res || (m->cpu().p() & ~(U | B)) != want_p)
                        FAIL("acc opcode $" << std::hex << int(op.acc) << " v=" << v << " c=" << c);
                }
                auto m = machine({op.zp, 0x10});
                m->write(0x10, static_cast<uint8_t>(v));
                set(*m, 0x55, 0, 0, static_cast<uint8_t>(c));
                m->step();
                if (m->read(0x10) != res || m->cpu().a() != 0x55 || (m->cpu().p() & ~(U | B)) != want_p)
                    FAIL("zp opcode $" << std::hex << int(op.zp) << " v=" << v << " c=" << c);
            }
        }
    }
}

TEST_CASE("register increments, transfers and flag instructions") {
    struct Case {
        uint8_t opcode;
        CpuRegs in;   // pc set by the test
        CpuRegs out;  // pc ignored
    };
    // in: a x y s p
    const Case cases[] = {
        {0xE8, {0, 0, 0xFF, 0, 0xFD, U}, {0, 0, 0x00, 0, 0xFD, U | Z}},      // INX wraps
        {0xC8, {0, 0, 0, 0x7F, 0xFD, U}, {0, 0, 0, 0x80, 0xFD, U | N}},      // INY
        {0xCA, {0, 0, 0x00, 0, 0xFD, U}, {0, 0, 0xFF, 0, 0xFD, U | N}},      // DEX wraps
        {0x88, {0, 0, 0, 0x01, 0xFD, U | N}, {0, 0, 0, 0x00, 0xFD, U | Z}},  // DEY
        {0xAA, {0, 0x80, 0, 0, 0xFD, U}, {0, 0x80, 0x80, 0, 0xFD, U | N}},   // TAX
        {0xA8, {0, 0x00, 0, 5, 0xFD, U}, {0, 0x00, 0, 0, 0xFD, U | Z}},      // TAY
        {0x8A, {0, 0, 0x42, 0, 0xFD, U | Z}, {0, 0x42, 0x42, 0, 0xFD, U}},   // TXA
        {0x98, {0, 0, 0, 0x90, 0xFD, U}, {0, 0x90, 0, 0x90, 0xFD, U | N}},   // TYA
        {0xBA, {0, 0, 0, 0, 0x00, U}, {0, 0, 0x00, 0, 0x00, U | Z}},         // TSX sets flags
        {0x9A, {0, 0, 0x00, 0, 0xFD, U | N}, {0, 0, 0x00, 0, 0x00, U | N}},  // TXS does not
        {0x18, {0, 0, 0, 0, 0xFD, 0xFF}, {0, 0, 0, 0, 0xFD, 0xEE}},          // CLC (B not kept)
        {0x38, {0, 0, 0, 0, 0xFD, U}, {0, 0, 0, 0, 0xFD, U | C}},            // SEC
        {0x58, {0, 0, 0, 0, 0xFD, U | I}, {0, 0, 0, 0, 0xFD, U}},            // CLI
        {0x78, {0, 0, 0, 0, 0xFD, U}, {0, 0, 0, 0, 0xFD, U | I}},            // SEI
        {0xB8, {0, 0, 0, 0, 0xFD, U | V}, {0, 0, 0, 0, 0xFD, U}},            // CLV
        {0xD8, {0, 0, 0, 0, 0xFD, U | D}, {0, 0, 0, 0, 0xFD, U}},            // CLD
        {0xF8, {0, 0, 0, 0, 0xFD, U}, {0, 0, 0, 0, 0xFD, U | D}},            // SED
        {0xEA, {0, 1, 2, 3, 0xFD, U | C}, {0, 1, 2, 3, 0xFD, U | C}},        // NOP
    };
    for (const auto& c : cases) {
        INFO("opcode $" << std::hex << int(c.opcode));
        auto m = machine({c.opcode});
        CpuRegs in = c.in;
        in.pc = 0x0400;
        m->cpu().set_regs(in);
        m->step();
        CpuRegs got = m->cpu().regs();
        CHECK(got.pc == 0x0401);
        got.pc = 0;
        CHECK(got == c.out);
        CHECK(m->cycles() == 2);
    }
}

TEST_CASE("addressing modes compute their addresses with the 6502's wrap-arounds") {
    auto check_load = [](std::initializer_list<uint8_t> code, uint8_t x, uint8_t y,
                         uint16_t where, uint64_t cycles) {
        auto m = machine(code);
        m->write(where, 0x5A);
        set(*m, 0, x, y, 0);
        m->step();
        CHECK(m->cpu().a() == 0x5A);
        CHECK(m->cycles() == cycles);
    };
    SECTION("zero page,X wraps inside page zero") { check_load({0xB5, 0xFF}, 0x02, 0, 0x0001, 4); }
    SECTION("absolute,X wraps past $FFFF") { check_load({0xBD, 0xFF, 0xFF}, 0x02, 0, 0x0001, 5); }
    SECTION("absolute,Y") { check_load({0xB9, 0x00, 0x03}, 0, 0x10, 0x0310, 4); }
    SECTION("(zp,X) takes the pointer from page zero, wrapping") {
        auto m = machine({0xA1, 0xFE});
        m->write(0xFF, 0x34);  // $FE + 1 = $FF: low byte
        m->write(0x00, 0x12);  // high byte wraps to $00, not $0100
        m->write(0x0100, 0x99);
        m->write(0x1234, 0x5A);
        set(*m, 0, 0x01, 0, 0);
        m->step();
        CHECK(m->cpu().a() == 0x5A);
        CHECK(m->cycles() == 6);
    }
    SECTION("(zp),Y with the pointer at $FF reads its high byte from $00") {
        auto m = machine({0xB1, 0xFF});
        m->write(0xFF, 0xF0);
        m->write(0x00, 0x12);
        m->write(0x1300, 0x5A);  // $12F0 + $10 crosses a page
        set(*m, 0, 0, 0x10, 0);
        m->step();
        CHECK(m->cpu().a() == 0x5A);
        CHECK(m->cycles() == 6);
    }
    SECTION("JMP ($xxFF) reads the high byte from $xx00 (the NMOS bug)") {
        auto m = machine({0x6C, 0xFF, 0x02});
        m->write(0x02FF, 0x34);
        m->write(0x0200, 0x12);
        m->write(0x0300, 0x99);
        m->step();
        CHECK(m->cpu().pc() == 0x1234);
    }
    SECTION("stores in every mode") {
        auto m = machine({0x8D, 0x00, 0x03,    // STA $0300
                          0x9D, 0x00, 0x03,    // STA $0300,X
                          0x99, 0x00, 0x03,    // STA $0300,Y
                          0x86, 0x20,          // STX $20
                          0x96, 0x20,          // STX $20,Y
                          0x84, 0x30,          // STY $30
                          0x94, 0x30,          // STY $30,X
                          0x81, 0x40,          // STA ($40,X)
                          0x91, 0x50});        // STA ($50),Y
        m->write16(0x42, 0x0600);
        m->write16(0x50, 0x0700);
        set(*m, 0xA5, 0x02, 0x03, 0);
        for (int i = 0; i < 9; ++i) m->step();
        CHECK(m->read(0x0300) == 0xA5);
        CHECK(m->read(0x0302) == 0xA5);
        CHECK(m->read(0x0303) == 0xA5);
        CHECK(m->read(0x20) == 0x02);
        CHECK(m->read(0x23) == 0x02);
        CHECK(m->read(0x30) == 0x03);
        CHECK(m->read(0x32) == 0x03);
        CHECK(m->read(0x0600) == 0xA5);
        CHECK(m->read(0x0703) == 0xA5);
        CHECK(m->cycles() == 4 + 5 + 5 + 3 + 4 + 3 + 4 + 6 + 6);
    }
}

TEST_CASE("stack: PHA/PLA, PHP pushes B and U, PLP ignores them, S wraps") {
    auto m = machine({0x48,         // PHA
                      0x08,         // PHP
                      0xA9, 0x00,   // LDA #0
                      0x28,         // PLP
                      0x68});       // PLA
    set(*m, 0x80, 0, 0, C | N);
    m->cpu().set_s(0x00);
    m->step();
    CHECK(m->read(0x0100) == 0x80);
    CHECK(m->cpu().s() == 0xFF);  // wrapped
    m->step();
    CHECK(m->read(0x01FF) == (C | N | B | U));
    m->step();
    m->write(0x01FF, 0xFF);  // PLP: B and U in memory do not become flags
    m->step();
    CHECK(m->cpu().p() == (0xFF & ~B));
    m->step();
    CHECK(m->cpu().a() == 0x80);
    CHECK(m->cpu().s() == 0x00);
    CHECK((m->cpu().p() & (N | Z)) == N);
    CHECK(m->cycles() == 3 + 3 + 2 + 4 + 4);
}

TEST_CASE("JSR pushes the address of its last byte, RTS returns after it") {
    auto m = machine({0x20, 0x00, 0x05});  // JSR $0500
    m->write(0x0500, 0x60);                // RTS
    m->step();
    CHECK(m->cpu().pc() == 0x0500);
    CHECK(m->cpu().s() == 0xFB);
    CHECK(m->read(0x01FD) == 0x04);
    CHECK(m->read(0x01FC) == 0x02);
    m->step();
    CHECK(m->cpu().pc() == 0x0403);
    CHECK(m->cpu().s() == 0xFD);
    CHECK(m->cycles() == 12);
}

TEST_CASE("BRK pushes PC+2 and P with B, sets I, jumps through $FFFE, RTI comes back") {
    auto m = machine({0x00, 0xEE, 0xEA});
    m->write16(0xFFFE, 0x0600);
    m->write(0x0600, 0x40);  // RTI
    set(*m, 0, 0, 0, C | N);
    m->step();
    CHECK(m->cpu().pc() == 0x0600);
    CHECK(m->read(0x01FD) == 0x04);
    CHECK(m->read(0x01FC) == 0x02);
    CHECK(m->read(0x01FB) == (C | N | B | U));
    CHECK((m->cpu().p() & I) == I);
    CHECK(m->cycles() == 7);
    m->step();
    CHECK(m->cpu().pc() == 0x0402);
    CHECK(m->cpu().p() == (C | N | U));
    CHECK(m->cycles() == 13);
}

TEST_CASE("unofficial read-modify-write opcodes equal the two official ones they combine") {
    // unofficial (zero page), then the official pair (zero page $10 / immediate-free forms).
    struct Combo {
        uint8_t op;
        uint8_t first, second;  // first works on $10, second combines $10 with A
        const char* name;
    };
    const Combo combos[] = {
        {0xC7, 0xC6, 0xC5, "DCP = DEC + CMP"}, {0xE7, 0xE6, 0xE5, "ISB = INC + SBC"},
        {0x07, 0x06, 0x05, "SLO = ASL + ORA"}, {0x27, 0x26, 0x25, "RLA = ROL + AND"},
        {0x47, 0x46, 0x45, "SRE = LSR + EOR"}, {0x67, 0x66, 0x65, "RRA = ROR + ADC"},
    };
    for (const auto& k : combos) {
        INFO(k.name);
        auto u = machine({k.op, 0x10});
        auto o = machine({k.first, 0x10, k.second, 0x10});
        for (int a = 0; a < 256; a += 3) {
            for (int v = 0; v < 256; ++v) {
                for (int c = 0; c < 2; ++c) {
                    for (auto* m : {u.get(), o.get()}) {
                        m->write(0x10, static_cast<uint8_t>(v));
                        set(*m, static_cast<uint8_t>(a), 0, 0, static_cast<uint8_t>(c));
                    }
                    u->step();
                    o->step();
                    o->step();
                    if (u->cpu().a() != o->cpu().a() || u->cpu().p() != o->cpu().p() ||
                        u->read(0x10) != o->read(0x10)) {
                        FAIL(k.name << " differs: a=" << a << " v=" << v << " c=" << c);
                    }
                }
            }
        }
        u->cpu().set_pc(0x0400);
        const uint64_t before = u->cycles();
        u->step();
        CHECK(u->cycles() - before == 5);
    }
}

TEST_CASE("unofficial loads, stores and immediates") {
    SECTION("LAX loads A and X") {
        auto m = machine({0xA7, 0x10});
        m->write(0x10, 0x80);
        m->step();
        CHECK(m->cpu().a() == 0x80);
        CHECK(m->cpu().x() == 0x80);
        CHECK((m->cpu().p() & (N | Z)) == N);
    }
    SECTION("SAX stores A & X, flags untouched") {
        auto m = machine({0x87, 0x10});
        set(*m, 0xF0, 0x3C, 0, Z);
        m->step();
        CHECK(m->read(0x10) == 0x30);
        CHECK(m->cpu().p() == (Z | U));
    }
    SECTION("ANC: AND, then C = N") {
        for (const uint8_t op : {uint8_t{0x0B}, uint8_t{0x2B}}) {
            auto m = machine({op, 0xC0});
            set(*m, 0x81, 0, 0, 0);
            m->step();
            CHECK(m->cpu().a() == 0x80);
            CHECK(m->cpu().p() == (N | C | U));
        }
    }
    SECTION("ALR: AND, then LSR A") {
        auto m = machine({0x4B, 0x03});
        set(*m, 0xFF, 0, 0, 0);
        m->step();
        CHECK(m->cpu().a() == 0x01);
        CHECK(m->cpu().p() == (C | U));
    }
    SECTION("ARR: AND, ROR A; C from bit 6, V from bit 6 xor bit 5") {
        auto m = machine({0x6B, 0xFF});
        set(*m, 0xC0, 0, 0, C);   // (C0 >> 1) | 80 = E0: bit6 1, bit5 1
        m->step();
        CHECK(m->cpu().a() == 0xE0);
        CHECK(m->cpu().p() == (N | C | U));
        set(*m, 0x80, 0, 0, 0);   // 80 >> 1 = 40: bit6 1, bit5 0
        m->step();
        CHECK(m->cpu().a() == 0x40);
        CHECK(m->cpu().p() == (V | C | U));
    }
    SECTION("SBX: X = (A & X) - imm, carry as CMP") {
        auto m = machine({0xCB, 0x05});
        set(*m, 0x0F, 0x3C, 0, 0);  // 0x0C - 5 = 7
        m->step();
        CHECK(m->cpu().x() == 0x07);
        CHECK(m->cpu().a() == 0x0F);
        CHECK(m->cpu().p() == (C | U));
    }
    SECTION("LAS: A = X = S = M & S") {
        auto m = machine({0xBB, 0x00, 0x03});
        m->write(0x0300, 0xF3);
        m->cpu().set_s(0x3F);
        m->step();
        CHECK(m->cpu().a() == 0x33);
        CHECK(m->cpu().x() == 0x33);
        CHECK(m->cpu().s() == 0x33);
    }
    SECTION("ANE uses the magic constant $EE; LXA $FF (A = X = operand, as blargg's nes_instr_test 02 expects)") {
        auto m = machine({0x8B, 0xFF, 0xAB, 0x5A});
        set(*m, 0x01, 0x0F, 0, 0);
        m->step();
        CHECK(m->cpu().a() == ((0x01 | 0xEE) & 0x0F));
        m->step();
        CHECK(m->cpu().a() == 0x5A);
        CHECK(m->cpu().x() == 0x5A);
    }
    SECTION("SHX/SHY/SHA/TAS store reg & (base high byte + 1)") {
        auto m = machine({0x9E, 0x10, 0x03,    // SHX $0310,Y
                          0x9C, 0x20, 0x03,    // SHY $0320,X
                          0x9F, 0x30, 0x03,    // SHA $0330,Y
                          0x9B, 0x40, 0x03});  // TAS $0340,Y
        set(*m, 0xFF, 0xFF, 0x01, 0);
        m->step();
        CHECK(m->read(0x0311) == (0xFF & 0x04));
        m->cpu().set_x(0x01);
        m->cpu().set_y(0xFF);
        m->step();
        CHECK(m->read(0x0321) == 0x04);
        m->cpu().set_x(0xFF);
        m->cpu().set_y(0x01);
        m->step();
        CHECK(m->read(0x0331) == 0x04);
        m->step();
        CHECK(m->cpu().s() == 0xFF);
        CHECK(m->read(0x0341) == 0x04);
    }
    SECTION("SHX across a page stores at (value << 8) | low byte") {
        auto m = machine({0x9E, 0xF0, 0x03});  // SHX $03F0,Y with Y = $20 -> $0410 crosses
        set(*m, 0, 0x02, 0x20, 0);
        m->step();
        CHECK(m->read(0x0010) == (0x02 & 0x04));  // value 0: high byte becomes $00
        CHECK(m->read(0x0410) == 0x00);
    }
    SECTION("the NOP family reads and skips its operand") {
        for (const uint8_t op : {uint8_t{0x04}, uint8_t{0x14}, uint8_t{0x0C}, uint8_t{0x1C},
                                 uint8_t{0x80}, uint8_t{0x1A}}) {
            INFO("opcode $" << std::hex << int(op));
            auto m = machine({op, 0x10, 0x03});
            set(*m, 1, 2, 3, C);
            const CpuRegs before = m->cpu().regs();
            m->step();
            CpuRegs after = m->cpu().regs();
            CHECK(after.pc == 0x0400 + instruction_length(kOpcodes[op].mode));
            after.pc = before.pc;
            CHECK(after == before);
        }
    }
}

TEST_CASE("JAM halts the CPU until reset") {
    auto m = machine({0x02});
    m->write16(0xFFFC, 0x0500);
    m->step();
    CHECK(m->cpu().jammed());
    CHECK(m->cpu().pc() == 0x0400);
    const uint64_t c = m->cycles();
    m->step();
    CHECK(m->cpu().pc() == 0x0400);
    CHECK(m->cycles() == c + 2);
    m->reset();
    CHECK_FALSE(m->cpu().jammed());
    CHECK(m->cpu().pc() == 0x0500);
}

TEST_CASE("reset: 7 cycles, S down by 3, I set, PC from $FFFC") {
    FlatMachine m;
    m.write16(0xFFFC, 0xC000);
    m.cpu().set_s(0x00);
    m.cpu().set_p(U);
    m.reset();
    CHECK(m.cpu().pc() == 0xC000);
    CHECK(m.cpu().s() == 0xFD);
    CHECK((m.cpu().p() & I) == I);
    CHECK(m.cycles() == 7);
}

TEST_CASE("NMI: pushes PC and P without B, sets I, 7 cycles, vector $FFFA") {
    auto m = machine({0xEA, 0xEA});
    m->write16(0xFFFA, 0x0600);
    set(*m, 0, 0, 0, C);
    m->step();  // NOP: cycles 0-1
    m->cpu().signal_nmi(0);
    m->step();
    CHECK(m->cpu().pc() == 0x0600);
    CHECK(m->read(0x01FD) == 0x04);
    CHECK(m->read(0x01FC) == 0x01);
    CHECK(m->read(0x01FB) == (C | U));
    CHECK((m->cpu().p() & I) == I);
    CHECK(m->cycles() == 2 + 7);
    CHECK_FALSE(m->cpu().nmi_pending());
}

TEST_CASE("an NMI in an instruction's last cycle waits for the next instruction") {
    // NOP runs in cycles 0 and 1. The CPU polls at the end of cycle 0 (the next-to-last).
    for (const uint64_t edge : {uint64_t{0}, uint64_t{1}}) {
        auto m = machine({0xEA, 0xEA, 0xEA});
        m->write16(0xFFFA, 0x0600);
        m->step();                   // the edge comes during this NOP ...
        m->cpu().signal_nmi(edge);   // ... in its cycle 0 or 1
        m->step();
        if (edge == 0) {
            CHECK(m->cpu().pc() == 0x0600);  // seen at the poll: taken at once
        } else {
            CHECK(m->cpu().pc() == 0x0402);  // one more NOP first
            m->step();
            CHECK(m->cpu().pc() == 0x0600);
        }
    }
}

TEST_CASE("IRQ: a level, masked by I, CLI, SEI and PLP act one instruction late, RTI at once") {
    SECTION("masked while I is set, taken when cleared, B clear in the pushed P") {
        auto m = machine({0xEA, 0x58, 0xEA, 0xEA});  // NOP, CLI, NOP, NOP
        m->write16(0xFFFE, 0x0600);
        set(*m, 0, 0, 0, I);
        m->cpu().set_irq_line(true);
        m->step();  // NOP: masked
        CHECK(m->cpu().pc() == 0x0401);
        m->step();  // CLI
        CHECK(m->cpu().pc() == 0x0402);
        m->step();  // the instruction after CLI still runs with the old I
        CHECK(m->cpu().pc() == 0x0403);
        m->step();  // now the IRQ
        CHECK(m->cpu().pc() == 0x0600);
        CHECK(m->read(0x01FB) == U);  // P pushed: I was clear, B clear
        CHECK((m->cpu().p() & I) == I);
    }
    SECTION("an IRQ arriving during SEI is still taken after it, with I set in the pushed P") {
        auto m = machine({0x78, 0xEA});
        m->write16(0xFFFE, 0x0600);
        set(*m, 0, 0, 0, 0);
        m->step();  // SEI
        m->cpu().set_irq_line(true);
        m->step();
        CHECK(m->cpu().pc() == 0x0600);
        CHECK(m->read(0x01FB) == (I | U));
    }
    SECTION("PLP clearing I: one instruction late") {
        auto m = machine({0x28, 0xEA, 0xEA});
        m->write16(0xFFFE, 0x0600);
        set(*m, 0, 0, 0, I);
        m->cpu().set_s(0xFC);
        m->write(0x01FD, 0x00);
        m->cpu().set_irq_line(true);
        m->step();  // PLP
        m->step();  // NOP, still masked
        CHECK(m->cpu().pc() == 0x0402);
        m->step();
        CHECK(m->cpu().pc() == 0x0600);
    }
    SECTION("RTI restoring I clear lets the IRQ in at once") {
        auto m = machine({0x40});
        m->write16(0xFFFE, 0x0600);
        set(*m, 0, 0, 0, I);
        m->cpu().set_s(0xFA);
        m->write(0x01FB, 0x00);  // P
        m->write16(0x01FC, 0x0500);
        m->cpu().set_irq_line(true);
        m->step();  // RTI
        CHECK(m->cpu().pc() == 0x0500);
        m->step();
        CHECK(m->cpu().pc() == 0x0600);
    }
}
