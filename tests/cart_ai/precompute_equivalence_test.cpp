// The shipped 6502 AI decides exactly as the reference: same candidates (placement, costs, lines)
// and the same choice and total for every preview type, on random positions.
#include "ai-reference/ai/ai_crash_rule.hpp"
#include "ai-reference/model/frame_time.hpp"
#include "tests/cart_ai/positions.hpp"
#include "tools/harness/cart_ai.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace nestris;

namespace {

uint8_t slot_of(const ai::Target& t) {
    if (t.ccw) return 3;
    return t.rotation_presses;
}

std::string describe(const ai::SearchInput& in) {
    std::ostringstream o;
    o << "piece " << int(in.piece_type) << " level " << int(in.level.level) << " lines " << std::hex
      << int(in.level.lines_hi) << ":" << int(in.level.lines_lo) << std::dec << (in.first_piece ? " hold" : "")
      << (in.level.b_type ? " B" : "") << "\n";
    for (int r = 0; r < ai::kRows; ++r) {
        for (int c = 0; c < ai::kColumns; ++c) o << (in.board.cell(c, r) ? '#' : '.');
        o << "\n";
    }
    return o.str();
}

// Number of mismatching positions among n from this seed, drawn by `draw` (random_input).
int compare_random_positions(uint32_t seed, int n, uint64_t* max_cycles = nullptr,
                             ai::SearchInput (*draw)(std::mt19937&) = test::random_input) {
    std::mt19937 rng(seed);
    tools::CartAi cart;
    int mismatches = 0;
    for (int i = 0; i < n; ++i) {
        const ai::SearchInput in = draw(rng);
        const ai::Precomputed ref = ai::precompute(in);
        const tools::ReferenceChoice choice = tools::reference_choice(ref);
        const tools::CartSearchResult got = cart.precompute(in);
        if (max_cycles) *max_cycles = std::max(*max_cycles, got.cycles);
        bool same = got.count == ref.count;
        for (uint8_t k = 0; same && k < ref.count; ++k) {
            const ai::Candidate& a = ref.candidates[k];
            const ai::Candidate& b = got.candidates[k];
            same = a.target.orientation == b.target.orientation && a.target.x == b.target.x &&
                   a.target.landing_y == b.target.landing_y && a.cost == b.cost && a.lines_cost == b.lines_cost &&
                   a.lines == b.lines && slot_of(a.target) == got.rotation_slot[k];
        }
        for (uint8_t t = 0; same && ref.count && t < ai::kPieceTypes; ++t)
            same = choice.best_k[t] == got.best_k[t] && choice.best_total[t] == got.best_total[t];
        if (!same) {
            ++mismatches;
            if (mismatches <= 3) {
                std::ostringstream o;
                o << "mismatch at position " << i << ": " << describe(in) << "reference count " << int(ref.count)
                  << ", cartridge count " << int(got.count) << "\n";
                for (uint8_t k = 0; k < std::max(ref.count, got.count); ++k) {
                    const auto& a = ref.candidates[k];
                    const auto& b = got.candidates[k];
                    o << " k" << int(k) << " ref o" << int(a.target.orientation) << " x" << int(a.target.x) << " y"
                      << int(a.target.landing_y) << " cost " << a.cost << " lc " << a.lines_cost << " l" << int(a.lines)
                      << " | cart o" << int(b.target.orientation) << " x" << int(b.target.x) << " y"
                      << int(b.target.landing_y) << " cost " << b.cost << " lc " << b.lines_cost << " l" << int(b.lines)
                      << "\n";
                }
                for (uint8_t t = 0; t < ai::kPieceTypes; ++t)
                    o << " type " << int(t) << " ref k" << int(choice.best_k[t]) << " " << choice.best_total[t]
                      << " | cart k" << int(got.best_k[t]) << " " << got.best_total[t] << "\n";
                UNSCOPED_INFO(o.str());
            }
        }
    }
    return mismatches;
}

}  // namespace

TEST_CASE("cartridge search equals the reference on 2000 random positions") {
    uint64_t max_cycles = 0;
    CHECK(compare_random_positions(20261122, 2000, &max_cycles) == 0);
    INFO("most cycles for one search: " << max_cycles);
    // They include searches in danger (the lines_danger table) whose candidates burn lines.
    std::mt19937 rng(20261122);
    int danger_burns = 0;
    for (int i = 0; i < 2000; ++i) {
        const ai::SearchInput in = test::random_input(rng);
        if (!ai::in_danger(in.board, ai::frames_per_drop(in.level.level), ai::default_tables())) continue;
        const ai::Precomputed ref = ai::precompute(in);
        for (uint8_t k = 0; k < ref.count; ++k) danger_burns += ref.candidates[k].lines >= 1 && ref.candidates[k].lines <= 3;
    }
    CHECK(danger_burns >= 20);
}

TEST_CASE("cartridge search equals the reference where a clear may crash the game (levels 146-177)") {
    CHECK(compare_random_positions(30, 600, nullptr, test::clear_ready_input) == 0);
    // The rule was at work: first-ply placements that clear lines, do not top out, and cost
    // kCostMax because their score frame may crash the game.
    std::mt19937 rng(30);
    int crash_tops = 0, clears_kept = 0;
    for (int i = 0; i < 600; ++i) {
        const ai::SearchInput in = test::clear_ready_input(rng);
        ai::for_each_reachable(in.board, in.piece_type, ai::Gravity{ai::frames_per_drop(in.level.level), false},
                               [&](const ai::Target& t) {
                                   const ai::Placed p = ai::place(in.board, t);
                                   crash_tops += p.lines && !p.topped_out &&
                                                 ai::lock_barred(in.level.level, p.lines, in.level.lines_lo, t.x, t.landing_y);
                               });
        const ai::Precomputed ref = ai::precompute(in);
        for (uint8_t k = 0; k < ref.count; ++k) clears_kept += ref.candidates[k].lines > 0;
    }
    CHECK(crash_tops >= 20);
    CHECK(clears_kept >= 30);  // clears outside the ranges still play
}

TEST_CASE("cartridge search equals the reference at the soft drop's level (clears too high for its points)") {
    CHECK(compare_random_positions(31, 400, nullptr, test::soft_drop_input) == 0);
    // The rule was at work: clears that would not fall long enough with Down held to make the
    // points.
    std::mt19937 rng(31);
    int late_clears = 0, late_barred = 0, clears_kept = 0;
    for (int i = 0; i < 400; ++i) {
        const ai::SearchInput in = test::soft_drop_input(rng);
        ai::for_each_reachable(in.board, in.piece_type, ai::Gravity{ai::frames_per_drop(in.level.level), false},
                               [&](const ai::Target& t) {
                                   const ai::Placed p = ai::place(in.board, t);
                                   if (p.topped_out || ai::top_row(t) < ai::kHighRows || !p.lines) return;
                                   const bool late = !ai::soft_drop_in_time(t.x, t.landing_y);
                                   late_clears += late;
                                   late_barred += late && ai::lock_barred(in.level.level, p.lines, in.level.lines_lo,
                                                                          t.x, t.landing_y);
                                   clears_kept += !late;
                               });
    }
    // Too high for the points, a clear is barred only where its class needs them: both kinds.
    INFO(late_clears << " clears too high for the points (" << late_barred << " barred), " << clears_kept
                     << " low enough");
    CHECK(late_barred >= 25);
    CHECK(late_clears - late_barred >= 25);
    CHECK(clears_kept >= 50);
}

TEST_CASE("cartridge search equals the reference as the speed changes, also after the AI's RAM is cleared (the row term's step)") {
    // The row term's tables hold ROW_STEP or ROW_STEP_FAST (one row a frame) and are rewritten
    // where the speed changes; clear_ai_ram (before a person's game) zeroes the search's state
    // but not them, so the search cannot learn their step from that state.
    REQUIRE(ai::default_tables().row_step != ai::default_tables().row_step_fast);
    std::mt19937 rng(42);
    tools::CartAi cart;
    auto delta_top = [&] {  // gen_row_delta's entry for +4 classes: 4 x the step the tables hold
        return cart.machine().read(static_cast<uint16_t>(cart.symbol("gen_row_delta_lo") + 8)) |
               cart.machine().read(static_cast<uint16_t>(cart.symbol("gen_row_delta_hi") + 8)) << 8;
    };
    int mismatches = 0;
    for (int i = 0; i < 24; ++i) {
        ai::SearchInput in = test::random_input(rng);
        const bool fast = i % 4 < 2;  // fast, fast, slow, slow, ...: each change and each stay
        in.level.level = fast ? 29 : 19;
        in.level.lines_hi = 0;
        in.level.lines_lo = 0;
        in.first_piece = false;
        if (i % 3 == 2) {
            cart.machine().cpu().set_a(0);
            REQUIRE(cart.machine().call(cart.symbol("clear_ai_ram")).ok());
        }
        const ai::Precomputed ref = ai::precompute(in);
        const tools::CartSearchResult got = cart.precompute(in);
        bool same = got.count == ref.count;
        for (uint8_t k = 0; same && k < ref.count; ++k)
            same = got.candidates[k].cost == ref.candidates[k].cost && got.candidates[k].target.x == ref.candidates[k].target.x &&
                   got.candidates[k].target.orientation == ref.candidates[k].target.orientation;
        const tools::ReferenceChoice choice = tools::reference_choice(ref);
        for (uint8_t t = 0; same && ref.count && t < ai::kPieceTypes; ++t)
            same = choice.best_total[t] == got.best_total[t];
        if (!same) UNSCOPED_INFO("position " << i << " at level " << int(in.level.level) << " differs");
        mismatches += !same;
        const ai::EvalSet& set = ai::default_tables();
        CHECK(delta_top() == 4 * (fast ? set.row_step_fast : set.row_step));
    }
    CHECK(mismatches == 0);
}
