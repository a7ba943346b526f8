// The cartridge's unpacker (asm/unpack.s) on a flat 6502 with the patch's ROM bytes alone: it
// writes out exactly the RAM code the build placed in PRG-RAM, whether it runs in one go or is
// cut at every NMI and resumed, and fast enough for the legal screen.
#include "emu-test/flat_machine.hpp"
#include "game/hooks_map.hpp"
#include "game/tetris_map.hpp"
#include "patcher/asm_driver.hpp"
#include "patcher/cart_image.hpp"

#include <catch2/catch.hpp>

using namespace nestris;

namespace {

struct UnpackRig {
    const CartImage& cart = shipped_cart();
    emu::FlatMachine m;
    uint16_t spin = cart.require("ai_idle_spin");
    uint16_t done = cart.require("ai_idle_done");
    uint16_t step = cart.require("unpack_step");

    UnpackRig() {
        for (const CartSegment* s : cart.rom_segments()) m.load(s->address, s->bytes);
        m.write(tetris::game_updateAudio2, 0x60);  // the game's routine: an rts will do
        m.cpu().set_s(0xFD);
        REQUIRE(m.call(cart.require("init_unpack"), 1000).ok());
        REQUIRE(m.read(cart.require("ai_mode")) == hooks::AI_MODE_UNPACK);
    }
    // Runs the step from ai_idle's jump until it leaves for the wait's spin or its end.
    uint16_t run_step(uint64_t max_cycles) {
        m.cpu().set_pc(step);
        const uint64_t limit = m.cycles() + max_cycles;
        while (m.cycles() < limit) {
            if (m.cpu().pc() == spin || m.cpu().pc() == done) return m.cpu().pc();
            m.step();
        }
        FAIL("the unpacker ran past " << max_cycles << " cycles");
        return 0;
    }
    void check_ram_code() {
        const CartRegion& area = cart.region(kRamCodeArea);
        size_t checked = 0;
        for (const CartSegment& s : cart.segments) {
            if (s.region != area.name) continue;
            INFO(s.name);
            for (size_t i = 0; i < s.bytes.size(); ++i)
                if (m.read(static_cast<uint16_t>(s.address + i)) != s.bytes[i]) {
                    FAIL("byte " << i << " of " << s.name << " differs");
                }
            checked += s.bytes.size();
        }
        CHECK(checked == area.used);
    }
};

}  // namespace

TEST_CASE("the unpacker writes the RAM code out, then gives the wait back to the human path") {
    UnpackRig rig;
    const uint64_t start = rig.m.cycles();
    REQUIRE(rig.run_step(10'000'000) == rig.spin);
    const uint64_t cycles = rig.m.cycles() - start;
    rig.check_ram_code();
    CHECK(rig.m.read(rig.cart.require("ai_mode")) == hooks::AI_MODE_HUMAN);
    // The legal screen gives 255 frames at the least, each with most of its 29 780 cycles idle:
    // the unpacking takes a small part of that.
    WARN("unpacking: " << cycles << " cycles, " << rig.cart.region(kRamCodeArea).used << " bytes");
    CHECK(cycles < 60 * 25'000);
}

TEST_CASE("the unpacker, cut short by each NMI, goes on where it stopped") {
    for (uint64_t slice : {300u, 1'777u, 25'000u}) {
        UnpackRig rig;
        INFO("idle time " << slice << " cycles");
        int frames = 0;
        for (;;) {
            // The frame's idle time: the NMI comes after `slice` cycles and sets the flag.
            rig.m.write(tetris::verticalBlankingInterval, 0);
            rig.m.cpu().set_pc(rig.step);
            const uint64_t nmi_at = rig.m.cycles() + slice;
            uint16_t where = 0;
            while (!where) {
                if (rig.m.cycles() >= nmi_at) rig.m.write(tetris::verticalBlankingInterval, 1);
                if (rig.m.cpu().pc() == rig.spin || rig.m.cpu().pc() == rig.done) where = rig.m.cpu().pc();
                else rig.m.step();
                REQUIRE(rig.m.cycles() < nmi_at + 10'000);  // a token is short: the wait ends soon after
            }
            ++frames;
            if (where == rig.spin) break;
            REQUIRE(frames < 100'000);
        }
        rig.check_ram_code();
        CHECK(frames > 1);
    }
}
