#include "emu-test/nes.hpp"

#include "emu-test/input.hpp"

#include "base/hex.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>

namespace nestris::emu {

// The CPU's view of the machine. Reads of PRG ROM, RAM and PRG-RAM, and writes of RAM and
// PRG-RAM, the bulk of all accesses, are inline; the rest goes through the machine's I/O
// handlers.
struct NesBus {
    Nes& nes;

    [[gnu::always_inline]] uint8_t read(uint16_t addr) const {
        if (addr >= 0x8000) return nes.prg_byte(addr);
        if (addr < 0x2000) return nes.s_.ram[addr & 0x7FF];
        if ((addr & 0xE000) == 0x6000 && nes.s_.prg_ram_on) return nes.s_.prg_ram[addr & nes.prg_ram_mask_];
        return nes.io_read(addr);
    }
    [[gnu::always_inline]] void write(uint16_t addr, uint8_t value) const {
        if (addr < 0x2000) {
            nes.s_.ram[addr & 0x7FF] = value;
            return;
        }
        if ((addr & 0xE000) == 0x6000 && nes.s_.prg_ram_on) {
            nes.s_.prg_ram[addr & nes.prg_ram_mask_] = value;
            nes.s_.prg_ram_written[addr & nes.prg_ram_mask_] = true;
            return;
        }
        nes.io_write(addr, value);
    }
    // The opcode fetch: read(), but code in PRG-RAM must have been written there first, else
    // the fetch is refused (-1). (With no PRG-RAM the mask is 0 and byte 0 is never marked: every
    // fetch there is refused.) The run loop sees the refusal as its target cycle dropping to 0.
    // ROM first, as in read(): code there pays nothing for the check.
    [[gnu::always_inline]] int fetch_opcode(uint16_t pc) const {
        if (pc >= 0x8000) [[likely]] return nes.prg_byte(pc);
        if (pc < 0x2000) return nes.s_.ram[pc & 0x7FF];
        if ((pc & 0xE000) == 0x6000 && !nes.s_.prg_ram_written[pc & nes.prg_ram_mask_]) [[unlikely]] {
            nes.refused_fetch_ = true;
            nes.run_target_ = 0;
            return -1;
        }
        return read(pc);
    }
    // An indexed instruction's read of the address before the carry: only the PPU registers and
    // the I/O page react to reads, so only there does it happen.
    void dummy_read(uint16_t addr) const {
        if (addr >= 0x2000 && addr < 0x4020) (void)nes.io_read(addr);
    }
    // Read-modify-write instructions write the old value, then the new one on the next cycle.
    // Registers see both; MMC1 ignores the second (it drops writes on consecutive cycles).
    void rmw_dummy_write(uint16_t addr, uint8_t old_value) const {
        if (addr < 0x2000 || (addr & 0xE000) == 0x6000) return;  // RAM, PRG-RAM: the real write follows at once
        nes.io_write(addr, old_value);
        if (addr >= 0x8000) nes.s_.mmc1_skip_write = true;
    }
    // The CPU asks, while entering BRK or IRQ, whether an NMI has come by cycle `count`.
    void sync_to(uint64_t count) const {
        if (nes.s_.ppu.catch_up(count, nes.s_.cpu)) nes.on_vblank();
    }
};

Nes::Nes(std::span<const uint8_t> ines_image) : Nes(parse_ines(ines_image)) {}

Nes::Nes(std::shared_ptr<const Cartridge> cart) : cart_(std::move(cart)) {
    if (!cart_ || (cart_->mapper != 0 && cart_->mapper != 1) || cart_->prg.empty() || cart_->prg.size() % 0x4000 ||
        cart_->chr.size() % 0x2000 || (cart_->mapper == 0 && (cart_->prg.size() > 0x8000 || cart_->chr.size() > 0x2000))) {
        throw InesError("Nes needs an NROM or MMC1 cartridge with whole PRG and CHR banks");
    }
    if (cart_->prg_ram_size > 0x2000 || (cart_->mapper == 0 && cart_->prg_ram_size != 0x2000) ||
        (!cart_->trainer.empty() && (cart_->trainer.size() != 512 || cart_->prg_ram_size == 0))) {
        throw InesError("Nes needs at most 8 KiB PRG-RAM (8 KiB on NROM), and some for a 512-byte trainer");
    }
    nrom_ = cart_->mapper == 0;
    prg_ = cart_->prg.data();
    prg_ram_mask_ = cart_->prg_ram_size ? static_cast<uint16_t>(std::bit_ceil(cart_->prg_ram_size) - 1) : 0;
    power_on();
}

void Nes::power_on(PowerOn mode) {
    // The sound so far is kept (a power cycle in a movie is heard as the console's would be:
    // what played until then, then silence as the new power-on starts).
    std::vector<float> heard;
    if (sound_.p) {
        s_.apu.run_to(s_.cpu.cycles(), sound_out());
        sound_.p->take_samples(heard);
    }
    power_mode_ = mode;
    s_ = NesState{};
    if (cart_->chr_ram()) s_.chr_ram.assign(0x2000, 0);
    for (size_t i = 0; i < cart_->trainer.size(); ++i) {  // at $7000, and counted as written
        const size_t at = (0x1000 + i) & prg_ram_mask_;
        s_.prg_ram[at] = cart_->trainer[i];
        s_.prg_ram_written[at] = true;
    }
    update_banks();
    s_.cpu.power_on();
    NesBus bus{*this};
    s_.cpu.reset(bus);
    if (mode == PowerOn::Fceux) {
        // FCEUX (fceu.cpp PowerNES, FCEU_MemoryRand with its default RAMInitOption 0; ppu.cpp
        // FCEUPPU_Reset sets ppudead = 2; x6502.cpp X6502_Power: timestamp 0, S = $FD, and a
        // reset that costs no cycles): the first instruction at line 240 dot 0.
        for (size_t i = 0; i < s_.ram.size(); ++i) s_.ram[i] = (i & 4) ? 0xFF : 0x00;
        s_.ppu.dead_vblanks = 2;
        s_.ppu.fceux = true;
        s_.cpu.set_branch_delays_interrupts(false);
        s_.cpu.set_cycles(kFceuxFirstCycle);
        // The APU's frame counter keeps its place relative to the first instruction (5 cycles
        // before it, as at a hardware power-on); FCEUX's own was not compared.
        s_.apu.seq_start = kFceuxFirstCycle - 5;
    }
    last_lagged_ = false;
    ppu_log_.clear();
    if (sound_.p) {
        sound_.p = std::make_unique<ApuSound>(sound_.p->sample_rate(), s_.cpu.cycles());
        sound_.p->keep_samples(std::move(heard));
    }
}

void Nes::enable_sound(int sample_rate) {
    auto sound = std::make_unique<ApuSound>(sample_rate, s_.cpu.cycles());  // throws on a bad rate
    s_.apu.run_to(s_.cpu.cycles(), sound_out());  // what came before is not heard
    sync_cpu_with_apu(s_.cpu.cycles());
    sound_.p = std::move(sound);
}

ApuSound* Nes::sound_out() {
    if (!sound_.p) return nullptr;
    // DMC samples are read like the CPU reads, without side effects (they live in $8000-$FFFF).
    sound_.p->set_reader([](const void* nes, uint16_t a) { return static_cast<const Nes*>(nes)->peek(a); }, this);
    return sound_.p.get();
}

void Nes::take_samples(std::vector<float>& into) {
    if (!sound_.p) return;
    const uint64_t now = s_.cpu.cycles();
    s_.apu.run_to(now, sound_out());
    sync_cpu_with_apu(now);
    sound_.p->take_samples(into);
}

void Nes::reset() {
    NesBus bus{*this};
    const uint8_t s = s_.cpu.s();
    s_.apu.reset(s_.cpu.cycles(), sound_out());
    sync_cpu_with_apu(s_.cpu.cycles());
    s_.cpu.reset(bus);
    Ppu& p = s_.ppu;
    p.ctrl = 0;
    p.mask = 0;
    p.w = false;
    p.read_buffer = 0;
    if (power_mode_ == PowerOn::Fceux) {
        // FCEUX's ResetNES: X6502_Reset (no cycles, S unchanged, P = I), FCEUPPU_Reset ($2000-
        // $2003, the latch, v and t cleared; two dead frames).
        s_.cpu.set_cycles(s_.cpu.cycles() - 7);
        s_.cpu.set_s(s);
        s_.cpu.set_p(0x24);
        p.status = 0;
        p.oam_addr = 0;
        p.v = p.t = 0;
        p.open_bus = 0;
        p.dead_vblanks = 2;
        p.odd = false;  // FCEUX's kook = 0: the first live frame after the dead ones is whole
    }
}

void Nes::restore(const NesState& state) {
    if (state.chr_ram.size() != s_.chr_ram.size()) {
        throw std::invalid_argument("Nes::restore: the snapshot is of a machine with another cartridge");
    }
    if (sound_.p) s_.apu.run_to(s_.cpu.cycles(), sound_out());  // the sound until now
    s_ = state;
    if (sound_.p) sound_.p->rebase(s_.cpu.cycles());
}

// ---- banking -----------------------------------------------------------------------------

void Nes::update_banks() {
    s_.prg_ram_on = nrom_ || (cart_->prg_ram_size != 0 && s_.mmc1.prg_ram_enabled());
    if (nrom_) {  // fixed: 32 KiB at $8000, or 16 KiB mirrored; 8 KiB CHR
        s_.prg_offset[0] = 0;
        s_.prg_offset[1] = cart_->prg.size() > 0x4000 ? 0x4000 : 0;
        s_.chr_offset[0] = 0;
        s_.chr_offset[1] = 0x1000;
        return;
    }
    unsigned lo = 0, hi = 0;
    s_.mmc1.prg_banks(static_cast<unsigned>(cart_->prg.size() / 0x4000), lo, hi);
    s_.prg_offset[0] = lo * 0x4000;
    s_.prg_offset[1] = hi * 0x4000;
    const size_t chr_size = cart_->chr_ram() ? s_.chr_ram.size() : cart_->chr.size();
    s_.mmc1.chr_banks(static_cast<unsigned>(chr_size / 0x1000), lo, hi);
    s_.chr_offset[0] = lo * 0x1000;
    s_.chr_offset[1] = hi * 0x1000;
}

VideoMap Nes::video_map() const {
    VideoMap m;
    const bool ram = cart_->chr_ram();
    const uint8_t* base = ram ? s_.chr_ram.data() : cart_->chr.data();
    for (int i = 0; i < 2; ++i) {
        m.chr[i] = base + s_.chr_offset[i];
        // Writable only for CHR RAM; the const_cast is for our own vector in s_.
        m.chr_ram[i] = ram ? const_cast<uint8_t*>(base) + s_.chr_offset[i] : nullptr;
    }
    m.mirroring = !nrom_ ? s_.mmc1.mirroring()
                         : cart_->vertical_mirroring ? Mirroring::Vertical : Mirroring::Horizontal;
    return m;
}

// ---- I/O -----------------------------------------------------------------------------------

void Nes::catch_up() {
    const uint64_t now = s_.cpu.cycles();
    if (s_.ppu.catch_up(now, s_.cpu)) on_vblank();
    if (now >= s_.apu.next_event()) {
        s_.apu.run_to(now, sound_out());
        sync_cpu_with_apu(now);
    }
}

// The CPU after the APU ran: halted for the DMC's DMA fetches (OAM DMA's rule for the interrupt
// poll), and its IRQ line following the APU's flags: a rise carries the cycle the flag was set
// in; a fall happens in cycle `now`, that of the access that cleared the flag.
void Nes::sync_cpu_with_apu(uint64_t now) {
    if (const uint32_t dma = s_.apu.take_dmc_stall()) s_.cpu.stall(dma);
    const bool want = s_.apu.irq();
    if (want == s_.cpu.irq_line()) return;
    if (want) {
        s_.cpu.raise_irq(s_.apu.irq_since() - 1);
    } else {
        s_.cpu.release_irq(now - 1);
    }
}

uint8_t Nes::apu_read_status() {
    const uint64_t now = s_.cpu.cycles();
    // A flag that rose earlier in this instruction reaches the CPU first, then the read clears
    // it in this cycle.
    s_.apu.run_to(now, sound_out());
    sync_cpu_with_apu(now);
    const uint8_t r = s_.apu.read_status(now, sound_out());
    // The flag a read cleared may be set again a cycle later (4-step mode, steps 4-5): the run
    // loop must stop there.
    run_target_ = std::min(run_target_, s_.apu.next_event());
    sync_cpu_with_apu(now);
    return r;
}

void Nes::apu_write(uint16_t addr, uint8_t value) {
    const uint64_t now = s_.cpu.cycles();
    s_.apu.run_to(now, sound_out());
    sync_cpu_with_apu(now);
    s_.apu.write(addr, value, now, sound_out());
    run_target_ = std::min(run_target_, s_.apu.next_event());
    sync_cpu_with_apu(now);
}

void Nes::on_vblank() {
    if (watch_pc_ > 0xFFFF) return;
    ++s_.watched_frames;
    last_lagged_ = !s_.watch_hit;
    if (last_lagged_) ++s_.lag_frames;
    s_.watch_hit = false;
}

uint8_t Nes::io_read(uint16_t addr) {
    if (addr < 0x4000) {
        catch_up();
        return s_.ppu.read_register(addr & 7, s_.cpu.cycles(), s_.cpu, video_map());
    }
    if (addr < 0x4020) {
        switch (addr) {
        case 0x4015: return apu_read_status();  // bit 5 is open bus: 0 from the address's $40
        case 0x4016: return s_.pad1.read();
        case 0x4017: return 0x40;  // nothing plugged into port 2
        default: return 0x40;      // write-only APU registers: open bus
        }
    }
    if (addr >= 0x6000 && s_.prg_ram_on) return s_.prg_ram[addr & prg_ram_mask_];
    return static_cast<uint8_t>(addr >> 8);
}

void Nes::io_write(uint16_t addr, uint8_t value) {
    if (addr < 0x4000) {
        catch_up();
        const unsigned reg = addr & 7;
        const uint16_t vram_addr = s_.ppu.v & 0x3FFF;
        s_.ppu.write_register(reg, value, s_.cpu.cycles(), s_.cpu, video_map());
        if (log_ppu_writes_) log_write(static_cast<uint16_t>(0x2000 + reg), value, vram_addr);
        return;
    }
    if (addr < 0x4020) {
        if (addr == 0x4014) oam_dma(value);
        else if (addr == 0x4016) s_.pad1.write_strobe(value);
        else apu_write(addr, value);
        return;
    }
    if (addr < 0x6000) return;
    if (addr < 0x8000) {  // (the bus writes enabled PRG-RAM itself; this is for the others)
        if (s_.prg_ram_on) {
            s_.prg_ram[addr & prg_ram_mask_] = value;
            s_.prg_ram_written[addr & prg_ram_mask_] = true;
        }
        return;
    }
    cart_write(addr, value);
}

void Nes::cart_write(uint16_t addr, uint8_t value) {
    if (nrom_) return;  // no registers: ROM
    if (s_.mmc1_skip_write) {
        s_.mmc1_skip_write = false;
        return;
    }
    s_.mmc1.write(addr, value);
    update_banks();
}

void Nes::oam_dma(uint8_t page) {
    catch_up();
    NesBus bus{*this};
    Ppu& p = s_.ppu;
    for (unsigned i = 0; i < 256; ++i) {
        p.oam[(p.oam_addr + i) & 0xFF] = bus.read(static_cast<uint16_t>((page << 8) | i));
    }
    if (log_ppu_writes_) log_write(0x4014, page, 0);
    // The console halts the CPU 513 cycles, 514 from an odd cycle; FCEUX (ppu.cpp B4014: 256
    // reads and 256 writes of a cycle each) 512.
    s_.cpu.stall(power_mode_ == PowerOn::Fceux ? 512 : 513 + static_cast<uint32_t>(s_.cpu.cycles() & 1));
}

void Nes::log_write(uint16_t reg, uint8_t value, uint16_t vram_addr) {
    PpuWrite w;
    w.frame = s_.ppu.frame;
    int line = 0, dot = 0;
    s_.ppu.position(s_.cpu.cycles(), line, dot);
    w.scanline = static_cast<uint16_t>(line);
    w.dot = static_cast<uint16_t>(dot);
    w.reg = reg;
    w.value = value;
    w.vram_addr = reg == 0x2007 ? vram_addr : 0;
    ppu_log_.push_back(w);
}

uint8_t Nes::peek(uint16_t addr) const {
    if (addr >= 0x8000) return prg_byte(addr);
    if (addr < 0x2000) return s_.ram[addr & 0x7FF];
    if (addr < 0x4000) return s_.ppu.peek_register(addr & 7, video_map());
    if (addr < 0x4020) {
        if (addr == 0x4016) return s_.pad1.peek();
        if (addr == 0x4017) return 0x40;
        return 0xFF;  // APU/IO registers are shown as $FF, as the nestest log does
    }
    if (addr >= 0x6000 && s_.prg_ram_on) return s_.prg_ram[addr & prg_ram_mask_];
    return static_cast<uint8_t>(addr >> 8);
}

// ---- running -------------------------------------------------------------------------------

template <bool kHook>
RunStatus Nes::run_loop(uint64_t cycle_limit, uint32_t stop_pc, bool stop_at_vblank) {
    NesBus bus{*this};
    const uint64_t vblanks_before = s_.ppu.vblanks;
    // Copies: bus writes are byte stores that could alias members, so locals stay in registers.
    const uint32_t watch = watch_pc_;
    const bool skip_idle_loops = skip_idle_loops_;
    refused_fetch_ = false;
    for (;;) {
        // The next PPU or APU event: an APU register access may bring it closer (run_target_).
        run_target_ = std::min({cycle_limit, s_.ppu.next_event_cycle(), s_.apu.next_event()});
        while (s_.cpu.cycles() < run_target_) {
            const uint16_t pc = s_.cpu.pc();
            if (pc == stop_pc) [[unlikely]] return RunStatus::Reached;
            if (pc == watch) s_.watch_hit = true;
            if constexpr (kHook) {
                hook_(*this);
                s_.cpu.step(bus);
            } else {
                s_.cpu.step(bus);
                // A short jump back may close a loop that waits for the NMI (Tetris spends most
                // of a frame in one): skip its iterations up to the next event.
                if (static_cast<uint16_t>(pc - s_.cpu.pc()) <= kIdleLoopMaxBytes && skip_idle_loops) [[unlikely]] {
                    skip_idle_loop(pc, run_target_, stop_pc);
                }
            }
        }
        catch_up();
        if (refused_fetch_) [[unlikely]] return RunStatus::UnwrittenCode;  // (its fetch_opcode ended the loop)
        if (s_.cpu.jammed()) return RunStatus::Jammed;
        if (stop_at_vblank && s_.ppu.vblanks != vblanks_before) return RunStatus::Reached;
        if (s_.cpu.cycles() >= cycle_limit) {
            return stop_at_vblank || stop_pc <= 0xFFFF ? RunStatus::CycleLimit : RunStatus::Reached;
        }
    }
}

namespace {

// The CPU's view of memory while it is tried on a loop: ROM and RAM read as they are (peek),
// anything else (registers, writes) marks the loop as not idle.
struct ProbeBus {
    const Nes& nes;
    bool touched_outside = false;

    uint8_t read(uint16_t addr) {
        if (addr >= 0x8000 || addr < 0x2000) return nes.peek(addr);
        touched_outside = true;
        return 0;
    }
    void write(uint16_t, uint8_t) { touched_outside = true; }
};

}  // namespace

// An idle loop is one whose iteration leaves the CPU as it found it, reads only RAM and ROM and
// writes nothing: until an event (the PPU's, or the run's own limit) nothing can change, so
// running n more iterations is the same as adding n iterations' cycles. One iteration is run
// on a copy of the CPU to prove that, and enough iterations are left to run for real that the
// event arrives in one of them exactly as it would have.
void Nes::skip_idle_loop(uint16_t branch_pc, uint64_t target, uint32_t stop_pc) {
    Cpu6502& cpu = s_.cpu;
    const uint16_t loop_pc = cpu.pc();
    if (!cpu.quiet() || (stop_pc >= loop_pc && stop_pc <= branch_pc)) return;
    // A loop found busy is usually busy on its next iterations too: it is not tried again for a
    // while (a wrong guess costs only speed), so a busy loop costs a trial now and then, not one
    // per iteration.
    const uint32_t key = static_cast<uint32_t>(branch_pc) << 16 | loop_pc;
    BusyLoop& busy = busy_loops_[(loop_pc ^ branch_pc) % busy_loops_.size()];
    if (busy.key == key && cpu.cycles() < busy.until) return;
    const uint64_t start = cpu.cycles();
    ProbeBus probe{*this};
    Cpu6502 trial = cpu;
    for (int i = 0; i < kIdleLoopMaxInstructions; ++i) {
        trial.step(probe);
        if (probe.touched_outside || trial.pc() < loop_pc || trial.pc() > branch_pc) break;
        if (trial.pc() == loop_pc) break;
    }
    if (probe.touched_outside || trial.pc() != loop_pc || trial.regs() != cpu.regs()) {
        busy = {key, start + kBusyLoopRetryCycles};
        return;
    }
    const uint64_t per_iteration = trial.cycles() - start;
    if (target <= start + 2 * per_iteration) return;
    const uint64_t skipped = (target - start - 1) / per_iteration - 1;
    cpu.set_cycles(start + skipped * per_iteration);
    skipped_cycles_ += skipped * per_iteration;
}

RunStatus Nes::run(uint64_t cycle_limit, uint32_t stop_pc, bool stop_at_vblank) {
    return hook_ ? run_loop<true>(cycle_limit, stop_pc, stop_at_vblank)
                 : run_loop<false>(cycle_limit, stop_pc, stop_at_vblank);
}

RunStatus Nes::step() {
    if (s_.cpu.pc() == watch_pc_) s_.watch_hit = true;
    if (hook_) hook_(*this);
    refused_fetch_ = false;
    NesBus bus{*this};
    s_.cpu.step(bus);
    catch_up();
    if (refused_fetch_) return RunStatus::UnwrittenCode;
    return s_.cpu.jammed() ? RunStatus::Jammed : RunStatus::Reached;
}

std::string Nes::stop_message(RunStatus s) const {
    switch (s) {
    case RunStatus::UnwrittenCode:
        return "the CPU ran code at " + hex(s_.cpu.pc(), 4) + " in PRG-RAM that was never written";
    case RunStatus::Jammed: return "the CPU jammed at " + hex(s_.cpu.pc(), 4);
    case RunStatus::Reached:
    case RunStatus::CycleLimit: break;
    }
    return to_string(s);
}

RunStatus Nes::run_frame() {
    return run(std::numeric_limits<uint64_t>::max(), 0x10000, true);
}

RunStatus Nes::run_frames(std::span<const uint8_t> buttons_per_frame) {
    for (const uint8_t b : buttons_per_frame) {
        set_buttons(b);
        const RunStatus s = run_frame();
        if (s != RunStatus::Reached) return s;
    }
    return RunStatus::Reached;
}

RunStatus Nes::run_frames(uint64_t n, uint8_t buttons) {
    set_buttons(buttons);
    for (uint64_t i = 0; i < n; ++i) {
        const RunStatus s = run_frame();
        if (s != RunStatus::Reached) return s;
    }
    return RunStatus::Reached;
}

RunStatus Nes::run_input(std::string_view input) {
    const std::vector<uint8_t> frames = parse_input(input);
    return run_frames(frames);
}

RunStatus Nes::run_until_pc(uint16_t pc, uint64_t max_cycles) {
    const uint64_t now = cycles();
    const uint64_t limit = max_cycles > std::numeric_limits<uint64_t>::max() - now
                               ? std::numeric_limits<uint64_t>::max()
                               : now + max_cycles;
    if (s_.cpu.pc() == pc) return RunStatus::Reached;
    return run(limit, pc, false);
}

RunStatus Nes::run_cycles(uint64_t n) {
    const uint64_t now = cycles();
    const uint64_t limit = n > std::numeric_limits<uint64_t>::max() - now
                               ? std::numeric_limits<uint64_t>::max()
                               : now + n;
    return run(limit, 0x10000, false);
}

void Nes::watch_main_loop(std::optional<uint16_t> addr) {
    watch_pc_ = addr ? *addr : 0x10000u;
    s_.watch_hit = false;
    s_.lag_frames = 0;
    s_.watched_frames = 0;
    last_lagged_ = false;
}

// ---- pictures -------------------------------------------------------------------------------

void Nes::screenshot(Image& out) const { s_.ppu.render(video_map(), out); }

Image Nes::screenshot() const { return s_.ppu.render(video_map()); }

}  // namespace nestris::emu
