// The NES: CPU, 2 KiB RAM, PPU, APU (a timer; sound on request, apu_sound.hpp), MMC1
// cartridge, controller 1; frame-accurate, headless.
//
// CPU memory map: $0000-$1FFF RAM (2 KiB, mirrored), $2000-$3FFF PPU registers (mirrored
// every 8), $4000-$4013/$4015/$4017 APU (frame counter, frame IRQ, length counters, DMC; sound if enabled),
// $4014 OAM DMA, $4016 controller 1 (strobe/serial), $4017 reads: controller 2 (nothing
// connected), $6000-$7FFF PRG-RAM as the header declares it (Cartridge::prg_ram_size: up to
// 8 KiB, a smaller size mirrored; always 8 KiB on NROM), while MMC1 enables it (MMC1B: PRG
// register bit 4 set disables it), $8000-$FFFF PRG ROM via MMC1 (fixed on NROM). $4015 reads the
// APU status (bit 5 open bus: 0); the write-only APU registers, unmapped space and $6000-$7FFF
// without (enabled) PRG-RAM read the open-bus approximation "high byte of the address", and
// writes there do nothing.
//
// Code in PRG-RAM: NesState records which PRG-RAM bytes were written since power-on (the
// trainer's count as written); when the CPU is about to fetch an opcode from $6000-$7FFF at a
// byte never written, it does not, and the run stops with RunStatus::UnwrittenCode at that PC
// (stop_message: "the CPU ran code at $6123 in PRG-RAM that was never written"). The check is
// at the opcode fetch, after any interrupt entry; operand bytes and data are not checked.
//
// OAM DMA ($4014) copies 256 bytes and halts the CPU 513 cycles, 514 when the write cycle
// ended on an odd CPU cycle count; an interrupt arriving during it waits for the instruction
// after it. Indexed instructions make their dummy read of the address before the carry (where
// it matters: PPU and I/O registers, $4015 included).
//
// Interrupts: NMI from the PPU, IRQ from the APU's frame counter (a level: the flag stays until
// $4015 is read or $4017 inhibits it) and from the DMC at a sample's end. Each byte the DMC
// fetches halts the CPU 4 cycles. The CPU polls at the end of an instruction's
// next-to-last cycle (a taken branch within its page: one cycle earlier); CLI/SEI/PLP act one
// instruction late, RTI at once; an NMI by the 4th cycle of a BRK or IRQ sequence takes its
// vector over; a handler's first instruction always runs. The APU runs lazily: its next frame
// IRQ is one of the run loop's events, like the PPU's, and registers bring it up to date.
//
// Frames: a frame ends when the PPU starts vertical blank (line 241 dot 1). run_frame() stops
// right there, with the NMI (if enabled) pending, so: buttons set before run_frame() are what
// the NMI handler of that frame's vblank reads next, and a screenshot taken between frames
// shows the picture that was just displayed.
//
// State: everything that changes is in NesState, a plain value: snapshot() copies it,
// restore() puts it back, == compares two machines. The cartridge is shared and immutable.
#pragma once

#include "emu-test/apu.hpp"
#include "emu-test/apu_sound.hpp"
#include "emu-test/cartridge.hpp"
#include "emu-test/controller.hpp"
#include "emu-test/cpu.hpp"
#include "emu-test/flat_machine.hpp"  // RunStatus
#include "emu-test/mmc1.hpp"
#include "emu-test/ppu.hpp"

#include <array>
#include <bitset>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nestris::emu {

struct NesState {
    Cpu6502 cpu;
    Ppu ppu;
    Apu apu;
    Mmc1 mmc1;
    Controller pad1;
    std::array<uint8_t, 0x800> ram{};
    std::array<uint8_t, 0x2000> prg_ram{};  // the first Cartridge::prg_ram_size bytes are used
    // The PRG-RAM bytes written since power-on (by the CPU, or loaded from the trainer): the CPU
    // is stopped before it runs an opcode from any other (RunStatus::UnwrittenCode).
    std::bitset<0x2000> prg_ram_written;
    std::vector<uint8_t> chr_ram;  // 8 KiB when the cartridge has no CHR ROM
    // Derived from mmc1 on every register write (byte offsets into PRG/CHR; whether $6000-$7FFF
    // is PRG-RAM now: the cartridge has some and MMC1 enables it, or NROM).
    uint32_t prg_offset[2] = {0, 0};
    uint32_t chr_offset[2] = {0, 0};
    bool prg_ram_on = false;
    bool mmc1_skip_write = false;  // the write after a read-modify-write's dummy write
    // Lag-frame bookkeeping (see Nes::watch_main_loop).
    bool watch_hit = false;
    uint64_t lag_frames = 0;
    uint64_t watched_frames = 0;

    bool operator==(const NesState&) const = default;
};

// How the machine comes out of power-on (and of the reset button).
//   Hardware: what the console does, as far as reproducible: RAM zeroed; the PPU at the top of
//     the picture (CPU cycle 0 = line 0 dot 0), so the first vblank flag comes 241 lines after
//     power (~27 394 CPU cycles; nesdev measures ~27 384); 7-cycle reset sequence.
//   Fceux: what FCEUX 2.6 (its default, old PPU) does, so a .fm2 movie from power-on replays
//     identically: RAM $00 $00 $00 $00 $FF $FF $FF $FF repeated; the first instruction at line
//     240 dot 0, i.e. at the start of FCEUX's frame, which runs line 240 to line 239; the first
//     two frames "dead" (no vblank flag, no NMI: FCEUX's ppudead), so the first vblank flag is
//     set 525 lines (59 675 CPU cycles) after power, two frames later than on hardware; a reset
//     takes no cycles and leaves S alone, sets P to I only, clears the PPU's registers, v and t,
//     and makes the next two frames dead again; odd frames one dot shorter with rendering on or
//     off; no $2002/vblank race; the NMI 12 dots after the flag; a taken branch does not delay
//     an interrupt. See emu-test/README.md.
enum class PowerOn { Hardware, Fceux };

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
    // Sound on (see enable_sound): told of everything the APU does. A copy of the machine is
    // silent (the sound is an output, like a speaker, not part of the machine).
    struct SoundSlot {
        std::unique_ptr<ApuSound> p;
        SoundSlot() = default;
        SoundSlot(const SoundSlot&) {}
        SoundSlot(SoundSlot&&) = default;
        SoundSlot& operator=(const SoundSlot&) {
            p.reset();
            return *this;
        }
        SoundSlot& operator=(SoundSlot&&) = default;
    } sound_;
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
