// Random bytes as programs: whatever the CPU executes (all 256 opcodes, wild MMC1 writes,
// random PPU register traffic), the machines stay inside their arrays and stay deterministic.
// Meant to run under -DNESTRIS_SANITIZE=ON. The size is modest by default; set
// NESTRIS_EMU_RANDOM_CYCLES to run more (e.g. 100000000 locally).
#include "emu-test/debug/disasm.hpp"
#include "emu-test/flat_machine.hpp"
#include "emu-test/nes.hpp"
#include "tests/emu/emu_test_support.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <memory>
#include <random>

using namespace nestris::emu;

namespace {

uint64_t budget(uint64_t fallback) {
    if (const char* env = std::getenv("NESTRIS_EMU_RANDOM_CYCLES")) {
        const uint64_t v = std::strtoull(env, nullptr, 10);
        if (v > 0) return v;
    }
    return fallback;
}

// Runs the flat machine for `cycles`, restarting it through the reset vector whenever a JAM
// halts it. Returns the number of restarts.
uint64_t run_flat(FlatMachine& m, uint64_t cycles) {
    uint64_t restarts = 0;
    const uint64_t end = m.cycles() + cycles;
    while (m.cycles() < end) {
        m.step();
        if (m.cpu().jammed()) {
            m.reset();
            ++restarts;
        }
    }
    return restarts;
}

}  // namespace

TEST_CASE("random programs on the flat machine: deterministic, no stray accesses") {
    const uint64_t total = budget(2'000'000);
    for (uint32_t seed = 1; seed <= 4; ++seed) {
        INFO("seed " << seed);
        std::mt19937 rng(seed);
        auto m = std::make_unique<FlatMachine>();
        for (auto& b : m->memory()) b = static_cast<uint8_t>(rng());
        CpuRegs r;
        r.pc = static_cast<uint16_t>(rng());
        r.a = static_cast<uint8_t>(rng());
        r.s = static_cast<uint8_t>(rng());
        r.p = static_cast<uint8_t>(rng());
        m->cpu().set_regs(r);
        auto twin = std::make_unique<FlatMachine>(*m);
        const uint64_t restarts = run_flat(*m, total / 4);
        run_flat(*twin, total / 4);
        CHECK(*m == *twin);
        CHECK(m->cycles() >= total / 4);
        // Disassembling any address of any memory is safe too.
        const PeekFn peek = [&](uint16_t a) { return m->read(a); };
        for (uint32_t a = 0; a < 0x10000; a += 97) {
            r.pc = static_cast<uint16_t>(a);
            CHECK_FALSE(trace_line(r, 0, 0, 0, peek).empty());
        }
        CHECK(restarts < total);  // (it ran; the count is only informative)
    }
}

TEST_CASE("random programs on the NES: random PRG/CHR sizes, CHR RAM, buttons, screenshots") {
    const uint64_t total = budget(2'000'000);
    struct Shape {
        size_t prg_banks, chr_banks;
    };
    const Shape shapes[] = {{1, 0}, {2, 1}, {4, 2}, {16, 16}};
    uint32_t seed = 100;
    for (const Shape shape : shapes) {
        ++seed;
        INFO("PRG " << shape.prg_banks << " x 16 KiB, CHR " << shape.chr_banks << " x 8 KiB");
        std::mt19937 rng(seed);
        std::vector<uint8_t> img(16 + shape.prg_banks * 0x4000 + shape.chr_banks * 0x2000);
        for (auto& b : img) b = static_cast<uint8_t>(rng());
        img[0] = 'N';
        img[1] = 'E';
        img[2] = 'S';
        img[3] = 0x1A;
        img[4] = static_cast<uint8_t>(shape.prg_banks);
        img[5] = static_cast<uint8_t>(shape.chr_banks);
        img[6] = 0x10;
        for (int i = 7; i < 16; ++i) img[static_cast<size_t>(i)] = 0;
        auto nes = std::make_unique<Nes>(img);
        nes->log_ppu_writes(true);
        Image picture;
        uint64_t resets = 0, frames = 0;
        const uint64_t end = total / 4;
        while (nes->cycles() < end) {
            nes->set_buttons(static_cast<uint8_t>(rng()));
            const RunStatus s = nes->run_cycles(5000);
            // Jammed, or stopped at code in PRG-RAM never written: it would stay there.
            if (s == RunStatus::Jammed || s == RunStatus::UnwrittenCode) {
                nes->reset();
                ++resets;
            }
            if (nes->frame() != frames) {
                frames = nes->frame();
                nes->screenshot(picture);
                nes->clear_ppu_writes();
                for (uint32_t a = 0; a < 0x10000; a += 251) (void)nes->peek(static_cast<uint16_t>(a));
            }
        }
        // Frames keep coming whatever the program does (the PPU never stops).
        CHECK(nes->frame() + 1 >= nes->cycles() / 29781);
        CHECK(picture.rgb.size() == 256u * 240u * 3u);
        // A copy run on the same inputs stays identical.
        Nes copy = *nes;
        nes->run_frames(2, 0x81);
        copy.run_frames(2, 0x81);
        CHECK(copy == *nes);
        (void)resets;
    }
}
