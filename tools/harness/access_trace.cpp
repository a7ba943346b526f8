// The access trace (access_trace.hpp): what the game reads, writes and runs.
#include "tools/harness/access_trace.hpp"

#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/player.hpp"
#include "ai-reference/model/ram_map.hpp"
#include "ai-reference/model/state_io.hpp"
#include "emu-test/opcodes.hpp"
#include "patcher/patch.hpp"
#include "tools/harness/cart_loop.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace nestris::game {

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

}  // namespace nestris::game
