// run-bin, trace, run-rom: the emulator's subcommands of nestris-ai.
#include "emu-test/debug/emu_commands.hpp"
#include "base/hex.hpp"

#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "emu-test/debug/disasm.hpp"
#include "emu-test/debug/fm2.hpp"
#include "emu-test/debug/symbols.hpp"
#include "emu-test/flat_machine.hpp"
#include "emu-test/input.hpp"
#include "emu-test/nes.hpp"
#include "emu-test/wav.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace nestris {
namespace {

namespace fs = std::filesystem;
using namespace nestris::emu;


bool is_ines(const std::vector<uint8_t>& bytes) {
    return bytes.size() >= 4 && bytes[0] == 'N' && bytes[1] == 'E' && bytes[2] == 'S' && bytes[3] == 0x1A;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Addresses on the command line: a label (with --labels) or $C000 / 0xC000 / C000 / #49152.
// The label file is read at once, used or not: a bad one is refused, and, read, it is one of the
// command's inputs, which no output may overwrite.
class AddressParser {
public:
    explicit AddressParser(const std::string& labels_path = {}) {
        if (!labels_path.empty()) symbols_ = Symbols::from_label_file(labels_path);
    }
    uint16_t operator()(const std::string& text) const { return symbols_.resolve(text); }

private:
    Symbols symbols_;
};

// The most instructions trace follows: 10^8 lines are some 9 GB of text.
constexpr uint64_t kMaxTraceInstructions = 100'000'000;

// Where a long text output goes as it is produced, a line at a time (never held whole): stdout,
// or a file published whole by finish() (OutputFile: an interrupted run leaves no file).
class LineSink {
public:
    explicit LineSink(const std::string& path) {
        if (!path.empty()) file_.emplace(path);
    }
    void line(const std::string& text) {
        if (!file_) {
            std::cout << text << '\n';
            return;
        }
        file_->write(text);
        file_->write("\n");
    }
    void finish() {
        if (file_) return file_->commit();
        std::cout.flush();
        if (!std::cout) throw std::runtime_error("writing to the standard output failed");
    }

private:
    std::optional<OutputFile> file_;
};

// ---- run-bin ---------------------------------------------------------------------------------

struct RunBinOptions {
    std::string file;
    std::string load = "0";
    std::string pc;
    std::string success;
    uint64_t max_cycles = 100'000'000'000ULL;
};

int run_bin(const RunBinOptions& o) {
    const AddressParser addr;
    const auto bytes = read_file(o.file);
    if (bytes.empty()) throw std::runtime_error(o.file + " is empty: no program to run");
    auto m = std::make_unique<FlatMachine>();
    m->load(addr(o.load), bytes);
    if (o.pc.empty()) {
        m->reset();
    } else {
        m->cpu().set_pc(addr(o.pc));
    }
    const auto t0 = std::chrono::steady_clock::now();
    const TrapResult r = m->run_until_trap(o.max_cycles);
    const double secs = seconds_since(t0);
    const double mhz = secs > 0 ? static_cast<double>(m->cycles()) / secs / 1e6 : 0;
    char timing[96];
    std::snprintf(timing, sizeof timing, " (%.3f s, %.0f emulated MHz)", secs, mhz);
    // The report goes to the standard output; a run that fails says why on the error line too.
    if (r.status == RunStatus::CycleLimit) {
        std::cout << "no trap within " << o.max_cycles << " cycles; PC=" << hex(r.pc, 4) << timing << std::endl;
        throw std::runtime_error("no trap within " + std::to_string(o.max_cycles) + " cycles (PC " + hex(r.pc, 4) +
                                 ")");
    }
    std::cout << (r.status == RunStatus::Jammed ? "CPU jammed at " : "trap at ") << hex(r.pc, 4)
              << " after " << r.cycles << " cycles, " << r.instructions << " instructions" << timing << "\n";
    const CpuRegs regs = m->cpu().regs();
    char line[64];
    std::snprintf(line, sizeof line, "A:%02X X:%02X Y:%02X P:%02X SP:%02X\n", regs.a, regs.x, regs.y,
                  regs.p, regs.s);
    std::cout << line << std::flush;
    if (r.status == RunStatus::Jammed)
        throw std::runtime_error("the CPU jammed at " + hex(r.pc, 4) + " (a JAM opcode)");
    if (!o.success.empty()) {
        const uint16_t want = addr(o.success);
        std::cout << (r.pc == want ? "success: trapped at the success address\n"
                                   : "FAILURE: expected the trap at " + hex(want, 4) + "\n")
                  << std::flush;
        if (r.pc != want)
            throw std::runtime_error("trapped at " + hex(r.pc, 4) + ", not at the success address " + hex(want, 4));
    }
    return 0;
}

// ---- trace -----------------------------------------------------------------------------------

struct TraceOptions {
    std::string file;
    std::string load = "0";
    std::string pc;
    std::string labels;
    std::string input;
    std::string output;
    std::string movie;
    std::string power_on = "hardware";
    uint64_t instructions = 100'000;
    uint64_t skip_frames = 0;
    uint64_t start_cycles = 0;
};

int trace(const TraceOptions& o) {
    const AddressParser addr(o.labels);
    const auto bytes = read_file(o.file);
    LineSink out(o.output);  // after the inputs are read: the output may be none of them

    if (is_ines(bytes)) {
        auto nes = std::make_unique<Nes>(bytes);
        if (o.skip_frames > kMaxInputFrames)
            throw UsageError("--skip-frames is larger than " + std::to_string(kMaxInputFrames));
        const PowerOn mode = power_on_mode(o.power_on);
        if (!o.movie.empty()) {
            if (!o.input.empty()) throw UsageError("--input and --movie: give one of them");
            Fm2Movie movie = load_movie(o.movie, nes->cartridge(), "trace");
            fm2_power_on(*nes, movie, mode);
            movie.frames.resize(std::max<size_t>(movie.frames.size(), o.skip_frames));  // after it: nothing pressed
            for (uint64_t i = 0; i < o.skip_frames; ++i) {
                const RunStatus s = run_fm2_frame(*nes, movie, i);
                if (s != RunStatus::Reached) throw std::runtime_error("frame " + std::to_string(i + 1) + ": " + nes->stop_message(s));
            }
        } else {
            if (mode != PowerOn::Hardware) nes->power_on(mode);
            if (o.skip_frames) {
                auto frames = parse_input(o.input);
                frames.resize(o.skip_frames, 0);  // after the input: nothing pressed
                nes->run_frames(frames);
            }
        }
        if (!o.pc.empty()) nes->cpu().set_pc(addr(o.pc));
        const PeekFn peek = [&](uint16_t a) { return nes->peek(a); };
        for (uint64_t i = 0; i < o.instructions; ++i) {
            int line = 0, dot = 0;
            nes->ppu_position(line, dot);
            out.line(trace_line(nes->cpu().regs(), nes->cycles(), line, dot, peek));
            const RunStatus s = nes->step();
            if (s == RunStatus::UnwrittenCode) {  // it would stay there: said once
                out.line("# " + nes->stop_message(s));
                break;
            }
        }
    } else {
        auto m = std::make_unique<FlatMachine>();
        m->load(addr(o.load), bytes);
        if (o.pc.empty()) {
            m->reset();
        } else {
            m->cpu().set_pc(addr(o.pc));
        }
        if (o.start_cycles) m->cpu().set_cycles(o.start_cycles);
        const PeekFn peek = [&](uint16_t a) { return m->read(a); };
        for (uint64_t i = 0; i < o.instructions; ++i) {
            int line = 0, dot = 0;
            ppu_position_for_cycles(m->cycles(), line, dot);
            out.line(trace_line(m->cpu().regs(), m->cycles(), line, dot, peek));
            const uint16_t pc = m->cpu().pc();
            m->step();
            if (m->cpu().pc() == pc) {
                out.line("# trap at " + hex(pc, 4));
                break;
            }
        }
    }
    out.finish();
    return 0;
}

// ---- run-rom ---------------------------------------------------------------------------------

struct RunRomOptions {
    std::string file;
    std::optional<uint64_t> frames;
    std::string input;
    std::string png;
    std::string ram;
    std::string watch;
    std::string labels;
    std::string movie;
    std::string power_on = "hardware";
    std::string ram_trace;
    std::string wav;
    std::optional<int> sample_rate;  // --wav's (48 000 Hz when not given)
    std::string sound_trace;
};

// One line a frame of what the APU's channels play (the format tests/fceux/fceux_sound.lua
// writes from FCEUX's sound.get()): the frame number, then pulse 1's volume (0-15) and period,
// pulse 2's, the triangle's running flag (0/1) and period, the noise's volume, period index and
// mode (0/1), and the DMC's output level (0-127).
std::string sound_trace_line(uint64_t frame, const Nes& nes) {
    const ApuSound& s = *nes.sound();
    const auto v = s.volumes(nes.apu());
    const auto p = s.periods();
    return std::to_string(frame) + " " + std::to_string(v[0]) + " " + std::to_string(p[0]) + " " + std::to_string(v[1]) +
           " " + std::to_string(p[1]) + " " + std::to_string(v[2]) + " " + std::to_string(p[2]) + " " +
           std::to_string(v[3]) + " " + std::to_string(s.noise_period_index()) + " " +
           std::to_string(s.noise_short() ? 1 : 0) + " " + std::to_string(s.outputs(nes.apu())[4]) + "\n";
}

int run_rom(const RunRomOptions& o) {
    const AddressParser addr(o.labels);
    const auto bytes = read_file(o.file);
    auto nes = std::make_unique<Nes>(bytes);
    if (o.sample_rate && o.wav.empty()) throw UsageError("--sample-rate is for --wav");
    const int rate = o.sample_rate.value_or(48000);
    if (!o.wav.empty() || !o.sound_trace.empty()) nes->enable_sound(rate);  // from power-on (power_on() keeps it)
    const PowerOn mode = power_on_mode(o.power_on);
    std::optional<Fm2Movie> movie;
    if (!o.movie.empty()) {
        if (!o.input.empty()) throw UsageError("--input and --movie: give one of them");
        movie = load_movie(o.movie, nes->cartridge(), "run-rom");
        fm2_power_on(*nes, *movie, mode);
    } else if (mode != PowerOn::Hardware) {
        nes->power_on(mode);
    }
    std::vector<uint8_t> frames = parse_input(o.input);
    const uint64_t given = movie ? movie->frames.size() : frames.size();
    const uint64_t count = o.frames ? *o.frames : (given == 0 ? 60 : given);
    if (count > kMaxInputFrames) throw UsageError("--frames is larger than " + std::to_string(kMaxInputFrames));
    if (!o.wav.empty() && count > kMaxWavFrames)
        throw UsageError("--wav: at most " + std::to_string(kMaxWavFrames) + " frames (an hour), not " + std::to_string(count));
    frames.resize(count, 0);  // after the input: nothing pressed
    if (!o.watch.empty()) nes->watch_main_loop(addr(o.watch));
    // Every input is read: the outputs are checked now, not after the run.
    check_outputs({o.png, o.ram, o.ram_trace, o.wav, o.sound_trace});
    // The RAM trace goes to its file frame by frame (4 KiB a frame is never held in memory).
    std::optional<OutputFile> trace;
    if (!o.ram_trace.empty()) trace.emplace(o.ram_trace);
    std::optional<OutputFile> sound_trace;
    if (!o.sound_trace.empty()) sound_trace.emplace(o.sound_trace);
    // The sound goes to its file frame by frame as 16-bit samples (96 KB a second at 48 kHz).
    std::optional<WavWriter> wav;
    if (!o.wav.empty()) wav.emplace(o.wav, rate);
    const auto t0 = std::chrono::steady_clock::now();
    const uint64_t first_frame = nes->frame();
    RunStatus status = RunStatus::Reached;
    uint64_t ran = 0;
    std::vector<float> chunk;
    if (movie || !o.ram_trace.empty() || !o.wav.empty() || sound_trace) {
        Fm2Movie m = movie ? *movie : Fm2Movie{};
        if (!movie) {
            for (const uint8_t b : frames) m.frames.push_back(Fm2Frame{0, b});
        }
        m.frames.resize(count);  // after the movie: nothing pressed
        for (uint64_t i = 0; i < count && status == RunStatus::Reached; ++i) {
            status = movie ? run_fm2_frame(*nes, m, i) : (nes->set_buttons(m.frames[i].pad1), nes->run_frame());
            if (status == RunStatus::Reached) ++ran;
            if (trace) trace->write(std::to_string(i + 1) + " " + hex_bytes(nes->ram()) + "\n");
            if (!o.wav.empty() || sound_trace) {
                chunk.clear();
                nes->take_samples(chunk);  // (brings the sound up to date: the trace sees this frame's end)
                if (wav) wav->add(chunk);
            }
            if (sound_trace) sound_trace->write(sound_trace_line(i + 1, *nes));
        }
    } else {
        status = nes->run_frames(frames);
        ran = nes->frame() - first_frame;  // fewer than asked if the CPU stopped
    }
    const double secs = seconds_since(t0);
    if (trace) trace->commit();
    if (sound_trace) sound_trace->commit();

    char line[160];
    std::snprintf(line, sizeof line, "ran %llu frames, %llu CPU cycles in %.3f s (%.0f frames/s); PC=%s\n",
                  static_cast<unsigned long long>(movie ? ran : nes->frame()),
                  static_cast<unsigned long long>(nes->cycles()), secs,
                  secs > 0 ? static_cast<double>(ran) / secs : 0.0, hex(nes->cpu().pc(), 4).c_str());
    std::cout << line;
    if (!o.watch.empty()) {
        std::cout << "lag frames: " << nes->lag_frames() << " of " << nes->watched_frames()
                  << " (main loop " << hex(addr(o.watch), 4) << ")\n";
    }
    if (!o.png.empty()) {
        write_png(o.png, nes->screenshot());
        std::cout << "screenshot: " << o.png << "\n";
    }
    if (!o.ram.empty()) {
        write_file_atomically(o.ram, std::span<const uint8_t>(nes->ram().data(), nes->ram().size()));
        std::cout << "RAM (2 KiB, $0000-$07FF): " << o.ram << "\n";
    }
    if (wav) {
        wav->finish();
        std::cout << "sound: " << o.wav << ", " << wav->samples() << " samples at " << rate << " Hz ("
                  << static_cast<double>(wav->samples()) / rate << " s), 16-bit PCM mono\n";
    }
    if (status != RunStatus::Reached) {  // jammed, or code in unwritten PRG-RAM
        std::cerr << "nestris-ai run-rom: " << nes->stop_message(status) << "\n";
        return kExitFailed;
    }
    // Test ROMs in blargg's convention report at $6000: DE B0 61 at $6001 marks a report, $6000
    // is the status ($80 running, $81 wants a reset, else the result: 0 passed), $6004 the text.
    if (nes->peek(0x6001) == 0xDE && nes->peek(0x6002) == 0xB0 && nes->peek(0x6003) == 0x61) {
        const uint8_t code = nes->peek(0x6000);
        std::string text;
        for (uint16_t a = 0x6004; a < 0x8000 && nes->peek(a) != 0 && text.size() < 4096; ++a)
            text += static_cast<char>(nes->peek(a));
        char head[64];
        std::snprintf(head, sizeof head, "test ROM status $%02X: %s\n", code,
                      code == 0 ? "passed" : code == 0x80 ? "still running" : code == 0x81 ? "wants a reset" : "failed");
        std::cout << head << text << (text.empty() || text.back() == '\n' ? "" : "\n");
        return code == 0 ? kExitDone : kExitFailed;
    }
    return 0;
}

}  // namespace

void add_movie_options(CLI::App& c, std::string& movie, std::string& power_on) {
    c.add_option("--movie", movie,
                 "Play an FCEUX text movie (.fm2) from power-on instead of --input: frames in FCEUX's "
                 "sense (each runs from line 240 to line 240, its commands, soft reset and power, applied "
                 "first). A romChecksum that is not this ROM's is reported as a warning. Refused: PAL, "
                 "Four Score, Zapper, binary, savestate movies");
    c.add_option("--power-on", power_on,
                 "hardware (default): RAM zeroed, the PPU at the top of the picture, first vblank 241 "
                 "lines after power; fceux: FCEUX 2.6's power-on (its RAM pattern, two frames without "
                 "vblank, frames from line 240, no interrupt delay after a branch), so its movies replay "
                 "identically (emu-test/README.md)")
        ->check(CLI::IsMember({"hardware", "fceux"}));
}

PowerOn power_on_mode(const std::string& power_on) {
    return power_on == "fceux" ? PowerOn::Fceux : PowerOn::Hardware;
}

Fm2Movie load_movie(const std::string& path, const Cartridge& cart, const char* command) {
    // An .fm2 is text (a line of 15-23 bytes a frame): the text limit, not the binary one, so
    // that a long movie (1.2 M frames, 5.5 hours, is 18-28 MB) is not refused.
    const std::string text = read_text_file(path);
    Fm2Movie movie;
    try {
        movie = parse_fm2(text);
    } catch (const Fm2Error& e) {
        // A movie that cannot be played is a bad file, not a bad command line: a refusal (exit 1).
        throw Fm2Error(path + ": " + e.what());
    }
    const auto digest = fceux_rom_md5(cart);
    if (movie.rom_md5 && *movie.rom_md5 != digest) {
        std::cerr << "nestris-ai " << command << ": WARNING: the movie's romChecksum " << fm2_checksum_text(*movie.rom_md5)
                  << " is not this ROM's " << fm2_checksum_text(digest)
                  << " (MD5 of its PRG and CHR): the movie was made for another ROM; playing it anyway\n";
    } else if (movie.rom_md5) {
        std::cout << "movie: " << movie.frames.size() << " frames, romChecksum matches this ROM\n";
    } else {
        std::cout << "movie: " << movie.frames.size() << " frames, no romChecksum to check\n";
    }
    return movie;
}

void add_emu_commands(CLI::App& app) {
    {
        auto o = std::make_shared<RunBinOptions>();
        auto* c = app.add_subcommand(
            "run-bin",
            "Run a raw 6502 binary on a flat 64 KiB RAM machine until it traps in a one-instruction "
            "loop (JMP *, branch to itself); print the trap address and cycles. This is how the "
            "public 6502 functional test reports success or the failing test.");
        c->add_option("FILE", o->file, "the raw binary")->required();
        c->add_option("--load", o->load, "Load address (default 0)");
        c->add_option("--pc", o->pc, "Start address (default: the reset vector at $FFFC)");
        c->add_option("--success", o->success, "Expected trap address: exit code 0 only if the run traps there");
        c->add_option("--max-cycles", o->max_cycles, "Give up after this many cycles");
        c->callback([o] { run_command("nestris-ai run-bin", [o] { return run_bin(*o); }); });
    }
    {
        auto o = std::make_shared<TraceOptions>();
        auto* c = app.add_subcommand(
            "trace",
            "Print one line per instruction in the format of the nestest log (PC, bytes, "
            "disassembly, A X Y P SP, PPU line/dot, CYC). FILE is an iNES image (run on the NES "
            "machine from power-on) or a raw binary (flat 64 KiB machine; stops at a trap).");
        c->add_option("FILE", o->file, "an iNES image (ROM) or a raw binary")->required();
        c->add_option("--pc", o->pc, "Start here instead of the reset vector (nestest automation: C000)");
        c->add_option("--load", o->load, "Raw binary: load address (default 0)");
        c->add_option("--start-cycles", o->start_cycles, "Raw binary: initial cycle count");
        c->add_option("-n,--instructions", o->instructions,
                      "Instructions to trace (default 100000, at most 10^8: some 9 GB of text)")
            ->check(CLI::Range(uint64_t{0}, kMaxTraceInstructions));
        c->add_option("--skip-frames", o->skip_frames,
                      "iNES: run this many frames before tracing (at most " + std::to_string(kMaxInputFrames) + ")");
        c->add_option("--input", o->input, "iNES: input for the skipped frames (see run-rom)");
        add_movie_options(*c, o->movie, o->power_on);
        c->add_option("--labels", o->labels, "ld65 -Ln label file, so addresses can be names");
        c->add_option("-o,--output", o->output,
                      "Write the trace here instead of stdout (as it is made, published whole at the end)");
        c->callback([o] { run_command("nestris-ai trace", [o] { return trace(*o); }); });
    }
    {
        auto o = std::make_shared<RunRomOptions>();
        auto* c = app.add_subcommand(
            "run-rom",
            "Run an iNES image (mapper 0 or 1) headless for a number of frames with controller input, "
            "then save a screenshot and/or the 2 KiB of RAM.");
        c->add_option("ROM", o->file, "the iNES image")->required();
        c->add_option("--frames", o->frames,
                      "Frames to run (default: the input's or the movie's length, or 60; at most " +
                          std::to_string(kMaxInputFrames) + "); frames after the input have nothing pressed");
        c->add_option("--input", o->input,
                      "Buttons per frame: '.' none, L R U D A B S(tart) E(select), '+' combines "
                      "(A+L), '*N' repeats (L*5, .*60), '(...)' groups ((L.)*4)");
        c->add_option("--png", o->png, "Save the last frame as PNG");
        c->add_option("--ram", o->ram, "Save CPU RAM $0000-$07FF (2048 bytes)");
        c->add_option("--watch", o->watch, "Main-loop address: count frames in which it never ran (lag)");
        c->add_option("--labels", o->labels, "ld65 -Ln label file, so --watch can be a name");
        add_movie_options(*c, o->movie, o->power_on);
        c->add_option("--ram-trace", o->ram_trace,
                      "Write the 2 KiB of RAM after every frame, one line per frame: the frame number (from "
                      "1) and 4096 hex digits (the format of tools/scripts/fceux_check.lua), 4 KiB a frame");
        c->add_option("--wav", o->wav,
                      "Write the run's sound from power-on: 16-bit PCM mono WAV (the APU's five channels, "
                      "the console's mixer and filters; written as it is made, 96 KB a second at 48 kHz: at most " +
                          std::to_string(kMaxWavFrames) + " frames)");
        c->add_option("--sample-rate", o->sample_rate, "Sample rate of --wav in Hz (default 48000)")
            ->check(CLI::Range(8000, 192000));
        c->add_option("--sound-trace", o->sound_trace,
                      "Write what the sound channels play after every frame, one line per frame: the frame "
                      "number, pulse 1 volume and period, pulse 2's, triangle running and period, noise volume, "
                      "period index and mode, DMC level (the format of tests/fceux/fceux_sound.lua)");
        c->callback([o] { run_command("nestris-ai run-rom", [o] { return run_rom(*o); }); });
    }
}

}  // namespace nestris
