#include "game_harness.hpp"

#include "ai_player.hpp"
#include "cart_loop.hpp"
#include "opcodes.hpp"
#include "patch.hpp"
#include "player.hpp"
#include "ram_map.hpp"
#include "state_io.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace nestris::game {
namespace button = emu::button;

uint16_t ai_mode_address() {
    static const uint16_t address = shipped_cart().require("ai_mode");
    return address;
}

GameRoms make_game_roms(std::span<const uint8_t> file, const CartImage& cart) {
    PatchedRom p = patch_rom(file, cart);
    return {std::move(p.original), std::move(p.bytes)};
}

// ---- the driver ----------------------------------------------------------------------------
// The game keeps buttons as A=$80 ... Right=$01 (the order it shifts them in); the pad's bits
// (emu::button) are the other way round.
uint8_t pad_from_game(uint8_t game_buttons) {
    uint8_t pad = 0;
    for (int i = 0; i < 8; ++i)
        if (game_buttons & (1u << i)) pad = static_cast<uint8_t>(pad | (0x80u >> i));
    return pad;
}

GameDriver::GameDriver(DriverOptions options) : options_(options), rng_(options.seed) {}
GameDriver::~GameDriver() = default;
GameDriver::GameDriver(GameDriver&&) noexcept = default;
GameDriver& GameDriver::operator=(GameDriver&&) noexcept = default;

uint32_t GameDriver::roll(uint32_t n) { return static_cast<uint32_t>(rng_() % n); }

uint8_t GameDriver::next(const emu::Nes& nes) {
    const uint8_t mode = nes.read_ram(tetris::gameMode);
    if (mode != last_mode_) {
        last_mode_ = mode;
        in_mode_ = 0;
        plan_frame_ = 0;
        script_.clear();
    } else {
        ++in_mode_;
    }
    uint8_t b = 0;
    if (!script_.empty()) {
        b = script_.front();
        script_.pop_front();
    } else {
        b = mode == tetris::GAME_MODE_PLAY ? play(nes) : menu(mode, nes);
    }
    return b;
}

// One new press of `b`, released for a frame before (menus react to presses, not holds). The
// press lasts three frames, as a person's does: it counts once, and a movie replayed on another
// emulator whose frames start a little earlier or later still presses at the same moment.
void GameDriver::press(uint8_t b, uint8_t held) {
    script_.push_back(held);
    for (int i = 0; i < 3; ++i) script_.push_back(static_cast<uint8_t>(held | b));
    script_.push_back(held);
}

uint8_t GameDriver::menu(uint8_t mode, const emu::Nes& nes) {
    if (in_mode_ == 0) {
        wait_for_demo_ = false;
        switch (mode) {
        case tetris::GAME_MODE_LEGAL: plan_frame_ = roll(2) ? 1 + roll(320) : 1000; break;
        case tetris::GAME_MODE_TITLE:
            // The first title always waits for the demo, so every run covers it at least once.
            wait_for_demo_ = options_.watch_demo && (stats_.demos == 0 || roll(4) == 0);
            plan_frame_ = 5 + roll(400);
            break;
        case tetris::GAME_MODE_DEMO:
            ++stats_.demos;
            plan_frame_ = roll(2) ? 60 + roll(4000) : ~uint64_t{0};
            break;
        case tetris::GAME_MODE_GAME_TYPE:
        case tetris::GAME_MODE_LEVEL_MENU:
            menu_moves_ = static_cast<int>(roll(7));
            plan_frame_ = 4 + roll(30);
            break;
        default: plan_frame_ = ~uint64_t{0}; break;
        }
    }
    if (in_mode_ < plan_frame_) return 0;
    switch (mode) {
    case tetris::GAME_MODE_LEGAL:
    case tetris::GAME_MODE_TITLE:
        if (wait_for_demo_) return 0;
        press(button::Start);
        plan_frame_ = in_mode_ + 20 + roll(80);  // if it did not take, again later
        return 0;
    case tetris::GAME_MODE_DEMO:
        press(button::Start);
        plan_frame_ = ~uint64_t{0};
        return 0;
    case tetris::GAME_MODE_GAME_TYPE:
    case tetris::GAME_MODE_LEVEL_MENU: {
        const bool level_menu = mode == tetris::GAME_MODE_LEVEL_MENU;
        if (menu_moves_ > 0) {
            --menu_moves_;
            static constexpr uint8_t kMoves[] = {button::Left, button::Right, button::Up, button::Down, button::A};
            // A toggles level/height on the B-Type level menu; elsewhere it does nothing.
            press(kMoves[roll(level_menu && nes.read_ram(tetris::gameType) ? 5 : 4)]);
            plan_frame_ = in_mode_ + 3 + roll(25);
            return 0;
        }
        if (roll(10) == 0) {  // back to the previous screen
            press(button::B);
        } else if (!level_menu && menu_moves_ == 0) {  // choose the game type, then Start
            // Either at random, but a run's third game is B-Type if none was: every run covers
            // B-Type, whatever the AI's games before it did to the random choices.
            const bool b_type = roll(2) == 0 || (stats_.b_type_games == 0 && stats_.games >= 2);
            press(b_type ? button::Right : button::Left);
            menu_moves_ = -1;
            plan_frame_ = in_mode_ + 3 + roll(25);
            return 0;
        } else {
            uint8_t held = 0;
            if (level_menu && roll(10) < 3) held |= button::A;  // +10 levels
            if (level_menu && options_.select_in_level_menu) held |= button::Select;
            press(button::Start, held);
        }
        plan_frame_ = in_mode_ + 30 + roll(60);
        return 0;
    }
    default:
        return 0;
    }
}

uint8_t GameDriver::play(const emu::Nes& nes) {
    const uint8_t render = nes.read_ram(tetris::renderMode);
    const uint8_t state = nes.read_ram(tetris::player1_playState);
    const uint8_t mode_state = nes.read_ram(tetris::gameModeState);
    if (in_mode_ == 0) {  // a new game
        ++stats_.games;
        if (nes.read_ram(tetris::gameType)) ++stats_.b_type_games;
        ai_ = std::make_unique<ai::AiPlayer>(ai::default_tables(), nes.read_ram(tetris::gameType) != 0);
        pieces_ = 0;
        // Most games end soon; one in four goes on long enough for high scores and endings.
        give_up_at_ = options_.give_up_min +
                      static_cast<int>(roll(static_cast<uint32_t>(options_.give_up_max - options_.give_up_min + 1)));
        if (roll(4) == 0) give_up_at_ = 150 + static_cast<int>(roll(300));
        last_render_mode_ = render;
        wait_ = 0;
    }
    stats_.max_level = std::max<uint64_t>(stats_.max_level, nes.read_ram(tetris::levelNumber));
    const uint64_t lines = (nes.read_ram(tetris::lines) & 0x0F) + 10 * (nes.read_ram(tetris::lines) >> 4) +
                           100 * static_cast<uint64_t>(nes.read_ram(tetris::lines + 1) & 0x0F);
    stats_.max_lines = std::max(stats_.max_lines, lines);
    const bool render_changed = render != last_render_mode_;
    last_render_mode_ = render;

    // Screens inside the play mode: high-score entry (renderMode 2), endings (4), the pause (0).
    if (render == 2) {
        if (render_changed) {
            ++stats_.high_score_entries;
            wait_ = 20 + roll(150);
        }
        if (wait_ > 0) {
            --wait_;
            if (roll(6) == 0) {
                static constexpr uint8_t kKeys[] = {button::Up, button::Down, button::Left, button::Right, button::A, button::B};
                press(kKeys[roll(6)]);
            }
            return 0;
        }
        press(button::Start);
        wait_ = 60;
        return 0;
    }
    if (render == 4) {
        if (render_changed) {
            ++stats_.endings;
            wait_ = 100 + roll(900);
        }
        if (wait_ > 0 && --wait_ > 0) return 0;
        press(button::Start);
        wait_ = 60 + roll(200);
        return 0;
    }
    if (render == 0 && mode_state == 7) {  // paused
        if (render_changed) wait_ = 10 + roll(200);
        if (wait_ > 0 && --wait_ > 0) return 0;
        press(button::Start);
        wait_ = 100;
        return 0;
    }
    if (render != 3) return 0;

    if (state == tetris::PLAY_STATE_CURTAIN) {
        if (nes.read_ram(tetris::player1_curtainRow) != tetris::CURTAIN_DOWN) return 0;
        if (wait_ == 0) {
            ++stats_.curtains;
            wait_ = 1 + roll(150);
        }
        if (--wait_ > 0) return 0;
        press(button::Start);
        wait_ = 0;
        return 0;
    }

    // The pieces: the reference AI sees every frame (so it follows the pieces), but some pieces
    // and every piece after the give-up point get random buttons instead.
    uint8_t b = 0;
    try {
        const std::span<const uint8_t, kCpuRamSize> ram(nes.ram().data(), kCpuRamSize);
        b = pad_from_game(ai_->buttons(view_of(from_ram(ram))));
    } catch (const std::exception&) {
        b = 0;
    }
    if (state == 1 && last_play_state_ != 1) {
        ++pieces_;
        junk_piece_ = pieces_ > give_up_at_ || static_cast<int>(roll(100)) < options_.junk_piece_percent;
    }
    last_play_state_ = state;
    if (junk_piece_ && state == 1) {
        static constexpr uint8_t kJunk[] = {0, button::Left, button::Right, button::A, button::B, button::Down,
                                            button::Left | button::A, button::Right | button::B};
        b = roll(3) == 0 ? kJunk[roll(8)] : held_;
    }
    if (state == 1) {  // now and then something else
        const uint32_t r = roll(20000);
        if (r < 12) {
            ++stats_.pauses;
            press(button::Start);
            return 0;
        } else if (r < 25) {
            press(button::Select, b & static_cast<uint8_t>(~button::Select));
            return 0;
        } else if (r < 30) {
            script_.push_back(button::Right | button::Left | button::Down);
        } else if (r < 31) {
            ++stats_.resets;
            script_.push_back(button::A | button::B | button::Select | button::Start);
            script_.push_back(0);
            return 0;
        }
    }
    held_ = b;
    return b;
}

// ---- the access trace ----------------------------------------------------------------------
std::string access_kind_name(uint8_t kind) {
    std::string s;
    if (kind & kExecute) s += "execute";
    if (kind & kRead) s += s.empty() ? "read" : "+read";
    if (kind & kWrite) s += s.empty() ? "write" : "+write";
    return s;
}

std::string AccessSite::describe() const {
    char b[200];
    std::snprintf(b, sizeof b,
                  "%s: %s of $%04X-$%04X by the instruction at $%04X, %llu times from frame %llu "
                  "(gameMode %u, gameModeState %u, playState %u)",
                  range.c_str(), access_kind_name(kind).c_str(), lowest, highest, pc,
                  static_cast<unsigned long long>(count), static_cast<unsigned long long>(first_frame),
                  game_mode, game_mode_state, play_state);
    return b;
}

AccessTrace::AccessTrace(std::vector<WatchedRange> watched, std::vector<EntryCheck> entries)
    : ranges_(std::move(watched)), range_of_(0x10000, 0), touched_(0x10000, 0), entries_(std::move(entries)), span_of_(0x10000, 0) {
    if (ranges_.size() > 254 || entries_.size() > 254) throw std::invalid_argument("AccessTrace: too many ranges");
    for (size_t i = 0; i < ranges_.size(); ++i)
        for (uint32_t addr = ranges_[i].first; addr <= ranges_[i].last; ++addr)
            range_of_[addr] = static_cast<uint8_t>(i + 1);
    for (size_t i = 0; i < entries_.size(); ++i)
        for (uint32_t addr = entries_[i].first; addr <= entries_[i].last; ++addr)
            span_of_[addr] = static_cast<uint8_t>(i + 1);
}

void AccessTrace::attach(emu::Nes& nes) {
    nes.set_instruction_hook([this](const emu::Nes& n) { on_instruction(n); });
}

void AccessTrace::touch(const emu::Nes& nes, uint16_t addr, uint8_t kind) {
    if (addr < 0x2000) addr &= 0x07FF;  // RAM mirrors
    if (addr >= 0x8000 && (kind & kWrite)) {  // an MMC1 register, not the ROM byte
        ++mapper_writes_;
        kind &= static_cast<uint8_t>(~kWrite);
        if (!kind) return;
    }
    const uint8_t r = range_of_[addr];
    if (!r) return;
    touched_[addr] |= kind;
    const uint8_t mode = nes.read_ram(tetris::gameMode), mode_state = nes.read_ram(tetris::gameModeState),
                  play_state = nes.read_ram(tetris::playState);
    const uint16_t pc = nes.cpu().pc();
    AccessSite& s = sites_[{r, pc, kind, mode, mode_state, play_state}];
    if (s.count == 0) {
        s.range = ranges_[r - 1].name;
        s.pc = pc;
        s.kind = kind;
        s.game_mode = mode;
        s.game_mode_state = mode_state;
        s.play_state = play_state;
        s.first_frame = nes.frame();
    }
    ++s.count;
    s.lowest = std::min(s.lowest, addr);
    s.highest = std::max(s.highest, addr);
}

void AccessTrace::on_instruction(const emu::Nes& nes) {
    ++instructions_;
    const emu::Cpu6502& cpu = nes.cpu();
    const uint16_t pc = cpu.pc();
    const uint8_t opcode = nes.peek(pc);
    if (const uint8_t span = span_of_[pc]; span && span_of_[prev_pc_] != span && instructions_ > 1) {
        const EntryCheck& e = entries_[span - 1];
        const bool allowed = std::find(e.allowed.begin(), e.allowed.end(), pc) != e.allowed.end() ||
                             prev_opcode_ == 0x60 || prev_opcode_ == 0x40;  // RTS, RTI
        if (!allowed) {
            ForeignEntry& f = foreign_[{prev_pc_, pc}];
            if (f.count++ == 0) {
                f.span = e.name;
                f.from = prev_pc_;
                f.to = pc;
                f.first_frame = nes.frame();
            }
        }
    }
    prev_pc_ = pc;
    prev_opcode_ = opcode;
    const emu::OpcodeInfo& info = emu::kOpcodes[opcode];
    const int length = emu::instruction_length(info.mode);
    for (int i = 0; i < length; ++i) touch(nes, static_cast<uint16_t>(pc + i), kExecute);
    const uint8_t lo = nes.peek(static_cast<uint16_t>(pc + 1)), hi = nes.peek(static_cast<uint16_t>(pc + 2));
    const uint16_t abs = static_cast<uint16_t>(lo | hi << 8);
    auto zp_word = [&](uint8_t z) {
        touch(nes, z, kRead);
        touch(nes, static_cast<uint8_t>(z + 1), kRead);
        return static_cast<uint16_t>(nes.peek(z) | nes.peek(static_cast<uint8_t>(z + 1)) << 8);
    };
    std::optional<uint16_t> ea;
    switch (info.mode) {
    case emu::Mode::Zp: ea = lo; break;
    case emu::Mode::Zpx: ea = static_cast<uint8_t>(lo + cpu.x()); break;
    case emu::Mode::Zpy: ea = static_cast<uint8_t>(lo + cpu.y()); break;
    case emu::Mode::Abs:
        if (info.op != emu::Op::JMP && info.op != emu::Op::JSR) ea = abs;
        break;
    case emu::Mode::Abx: ea = static_cast<uint16_t>(abs + cpu.x()); break;
    case emu::Mode::Aby: ea = static_cast<uint16_t>(abs + cpu.y()); break;
    case emu::Mode::Ind:  // JMP (abs): the pointer's two bytes, with the 6502's page wrap
        touch(nes, abs, kRead);
        touch(nes, static_cast<uint16_t>((abs & 0xFF00) | ((abs + 1) & 0xFF)), kRead);
        break;
    case emu::Mode::Izx: ea = zp_word(static_cast<uint8_t>(lo + cpu.x())); break;
    case emu::Mode::Izy: ea = static_cast<uint16_t>(zp_word(lo) + cpu.y()); break;
    default: break;
    }
    if (!ea) return;
    switch (emu::access_of(info.op)) {
    case emu::Access::Read: touch(nes, *ea, kRead); break;
    case emu::Access::Write:
        touch(nes, *ea, kWrite);
        if (*ea == 0x4014) {  // OAM DMA reads a page
            const uint8_t page = info.op == emu::Op::STX ? cpu.x() : info.op == emu::Op::STY ? cpu.y() : cpu.a();
            for (unsigned i = 0; i < 256; ++i) touch(nes, static_cast<uint16_t>(page << 8 | i), kRead);
        }
        break;
    case emu::Access::ReadModifyWrite: touch(nes, *ea, kRead | kWrite); break;
    case emu::Access::None: break;
    }
}

std::vector<ForeignEntry> AccessTrace::foreign_entries() const {
    std::vector<ForeignEntry> out;
    for (const auto& [key, f] : foreign_) out.push_back(f);
    return out;
}

std::vector<AccessSite> AccessTrace::sites() const {
    std::vector<AccessSite> out;
    for (const auto& [key, site] : sites_) out.push_back(site);
    std::sort(out.begin(), out.end(), [](const AccessSite& x, const AccessSite& y) {
        return std::tie(x.range, x.lowest, x.pc) < std::tie(y.range, y.lowest, y.pc);
    });
    return out;
}

// ---- identity ------------------------------------------------------------------------------
RamExclusions ai_owned_ram(const CartImage& cart) {
    RamExclusions e;
    for (const CartRegion& r : cart.regions)
        if (r.is_ram) e.ranges.emplace_back(r.start, static_cast<uint16_t>(r.start + r.size - 1));
    return e;
}

namespace {

// The level-menu hint: the copy list's header (PPU address, length) sits right before its text.
struct HintWrites {
    uint16_t vram = 0;
    unsigned length = 0;
};
HintWrites hint_writes(const CartImage& cart) {
    const uint16_t text = cart.require("hint_text");
    for (const CartSegment* seg : cart.rom_segments()) {
        if (text >= seg->address + 3 && text < seg->address + seg->bytes.size()) {
            const size_t i = text - seg->address;
            return {static_cast<uint16_t>(seg->bytes[i - 3] << 8 | seg->bytes[i - 2]), seg->bytes[i - 1]};
        }
    }
    throw std::runtime_error("hint_text is not in a ROM segment");
}

// Removes the hint's writes ($2006 hi, $2006 lo, $2000, then one $2007 per tile) if present.
void strip_hint(std::vector<emu::PpuWrite>& w, const HintWrites& h) {
    const size_t n = 3 + h.length;
    for (size_t i = 0; i + n <= w.size(); ++i) {
        if (w[i].reg != 0x2006 || w[i].value != (h.vram >> 8) || w[i + 1].reg != 0x2006 ||
            w[i + 1].value != (h.vram & 0xFF) || w[i + 2].reg != 0x2000)
            continue;
        bool all = true;
        for (unsigned k = 0; k < h.length && all; ++k)
            all = w[i + 3 + k].reg == 0x2007 && w[i + 3 + k].vram_addr == h.vram + k;
        if (all) {
            w.erase(w.begin() + static_cast<std::ptrdiff_t>(i), w.begin() + static_cast<std::ptrdiff_t>(i + n));
            return;
        }
    }
}

std::string hex(unsigned v, int digits) {
    char b[16];
    std::snprintf(b, sizeof b, "$%0*X", digits, v);
    return b;
}

}  // namespace

std::optional<std::string> compare_frame(const emu::Nes& original, const emu::Nes& patched,
                                         const RamExclusions& exclusions,
                                         std::span<const emu::PpuWrite> original_writes,
                                         std::vector<emu::PpuWrite> patched_writes, const CartImage& cart) {
    const unsigned stack_top = 0x100u + original.cpu().s();  // dead at and below
    for (unsigned addr = 0; addr < 0x800; ++addr) {
        if (addr >= 0x100 && addr <= stack_top) continue;
        bool excluded = false;
        for (const auto& [first, last] : exclusions.ranges) excluded |= addr >= first && addr <= last;
        if (excluded) continue;
        const uint8_t x = original.read_ram(static_cast<uint16_t>(addr)), y = patched.read_ram(static_cast<uint16_t>(addr));
        if (x != y)
            return "RAM " + hex(addr, 4) + ": original " + hex(x, 2) + ", patched " + hex(y, 2);
    }
    static const HintWrites hint = hint_writes(cart);
    strip_hint(patched_writes, hint);
    const size_t n = std::min(original_writes.size(), patched_writes.size());
    for (size_t i = 0; i < n; ++i) {
        const emu::PpuWrite& x = original_writes[i];
        const emu::PpuWrite& y = patched_writes[i];
        if (x.reg != y.reg || x.value != y.value || x.vram_addr != y.vram_addr)
            return "PPU write " + std::to_string(i) + ": original " + hex(x.reg, 4) + "=" + hex(x.value, 2) +
                   " (VRAM " + hex(x.vram_addr, 4) + "), patched " + hex(y.reg, 4) + "=" + hex(y.value, 2) +
                   " (VRAM " + hex(y.vram_addr, 4) + ")";
    }
    if (original_writes.size() != patched_writes.size())
        return "PPU writes: original " + std::to_string(original_writes.size()) + ", patched " +
               std::to_string(patched_writes.size());
    return std::nullopt;
}

IdentityResult run_identity(const GameRoms& roms, const CartImage& cart, const DriverOptions& options,
                            uint64_t frames, std::vector<uint8_t>* buttons_out) {
    const RamExclusions exclusions = ai_owned_ram(cart);
    emu::Nes x(roms.original), y(roms.patched);
    x.log_ppu_writes(true);
    y.log_ppu_writes(true);
    GameDriver driver(options);
    IdentityResult r;
    const uint16_t vbi = tetris::verticalBlankingInterval;
    for (uint64_t f = 0; f < frames; ++f) {
        const uint8_t b = driver.next(x);
        if (buttons_out) buttons_out->push_back(b);
        x.set_buttons(b);
        y.set_buttons(b);
        x.run_frame();
        y.run_frame();
        ++r.frames;
        ++r.frames_per_mode[x.read_ram(tetris::gameMode)];
        if (y.read_ram(ai_mode_address()) != 0) {
            r.mismatch = "frame " + std::to_string(f) + ": the patched game switched the AI on";
            break;
        }
        // Compare where both main loops wait for the NMI (verticalBlankingInterval cleared);
        // a frame that ends while a game is still busy (screen changes with the NMI off) is
        // compared at the next one, with the PPU writes of both frames.
        if (x.read_ram(vbi) != 0 || y.read_ram(vbi) != 0) continue;
        r.ppu_writes += x.ppu_writes().size();
        if (auto m = compare_frame(x, y, exclusions, x.ppu_writes(), y.ppu_writes(), cart)) {
            char where[120];
            std::snprintf(where, sizeof where, "frame %llu (gameMode %u, gameModeState %u, playState %u): ",
                          static_cast<unsigned long long>(f), x.read_ram(tetris::gameMode),
                          x.read_ram(tetris::gameModeState), x.read_ram(tetris::playState));
            r.mismatch = where + *m;
            break;
        }
        ++r.compared_frames;
        x.clear_ppu_writes();
        y.clear_ppu_writes();
    }
    r.stats = driver.stats();
    return r;
}

std::string menu_walk_input(const MenuWalk& w) {
    if (w.level < 0 || w.level > 19) throw std::invalid_argument("the start level is 0-19 (10-19 with the A trick)");
    if (w.height < 0 || w.height > 5) throw std::invalid_argument("the B-Type height is 0-5");
    std::string s = ".*" + std::to_string(300 + std::max(0, w.title_wait)) + " S .*20 S .*20 ";
    if (w.b_type) s += "R .*5 ";
    s += "S .*20 ";
    const int base = w.level % 10;
    if (base >= 5) s += "D .*3 ";
    for (int i = 0; i < base % 5; ++i) s += "R .*3 ";
    if (w.b_type && w.height > 0) {
        s += "A .*3 ";  // to the height selection
        if (w.height >= 3) s += "D .*3 ";
        for (int i = 0; i < w.height % 3; ++i) s += "R .*3 ";
    }
    std::string held = w.ai ? "E" : "";
    if (w.level >= 10) held = held.empty() ? "A" : "A+" + held;
    if (held.empty()) return s + "S .";
    return s + held + "*3 " + held + "+S .";  // and let go
}

namespace {

// The first line where two states' texts differ (the mismatch's description).
std::string state_difference(const GameState& real, const GameState& loop) {
    std::istringstream a(state_to_text(real)), b(state_to_text(loop));
    std::string la, lb;
    while (true) {
        const bool more_a = static_cast<bool>(std::getline(a, la)), more_b = static_cast<bool>(std::getline(b, lb));
        if (!more_a && !more_b) return "the states differ";
        if (la != lb) return "real game: '" + la + "', loop: '" + lb + "'";
    }
}

}  // namespace

std::string describe_end(const AiGameComparison& c) {
    switch (c.end) {
    case AiGameComparison::End::Curtain: return "game over (the curtain)";
    case AiGameComparison::End::FramesRanOut: return "frames ran out";
    case AiGameComparison::End::Crash: return "CRASH: " + c.end_detail;
    case AiGameComparison::End::Unreadable: return "ERROR: cannot read the game's state: " + c.end_detail;
    }
    return "?";
}

AiGameComparison compare_ai_game_with_loop(std::span<const uint8_t> patched_rom, const CartImage& cart,
                                           const MenuWalk& walk, uint64_t max_frames) {
    emu::Nes nes(patched_rom);
    nes.run_input(menu_walk_input(walk));
    nes.set_buttons(0);
    const uint16_t idle_entry = cart.require("ai_idle"), late_plans = cart.require("late_plans");
    const uint16_t nmi_entry = static_cast<uint16_t>(nes.peek(0xFFFA) | nes.peek(0xFFFB) << 8);
    constexpr uint64_t kInterruptCycles = 7;  // the NMI's own cycles before its handler's first instruction

    // Frame boundaries of the real game: the state at ai_idle's entry, then the idle time to the NMI.
    struct Boundary {
        GameState state;
        uint8_t late_plans = 0;
        uint32_t idle = 0;
        bool idle_known = false;
    };
    std::deque<Boundary> pending;
    uint64_t idle_from = 0;
    uint64_t nmis_since_boundary = 0;
    bool in_play = false, ended = false, curtain_seen = false;
    AiGameComparison out;
    auto end_with = [&](AiGameComparison::End why, std::string detail) {
        if (ended) return;
        ended = true;
        out.end = why;
        out.end_detail = std::move(detail);
    };
    nes.set_instruction_hook([&](const emu::Nes& n) {
        const uint16_t pc = n.cpu().pc();
        if (ended) return;
        if (pc < 0x8000 && in_play) {  // the game's code is all in ROM: this is a jump gone wrong
            end_with(AiGameComparison::End::Crash, "the CPU executes RAM at " + hex(pc, 4));
        } else if (pc == idle_entry) {
            nmis_since_boundary = 0;
            const auto ram = n.ram();
            const bool playing = ram[tetris::gameMode] == tetris::GAME_MODE_PLAY;
            if (!playing) {
                // Back in the menus: after the curtain that is the game's end, otherwise the game
                // was thrown out of play (a crash that reset it).
                if (in_play)
                    end_with(curtain_seen ? AiGameComparison::End::Curtain : AiGameComparison::End::Crash,
                             curtain_seen ? "" : "the game left play without its curtain (game mode " +
                                                     std::to_string(ram[tetris::gameMode]) + ")");
                return;
            }
            try {
                pending.push_back({from_ram(n.ram()), n.read_ram(late_plans)});
                idle_from = n.cycles();
                in_play = true;
                curtain_seen = curtain_seen || pending.back().state.playState == play_state::Curtain;
            } catch (const std::runtime_error& e) {
                // Mid-game menus and animations (the high-score entry, an ending) are not play
                // states; anything else is a state the model cannot read: say which.
                if (in_play && !curtain_seen) end_with(AiGameComparison::End::Unreadable, e.what());
            }
        } else if (pc == nmi_entry) {
            if (!pending.empty() && !pending.back().idle_known) {
                pending.back().idle = static_cast<uint32_t>(n.cycles() - kInterruptCycles - idle_from);
                pending.back().idle_known = true;
            }
            if (in_play && ++nmis_since_boundary > 120)
                end_with(AiGameComparison::End::Crash, "no frame boundary in 120 frames (the game froze)");
        }
    });

    std::optional<tools::CartridgeInTheLoop> loop;
    uint32_t next_idle = 0;
    tools::CartLoopOptions options;
    options.idle_source = [&next_idle] { return next_idle; };
    uint8_t last_late = 0, last_count = 0;
    double idle_sum = 0;
    for (uint64_t f = 0; f < max_frames + 600 && !out.mismatch && !out.game_over; ++f) {
        nes.run_frame();
        while (!pending.empty() && pending.front().idle_known && !out.mismatch) {
            const Boundary b = pending.front();
            pending.pop_front();
            if (!loop) {  // the first frame of play: the loop starts from it (its task from scratch)
                loop.emplace(b.state, options);
                last_late = b.late_plans;
                last_count = b.state.spawnCount;
                out.idle_min = out.idle_max = b.idle;
                continue;
            }
            next_idle = b.idle;
            loop->frame();
            ++out.frames;
            out.idle_min = std::min(out.idle_min, b.idle);
            out.idle_max = std::max(out.idle_max, b.idle);
            idle_sum += b.idle;
            const uint8_t fallbacks = static_cast<uint8_t>(b.late_plans - last_late);
            const bool spawned = b.state.spawnCount != last_count, fast = b.state.levelNumber >= 29;
            out.real_fallbacks += fallbacks;
            out.fallbacks_29 += fast ? fallbacks : 0;
            last_late = b.late_plans;
            out.pieces += spawned;
            out.pieces_29 += fast && spawned;
            last_count = b.state.spawnCount;
            if (!(loop->state() == b.state))
                out.mismatch = "frame " + std::to_string(out.frames) + ": " + state_difference(b.state, loop->state());
            else if (b.state.playState == play_state::Curtain && !ended)
                end_with(AiGameComparison::End::Curtain, "");
            if (out.frames >= max_frames) break;
        }
        if (out.frames >= max_frames || (ended && pending.empty())) break;
    }
    out.game_over = out.end == AiGameComparison::End::Curtain;
    if (!loop) throw std::runtime_error("the AI game did not start (is this the patched Tetris (USA)?)");
    out.loop_fallbacks = loop->stats().fallback_plans;
    out.idle_mean = out.frames ? idle_sum / static_cast<double>(out.frames) : 0;
    out.lines = lines_count(loop->state());
    return out;
}

}  // namespace nestris::game
