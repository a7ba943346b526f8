#include "emu-test/flat_machine.hpp"

#include <catch2/catch.hpp>

using namespace nestris::emu;

TEST_CASE("smoke: a tiny loop runs") {
    FlatMachine m;
    // LDX #5; loop: DEX; BNE loop; JMP *
    const uint8_t prog[] = {0xA2, 0x05, 0xCA, 0xD0, 0xFD, 0x4C, 0x05, 0x04};
    m.load(0x400, prog);
    m.cpu().set_pc(0x400);
    const auto t = m.run_until_trap(1000);
    CHECK(t.status == RunStatus::Reached);
    CHECK(t.pc == 0x405);
    CHECK(t.cycles == 2 + 5 * 2 + 4 * 3 + 2);
}

TEST_CASE("smoke: call() runs a subroutine and counts JSR + body + RTS") {
    FlatMachine m;
    // $0600: LDA #$42; STA $10; RTS
    const uint8_t sub[] = {0xA9, 0x42, 0x85, 0x10, 0x60};
    m.load(0x600, sub);
    const auto r = m.call(0x600, 1000);
    REQUIRE(r.ok());
    CHECK(r.cycles == 6 + 2 + 3 + 6);
    CHECK(m.read(0x10) == 0x42);
    CHECK(m.cpu().s() == 0xFD);
}
