#include "tools/harness/model_start.hpp"

#include "ai-reference/model/ram_map.hpp"
#include "base/hex.hpp"
#include "game/tetris_map.hpp"

#include <stdexcept>

namespace nestris::game {

namespace {
int last_level_of(int from_level) { return from_level <= 255 ? 255 : kLastLevelPastRebirth; }
}  // namespace

NamedModelStart model_start_of_game(int from_level, uint64_t first_seed, uint64_t i) {
    if (from_level < 100 || from_level >= kLastLevelPastRebirth)
        throw std::invalid_argument("model-made states start at levels 100-510");
    const int count = from_level + static_cast<int>((i * 37) % static_cast<uint64_t>(last_level_of(from_level) + 1 - from_level));
    NamedModelStart n{{static_cast<uint8_t>(count & 0xFF), first_seed + i, {}}, ""};
    n.name = ", from level " + std::to_string(count);
    if (count > 255) {
        const LinesAtLevel at = first_reaching(19, static_cast<unsigned>(count - 19));
        n.start.lines = at.lines;
        n.name += " (level " + std::to_string(n.start.level) + " after the rebirth, lines " + hex(at.lines[1], 2) +
                  hex_digits(at.lines[0], 2) + ")";
    }
    n.name += ", seed " + std::to_string(n.start.seed);
    return n;
}

std::string model_start_levels(int from_level) {
    return std::to_string(from_level) + "-" + std::to_string(last_level_of(from_level)) + " (model-made states" +
           (from_level > 255 ? ", past the rebirth)" : ")");
}

GameState high_level_state(GameState s, const ModelStart& start) {
    s.levelNumber = start.level;
    s.lines = start.lines;
    s.score = {0x99, 0x99, 0x99};
    uint64_t z = start.seed * 0x9E3779B97F4A7C15ull + 1;
    for (int row = 12; row < kPlayfieldHeight; ++row) {
        z ^= z << 13, z ^= z >> 7, z ^= z << 17;
        const int gap = static_cast<int>(z % 10);
        for (int c = 0; c < kPlayfieldWidth; ++c)
            s.playfield[static_cast<std::size_t>(row * 10 + c)] = c == gap ? kTileEmpty : kTileBlockA;
    }
    return s;
}

GameState start_from_model_state(std::initializer_list<emu::Nes*> machines, const ModelStart& start) {
    emu::Nes& x = **machines.begin();
    for (int f = 0;; ++f) {
        const bool at_boundary = x.read_ram(tetris::gameMode) == tetris::GAME_MODE_PLAY &&
                                 x.read_ram(tetris::gameModeState) == 2 && x.read_ram(tetris::verticalBlankingInterval) == 0;
        if (at_boundary) break;
        if (f > 300) throw std::runtime_error("the game did not start (menu path lost)");
        for (emu::Nes* m : machines) m->run_frame();
    }
    const GameState s = high_level_state(from_ram(x.ram()), start);
    for (emu::Nes* m : machines) to_ram(s, m->ram());
    return s;
}

AiRestart::AiRestart(const CartImage& cart)
    : idle_entry_(cart.require("ai_idle")), last_mode_(cart.require("last_mode")),
      drv_active_(cart.require("drv_active")), drv_held_(cart.require("drv_held")) {}

void AiRestart::arm(emu::Nes& patched) {
    patched.write_ram(drv_active_, 0);
    patched.write_ram(drv_held_, 0);
    armed_ = true;
}

void AiRestart::restart_task(emu::Nes& patched) {
    patched.write_ram(last_mode_, 0);
    armed_ = false;
}

void begin_ai_game(emu::Nes& patched, const MenuWalk& walk, AiRestart& restart, const std::optional<ModelStart>& start) {
    patched.run_input(menu_walk_input(walk));
    patched.set_buttons(0);
    if (!start) return;
    start_from_model_state({&patched}, *start);
    restart.arm(patched);
}

}  // namespace nestris::game
