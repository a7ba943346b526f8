// Games that start from a model-made state at a high level (written into the game's RAM at its
// first frame of play) instead of playing up to it, and the AI's start over on such a state.
#pragma once

#include "ai-reference/model/game_model.hpp"
#include "emu-test/nes.hpp"
#include "patcher/cart_image.hpp"
#include "tools/harness/game_harness.hpp"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

namespace nestris::game {

// A game from a model-made state: at its first frame of play, `level`, score 999 999, a stack 8
// rows high from `seed` (high_level_state below) and `lines` (BCD, as the game keeps it), written
// into the game's RAM; the AI starts over there, on that board (AiRestart).
struct ModelStart {
    uint8_t level = 0;
    uint64_t seed = 0;
    std::array<uint8_t, 2> lines{};
};
// Game i of a run of games from model-made states from level count `from_level` (100-510): level
// count L + (37 i mod (last + 1 - L)), its stack from seed first_seed + i. Up to 255 (last 255)
// the lines counter is 0; past 255 (last 511) the level is the count's low byte, after the
// rebirth, with the lines of a game from level 19 when it first reached that count
// (first_reaching). `name`: ", from level ..., seed ...", for people.
inline constexpr int kLastLevelPastRebirth = 511;
struct NamedModelStart {
    ModelStart start;
    std::string name;
};
NamedModelStart model_start_of_game(int from_level, uint64_t first_seed, uint64_t i);
// "L-255 (model-made states)" or "L-511 (model-made states, past the rebirth)".
std::string model_start_levels(int from_level);
// A model-made state at a high level from the game's state at its first frame of play: the
// start's level and lines, score 999 999, a stack 8 rows high with one gap a row (from its seed).
GameState high_level_state(GameState at_start, const ModelStart& start);
// The machines (the first one's game decides) run on, no buttons, to the first frame boundary of
// play, where high_level_state goes into each; returns it.
GameState start_from_model_state(std::initializer_list<emu::Nes*> machines, const ModelStart& start);
// The AI starts over after a harness wrote another state into the game's RAM, as at a game's
// start: its driver at once (drv_active, drv_held 0, as the NMIs between games leave them), its
// task when ai_idle next begins (last_mode 0: the AI just switched on; written there, since the
// wait under way stores last_mode). on_instruction goes in the machine's instruction hook.
class AiRestart {
public:
    explicit AiRestart(const CartImage& cart);
    void arm(emu::Nes& patched);
    void on_instruction(emu::Nes& patched, const emu::Nes& n) {  // (inline: every instruction comes here)
        if (armed_ && n.cpu().pc() == idle_entry_) restart_task(patched);
    }

private:
    void restart_task(emu::Nes& patched);
    uint16_t idle_entry_, last_mode_, drv_active_, drv_held_;
    bool armed_ = false;
};

// An AI game's start on the patched game: the menu walk, then nothing held; from the model-made
// state `start` when there is one, with the AI started over on it (restart armed).
void begin_ai_game(emu::Nes& patched, const MenuWalk& walk, AiRestart& restart, const std::optional<ModelStart>& start);

}  // namespace nestris::game
