#include "tools/harness/cart_ai.hpp"

#include "ai-reference/model/pieces.hpp"
#include "game/tetris_map.hpp"

#include <stdexcept>

namespace nestris::tools {

ReferenceChoice reference_choice(const ai::Precomputed& pre) {
    ReferenceChoice r;
    for (uint8_t t = 0; t < ai::kPieceTypes; ++t) {
        for (uint8_t k = 0; k < pre.count; ++k) {
            const uint16_t total = ai::saturating_add(pre.candidates[k].lines_cost, pre.best2[k][t]);
            if (k == 0 || total < r.best_total[t]) {
                r.best_total[t] = total;
                r.best_k[t] = k;
            }
        }
    }
    return r;
}

std::vector<GameTable> game_tables_read_by_ai() {
    GameTable gravity{tetris::game_framesPerDropTable, {}};
    for (uint8_t level = 0; level < 30; ++level) gravity.bytes.push_back(frames_per_drop(level));
    GameTable types{tetris::game_tetriminoTypeFromOrientation, {}};
    types.bytes.assign(kTypeOfOrientation.begin(), kTypeOfOrientation.end());
    GameTable spawn{tetris::game_spawnTable, {}};
    spawn.bytes.assign(kSpawnOrientation.begin(), kSpawnOrientation.end());
    GameTable rotation{tetris::game_rotationTable, {}};
    for (uint8_t o = 0; o < kOrientationCount; ++o) {
        rotation.bytes.push_back(kRotateCounterClockwise[o]);
        rotation.bytes.push_back(kRotateClockwise[o]);
    }
    return {gravity, types, spawn, rotation};
}

void load_cart(emu::FlatMachine& machine, const CartImage& cart) {
    for (const CartSegment& segment : cart.segments)
        if (!segment.bytes.empty()) machine.load(segment.address, segment.bytes);
}

void load_game_tables(emu::FlatMachine& machine) {
    for (const GameTable& table : game_tables_read_by_ai()) machine.load(table.address, table.bytes);
}

CartAi::CartAi(const CartImage& cart) : cart_(cart) {
    load_cart(machine_, cart);
    load_game_tables(machine_);
}

void CartAi::write_board(const ai::Board& b) {
    const uint16_t lo = symbol("eb_lo"), hi = symbol("eb_hi");
    for (int r = 0; r < ai::kRows; ++r) {
        const uint16_t row = cart_row(b.rows[r]);
        machine_.write(static_cast<uint16_t>(lo + r), static_cast<uint8_t>(row));
        machine_.write(static_cast<uint16_t>(hi + r), static_cast<uint8_t>(row >> 8));
    }
}

void CartAi::write_level(const ai::LevelState& level) {
    machine_.write(symbol("s_level"), level.level);
    machine_.write(symbol("s_lines_lo"), level.lines_lo);
    machine_.write(symbol("s_lines_hi"), level.lines_hi);
    machine_.write(symbol("s_btype"), level.b_type ? 1 : 0);
}

CartHateResult CartAi::hate(const ai::Board& board, const ai::LevelState& level, uint64_t max_cycles) {
    write_board(board);
    write_level(level);
    machine_.write(symbol("verticalBlankingInterval"), 0);  // never yield to the game
    machine_.cpu().set_s(0xFD);
    const emu::CallResult call = machine_.call(symbol("ai_hate"), max_cycles);
    if (!call.ok()) throw std::runtime_error(std::string("ai_hate did not return: ") + emu::to_string(call.status));
    CartHateResult r;
    r.type = machine_.read(symbol("hate_type"));
    r.cost = static_cast<uint16_t>(machine_.read(symbol("hate_cost_lo")) | machine_.read(symbol("hate_cost_hi")) << 8);
    r.cycles = call.cycles;
    return r;
}

CartHateResult CartAi::hate_yielding(const ai::Board& board, const ai::LevelState& level,
                                     const std::function<uint8_t(int step)>& stack_at, int* steps) {
    write_board(board);
    write_level(level);
    machine_.write(symbol("verticalBlankingInterval"), 1);  // every ai_yield goes back to the caller
    machine_.write(symbol("in_search"), 0);                 // (resume: no search to give up)
    machine_.write(symbol("finishing"), 0);
    const uint8_t z_type = static_cast<uint8_t>(symbol("z_type"));
    machine_.write(z_type, 0);
    // The first step: the task's frames begin below the call's return (co_sp, as resume sets it).
    uint8_t s = stack_at(0);
    machine_.write(symbol("co_sp"), static_cast<uint8_t>(s - 2));
    machine_.cpu().set_s(s);
    CartHateResult r;
    int n = 0;
    for (emu::CallResult call = machine_.call(symbol("ai_hate"));; call = machine_.call(symbol("resume"))) {
        if (!call.ok()) throw std::runtime_error(std::string("ai_hate did not return: ") + emu::to_string(call.status));
        r.cycles += call.cycles;
        ++n;
        // Done when its type loop is (z_type: 0-6 while it sweeps), not at a yield.
        if (machine_.read(z_type) == ai::kPieceTypes) break;
        if (n > 100000) throw std::runtime_error("ai_hate did not finish");
        machine_.cpu().set_s(stack_at(n));
    }
    machine_.write(symbol("verticalBlankingInterval"), 0);
    if (steps) *steps = n;
    r.type = machine_.read(symbol("hate_type"));
    r.cost = static_cast<uint16_t>(machine_.read(symbol("hate_cost_lo")) | machine_.read(symbol("hate_cost_hi")) << 8);
    return r;
}

CartSearchResult CartAi::precompute(const ai::SearchInput& in, uint64_t max_cycles, const StepObserver& on_step) {
    write_board(in.board);
    machine_.write(symbol("s_type"), in.piece_type);
    write_level(in.level);
    machine_.write(symbol("s_hold"), in.first_piece ? 0x80 : 0);  // bit 7, as autorepeatY has it
    machine_.write(symbol("verticalBlankingInterval"), 0);  // never yield to the game
    machine_.cpu().set_s(0xFD);
    emu::CallResult call;
    if (on_step) {
        // The same call, one instruction at a time: a return to the sentinel ends it.
        const uint8_t s_level = machine_.cpu().s();
        const uint64_t start = machine_.cycles();
        machine_.call(symbol("ai_precompute"), 0);  // pushes the return and sets PC, runs nothing
        while (!(machine_.cpu().pc() == machine_.sentinel() && machine_.cpu().s() == s_level)) {
            if (machine_.cycles() - start > max_cycles) {
                call.status = emu::RunStatus::CycleLimit;
                break;
            }
            const uint16_t pc = machine_.cpu().pc();
            const uint64_t before = machine_.cycles();
            machine_.step();
            on_step(pc, static_cast<uint32_t>(machine_.cycles() - before));
        }
        call.cycles = machine_.cycles() - start + 6;
    } else {
        call = machine_.call(symbol("ai_precompute"), max_cycles);
    }
    if (!call.ok())
        throw std::runtime_error(std::string("ai_precompute did not return: ") + emu::to_string(call.status));
    CartSearchResult r;
    r.cycles = call.cycles;
    r.count = machine_.read(symbol("cand_count"));
    const ai::EvalSet& set = ai::default_tables();
    const uint8_t fpd = ai::frames_per_drop(in.level.level);
    const auto& lines = ai::lines_table(set, fpd == 1, ai::in_danger(in.board, fpd, set));
    for (uint8_t k = 0; k < r.count && k < ai::kMaxCandidates; ++k) {
        auto byte = [&](const char* name) { return machine_.read(static_cast<uint16_t>(symbol(name) + k)); };
        ai::Candidate& c = r.candidates[k];
        r.rotation_slot[k] = byte("cand_rot");
        static constexpr uint8_t presses[4] = {0, 1, 2, 1};
        uint8_t o = ai::spawn_orientation(in.piece_type);
        for (int p = 0; p < presses[r.rotation_slot[k] & 3]; ++p) o = ai::rotate(o, r.rotation_slot[k] == 3);
        c.target.orientation = o;
        c.target.x = byte("cand_x");
        c.target.landing_y = static_cast<int8_t>(byte("cand_y"));
        c.lines = byte("cand_lines");
        c.cost = static_cast<uint16_t>(byte("cand_cost_lo") | byte("cand_cost_hi") << 8);
        c.lines_cost = c.cost == ai::kCostMax ? ai::kCostMax : lines[c.lines];
    }
    for (uint8_t t = 0; t < ai::kPieceTypes; ++t) {
        r.best_k[t] = machine_.read(static_cast<uint16_t>(symbol("best_k") + t));
        r.best_total[t] = static_cast<uint16_t>(machine_.read(static_cast<uint16_t>(symbol("best_total_lo") + t)) |
                                                machine_.read(static_cast<uint16_t>(symbol("best_total_hi") + t)) << 8);
    }
    return r;
}

}  // namespace nestris::tools
