// The harness around the machines: input strings, symbols, the flat machine's call() API,
// trace lines in the nestest format.
#include "emu-test/controller.hpp"
#include "emu-test/debug/disasm.hpp"
#include "emu-test/debug/symbols.hpp"
#include "emu-test/flat_machine.hpp"
#include "emu-test/input.hpp"

#include <catch2/catch.hpp>

#include <memory>

using namespace nestris::emu;

TEST_CASE("input strings: one item per frame, + combines, *N repeats, groups repeat") {
    using namespace button;
    CHECK(parse_input("") == std::vector<uint8_t>{});
    CHECK(parse_input("L.L.R..") == std::vector<uint8_t>{Left, 0, Left, 0, Right, 0, 0});
    CHECK(parse_input("A+L") == std::vector<uint8_t>{A | Left});
    CHECK(parse_input("U D B S E") == std::vector<uint8_t>{Up, Down, B, Start, Select});
    CHECK(parse_input("L*3,.*2") == std::vector<uint8_t>{Left, Left, Left, 0, 0});
    CHECK(parse_input("A+B*2") == std::vector<uint8_t>{A | B, A | B});
    CHECK(parse_input("(L.)*2 R") == std::vector<uint8_t>{Left, 0, Left, 0, Right});
    CHECK(parse_input("((A)*2 .)*2") == std::vector<uint8_t>{A, A, 0, A, A, 0});
    CHECK(parse_input(".*60").size() == 60);
    CHECK(format_buttons(A | Left) == "L+A");
    CHECK(format_buttons(0) == ".");
    CHECK(parse_input(format_buttons(Right | Down | Start | Select))[0] == (Right | Down | Start | Select));
}

TEST_CASE("input strings: malformed ones are refused with the column") {
    auto error = [](const char* text) {
        try {
            parse_input(text);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK_THAT(error("L.X"), Catch::Contains("column 3") && Catch::Contains("unknown button 'X'"));
    CHECK_THAT(error("l"), Catch::Contains("unknown button 'l'"));
    CHECK_THAT(error("A+"), Catch::Contains("missing after '+'"));
    CHECK_THAT(error("A+A"), Catch::Contains("twice"));
    CHECK_THAT(error("L*"), Catch::Contains("number must follow"));
    CHECK_THAT(error("L*0"), Catch::Contains("repeat count 0"));
    CHECK_THAT(error("(L."), Catch::Contains("missing ')'"));
    CHECK_THAT(error("L)"), Catch::Contains("unexpected ')'"));
    CHECK_THAT(error("A*99999999999"), Catch::Contains("larger than"));
    CHECK_THAT(error("(A*1000000)*1000"), Catch::Contains("more than"));
    CHECK_THAT(error("+A"), Catch::Contains("unknown button '+'"));
}

TEST_CASE("symbols: label files, names added, numbers") {
    Symbols s = Symbols::from_label_text("al 008005 .nmi\nal 008138 .main_loop\nal 000048 .playState\n");
    CHECK(s.require("nmi") == 0x8005);
    CHECK(s.find("main_loop") == 0x8138);
    CHECK_FALSE(s.find("nope"));
    CHECK_THROWS_WITH(s.require("nope"), Catch::Contains("'nope'"));
    CHECK(s.resolve("playState") == 0x48);
    CHECK(s.resolve("$C000") == 0xC000);
    CHECK(s.resolve("0xc000") == 0xC000);
    CHECK(s.resolve("400") == 0x0400);
    CHECK(s.resolve("#49152") == 0xC000);
    CHECK_THROWS_AS(s.resolve("$10000"), SymbolError);
    CHECK_THROWS_AS(s.resolve("main"), SymbolError);
    CHECK(s.names_at(0x8005) == std::vector<std::string>{"nmi"});
    CHECK_THROWS_AS(Symbols::from_label_text("al zz .x\n"), SymbolError);
    CHECK_THROWS_AS(Symbols::from_label_file("/nonexistent/labels.txt"), SymbolError);

    // What ld65 -Ln writes, blank lines between; a line without a name or a hex address is refused.
    const Symbols labels = Symbols::from_label_text("al 00D6C9 .foo\nal 00D6CB .loop\n\n");
    CHECK(labels.size() == 2);
    CHECK(labels.require("loop") == 0xD6CB);
    CHECK_THROWS_WITH(Symbols::from_label_text("al 00D6C9\n"), Catch::Contains("line 1: no name"));
    CHECK_THROWS_WITH(Symbols::from_label_text(".\nal XYZ .a\n"), Catch::Contains("line 2: expected 'al ADDRESS .name'"));
    CHECK_THROWS_AS(Symbols::from_label_text("al 010000 .past\n"), SymbolError);

    Symbols c;
    c.add("ai::entry", 0xD6C9);
    c.add("playState", 0x48);
    c.add("ai::entry", 0x1234);  // (ld65 lists a label once per scope that sees it: the first counts)
    CHECK(c.require("ai::entry") == 0xD6C9);
    CHECK(c.size() == 2);
}

namespace {

// Places bytes at addr in the flat machine.
void poke(FlatMachine& m, uint16_t addr, std::initializer_list<uint8_t> bytes) {
    for (const uint8_t b : bytes) m.write(addr++, b);
}

}  // namespace

TEST_CASE("call(): registers in and out, nested subroutines, JSR+RTS counted") {
    auto m = std::make_unique<FlatMachine>();
    // $0600: CLC; ADC $10; JSR $0700; RTS      $0700: INX; RTS
    poke(*m, 0x0600, {0x18, 0x65, 0x10, 0x20, 0x00, 0x07, 0x60});
    poke(*m, 0x0700, {0xE8, 0x60});
    m->write(0x10, 5);
    m->cpu().set_a(10);
    m->cpu().set_x(1);
    const CallResult r = m->call(0x0600);
    REQUIRE(r.ok());
    CHECK(m->cpu().a() == 15);
    CHECK(m->cpu().x() == 2);
    CHECK(m->cpu().s() == 0xFD);
    CHECK(r.cycles == 6 + (2 + 3 + 6 + (2 + 6)) + 6);
    // Again: same cost, machine state carried over.
    const CallResult r2 = m->call(0x0600);
    CHECK(r2.cycles == r.cycles);
    CHECK(m->cpu().a() == 20);
}

TEST_CASE("call(): the cycle limit stops a runaway routine, a JAM is reported") {
    auto m = std::make_unique<FlatMachine>();
    poke(*m, 0x0600, {0x4C, 0x00, 0x06});  // JMP *
    const CallResult r = m->call(0x0600, 1000);
    CHECK(r.status == RunStatus::CycleLimit);
    CHECK(r.cycles >= 1000);
    CHECK(r.cycles < 1000 + 10);
    poke(*m, 0x0700, {0xEA, 0x02});
    m->cpu().set_s(0xFD);
    const CallResult j = m->call(0x0700, 1000);
    CHECK(j.status == RunStatus::Jammed);
    CHECK(m->cpu().pc() == 0x0701);
}

TEST_CASE("call(): a stray jump to the sentinel with another stack level is not a return") {
    auto m = std::make_unique<FlatMachine>();
    const uint16_t s = FlatMachine::kDefaultSentinel;
    // PHA; JMP sentinel  -- at the sentinel: PLA; RTS (stack back to its level, then return)
    poke(*m, 0x0600, {0x48, 0x4C, static_cast<uint8_t>(s), static_cast<uint8_t>(s >> 8)});
    poke(*m, s, {0x68, 0x60});
    // After PLA the stack is back but PC is past the sentinel; the RTS returns to sentinel.
    const CallResult r = m->call(0x0600, 1000);
    REQUIRE(r.ok());
    CHECK(r.cycles == 6 + 3 + 3 + 4 + 6);
    m->set_sentinel(0x0300);
    poke(*m, 0x0800, {0xA9, 0x07, 0x60});
    REQUIRE(m->call(0x0800).ok());
    CHECK(m->cpu().a() == 7);
}

TEST_CASE("call_nmi(): runs a handler to its RTI, P restored, 7 + handler + 6 cycles") {
    auto m = std::make_unique<FlatMachine>();
    poke(*m, 0x0600, {0xE6, 0x20, 0xA9, 0x00, 0x40});  // INC $20; LDA #0; RTI
    m->cpu().set_p(0x20 | 0x01 | 0x80);
    const CallResult r = m->call_nmi(0x0600);
    REQUIRE(r.ok());
    CHECK(m->read(0x20) == 1);
    CHECK(m->cpu().p() == (0x20 | 0x01 | 0x80));  // LDA #0 set Z, RTI restored P
    CHECK(m->cpu().s() == 0xFD);
    CHECK(r.cycles == 7 + 5 + 2 + 6);
}

TEST_CASE("flat machine: load bytes, run_until_pc, snapshots compare") {
    auto m = std::make_unique<FlatMachine>();
    const std::vector<uint8_t> code{0xA9, 0x42, 0x60};  // LDA #$42; RTS
    m->load(0xD6C9, code);
    CHECK(m->read(0xD6CA) == 0x42);
    const FlatMachine before = m->snapshot();
    CHECK(*m == before);
    REQUIRE(m->call(0xD6C9).ok());
    CHECK(m->cpu().a() == 0x42);
    CHECK_FALSE(*m == before);
    m->restore(before);
    CHECK(*m == before);
    m->cpu().set_pc(0xD6C9);
    CHECK(m->run_until_pc(0xD6CB, 100) == RunStatus::Reached);
    CHECK(m->cycles() == 2);
    CHECK(m->run_until_pc(0x1234, 50) == RunStatus::CycleLimit);
    const std::vector<uint8_t> too_long(3, 0);
    CHECK_THROWS_AS(m->load(0xFFFE, too_long), std::out_of_range);
}

TEST_CASE("run_until_trap finds JMP * and branch-to-self loops") {
    auto m = std::make_unique<FlatMachine>();
    poke(*m, 0x0400, {0xA2, 0x03, 0xCA, 0xD0, 0xFD, 0xF0, 0xFE});  // LDX #3; DEX; BNE; BEQ *
    m->cpu().set_pc(0x0400);
    const TrapResult t = m->run_until_trap(10000);
    CHECK(t.status == RunStatus::Reached);
    CHECK(t.pc == 0x0405);
    CHECK(t.cycles == 2 + 3 * 2 + 2 * 3 + 2);
    CHECK(t.instructions == 1 + 6 + 1);
}

TEST_CASE("trace lines follow the nestest log format") {
    auto m = std::make_unique<FlatMachine>();
    poke(*m, 0xC000, {0x4C, 0xF5, 0xC5});                 // JMP $C5F5
    poke(*m, 0xC100, {0xB1, 0x89});                        // LDA ($89),Y
    poke(*m, 0xC200, {0xA1, 0x80});                        // LDA ($80,X)
    poke(*m, 0xC300, {0x04, 0xA9});                        // *NOP $A9
    poke(*m, 0xC400, {0x6C, 0xFF, 0x02});                  // JMP ($02FF)
    poke(*m, 0xC500, {0xB0, 0x04});                        // BCS
    poke(*m, 0xC600, {0x4A});                              // LSR A
    poke(*m, 0xC700, {0x9D, 0x85, 0x05});                  // STA $0585,X
    poke(*m, 0xC800, {0xB6, 0x80});                        // LDX $80,Y
    m->write16(0x89, 0x0300);
    m->write(0x0300 + 0x10, 0x5A);
    m->write16(0x82, 0x0200);
    m->write(0x0200, 0x77);
    m->write16(0x02FF, 0x0300);  // low $00 at $02FF; high from $0200 = $77 (the bug)
    m->write(0x0605, 0xAA);
    m->write(0x90, 0x33);
    const PeekFn peek = [&](uint16_t a) { return m->read(a); };
    CpuRegs r;
    r.a = 0x01;
    r.x = 0x02;
    r.y = 0x10;
    r.s = 0xFD;
    r.p = 0x24;
    auto line = [&](uint16_t pc) {
        r.pc = pc;
        return trace_line(r, 7, 0, 21, peek);
    };
    CHECK(line(0xC000) == "C000  4C F5 C5  JMP $C5F5                       A:01 X:02 Y:10 P:24 SP:FD PPU:  0, 21 CYC:7");
    CHECK(line(0xC100) == "C100  B1 89     LDA ($89),Y = 0300 @ 0310 = 5A  A:01 X:02 Y:10 P:24 SP:FD PPU:  0, 21 CYC:7");
    CHECK(line(0xC200) == "C200  A1 80     LDA ($80,X) @ 82 = 0200 = 77    A:01 X:02 Y:10 P:24 SP:FD PPU:  0, 21 CYC:7");
    CHECK(line(0xC300) == "C300  04 A9    *NOP $A9 = 00                    A:01 X:02 Y:10 P:24 SP:FD PPU:  0, 21 CYC:7");
    CHECK(line(0xC400) == "C400  6C FF 02  JMP ($02FF) = 7700              A:01 X:02 Y:10 P:24 SP:FD PPU:  0, 21 CYC:7");
    CHECK(line(0xC500) == "C500  B0 04     BCS $C506                       A:01 X:02 Y:10 P:24 SP:FD PPU:  0, 21 CYC:7");
    CHECK(line(0xC600) == "C600  4A        LSR A                           A:01 X:02 Y:10 P:24 SP:FD PPU:  0, 21 CYC:7");
    CHECK(line(0xC700) == "C700  9D 85 05  STA $0585,X @ 0587 = 00         A:01 X:02 Y:10 P:24 SP:FD PPU:  0, 21 CYC:7");
    CHECK(line(0xC800) == "C800  B6 80     LDX $80,Y @ 90 = 33             A:01 X:02 Y:10 P:24 SP:FD PPU:  0, 21 CYC:7");
    int sl = 0, dot = 0;
    ppu_position_for_cycles(26554, sl, dot);  // the last line of the nestest log
    CHECK(sl == 233);
    CHECK(dot == 209);
}
