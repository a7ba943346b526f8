#include "tools/harness/game_harness.hpp"

#include "ai-reference/ai/ai_player.hpp"
#include "tools/harness/cart_loop.hpp"
#include "base/hex.hpp"
#include "emu-test/opcodes.hpp"
#include "patcher/patch.hpp"
#include "ai-reference/model/player.hpp"
#include "ai-reference/model/ram_map.hpp"
#include "ai-reference/model/state_io.hpp"

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

bool is_game_code(uint16_t pc) {
    static const std::pair<uint16_t, uint32_t> ram_code = [] {
        const CartImage& cart = shipped_cart();
        const CartRegion& area = cart.region("PRG_RAM_CODE");
        uint32_t end = area.start;
        for (const CartSegment& s : cart.segments)
            if (s.region == area.name) end = std::max<uint32_t>(end, s.address + static_cast<uint32_t>(s.bytes.size()));
        return std::pair<uint16_t, uint32_t>{area.start, end};
    }();
    return pc >= 0x8000 || (pc >= ram_code.first && pc < ram_code.second);
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
            if (level_menu && options_.coach_in_level_menu) {
                script_.push_back(0);  // A and B pressed together: on the level menu, nothing
                for (int i = 0; i < 3; ++i) script_.push_back(button::A | button::B);
                held |= button::B;
            }
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
    const uint64_t lines = lines_made(nes.read_ram(tetris::lines), nes.read_ram(tetris::lines + 1));
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


void count_lag_nmi(LagNmis& lag, const emu::Nes& n, bool reached_state6, bool reached_state7) {
    const uint16_t at = n.interrupted_pc();
    lag.add(reached_state6, reached_state7,
            at >= tetris::game_startButtonHandling_pause && at < tetris::game_startButtonHandling_paused);
    lag.stale_vram_row_save = lag.stale_vram_row_save || (at == tetris::game_savePlayer1State_store &&
                                                          n.cpu().x() == tetris::vramRow - tetris::tetriminoX);
}

void DispatchWatch::on_instruction(const emu::Nes& n) {
    const uint16_t pc = n.cpu().pc();
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

AiRestart::AiRestart(const CartImage& cart)
    : idle_entry_(cart.require("ai_idle")), last_mode_(cart.require("last_mode")),
      drv_active_(cart.require("drv_active")), drv_held_(cart.require("drv_held")) {}

void AiRestart::arm(emu::Nes& patched) {
    patched.write_ram(drv_active_, 0);
    patched.write_ram(drv_held_, 0);
    armed_ = true;
}

void AiRestart::on_instruction(emu::Nes& patched, const emu::Nes& n) {
    if (armed_ && n.cpu().pc() == idle_entry_) {
        patched.write_ram(last_mode_, 0);
        armed_ = false;
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
        // B pressed alone would go back to the type menu: A and B together, then B (and A for +10)
        const std::string chord = w.level >= 10 ? "A+B" : "B";
        return s + "A+B*3 " + chord + "*3 " + chord + "+S .";
    }
    std::string held = w.ai ? "E" : "";
    if (w.level >= 10) held = held.empty() ? "A" : "A+" + held;
    if (held.empty()) return s + "S .";
    return s + held + "*3 " + held + "+S .";  // and let go
}


}  // namespace nestris::game
