#include "nes.hpp"

#include "input.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace nestris::emu {

// The CPU's view of the machine. Reads of PRG and RAM, the bulk of all accesses, are inline;
// the rest goes through the machine's I/O handlers.
struct NesBus {
    Nes& nes;

    uint8_t read(uint16_t addr) const {
        if (addr >= 0x8000) return nes.prg_[nes.s_.prg_offset[(addr >> 14) & 1] + (addr & 0x3FFF)];
        if (addr < 0x2000) return nes.s_.ram[addr & 0x7FF];
        return nes.io_read(addr);
    }
    void write(uint16_t addr, uint8_t value) const {
        if (addr < 0x2000) {
            nes.s_.ram[addr & 0x7FF] = value;
            return;
        }
        nes.io_write(addr, value);
    }
    // An indexed instruction's read of the address before the carry: only the PPU registers and
    // the I/O page react to reads, so only there does it happen.
    void dummy_read(uint16_t addr) const {
        if (addr >= 0x2000 && addr < 0x4020) (void)nes.io_read(addr);
    }
    // Read-modify-write instructions write the old value, then the new one on the next cycle.
    // Registers see both; MMC1 ignores the second (it drops writes on consecutive cycles).
    void rmw_dummy_write(uint16_t addr, uint8_t old_value) const {
        if (addr < 0x2000) return;  // RAM: the real write follows at once
        nes.io_write(addr, old_value);
        if (addr >= 0x8000) nes.s_.mmc1_skip_write = true;
    }
};

Nes::Nes(std::span<const uint8_t> ines_image) : Nes(parse_ines(ines_image)) {}

Nes::Nes(std::shared_ptr<const Cartridge> cart) : cart_(std::move(cart)) {
    if (!cart_ || (cart_->mapper != 0 && cart_->mapper != 1) || cart_->prg.empty() || cart_->prg.size() % 0x4000 ||
        cart_->chr.size() % 0x2000 || (cart_->mapper == 0 && (cart_->prg.size() > 0x8000 || cart_->chr.size() > 0x2000))) {
        throw InesError("Nes needs an NROM or MMC1 cartridge with whole PRG and CHR banks");
    }
    nrom_ = cart_->mapper == 0;
    prg_ = cart_->prg.data();
    power_on();
}

void Nes::power_on(PowerOn mode) {
    power_mode_ = mode;
    s_ = NesState{};
    if (cart_->chr_ram()) s_.chr_ram.assign(0x2000, 0);
    if (!cart_->trainer.empty()) {
        std::copy(cart_->trainer.begin(), cart_->trainer.end(), s_.prg_ram.begin() + 0x1000);
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
        s_.cpu.set_cycles(kFceuxFirstCycle);
    }
    last_lagged_ = false;
    ppu_log_.clear();
}

void Nes::reset() {
    NesBus bus{*this};
    const uint8_t s = s_.cpu.s();
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
    s_ = state;
}

// ---- banking -----------------------------------------------------------------------------

void Nes::update_banks() {
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
    if (s_.ppu.catch_up(s_.cpu.cycles(), s_.cpu)) on_vblank();
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
        case 0x4015: return 0x00;  // APU status: no channel playing, no IRQ
        case 0x4016: return s_.pad1.read();
        case 0x4017: return 0x40;  // nothing plugged into port 2
        default: return 0x40;      // write-only APU registers: open bus
        }
    }
    if (addr >= 0x6000 && prg_ram_enabled()) return s_.prg_ram[addr - 0x6000];
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
        return;  // APU registers: no sound here
    }
    if (addr < 0x6000) return;
    if (addr < 0x8000) {
        if (prg_ram_enabled()) s_.prg_ram[addr - 0x6000] = value;
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
    s_.cpu.stall(513 + static_cast<uint32_t>(s_.cpu.cycles() & 1));
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
    if (addr >= 0x8000) return prg_[s_.prg_offset[(addr >> 14) & 1] + (addr & 0x3FFF)];
    if (addr < 0x2000) return s_.ram[addr & 0x7FF];
    if (addr < 0x4000) return s_.ppu.peek_register(addr & 7, video_map());
    if (addr < 0x4020) {
        if (addr == 0x4016) return s_.pad1.peek();
        if (addr == 0x4017) return 0x40;
        return 0xFF;  // APU/IO registers are shown as $FF, as the nestest log does
    }
    if (addr >= 0x6000 && prg_ram_enabled()) return s_.prg_ram[addr - 0x6000];
    return static_cast<uint8_t>(addr >> 8);
}

// ---- running -------------------------------------------------------------------------------

template <bool kHook>
RunStatus Nes::run_loop(uint64_t cycle_limit, uint32_t stop_pc, bool stop_at_vblank) {
    NesBus bus{*this};
    const uint64_t vblanks_before = s_.ppu.vblanks;
    // Copies: bus writes are byte stores that could alias members, so locals stay in registers.
    const uint32_t watch = watch_pc_;
    for (;;) {
        const uint64_t target = std::min(cycle_limit, s_.ppu.next_event_cycle());
        while (s_.cpu.cycles() < target) {
            const uint16_t pc = s_.cpu.pc();
            if (pc == stop_pc) [[unlikely]] return RunStatus::Reached;
            if (pc == watch) s_.watch_hit = true;
            if constexpr (kHook) hook_(*this);
            s_.cpu.step(bus);
        }
        catch_up();
        if (s_.cpu.jammed()) return RunStatus::Jammed;
        if (stop_at_vblank && s_.ppu.vblanks != vblanks_before) return RunStatus::Reached;
        if (s_.cpu.cycles() >= cycle_limit) {
            return stop_at_vblank || stop_pc <= 0xFFFF ? RunStatus::CycleLimit : RunStatus::Reached;
        }
    }
}

RunStatus Nes::run(uint64_t cycle_limit, uint32_t stop_pc, bool stop_at_vblank) {
    return hook_ ? run_loop<true>(cycle_limit, stop_pc, stop_at_vblank)
                 : run_loop<false>(cycle_limit, stop_pc, stop_at_vblank);
}

void Nes::step() {
    if (s_.cpu.pc() == watch_pc_) s_.watch_hit = true;
    if (hook_) hook_(*this);
    NesBus bus{*this};
    s_.cpu.step(bus);
    catch_up();
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
