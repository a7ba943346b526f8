#include "tools/harness/game_harness.hpp"

#include "base/hex.hpp"
#include "patcher/patch.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace nestris::game {

uint16_t ai_mode_address() {
    static const uint16_t address = shipped_cart().require("ai_mode");
    return address;
}

std::pair<uint16_t, uint32_t> ram_code_range() {
    const CartImage& cart = shipped_cart();
    const CartRegion& area = cart.region("PRG_RAM_CODE");
    uint32_t end = area.start;
    for (const CartSegment& s : cart.segments)
        if (s.region == area.name) end = std::max<uint32_t>(end, s.address + static_cast<uint32_t>(s.bytes.size()));
    return {area.start, end};
}

GameRoms make_game_roms(std::span<const uint8_t> file, const CartImage& cart) {
    PatchedRom p = patch_rom(file, cart);
    return {std::move(p.original), std::move(p.bytes)};
}

void count_lag_nmi(LagNmis& lag, const emu::Nes& n, bool reached_state6, bool reached_state7) {
    const uint16_t at = n.interrupted_pc();
    lag.add(reached_state6, reached_state7,
            at >= tetris::game_startButtonHandling_pause && at < tetris::game_startButtonHandling_paused);
    lag.stale_vram_row_save = lag.stale_vram_row_save || (at == tetris::game_savePlayer1State_store &&
                                                          n.cpu().x() == tetris::vramRow - tetris::tetriminoX);
}

void DispatchWatch::on_dispatch(const emu::Nes& n, uint16_t pc) {
    if (pc == tetris::game_switchDispatch) {
        // The caller's jsr pushed the table's address - 1; the dispatch reads (that),y with y =
        // 2A + 1 (8 bits) and the next byte.
        const auto stack = [&](int i) { return n.read_ram(static_cast<uint16_t>(0x100 + ((n.cpu().s() + i) & 0xFF))); };
        const uint16_t base = static_cast<uint16_t>(stack(1) | stack(2) << 8);
        const uint8_t y = static_cast<uint8_t>((n.cpu().a() << 1) + 1);
        if (expected_.size() < 64)
            expected_.push_back(static_cast<uint16_t>(n.peek(static_cast<uint16_t>(base + y)) |
                                                      n.peek(static_cast<uint16_t>(base + static_cast<uint8_t>(y + 1))) << 8));
    } else if (pc == tetris::game_switchWindowLast && !expected_.empty()) {
        const uint16_t target = static_cast<uint16_t>(n.read_ram(0) | n.read_ram(1) << 8);
        const uint16_t expected = expected_.back();
        expected_.pop_back();
        if (target != expected && !astray_)
            astray_ = "a jump-table dispatch went to " + hex(target, 4) + ", not to its table's " + hex(expected, 4) +
                      " (an NMI landed between its pulls and its jmp)";
    }
}

std::string menu_walk_input(const MenuWalk& w) {
    if (w.level < 0 || w.level > 19) throw std::invalid_argument("the start level is 0-19 (10-19 with the A trick)");
    if (w.height < 0 || w.height > 5) throw std::invalid_argument("the B-Type height is 0-5");
    if (w.title_wait < 0 || w.title_wait > kMaxTitleWait)
        throw std::invalid_argument("title wait " + std::to_string(w.title_wait) + ": the walk starts a game after a wait of 0-" +
                                    std::to_string(kMaxTitleWait) + " frames on the legal screen");
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
    if (w.ai && w.coach) throw std::invalid_argument("a game is the AI's or the coach's, not both");
    if (w.coach) {
        // B pressed alone would go back to the type menu: A and B together, then B (and A for +10);
        // hate mode: then Select too
        const std::string chord = std::string(w.level >= 10 ? "A+B" : "B") + (w.hate ? "+E" : "");
        return s + "A+B*3 " + (w.hate ? chord.substr(0, chord.size() - 2) + "*3 " : "") + chord + "*3 " + chord + "+S .";
    }
    if (w.hate && !w.ai) throw std::invalid_argument("hate mode is an AI game's or a coach game's");
    std::string held = w.ai ? "E" : "";
    if (w.level >= 10) held = held.empty() ? "A" : "A+" + held;
    if (w.hate) {
        // B pressed alone would go back to the type menu: Select first, then B with it held
        s += held + "*3 ";
        held += "+B";
    }
    if (held.empty()) return s + "S .";
    return s + held + "*3 " + held + "+S .";  // and let go
}


}  // namespace nestris::game
