#include "tools/harness/game_driver.hpp"

#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/player.hpp"
#include "ai-reference/model/ram_map.hpp"
#include "game/tetris_map.hpp"

#include <algorithm>
#include <cstdint>

namespace nestris::game {
namespace button = emu::button;

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

}  // namespace nestris::game
