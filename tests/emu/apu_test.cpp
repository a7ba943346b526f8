// The APU as a timer (frame counter, frame IRQ, length counters) and the CPU's interrupt timing
// details that blargg's cpu_interrupts_v2 measures: checked without any test ROM, on the Apu
// value alone, on the flat machine's CPU, and on small hand-assembled NES programs.
#include "tests/emu/emu_test_support.hpp"

#include "emu-test/apu.hpp"
#include "emu-test/flat_machine.hpp"
#include "emu-test/nes.hpp"

#include <catch2/catch.hpp>

#include <memory>

using namespace nestris::emu;
using nestris::emu::test::TestRom;

namespace {

constexpr uint8_t kI = 0x04, kB = 0x10, kU = 0x20;

// The cycle at which a $4017 write in cycle `w` takes effect.
uint64_t takes_effect(uint64_t w) { return w + ((w & 1) ? 3 : 4); }

// An APU with pulse 1's length counter loaded from index `index` of the table, in cycle `at`.
Apu loaded_apu(uint8_t index, uint64_t at) {
    Apu a;
    a.write(0x4015, 0x01, at);
    a.write(0x4003, static_cast<uint8_t>(index << 3), at);
    a.run_to(at + 1);
    return a;
}

std::unique_ptr<FlatMachine> flat(std::initializer_list<uint8_t> code) {
    auto m = std::make_unique<FlatMachine>();
    uint16_t at = 0x0400;
    for (const uint8_t b : code) m->write(at++, b);
    CpuRegs r = m->cpu().regs();
    r.pc = 0x0400;
    r.s = 0xFD;
    r.p = kU;  // I clear
    m->cpu().set_regs(r);
    m->write16(0xFFFE, 0x0600);  // IRQ/BRK
    m->write16(0xFFFA, 0x0700);  // NMI
    return m;
}

}  // namespace

TEST_CASE("APU frame counter: the IRQ flag rises 29828 cycles after a $4017 write takes effect") {
    for (const uint64_t w : {uint64_t{1001}, uint64_t{1002}}) {
        INFO("write in cycle " << w);
        Apu a;
        a.write(0x4017, 0x00, w);
        const uint64_t start = takes_effect(w);  // 3 cycles after an odd cycle, 4 after an even one
        CHECK(start == (w == 1001 ? 1004 : 1006));
        CHECK(a.next_event() == start);
        a.run_to(start + 29827);
        CHECK_FALSE(a.frame_irq);
        CHECK(a.next_event() == start + 29828);
        a.run_to(start + 29828);
        CHECK(a.frame_irq);
        CHECK(a.frame_irq_since == start + 29828);
        // The sequence repeats every 29830 cycles.
        CHECK((a.read_status(start + 29840) & 0x40) == 0x40);
        a.run_to(start + 29830 + 29827);
        CHECK_FALSE(a.frame_irq);
        a.run_to(start + 29830 + 29828);
        CHECK(a.frame_irq);
    }
}

TEST_CASE("APU $4015 read: returns the flag and clears it, the first two of its 3 cycles set it again") {
    Apu a;
    a.write(0x4017, 0x00, 1001);
    const uint64_t f = takes_effect(1001) + 29828;
    CHECK((a.read_status(f) & 0x40) == 0x40);
    CHECK_FALSE(a.frame_irq);
    CHECK(a.next_event() == f + 1);
    a.run_to(f + 1);
    CHECK(a.frame_irq);  // set again
    CHECK((a.read_status(f + 2) & 0x40) == 0x40);
    a.run_to(f + 1000);
    CHECK_FALSE(a.frame_irq);  // the last of the three cycles has passed
    CHECK((a.read_status(f + 1000) & 0x40) == 0);
}

TEST_CASE("APU $4017: bit 6 clears the flag and inhibits it, 5-step mode never sets it") {
    Apu a;
    a.write(0x4017, 0x00, 1001);
    const uint64_t f = takes_effect(1001) + 29828;
    a.run_to(f + 5);
    CHECK(a.frame_irq);
    a.write(0x4017, 0x40, f + 10);
    CHECK_FALSE(a.frame_irq);  // at once, not 3-4 cycles later
    CHECK(a.next_event() == takes_effect(f + 10));
    a.run_to(f + 200000);
    CHECK_FALSE(a.frame_irq);
    CHECK(a.next_event() == Apu::kNever);

    Apu b;
    b.write(0x4017, 0x80, 1001);
    b.run_to(200000);
    CHECK_FALSE(b.frame_irq);
    CHECK(b.next_event() == Apu::kNever);
}

TEST_CASE("APU power-on: the frame counter runs as if $00 had been written, so the IRQ flag rises") {
    Apu a;
    CHECK(a.next_event() == 2 + 29828);
    a.run_to(2 + 29828);
    CHECK(a.frame_irq);
}

TEST_CASE("APU length counters: loaded from the table when enabled, clocked at half frames") {
    Apu a = loaded_apu(1, 100);  // index 1: 254
    CHECK(a.length[0] == 254);
    CHECK((a.peek_status() & 0x0F) == 0x01);
    // Disabled channels do not load.
    a.write(0x4007, 0x08, 200);
    a.run_to(201);
    CHECK(a.length[1] == 0);
    // Half frames of the sequence that started at cycle 2 (power-on): 14913 and 29829.
    a.run_to(2 + 14912);
    CHECK(a.length[0] == 254);
    a.run_to(2 + 14913);
    CHECK(a.length[0] == 253);
    a.run_to(2 + 29829);
    CHECK(a.length[0] == 252);
    // Quarter frames alone (7457, 22371) do not clock them.
    a.run_to(2 + 29830 + 7457);
    CHECK(a.length[0] == 252);
    // Halt (bit 5 of $4000) stops it; $4015 disable clears it.
    a.run_to(2 + 29830 + 14913);
    CHECK(a.length[0] == 251);
    a.write(0x4000, 0x20, 50000);
    a.run_to(2 + 29830 + 29829);
    CHECK(a.length[0] == 251);
    a.run_to(2 + 3 * 29830);
    CHECK(a.length[0] == 251);
    a.write(0x4015, 0x00, 2 + 3 * 29830);
    CHECK(a.length[0] == 0);
    CHECK((a.peek_status() & 0x0F) == 0);
    // Every table entry.
    for (uint8_t i = 0; i < 32; ++i) CHECK(loaded_apu(i, 100).length[0] == kLengthTable[i]);
    CHECK(kLengthTable[0] == 10);
    CHECK(kLengthTable[31] == 30);
}

TEST_CASE("APU length counters: 5-step mode clocks at once, a load or halt coinciding with a clock") {
    Apu a = loaded_apu(0, 100);  // 10
    a.write(0x4017, 0x80, 1001);
    a.run_to(takes_effect(1001) - 1);
    CHECK(a.length[0] == 10);
    a.run_to(takes_effect(1001));
    CHECK(a.length[0] == 9);  // clocked when the write takes effect

    // The half frame at h = 2 + 14913 (power-on sequence).
    const uint64_t h = 2 + 14913;
    // A load written the cycle before the clock: the clock decrements first, the load is lost.
    Apu b = loaded_apu(0, 100);  // 10
    b.write(0x4003, 0x08, h - 1);  // index 1: 254
    b.run_to(h);
    CHECK(b.length[0] == 9);
    // Written in the clock's own cycle: the clock came first, the load wins.
    Apu c = loaded_apu(0, 100);
    c.write(0x4003, 0x08, h);
    c.run_to(h + 1);
    CHECK(c.length[0] == 254);
    // A counter at 0 is not changed by the clock: the load wins.
    Apu d;
    d.write(0x4015, 0x01, 100);
    d.write(0x4003, 0x08, h - 1);
    d.run_to(h);
    CHECK(d.length[0] == 254);
    // Halt written the cycle before the clock: that clock still sees it clear.
    Apu e = loaded_apu(0, 100);
    e.write(0x4000, 0x20, h - 1);
    e.run_to(h);
    CHECK(e.length[0] == 9);
    e.run_to(h + 14916);
    CHECK(e.length[0] == 9);
    // The triangle's halt is bit 7 of $4008.
    Apu t;
    t.write(0x4015, 0x04, 100);
    t.write(0x400B, 0x00, 100);
    t.write(0x4008, 0x20, 100);
    t.run_to(h);
    CHECK(t.length[2] == 9);
    t.write(0x4008, 0x80, h + 10);
    t.run_to(h + 14916);
    CHECK(t.length[2] == 9);
}

TEST_CASE("NES: the frame IRQ is taken at the first instruction whose poll sees it, $4015 acknowledges it") {
    // CLI / LDA #0 / STA $4017 / JMP * (3 cycles). IRQ handler: LDA $4015, STA $00, RTI.
    TestRom rom;
    rom.put(0x8000, {0x58, 0xA9, 0x00, 0x8D, 0x17, 0x40, 0x4C, 0x06, 0x80});
    rom.put(0xF000, {0xAD, 0x15, 0x40, 0x85, 0x00, 0x40});
    rom.vectors(0x9000, 0x8000, 0xF000);
    Nes nes(rom.image());
    nes.step();
    nes.step();
    nes.step();  // STA $4017: the write is in its last cycle
    const uint64_t w = nes.cycles();
    const uint64_t flag = takes_effect(w) + 29828;
    REQUIRE(nes.run_until_pc(0xF000, 40000) == RunStatus::Reached);
    // JMPs end at w + 3k; the first whose next-to-last cycle (end - 1) is at or after the
    // flag's cycle is followed by the 7-cycle IRQ sequence.
    uint64_t end = w;
    while (end < flag + 1) end += 3;
    CHECK(end != flag + 2);  // (not the end of the previous JMP: the flag came after its poll)
    CHECK(nes.cycles() == end + 7);
    nes.step();  // LDA $4015
    CHECK((nes.cpu().a() & 0x40) == 0x40);
    nes.step();
    nes.step();  // RTI: I clear again, the flag is gone: the loop runs
    nes.step();
    CHECK(nes.cpu().pc() == 0x8006);
    // The next one, a sequence later (taken 1 to 3 cycles after the flag).
    REQUIRE(nes.run_until_pc(0xF000, 40000) == RunStatus::Reached);
    CHECK(nes.cycles() >= flag + 29830 + 1 + 7);
    CHECK(nes.cycles() <= flag + 29830 + 3 + 7);
}

TEST_CASE("NES: an IRQ held while I is set waits, CLI lets it in after one more instruction") {
    // LDA #0 / STA $4017, then NOPs with I set (the reset sequence sets it).
    TestRom rom;
    rom.put(0x8000, {0xA9, 0x00, 0x8D, 0x17, 0x40});
    rom.put(0xF000, {0x4C, 0x00, 0xF0});
    rom.vectors(0x9000, 0x8000, 0xF000);
    Nes nes(rom.image());
    nes.run_cycles(31000);
    CHECK(nes.cpu().irq_line());
    CHECK(nes.cpu().pc() != 0xF000);  // masked
    // CLI, NOP, NOP in RAM, run from there.
    const uint8_t code[] = {0x58, 0xEA, 0xEA, 0xEA};
    for (unsigned i = 0; i < sizeof code; ++i) nes.write_ram(static_cast<uint16_t>(0x300 + i), code[i]);
    nes.cpu().set_pc(0x0300);
    nes.step();  // CLI
    nes.step();  // the NOP after it still sees I set
    CHECK(nes.cpu().pc() == 0x0302);
    nes.step();
    CHECK(nes.cpu().pc() == 0xF000);
    CHECK((nes.read_ram(0x01FB) & kI) == 0);  // pushed P: I clear (S was $FD after reset)

    // A program that rewrites $4017 more often than every 29828 cycles never gets the flag.
    TestRom loop;
    loop.put(0x8000, {0xA9, 0x00, 0x8D, 0x17, 0x40, 0x4C, 0x00, 0x80});
    loop.vectors(0x9000, 0x8000, 0xF000);
    Nes never(loop.image());
    never.run_cycles(200000);
    CHECK_FALSE(never.cpu().irq_line());
    CHECK_FALSE(never.apu().frame_irq);
}

TEST_CASE("CPU: a taken branch that stays in its page does not poll in its last cycle") {
    // BCC +0 (taken, same page: 3 cycles) then NOP. The IRQ line falls in the branch's second
    // cycle: an ordinary instruction would have seen it, the branch does not.
    auto m = flat({0x90, 0x00, 0xEA, 0xEA});
    m->cpu().raise_irq(1);
    m->step();  // BCC: cycles 0-2
    CHECK(m->cycles() == 3);
    m->step();  // the NOP after it still runs
    CHECK(m->cpu().pc() == 0x0403);
    m->step();
    CHECK(m->cpu().pc() == 0x0600);

    // With the delay off (FCEUX's model, PowerOn::Fceux): seen right after the branch.
    auto fceux = flat({0x90, 0x00, 0xEA, 0xEA});
    fceux->cpu().set_branch_delays_interrupts(false);
    fceux->cpu().raise_irq(1);
    fceux->step();
    fceux->step();
    CHECK(fceux->cpu().pc() == 0x0600);

    // Falling in its first cycle: seen.
    auto m2 = flat({0x90, 0x00, 0xEA, 0xEA});
    m2->cpu().raise_irq(0);
    m2->step();
    m2->step();
    CHECK(m2->cpu().pc() == 0x0600);

    // Not taken (2 cycles): polls at the end of its first cycle, as any instruction.
    auto m3 = flat({0xB0, 0x00, 0xEA, 0xEA});
    m3->cpu().raise_irq(0);
    m3->step();
    m3->step();
    CHECK(m3->cpu().pc() == 0x0600);

    // Taken across a page (4 cycles): polls at the end of its third cycle.
    auto m4 = std::make_unique<FlatMachine>();
    m4->write(0x04FD, 0x90);
    m4->write(0x04FE, 0x01);  // BCC to $0500
    m4->write(0x0500, 0xEA);
    m4->write16(0xFFFE, 0x0600);
    CpuRegs r = m4->cpu().regs();
    r.pc = 0x04FD;
    r.s = 0xFD;
    r.p = kU;
    m4->cpu().set_regs(r);
    m4->cpu().raise_irq(2);
    m4->step();
    CHECK(m4->cycles() == 4);
    m4->step();
    CHECK(m4->cpu().pc() == 0x0600);
}

TEST_CASE("CPU: an IRQ released in the last cycle of the instruction that polled it is still taken") {
    auto m = flat({0xEA, 0xEA, 0xEA});
    m->cpu().raise_irq(0);
    m->cpu().release_irq(1);  // low in cycle 0 (the poll), high again in cycle 1
    m->step();
    m->step();
    CHECK(m->cpu().pc() == 0x0600);

    auto m2 = flat({0xEA, 0xEA, 0xEA});
    m2->cpu().raise_irq(0);
    m2->cpu().release_irq(0);  // high again before the poll
    m2->step();
    m2->step();
    CHECK(m2->cpu().pc() == 0x0402);
    CHECK_FALSE(m2->cpu().irq_line());
}

TEST_CASE("CPU: an NMI by BRK's 4th cycle takes over its vector (B stays set), later, it waits "
          "for the handler's first instruction") {
    // BRK in cycles 0-6.
    for (const uint64_t edge : {uint64_t{0}, uint64_t{3}}) {
        INFO("edge in cycle " << edge);
        auto m = flat({0x00, 0x00, 0xEA});
        m->cpu().signal_nmi(edge);
        m->step();
        CHECK(m->cpu().pc() == 0x0700);  // the NMI vector
        CHECK((m->read(0x01FB) & kB) == kB);
        CHECK_FALSE(m->cpu().nmi_pending());
    }
    for (const uint64_t edge : {uint64_t{4}, uint64_t{6}}) {
        INFO("edge in cycle " << edge);
        auto m = flat({0x00, 0x00, 0xEA});
        m->write(0x0600, 0x38);  // SEC at the BRK handler
        m->cpu().signal_nmi(edge);
        m->step();
        CHECK(m->cpu().pc() == 0x0600);
        m->step();  // SEC runs first
        CHECK(m->cpu().pc() == 0x0601);
        m->step();
        CHECK(m->cpu().pc() == 0x0700);
        CHECK((m->read(0x01F8) & 0x01) == 0x01);  // the NMI pushed C set by SEC
    }
}

TEST_CASE("CPU: an NMI during an IRQ's entry takes it over the same way") {
    auto m = flat({0xEA, 0xEA});
    m->cpu().set_irq_line(true);
    m->step();  // NOP in cycles 0-1; its poll sees the IRQ
    m->cpu().signal_nmi(5);  // the IRQ sequence runs in cycles 2-8
    m->step();
    CHECK(m->cpu().pc() == 0x0700);
    CHECK((m->read(0x01FB) & kB) == 0);
    CHECK(m->cycles() == 9);

    auto late = flat({0xEA, 0xEA});
    late->cpu().set_irq_line(true);
    late->step();
    late->cpu().signal_nmi(6);  // too late: the IRQ vector, then the NMI after one instruction
    late->step();
    CHECK(late->cpu().pc() == 0x0600);
}

TEST_CASE("NES: an IRQ arriving during OAM DMA waits for the instruction after the DMA") {
    // The flag rises during the DMA of STA $4014: the instruction after it runs before the IRQ.
    // LDA #0 / STA $4017 / CLI / then at $8100: LDA #2 / STA $4014 / NOP / NOP.
    TestRom rom;
    rom.put(0x8000, {0xA9, 0x00, 0x8D, 0x17, 0x40, 0x58});
    rom.put(0xF000, {0x4C, 0x00, 0xF0});
    rom.vectors(0x9000, 0x8000, 0xF000);
    Nes probe(rom.image());
    probe.step();
    probe.step();
    const uint64_t flag = takes_effect(probe.cycles()) + 29828;
    // Run the NOPs to some cycles before the flag, then put the DMA program at PC.
    for (const uint64_t lead : {uint64_t{20}, uint64_t{300}}) {
        INFO("DMA starts about " << lead << " cycles before the flag");
        Nes nes(rom.image());
        nes.run_cycles(flag - lead - nes.cycles());
        // Replace the machine's PC with a little routine in RAM: LDA #2, STA $4014, NOP, NOP.
        const uint8_t code[] = {0xA9, 0x02, 0x8D, 0x14, 0x40, 0xEA, 0xEA, 0xEA};
        for (unsigned i = 0; i < sizeof code; ++i) nes.write_ram(static_cast<uint16_t>(0x300 + i), code[i]);
        nes.cpu().set_pc(0x0300);
        nes.step();  // LDA #2
        nes.step();  // STA $4014 and the DMA
        const uint64_t after_dma = nes.cycles();
        REQUIRE(after_dma > flag);  // the flag rose during the DMA
        nes.step();
        CHECK(nes.cpu().pc() == 0x0306);  // the NOP after the DMA ran
        nes.step();
        CHECK(nes.cpu().pc() == 0xF000);
    }
}

TEST_CASE("APU DMC: a sample of 16 x L + 1 bytes is fetched one byte an output cycle (8 timer clocks)") {
    for (const uint8_t rate : {uint8_t{0x0}, uint8_t{0xE}, uint8_t{0xF}}) {
        INFO("rate " << int(rate));
        const uint64_t period = kDmcPeriods[rate];
        Apu a;
        a.write(0x4010, rate, 100);
        a.write(0x4013, 0x01, 100);  // 17 bytes
        a.write(0x4015, 0x10, 100);
        CHECK((a.peek_status() & 0x10) == 0x10);
        a.run_to(102);  // the first byte is fetched at once into the empty buffer
        CHECK(a.take_dmc_stall() == kDmcDmaCycles);
        CHECK(a.dmc_remaining == 16);
        // Then one a byte per output cycle: 16 more within 16 output cycles (+ the first one's
        // remainder), and no more after.
        uint64_t last = 102, fetches = 0;
        for (uint64_t c = 103; c < 102 + 18 * 8 * period && a.dmc_remaining; ++c) {
            a.run_to(c);
            if (a.take_dmc_stall()) {
                if (fetches) CHECK(c - last == 8 * period);
                last = c;
                ++fetches;
            }
        }
        CHECK(fetches == 16);
        CHECK((a.peek_status() & 0x10) == 0);  // the last byte is fetched: nothing left to play
        a.run_to(last + 20 * 8 * period);
        CHECK(a.take_dmc_stall() == 0);
        CHECK_FALSE(a.dmc_irq);  // IRQ not enabled
    }
}

TEST_CASE("APU DMC: the IRQ flag at a sample's end when enabled, a loop restarts, $4015 stops and restarts") {
    Apu a;
    a.write(0x4017, 0x40, 0);     // frame IRQ off: only the DMC's
    a.write(0x4010, 0x8F, 10);    // IRQ on, rate 54
    a.write(0x4013, 0x00, 10);    // 1 byte
    a.write(0x4015, 0x10, 10);
    a.run_to(12);
    CHECK(a.dmc_irq);
    CHECK(a.irq());
    CHECK(a.irq_since() == 12);
    CHECK((a.read_status(20) & 0x80) == 0x80);  // reading does not clear it
    CHECK(a.dmc_irq);
    a.write(0x4015, 0x00, 30);                 // writing $4015 does
    CHECK_FALSE(a.dmc_irq);

    Apu looping;
    looping.write(0x4010, 0x4F, 10);  // loop, rate 54
    looping.write(0x4013, 0x00, 10);
    looping.write(0x4015, 0x10, 10);
    looping.run_to(10 + 100 * 8 * 54);
    CHECK((looping.peek_status() & 0x10) == 0x10);  // still playing
    CHECK(looping.take_dmc_stall() >= 100 * kDmcDmaCycles);
    looping.write(0x4015, 0x00, 10 + 100 * 8 * 54 + 1);  // stop
    CHECK((looping.peek_status() & 0x10) == 0);
    looping.write(0x4013, 0x02, 10 + 100 * 8 * 54 + 2);
    looping.write(0x4015, 0x10, 10 + 100 * 8 * 54 + 3);  // restart: the length reloads
    CHECK(looping.dmc_remaining == 33);
}

TEST_CASE("APU DMC: the NES halts the CPU 4 cycles for each byte fetched") {
    // Reset: rate 54, 1 + 16 x 15 = 241 bytes, start; then L: NOP, JMP L. Every cycle not spent
    // in those instructions' 2 + 3 cycles is a halt.
    for (const uint8_t start : {uint8_t{0x10}, uint8_t{0x00}}) {
        INFO("$4015 = " << int(start));
        TestRom rom;
        rom.put(0x8000, {0xA9, 0x0F, 0x8D, 0x10, 0x40,           // LDA #$0F STA $4010
                         0xA9, 0x0F, 0x8D, 0x13, 0x40,           // LDA #$0F STA $4013
                         0xA9, start, 0x8D, 0x15, 0x40,          // LDA #start STA $4015
                         0xEA, 0x4C, 0x0F, 0x80});               // L: NOP JMP L
        rom.vectors(0x9000, 0x8000);
        Nes nes(rom.image());
        uint64_t nops = 0, jmps = 0;
        nes.set_instruction_hook([&](const Nes& n) {
            nops += n.cpu().pc() == 0x800F;
            jmps += n.cpu().pc() == 0x8010;
        });
        REQUIRE(nes.run_until_pc(0x800F, 1000) == RunStatus::Reached);
        const uint64_t t0 = nes.cycles();
        nes.run_cycles(300 * 8 * 54);
        const uint64_t halted = nes.cycles() - t0 - (2 * nops + 3 * jmps);
        CHECK(halted == (start ? 241 * kDmcDmaCycles : 0));
        CHECK(nes.apu().dmc_remaining == 0);
    }
}
