// The NES: CPU, 2 KiB RAM, PPU, APU (a timer; sound on request, apu_sound.hpp), MMC1
// cartridge, controller 1; frame-accurate, headless.
//
// What the machine models and how closely (the memory map and what its reads return, PRG-RAM and
// the code run from it, OAM DMA, the interrupts' timing, the APU's) is said once, in
// emu-test/README.md ("The NES machine", "PRG-RAM"), not here as well.
//
// Frames: a frame ends when the PPU starts vertical blank (line 241 dot 1). run_frame() stops
// right there, with the NMI (if enabled) pending, so: buttons set before run_frame() are what
// the NMI handler of that frame's vblank reads next, and a screenshot taken between frames
// shows the picture that was just displayed.
//
// State: everything that changes is in NesState (nes_state.hpp), a plain value: snapshot() copies
// it, restore() puts it back, == compares two machines. The cartridge is shared and immutable.
#pragma once

#include "emu-test/apu.hpp"
#include "emu-test/apu_sound.hpp"
#include "emu-test/cartridge.hpp"
#include "emu-test/controller.hpp"
#include "emu-test/cpu.hpp"
#include "emu-test/flat_machine.hpp"  // RunStatus
#include "emu-test/nes_state.hpp"
#include "emu-test/ppu.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nestris::emu {

class Nes {
public:
    // Throws InesError for an image it cannot run (see parse_ines).
    explicit Nes(std::span<const uint8_t> ines_image);
    explicit Nes(std::shared_ptr<const Cartridge> cart);

    // Cold start: RAM, VRAM, OAM, palette and PRG RAM zeroed (real consoles start with
    // garbage; zero makes runs reproducible), no PRG-RAM byte written but the trainer's (the
    // battery's contents are not kept), MMC1 at its power-on state, then the CPU reset
    // sequence (7 cycles: the first instruction runs at CPU cycle 7, PPU line 0 dot 21).
    // PowerOn::Fceux: the CPU cycle count of the first instruction, line 240 dot 0 (the clock
    // still counts 3 dots a cycle from line 0 dot 0 of a frame before it).
    static constexpr uint64_t kFceuxFirstCycle = 240 * Ppu::kDotsPerLine / 3;  // 27 280
    // PowerOn::Fceux: FCEUX's power-on instead (see PowerOn); reset() then follows FCEUX too.
    void power_on(PowerOn mode = PowerOn::Hardware);
    PowerOn power_on_mode() const { return power_mode_; }
    // The reset button: CPU reset sequence, PPU $2000/$2001 and latches cleared; RAM, VRAM,
    // PRG-RAM (and its written record) and MMC1 keep their contents, as on the console.
    void reset();

    // ---- running ------------------------------------------------------------------------------
    // Every run stops with RunStatus::Jammed when the CPU is halted, and with UnwrittenCode
    // (PC there, nothing of the instruction run) when the CPU is about to fetch an opcode from
    // a PRG-RAM byte never written since power-on: stop_message() says which and where.
    //
    // One CPU instruction (or interrupt entry), then the PPU is brought up to date. Reached,
    // or why not.
    RunStatus step();
    // Runs to the start of the next vertical blank.
    RunStatus run_frame();
    // Runs one frame per element with those buttons held on controller 1.
    RunStatus run_frames(std::span<const uint8_t> buttons_per_frame);
    // Runs n frames holding `buttons`.
    RunStatus run_frames(uint64_t n, uint8_t buttons = 0);
    // Runs frames from an input string (see input.hpp); throws InputError if it is malformed.
    RunStatus run_input(std::string_view input);
    // Runs until PC == pc (before that instruction runs), at most max_cycles more cycles.
    RunStatus run_until_pc(uint16_t pc, uint64_t max_cycles);
    // Runs exactly until at least `cycles` more CPU cycles have elapsed.
    RunStatus run_cycles(uint64_t cycles);
    // A run's end said for a person, with the address where there is one: "the CPU ran code at
    // $6123 in PRG-RAM that was never written", "the CPU jammed at $8123"; else to_string(s).
    std::string stop_message(RunStatus s) const;

    // ---- controller -----------------------------------------------------------------------------
    void set_buttons(uint8_t buttons) { s_.pad1.buttons = buttons; }
    uint8_t buttons() const { return s_.pad1.buttons; }

    // ---- memory ---------------------------------------------------------------------------------
    std::span<uint8_t, 0x800> ram() { return s_.ram; }
    std::span<const uint8_t, 0x800> ram() const { return s_.ram; }
    // The console's RAM ($0000-$1FFF, mirrored) or, at $6000-$7FFF, the cartridge's PRG-RAM when
    // the header declares it (a write there counts as written; without PRG-RAM it reads 0 and
    // writes nothing). No side effects: for harnesses and debuggers.
    uint8_t read_ram(uint16_t addr) const {
        if ((addr & 0xE000) == 0x6000) return cart_->prg_ram_size ? s_.prg_ram[addr & prg_ram_mask_] : 0;
        return s_.ram[addr & 0x7FF];
    }
    void write_ram(uint16_t addr, uint8_t value) {
        if ((addr & 0xE000) == 0x6000) {
            if (!cart_->prg_ram_size) return;
            s_.prg_ram[addr & prg_ram_mask_] = value;
            s_.prg_ram_written[addr & prg_ram_mask_] = true;
            return;
        }
        s_.ram[addr & 0x7FF] = value;
    }
    // The CPU address space without side effects (PPU/controller registers show their state).
    uint8_t peek(uint16_t addr) const;
    // Whether the PRG-RAM byte that $6000-$7FFF address `addr` maps to was written since
    // power-on (false when the cartridge has no PRG-RAM).
    bool prg_ram_written(uint16_t addr) const {
        return cart_->prg_ram_size != 0 && s_.prg_ram_written[addr & prg_ram_mask_];
    }
    // At an interrupt handler's first instruction: the return address the interrupt pushed
    // (P, then PC, on the stack), that is the instruction it interrupted.
    uint16_t interrupted_pc() const {
        const auto stack = [&](int i) { return read_ram(static_cast<uint16_t>(0x100 + ((s_.cpu.s() + i) & 0xFF))); };
        return static_cast<uint16_t>(stack(2) | stack(3) << 8);
    }
    // The NMI handler's address (the cartridge's vector at $FFFA).
    uint16_t nmi_vector() const { return static_cast<uint16_t>(peek(0xFFFA) | peek(0xFFFB) << 8); }
    // An interrupt's own cycles before its handler's first instruction: cycles() there, less
    // this, is when the interrupted instruction ended.
    static constexpr uint64_t kInterruptCycles = 7;

    // ---- state ----------------------------------------------------------------------------------
    Cpu6502& cpu() { return s_.cpu; }
    const Cpu6502& cpu() const { return s_.cpu; }
    const Ppu& ppu() const { return s_.ppu; }
    Ppu& ppu() { return s_.ppu; }
    // The APU as of its last update (it runs lazily: registers bring it up to date).
    const Apu& apu() const { return s_.apu; }
    const Mmc1& mmc1() const { return s_.mmc1; }
    const Cartridge& cartridge() const { return *cart_; }
    uint64_t cycles() const { return s_.cpu.cycles(); }
    // Vertical blanks since power-on: the number of frames completed.
    uint64_t frame() const { return s_.ppu.vblanks; }
    // PPU line (0-261) and dot (0-340) now.
    void ppu_position(int& scanline, int& dot) const { s_.ppu.position(cycles(), scanline, dot); }

    const NesState& snapshot() const { return s_; }
    void restore(const NesState& state);
    bool operator==(const Nes& o) const { return s_ == o.s_; }

    // ---- pictures -------------------------------------------------------------------------------
    Image screenshot() const;
    void screenshot(Image& out) const;

    // ---- instrumentation ----------------------------------------------------------------------
    // Lag frames: a frame (vblank to vblank) in which the CPU never executed `addr` (the game's
    // main loop) counts as lagged. Counting starts now; pass nothing to stop.
    void watch_main_loop(std::optional<uint16_t> addr);
    uint64_t lag_frames() const { return s_.lag_frames; }
    uint64_t watched_frames() const { return s_.watched_frames; }
    // True when the frame that ended last was a lag frame (only while watching).
    bool last_frame_lagged() const { return last_lagged_; }

    // Called before every instruction with the machine (tracing, breakpoints, coverage).
    // Costs nothing when not set.
    void set_instruction_hook(std::function<void(const Nes&)> hook) { hook_ = std::move(hook); }
    // Idle loops (a few instructions that wait, reading RAM, for the NMI) are skipped up to the
    // next event instead of run; the machine's state at every event is the same either way
    // (tests/emu compare the two). On by default; hooks see every instruction regardless.
    void set_skip_idle_loops(bool on) { skip_idle_loops_ = on; }
    bool skip_idle_loops() const { return skip_idle_loops_; }
    // CPU cycles skipped so far (not part of the state: a run that skips equals one that does not).
    uint64_t skipped_cycles() const { return skipped_cycles_; }
    // Records every PPU register write and OAM DMA while enabled.
    void log_ppu_writes(bool enable) { log_ppu_writes_ = enable; }
    const std::vector<PpuWrite>& ppu_writes() const { return ppu_log_; }
    void clear_ppu_writes() { ppu_log_.clear(); }

    // Where the PPU's pattern tables and nametables are now.
    VideoMap video_map() const;

    // ---- sound ----------------------------------------------------------------------------------
    // Off by default: nothing is synthesized. enable_sound(rate) starts making samples at
    // `rate` Hz from now (the channels as the registers written from now on set them; from
    // power-on if called before the first frame; power_on() keeps it on, from its cycle 0).
    // Sound is an output, not part of the state: snapshots and == ignore it; restore() lets it go
    // on from the restored cycle with its channels as they were (the next register writes set
    // them); power_on() keeps the samples not yet taken.
    void enable_sound(int sample_rate);
    void disable_sound() { sound_.p.reset(); }
    bool sound_enabled() const { return sound_.p != nullptr; }
    // Brings the sound up to the current cycle and appends the samples made since the last call
    // (floats, about -1..1) to `into`. Nothing when sound is off.
    void take_samples(std::vector<float>& into);
    // The synthesizer itself (channel outputs and periods, for tests), or nullptr.
    const ApuSound* sound() const { return sound_.p.get(); }
    ApuSound* sound() { return sound_.p.get(); }

private:
    friend struct NesBus;
    std::shared_ptr<const Cartridge> cart_;
    bool nrom_ = false;  // mapper 0: fixed banks, no registers, 8 KiB PRG RAM at $6000 (as test boards have)
    // PRG-RAM's size - 1, rounded up to a power of two (0 when there is none): the window
    // $6000-$7FFF mirrors it.
    uint16_t prg_ram_mask_ = 0x1FFF;
    // Set when the CPU refused an opcode fetch from unwritten PRG-RAM (the bus's fetch_opcode);
    // cleared as a run starts. Not state: the machine stays at that PC and refuses again.
    bool refused_fetch_ = false;
    const uint8_t* prg_ = nullptr;  // cart_->prg.data(), read on every opcode fetch
    uint8_t prg_byte(uint16_t addr) const { return prg_[s_.prg_offset[(addr >> 14) & 1] + (addr & 0x3FFF)]; }
    NesState s_;
    uint32_t watch_pc_ = 0x10000;   // > $FFFF: not watching
    bool last_lagged_ = false;
    PowerOn power_mode_ = PowerOn::Hardware;
    bool log_ppu_writes_ = false;
    bool skip_idle_loops_ = true;
    uint64_t skipped_cycles_ = 0;
    // Loops found busy, by (branch << 16 | loop address), not tried again before `until`.
    struct BusyLoop {
        uint32_t key = 0xFFFFFFFF;  // no (branch, loop) pair has it
        uint64_t until = 0;
    };
    static constexpr uint64_t kBusyLoopRetryCycles = 4096;
    std::array<BusyLoop, 64> busy_loops_{};
    std::vector<PpuWrite> ppu_log_;
    std::function<void(const Nes&)> hook_;
    uint64_t run_target_ = 0;  // the run loop's next stop: the nearest PPU/APU event or the limit
    SoundSlot sound_;  // on (see enable_sound): told of everything the APU does
    ApuSound* sound_out();  // the synthesizer, its reader set to this machine; nullptr if off

    void update_banks();
    void catch_up();
    void on_vblank();
    void sync_cpu_with_apu(uint64_t now);
    uint8_t apu_read_status();
    void apu_write(uint16_t addr, uint8_t value);
    uint8_t io_read(uint16_t addr);
    void io_write(uint16_t addr, uint8_t value);
    void cart_write(uint16_t addr, uint8_t value);
    void log_write(uint16_t reg, uint8_t value, uint16_t vram_addr);
    void oam_dma(uint8_t page);
    // Idle loops (see skip_idle_loop): at most this many bytes and instructions.
    static constexpr uint16_t kIdleLoopMaxBytes = 8;
    static constexpr int kIdleLoopMaxInstructions = 4;
    void skip_idle_loop(uint16_t branch_pc, uint64_t target, uint32_t stop_pc);
    template <bool kHook>
    RunStatus run_loop(uint64_t cycle_limit, uint32_t stop_pc, bool stop_at_vblank);
    RunStatus run(uint64_t cycle_limit, uint32_t stop_pc, bool stop_at_vblank);
};

}  // namespace nestris::emu
