// The cartridge AI run in the embedded 6502: the assembled bytes of asm/ (the shipped cartridge)
// on a flat 64 KiB machine, with search inputs written into its RAM and results read back by
// symbol name. The bridge between the reference AI and the code the patch ships.
#pragma once

#include "ai-reference/ai/ai_search.hpp"
#include "emu-test/flat_machine.hpp"
#include "patcher/cart_image.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace nestris::tools {

struct CartSearchResult {
    uint8_t count = 0;
    std::array<ai::Candidate, ai::kMaxCandidates> candidates{};
    std::array<uint8_t, ai::kMaxCandidates> rotation_slot{};
    std::array<uint8_t, ai::kPieceTypes> best_k{};         // candidate to play, per preview type
    std::array<uint16_t, ai::kPieceTypes> best_total{};    // its total
    uint64_t cycles = 0;
};

// The cartridge on a flat machine: every segment with bytes (code and data; bss has none) at its
// address. Here, not in emu-test/: the machine knows no cartridge (it stands on base/ alone).
void load_cart(emu::FlatMachine& machine, const CartImage& cart);

// A row as the cartridge keeps it: bit 0 the left wall, bit c+1 column c, bit 11 the right wall.
inline uint16_t cart_row(uint16_t row) { return static_cast<uint16_t>(row << 1 | 0x801); }
inline uint16_t reference_row(uint16_t cart) { return static_cast<uint16_t>((cart >> 1) & 0x3FF); }

// The game's own tables that the cartridge AI reads from the game's ROM (addresses in
// game/tetris.inc), with their contents as the reference knows them: a flat machine holds no
// game, so the harnesses put them where the game has them. The real-game tests check that the
// game holds exactly these bytes there.
struct GameTable {
    uint16_t address = 0;
    std::vector<uint8_t> bytes;
};
std::vector<GameTable> game_tables_read_by_ai();
void load_game_tables(emu::FlatMachine& machine);

// Hate mode's adversary on the cartridge (ai_hate, asm/hate.s): the type it deals and that
// type's lowest cost (the highest of the seven, as ai::hate_choice has it).
struct CartHateResult {
    uint8_t type = 0;
    uint16_t cost = 0;
    uint64_t cycles = 0;
};

// What the reference says the cartridge should hold after the same search.
struct ReferenceChoice {
    std::array<uint8_t, ai::kPieceTypes> best_k{};
    std::array<uint16_t, ai::kPieceTypes> best_total{};
};
ReferenceChoice reference_choice(const ai::Precomputed& pre);

class CartAi {
public:
    explicit CartAi(const CartImage& cart = shipped_cart());
    // on_step, when given, is called after every instruction with its address and cycles (a
    // profiler's view; the run is slower).
    using StepObserver = std::function<void(uint16_t pc, uint32_t cycles)>;
    CartSearchResult precompute(const ai::SearchInput& input, uint64_t max_cycles = 50'000'000,
                                const StepObserver& on_step = {});
    // ai_hate on `board` (the board after the last lock) at `level` (the level and lines after it).
    CartHateResult hate(const ai::Board& board, const ai::LevelState& level, uint64_t max_cycles = 50'000'000);
    // The same as the task would run it, yielding at every step (each ai_yield finds the NMI
    // come) and taken up again by resume with the stack pointer at stack_at(step) (its frames
    // moved, as the game's stack may have them); steps: how many it took.
    CartHateResult hate_yielding(const ai::Board& board, const ai::LevelState& level,
                                 const std::function<uint8_t(int step)>& stack_at, int* steps = nullptr);
    emu::FlatMachine& machine() { return machine_; }
    uint16_t symbol(std::string_view name) const { return cart_.require(name); }

private:
    const CartImage& cart_;
    emu::FlatMachine machine_;
    void write_board(const ai::Board& board);
    void write_level(const ai::LevelState& level);
};

}  // namespace nestris::tools
