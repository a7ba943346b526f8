// bench-emu: how fast the embedded emulator runs, single thread and across threads.
//
//   flat bus   a built-in 6502 workload (table fill, bubble sort, (zp),Y checksum, JSR/RTS)
//              on the flat 64 KiB machine: emulated MHz; call() round trips per second
//   --bin      a raw binary run to its trap (the public 6502 functional test): emulated MHz
//   NES        whole frames per second (and x real time) of the emu tests' own iNES program,
//              with idle loops skipped (the default) and with every instruction run
//              (a main loop synchronised on the NMI, OAM DMA and controller reads each frame)
//   --rom      the same for a real game from power-on (Tetris: legal screen, title, demo)
//   --sound R  a third NES run with sound made at R Hz (samples taken every frame)
//
// Figures are printed; nothing is checked here (the tests do that). Each figure is given per
// second of this thread's CPU time (what the emulator costs, whatever else the machine runs)
// and per second of wall-clock time (the same on an idle machine).
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "base/worker_pool.hpp"
#include "emu-test/flat_machine.hpp"
#include "emu-test/nes.hpp"
#include "tools/harness/version.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

using namespace nestris::emu;
using nestris::parallel_for;
using nestris::worker_threads;

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Wall-clock and thread CPU time since construction.
struct Timer {
    Clock::time_point wall0 = Clock::now();
    double cpu0 = thread_cpu_seconds();
    double wall() const { return seconds(wall0); }
    double cpu() const { return thread_cpu_seconds() - cpu0; }
};

// "400" -> $0400; anything but 1-4 hex digits is a usage error naming the option.
uint16_t hex_address(const std::string& text, const char* option) {
    const bool hex = !text.empty() && text.size() <= 4 &&
                     std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
    if (!hex) throw nestris::UsageError(std::string(option) + ": '" + text + "' is not an address (1-4 hex digits)");
    return static_cast<uint16_t>(std::stoul(text, nullptr, 16));
}


// The flat-bus workload, hand-assembled. Loops forever: fill a 256-byte table, bubble-sort
// it, checksum it.
void load_workload(FlatMachine& m) {
    const uint8_t main_loop[] = {
        0xA2, 0x00,              // 0400 start: LDX #0
        0x8A,                    // 0402 fill:  TXA
        0x49, 0xA5,              // 0403        EOR #$A5
        0x9D, 0x00, 0x03,        // 0405        STA $0300,X
        0xE8,                    // 0408        INX
        0xD0, 0xF7,              // 0409        BNE fill
        0x20, 0x00, 0x05,        // 040B        JSR sort
        0x20, 0x00, 0x06,        // 040E        JSR checksum
        0x4C, 0x00, 0x04,        // 0411        JMP start
    };
    const uint8_t sort[] = {
        0xA0, 0x00,              // 0500 sort:   LDY #0        (swaps this pass)
        0xA2, 0x00,              // 0502         LDX #0
        0xBD, 0x00, 0x03,        // 0504 inner:  LDA $0300,X
        0xDD, 0x01, 0x03,        // 0507         CMP $0301,X
        0x90, 0x0E,              // 050A         BCC noswap
        0xF0, 0x0C,              // 050C         BEQ noswap
        0x48,                    // 050E         PHA
        0xBD, 0x01, 0x03,        // 050F         LDA $0301,X
        0x9D, 0x00, 0x03,        // 0512         STA $0300,X
        0x68,                    // 0515         PLA
        0x9D, 0x01, 0x03,        // 0516         STA $0301,X
        0xC8,                    // 0519         INY
        0xE8,                    // 051A noswap: INX
        0xE0, 0xFF,              // 051B         CPX #$FF
        0xD0, 0xE5,              // 051D         BNE inner
        0xC0, 0x00,              // 051F         CPY #0
        0xD0, 0xDD,              // 0521         BNE sort
        0x60,                    // 0523         RTS
    };
    const uint8_t checksum[] = {
        0xA9, 0x00, 0x85, 0x10,  // 0600 checksum: pointer $10 = $0300
        0xA9, 0x03, 0x85, 0x11,
        0xA0, 0x00,              // 0608         LDY #0
        0x18,                    // 060A         CLC
        0xA9, 0x00,              // 060B         LDA #0
        0x71, 0x10,              // 060D loop:   ADC ($10),Y
        0x2A,                    // 060F         ROL A
        0xC8,                    // 0610         INY
        0xD0, 0xFA,              // 0611         BNE loop
        0x85, 0x12,              // 0613         STA $12
        0xE6, 0x13,              // 0615         INC $13
        0x60,                    // 0617         RTS
    };
    m.load(0x0400, main_loop);
    m.load(0x0500, sort);
    m.load(0x0600, checksum);
    m.cpu().set_pc(0x0400);
}

// Returns the workload's emulated MHz per CPU second: the CPU's own speed, with no NES around it.
double bench_flat(double budget_s) {
    auto m = std::make_unique<FlatMachine>();
    load_workload(*m);
    uint64_t cycles = 0;
    const Timer t0;
    do {
        m->run_until_pc(0xFFFF, 50'000'000);  // never reached: runs the cycle budget
        cycles = m->cycles();
    } while (t0.wall() < budget_s);
    const double mhz = static_cast<double>(cycles) / t0.cpu() / 1e6;
    std::printf("flat bus, workload:        %8.1f emulated MHz per CPU second, %.1f per wall second"
                "  (%llu cycles)\n",
                mhz, static_cast<double>(cycles) / t0.wall() / 1e6, static_cast<unsigned long long>(cycles));

    // call() round trips: the checksum routine (about 2 900 cycles) called again and again.
    uint64_t calls = 0, call_cycles = 0;
    const Timer t1;
    while (t1.wall() < budget_s / 2) {
        for (int i = 0; i < 1000; ++i) {
            const CallResult r = m->call(0x0600, 100'000);
            call_cycles += r.cycles;
        }
        calls += 1000;
    }
    const double s1 = t1.cpu();
    std::printf("flat bus, call():          %8.0f calls per CPU second of %llu cycles each, %.1f emulated MHz\n",
                static_cast<double>(calls) / s1,
                static_cast<unsigned long long>(call_cycles / std::max<uint64_t>(calls, 1)),
                static_cast<double>(call_cycles) / s1 / 1e6);
    return mhz;
}

void bench_threads(unsigned threads, double budget_s) {
    std::vector<uint64_t> cycles(threads, 0);
    const auto t0 = Clock::now();
    parallel_for(threads, threads, [&](std::size_t t) {
        auto m = std::make_unique<FlatMachine>();
        load_workload(*m);
        while (seconds(t0) < budget_s) m->run_until_pc(0xFFFF, 20'000'000);
        cycles[t] = m->cycles();
    });
    const double s = seconds(t0);
    uint64_t total = 0;
    for (const uint64_t c : cycles) total += c;
    std::printf("flat bus, %u threads:       %8.1f emulated MHz in all\n", threads,
                static_cast<double>(total) / s / 1e6);
}

void bench_bin(const std::string& path, const std::vector<uint8_t>& bytes, uint16_t load, uint16_t pc) {
    auto m = std::make_unique<FlatMachine>();
    m->load(load, bytes);
    m->cpu().set_pc(pc);
    const Timer t0;
    const TrapResult r = m->run_until_trap(1'000'000'000'000ULL);
    std::printf("flat bus, %s: trap at $%04X after %llu cycles: %.1f emulated MHz per CPU second, "
                "%.1f per wall second\n",
                path.c_str(), r.pc, static_cast<unsigned long long>(r.cycles),
                static_cast<double>(r.cycles) / t0.cpu() / 1e6, static_cast<double>(r.cycles) / t0.wall() / 1e6);
}

// Frames a second twice: as the machine runs by default (idle loops skipped, see
// Nes::set_skip_idle_loops) and running every instruction. Beside each, the bound the CPU alone
// sets: the flat bus's MHz over the CPU cycles the frame executes (what it would cost if the NES
// around the CPU cost nothing).
// With --sound RATE, a third run: idle loops skipped and sound made at RATE Hz, the samples taken
// every frame (as play --wav and the web page do).
void bench_nes(const std::string& label, const std::vector<uint8_t>& image, uint64_t frames, double cpu_mhz,
               int sound_rate) {
    for (const int run : {0, 1, 2}) {
        const bool skip = run != 1;
        if (run == 2 && !sound_rate) break;
        auto nes = std::make_unique<Nes>(image);
        nes->set_skip_idle_loops(skip);
        if (run == 2) nes->enable_sound(sound_rate);
        std::vector<float> samples;
        const Timer t0;
        if (run == 2) {
            for (uint64_t f = 0; f < frames; ++f) {
                nes->run_frame();
                samples.clear();
                nes->take_samples(samples);
            }
        } else {
            nes->run_frames(frames);
        }
        const double fps = static_cast<double>(frames) / t0.cpu();
        const double n = static_cast<double>(frames);
        const double cycles_per_frame = static_cast<double>(nes->cycles()) / n;
        const double run_per_frame = static_cast<double>(nes->cycles() - nes->skipped_cycles()) / n;
        const double bound = cpu_mhz * 1e6 / run_per_frame;
        std::printf("NES, %-21s %8.0f frames per CPU second = %.0fx real time; %.0f per wall second"
                    "  (%llu frames, %s)\n",
                    (label + ":").c_str(), fps, fps / 60.0988, n / t0.wall(),
                    static_cast<unsigned long long>(frames),
                    run == 2 ? ("idle loops skipped, sound at " + std::to_string(sound_rate) + " Hz").c_str()
                    : skip   ? "idle loops skipped"
                             : "every instruction run");
        std::printf("     %-21s %8.0f frames a second if only its CPU cost time (%.0f of %.0f cycles a frame run, "
                    "at %.1f MHz): the NES runs at %.0f %% of that\n",
                    "", bound, run_per_frame, cycles_per_frame, cpu_mhz, 100.0 * fps / bound);
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"bench-emu: speed of the embedded 6502/NES emulator", "bench-emu"};
    double budget = 2.0;
    unsigned threads = worker_threads();
    std::string bin, rom;
    std::string load = "0", pc = "400";
    uint64_t frames = 20000;
    int sound_rate = 0;
    app.add_option("--seconds", budget, "Time per flat-bus measurement (default 2)");
    app.add_option("--threads", threads, "Threads for the parallel measurement (default: all cores)");
    app.add_option("--bin", bin, "Raw 6502 binary to run to its trap (e.g. the functional test)");
    app.add_option("--load", load, "Load address of --bin, hex (default 0)");
    app.add_option("--pc", pc, "Start address of --bin, hex (default 400)");
    app.add_option("--rom", rom, "iNES image (mapper 1) to run from power-on, e.g. Tetris");
    app.add_option("--frames", frames, "NES frames per measurement (default 20000)");
    app.add_option("--sound", sound_rate, "Also measure with sound made at this rate (Hz), e.g. 48000")
        ->check(CLI::Range(8000, 192000));
    app.set_version_flag("--version", nestris::tools::version_text());
    return nestris::run_program(app, argc, argv, [&]() -> int {
        // Every input read and checked before the first measurement, through the one input reader:
        // a FIFO, a device (/dev/zero) or an image over 16 MiB is refused at once (the runner's error
        // line, exit 1; a bad address, exit 2), not read without end or after seconds of benchmarks.
        const uint16_t load_at = hex_address(load, "--load"), start_at = hex_address(pc, "--pc");
        const std::vector<uint8_t> bin_bytes = bin.empty() ? std::vector<uint8_t>{} : nestris::read_file(bin);
        const std::vector<uint8_t> rom_bytes = rom.empty() ? std::vector<uint8_t>{} : nestris::read_file(rom);
        const std::vector<uint8_t> test_program = nestris::read_file(NESTRIS_EMU_BENCH_ROM);
        const double cpu_mhz = bench_flat(budget);
        if (threads > 1) bench_threads(threads, budget);
        if (!bin.empty()) bench_bin(bin, bin_bytes, load_at, start_at);
        bench_nes("test program", test_program, frames, cpu_mhz, sound_rate);
        if (!rom.empty()) bench_nes(rom, rom_bytes, frames, cpu_mhz, sound_rate);
        return 0;
    });
}
