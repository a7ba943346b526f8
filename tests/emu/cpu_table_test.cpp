// The opcode table against an independent listing (written per mnemonic, datasheet style),
// and the cycles the CPU really spends against that listing, with and without page crossing.
#include "emu-test/flat_machine.hpp"
#include "emu-test/opcodes.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace nestris::emu;

namespace {

// mnemonic: mode=opcode[,opcode...]/cycles[+] ...   ('+' = one more on a page cross;
// '*' before the mnemonic = unofficial; '?' cycles = not checked).
constexpr const char* kListing = R"(
ADC imm=69/2 zp=65/3 zpx=75/4 abs=6D/4 abx=7D/4+ aby=79/4+ izx=61/6 izy=71/5+
AND imm=29/2 zp=25/3 zpx=35/4 abs=2D/4 abx=3D/4+ aby=39/4+ izx=21/6 izy=31/5+
ASL acc=0A/2 zp=06/5 zpx=16/6 abs=0E/6 abx=1E/7
BCC rel=90/2
BCS rel=B0/2
BEQ rel=F0/2
BIT zp=24/3 abs=2C/4
BMI rel=30/2
BNE rel=D0/2
BPL rel=10/2
BRK imp=00/7
BVC rel=50/2
BVS rel=70/2
CLC imp=18/2
CLD imp=D8/2
CLI imp=58/2
CLV imp=B8/2
CMP imm=C9/2 zp=C5/3 zpx=D5/4 abs=CD/4 abx=DD/4+ aby=D9/4+ izx=C1/6 izy=D1/5+
CPX imm=E0/2 zp=E4/3 abs=EC/4
CPY imm=C0/2 zp=C4/3 abs=CC/4
DEC zp=C6/5 zpx=D6/6 abs=CE/6 abx=DE/7
DEX imp=CA/2
DEY imp=88/2
EOR imm=49/2 zp=45/3 zpx=55/4 abs=4D/4 abx=5D/4+ aby=59/4+ izx=41/6 izy=51/5+
INC zp=E6/5 zpx=F6/6 abs=EE/6 abx=FE/7
INX imp=E8/2
INY imp=C8/2
JMP abs=4C/3 ind=6C/5
JSR abs=20/6
LDA imm=A9/2 zp=A5/3 zpx=B5/4 abs=AD/4 abx=BD/4+ aby=B9/4+ izx=A1/6 izy=B1/5+
LDX imm=A2/2 zp=A6/3 zpy=B6/4 abs=AE/4 aby=BE/4+
LDY imm=A0/2 zp=A4/3 zpx=B4/4 abs=AC/4 abx=BC/4+
LSR acc=4A/2 zp=46/5 zpx=56/6 abs=4E/6 abx=5E/7
NOP imp=EA/2
ORA imm=09/2 zp=05/3 zpx=15/4 abs=0D/4 abx=1D/4+ aby=19/4+ izx=01/6 izy=11/5+
PHA imp=48/3
PHP imp=08/3
PLA imp=68/4
PLP imp=28/4
ROL acc=2A/2 zp=26/5 zpx=36/6 abs=2E/6 abx=3E/7
ROR acc=6A/2 zp=66/5 zpx=76/6 abs=6E/6 abx=7E/7
RTI imp=40/6
RTS imp=60/6
SBC imm=E9/2 zp=E5/3 zpx=F5/4 abs=ED/4 abx=FD/4+ aby=F9/4+ izx=E1/6 izy=F1/5+
SEC imp=38/2
SED imp=F8/2
SEI imp=78/2
STA zp=85/3 zpx=95/4 abs=8D/4 abx=9D/5 aby=99/5 izx=81/6 izy=91/6
STX zp=86/3 zpy=96/4 abs=8E/4
STY zp=84/3 zpx=94/4 abs=8C/4
TAX imp=AA/2
TAY imp=A8/2
TSX imp=BA/2
TXA imp=8A/2
TXS imp=9A/2
TYA imp=98/2
*NOP imp=1A,3A,5A,7A,DA,FA/2 imm=80,82,89,C2,E2/2 zp=04,44,64/3 zpx=14,34,54,74,D4,F4/4 abs=0C/4 abx=1C,3C,5C,7C,DC,FC/4+
*LAX zp=A7/3 zpy=B7/4 abs=AF/4 aby=BF/4+ izx=A3/6 izy=B3/5+
*SAX zp=87/3 zpy=97/4 abs=8F/4 izx=83/6
*SBC imm=EB/2
*DCP zp=C7/5 zpx=D7/6 abs=CF/6 abx=DF/7 aby=DB/7 izx=C3/8 izy=D3/8
*ISB zp=E7/5 zpx=F7/6 abs=EF/6 abx=FF/7 aby=FB/7 izx=E3/8 izy=F3/8
*SLO zp=07/5 zpx=17/6 abs=0F/6 abx=1F/7 aby=1B/7 izx=03/8 izy=13/8
*RLA zp=27/5 zpx=37/6 abs=2F/6 abx=3F/7 aby=3B/7 izx=23/8 izy=33/8
*SRE zp=47/5 zpx=57/6 abs=4F/6 abx=5F/7 aby=5B/7 izx=43/8 izy=53/8
*RRA zp=67/5 zpx=77/6 abs=6F/6 abx=7F/7 aby=7B/7 izx=63/8 izy=73/8
*ANC imm=0B,2B/2
*ALR imm=4B/2
*ARR imm=6B/2
*SBX imm=CB/2
*LAS aby=BB/4+
*ANE imm=8B/2
*LXA imm=AB/2
*SHA aby=9F/5 izy=93/6
*SHX aby=9E/5
*SHY abx=9C/5
*TAS aby=9B/5
*JAM imp=02,12,22,32,42,52,62,72,92,B2,D2,F2/?
)";

struct Listed {
    std::string mnemonic;
    Mode mode;
    int cycles;  // -1: not checked
    bool penalty;
    bool official;
};

Mode mode_named(const std::string& m) {
    static const std::map<std::string, Mode> modes = {
        {"imp", Mode::Imp}, {"acc", Mode::Acc}, {"imm", Mode::Imm}, {"zp", Mode::Zp},
        {"zpx", Mode::Zpx}, {"zpy", Mode::Zpy}, {"abs", Mode::Abs}, {"abx", Mode::Abx},
        {"aby", Mode::Aby}, {"ind", Mode::Ind}, {"izx", Mode::Izx}, {"izy", Mode::Izy},
        {"rel", Mode::Rel}};
    return modes.at(m);
}

// opcode -> what the listing says; fails the test if an opcode is listed twice.
std::map<int, Listed> parse_listing() {
    std::map<int, Listed> out;
    std::istringstream lines(kListing);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.empty()) continue;
        std::istringstream words(line);
        std::string mnemonic, entry;
        words >> mnemonic;
        const bool official = mnemonic[0] != '*';
        if (!official) mnemonic = mnemonic.substr(1);
        while (words >> entry) {
            const auto eq = entry.find('='), slash = entry.find('/');
            const Mode mode = mode_named(entry.substr(0, eq));
            const std::string cyc = entry.substr(slash + 1);
            const bool penalty = cyc.back() == '+';
            const int cycles = cyc[0] == '?' ? -1 : std::stoi(cyc);
            std::istringstream ops(entry.substr(eq + 1, slash - eq - 1));
            std::string op;
            while (std::getline(ops, op, ',')) {
                const int code = std::stoi(op, nullptr, 16);
                INFO("opcode " << op << " listed twice");
                REQUIRE(out.count(code) == 0);
                out[code] = {mnemonic, mode, cycles, penalty, official};
            }
        }
    }
    return out;
}

}  // namespace

TEST_CASE("the opcode table matches the independent listing for all 256 opcodes") {
    const auto listing = parse_listing();
    REQUIRE(listing.size() == 256);
    int official = 0;
    for (const auto& [code, want] : listing) {
        const OpcodeInfo& got = kOpcodes[static_cast<size_t>(code)];
        INFO("opcode $" << std::hex << code);
        CHECK(std::string(op_name(got.op)) == want.mnemonic);
        CHECK(got.mode == want.mode);
        if (want.cycles >= 0) CHECK(static_cast<int>(got.cycles) == want.cycles);
        CHECK(got.page_penalty == want.penalty);
        CHECK(got.official == want.official);
        official += want.official ? 1 : 0;
    }
    CHECK(official == 151);
}

namespace {

// Cycles one instruction takes at $0400 with operand bytes $10 $03 (zero page $10, absolute
// $0310). index = X = Y; with $FF the absolute-indexed and (zp),Y addresses cross a page.
uint64_t measure(uint8_t opcode, uint8_t index) {
    auto m = std::make_unique<FlatMachine>();
    const uint8_t code[] = {opcode, 0x10, 0x03};
    m->load(0x0400, code);
    m->write16(0x0010, 0x0310);  // pointer for (zp),Y
    m->write16(0x000F, 0x0310);  // pointer for (zp,X) with X = $FF: $10 + $FF wraps to $0F
    m->write16(0x0310, 0x0500);  // JMP ($0310) target
    m->cpu().set_pc(0x0400);
    m->cpu().set_x(index);
    m->cpu().set_y(index);
    const uint64_t before = m->cycles();
    m->step();
    return m->cycles() - before;
}

}  // namespace

TEST_CASE("every opcode spends the listed cycles, plus one on a page cross where listed") {
    const auto listing = parse_listing();
    for (const auto& [code, want] : listing) {
        if (want.mode == Mode::Rel || want.cycles < 0) continue;  // branches: next test
        INFO("opcode $" << std::hex << code << " " << want.mnemonic);
        CHECK(measure(static_cast<uint8_t>(code), 0) == static_cast<uint64_t>(want.cycles));
        const bool crosses = want.mode == Mode::Abx || want.mode == Mode::Aby || want.mode == Mode::Izy;
        const uint64_t expected = static_cast<uint64_t>(want.cycles) + (crosses && want.penalty ? 1 : 0);
        CHECK(measure(static_cast<uint8_t>(code), 0xFF) == expected);
    }
}

TEST_CASE("branches: 2 cycles not taken, 3 taken, 4 taken to another page") {
    struct Branch {
        uint8_t opcode;
        uint8_t taken_p;  // P that makes it branch
        uint8_t other_p;  // P that does not
    };
    const Branch branches[] = {
        {0x10, 0x00, 0x80}, {0x30, 0x80, 0x00}, {0x50, 0x00, 0x40}, {0x70, 0x40, 0x00},
        {0x90, 0x00, 0x01}, {0xB0, 0x01, 0x00}, {0xD0, 0x00, 0x02}, {0xF0, 0x02, 0x00},
    };
    // at: where the branch is; offset; expected target when taken; cycles when taken.
    struct Case {
        uint16_t at;
        uint8_t offset;
        uint16_t target;
        uint64_t cycles;
    };
    const Case cases[] = {
        {0x0400, 0x10, 0x0412, 3},  // forward, same page
        {0x0450, 0xF0, 0x0442, 3},  // backward, same page
        {0x04F0, 0x20, 0x0512, 4},  // forward across
        {0x0500, 0xF0, 0x04F2, 4},  // backward across
        {0x04FE, 0xFE, 0x04FE, 4},  // to itself: the page of the *next* instruction counts
        {0x04FD, 0x00, 0x04FF, 3},  // offset 0: same page as the next instruction
    };
    for (const auto& b : branches) {
        for (const auto& c : cases) {
            INFO("opcode $" << std::hex << int(b.opcode) << " at $" << c.at);
            for (const bool taken : {true, false}) {
                auto m = std::make_unique<FlatMachine>();
                const uint8_t code[] = {b.opcode, c.offset};
                m->load(c.at, code);
                m->cpu().set_pc(c.at);
                m->cpu().set_p(static_cast<uint8_t>(0x20 | (taken ? b.taken_p : b.other_p)));
                m->step();
                if (taken) {
                    CHECK(m->cpu().pc() == c.target);
                    CHECK(m->cycles() == c.cycles);
                } else {
                    CHECK(m->cpu().pc() == static_cast<uint16_t>(c.at + 2));
                    CHECK(m->cycles() == 2);
                }
            }
        }
    }
}
