// Each routine of the cartridge AI against its reference counterpart, on random boards.
#include "ai-reference/ai/ai_coach.hpp"
#include "game/hooks_map.hpp"
#include "game/tetris_map.hpp"
#include "tests/cart_ai/positions.hpp"
#include "tools/harness/cart_ai.hpp"
#include "tools/harness/coach_run.hpp"

#include <algorithm>
#include <array>
#include <memory>

#include <catch2/catch.hpp>

using namespace nestris;

TEST_CASE("load_cart puts every segment with bytes at its address, and leaves bss alone") {
    CartImage cart;
    cart.segments.push_back({"CODE", 0xD6C9, "SMALL", {0xA9, 0x42, 0x60}});
    cart.segments.push_back({"BSS", 0x0500, "VARS", {}});
    auto m = std::make_unique<emu::FlatMachine>();
    m->write(0x0500, 0x77);
    tools::load_cart(*m, cart);
    CHECK(m->read(0xD6C9) == 0xA9);
    CHECK(m->read(0xD6CA) == 0x42);
    CHECK(m->read(0xD6CB) == 0x60);
    CHECK(m->read(0x0500) == 0x77);
}

namespace {

struct Rig {
    tools::CartAi cart;
    emu::FlatMachine& m = cart.machine();
    uint16_t sym(const char* n) { return cart.symbol(n); }
    Rig() {
        set_danger(false);
        m.write(sym("s_top2"), 2);  // below level 128: a top row of 0 allowed (the search sets it)
    }
    // The search's terms as ai_precompute_prepared sets them: in danger the lines table's second
    // half (gen_lines: lines, then lines_danger) and the well's holes masked to none.
    void set_danger(bool danger) {
        m.write(sym("s_lines_off"), danger ? ai::kLinesDangerOffset : 0);
        m.write(sym("s_well_holes"), danger ? 0x00 : 0xFF);
    }
    void put_eb(const ai::Board& b) {
        for (int r = 0; r < ai::kRows; ++r) {
            const uint16_t row = tools::cart_row(b.rows[r]);
            m.write(static_cast<uint16_t>(sym("eb_lo") + r), static_cast<uint8_t>(row));
            m.write(static_cast<uint16_t>(sym("eb_hi") + r), static_cast<uint8_t>(row >> 8));
        }
        for (int c = 0; c < ai::kColumns; ++c) {
            m.write(static_cast<uint16_t>(sym("eb_h") + c), b.height[c]);
            m.write(static_cast<uint16_t>(sym("eb_f") + c), b.filled[c]);
        }
    }
    ai::Board get_eb() {
        ai::Board b;
        for (int r = 0; r < ai::kRows; ++r) {
            const uint16_t row = static_cast<uint16_t>(m.read(static_cast<uint16_t>(sym("eb_lo") + r)) |
                                                       m.read(static_cast<uint16_t>(sym("eb_hi") + r)) << 8);
            REQUIRE((row & 0xF801) == 0x0801);  // the walls are always there
            b.rows[r] = tools::reference_row(row);
        }
        for (int c = 0; c < ai::kColumns; ++c) {
            b.height[c] = m.read(static_cast<uint16_t>(sym("eb_h") + c));
            b.filled[c] = m.read(static_cast<uint16_t>(sym("eb_f") + c));
        }
        return b;
    }
    // eb's columns and caches as save_spawn_board keeps them: eb_top08 .. gp_hi (its last byte:
    // gp_hi + 9), and eb_base .. eb_max38 in the zero page.
    std::vector<uint8_t> eb_caches() {
        std::vector<uint8_t> bytes;
        for (uint16_t a = sym("eb_top08"); a < sym("gp_hi") + ai::kColumns; ++a) bytes.push_back(m.read(a));
        for (uint16_t a = sym("eb_base"); a <= sym("eb_max38"); ++a) bytes.push_back(m.read(a));
        return bytes;
    }
    uint64_t call(const char* routine) {
        m.write(sym("verticalBlankingInterval"), 0);
        m.cpu().set_s(0xFD);
        const auto r = m.call(sym(routine), 10'000'000);
        REQUIRE(r.ok());
        return r.cycles;
    }
    uint16_t cost() { return m.read16(sym("z_cost")); }
};

}  // namespace

TEST_CASE("routine: column heights and filled counts from the rows") {
    Rig rig;
    std::mt19937 rng(1);
    for (int i = 0; i < 200; ++i) {
        ai::Board b = test::random_board(rng);
        ai::Board scrambled = b;
        scrambled.height.fill(0xAA);
        scrambled.filled.fill(0x55);
        rig.put_eb(scrambled);
        rig.call("ai_prepare_board");  // the columns (then the caches)
        REQUIRE(rig.get_eb() == b);
    }
}

TEST_CASE("routine: the board's caches hold its evaluation") {
    // eb_base is the board's evaluation but for the well and the gaps, plus the lines cost of no
    // line; the lowest of columns 0-8 (pre_min[9]) and the well column's height give the well's
    // cost, and the last gap prefix sum (gp[9]) the gaps'.
    Rig rig;
    std::mt19937 rng(2);
    for (int i = 0; i < 600; ++i) {
        const ai::Board b = test::random_board(rng);
        const bool danger = i % 2;
        rig.set_danger(danger);
        rig.put_eb(b);
        rig.call("ai_board_caches");
        rig.m.write(rig.sym("z_cost"), rig.m.read(rig.sym("eb_base")));
        rig.m.write(static_cast<uint16_t>(rig.sym("z_cost") + 1), rig.m.read(static_cast<uint16_t>(rig.sym("eb_base") + 1)));
        rig.m.write(rig.sym("z_t1"), rig.m.read(static_cast<uint16_t>(rig.sym("pre_min") + 9)));
        rig.m.write(rig.sym("z_t3"), b.height[9]);
        rig.call("ai_well_cost");
        const uint16_t gaps = static_cast<uint16_t>(rig.m.read(static_cast<uint16_t>(rig.sym("gp_lo") + 9)) |
                                                    rig.m.read(static_cast<uint16_t>(rig.sym("gp_hi") + 9)) << 8);
        rig.m.write16(rig.sym("z_cost"), static_cast<uint16_t>(rig.cost() + gaps));
        INFO("board " << i << (danger ? " in danger" : ""));
        REQUIRE(rig.cost() == ai::evaluate(b, ai::default_tables(), false, danger) + ai::default_tables().lines[0]);
    }
}

TEST_CASE("routine: walls and landing row of a shape at a column") {
    Rig rig;
    std::mt19937 rng(3);
    for (int i = 0; i < 300; ++i) {
        const ai::Board b = test::random_board(rng);
        rig.put_eb(b);
        for (uint8_t o = 0; o < ai::kOrientations; ++o) {
            rig.m.cpu().set_x(o);
            rig.call("set_shape");
            for (int x = 0; x < 10; ++x) {
                rig.m.cpu().set_a(static_cast<uint8_t>(x));
                rig.call("landing_at");
                const bool inside = rig.m.cpu().p() & 1;
                const ai::Shape& sh = ai::shape(o);
                INFO("board " << i << " o " << int(o) << " x " << x);
                REQUIRE(inside == (x + sh.min_dx >= 0 && x + sh.max_dx <= 9));
                if (inside) REQUIRE(rig.m.cpu().a() == ai::landing_row(b, o, x) + 2);
            }
        }
    }
}

TEST_CASE("routine: gravity rows") {
    Rig rig;
    for (int level = 0; level <= 40; ++level) {
        const uint8_t g = ai::frames_per_drop(static_cast<uint8_t>(level));
        for (bool hold : {false, true}) {
            rig.m.cpu().set_a(g);
            rig.m.cpu().set_p(hold ? 0x25 : 0x24);
            rig.call("ai_set_gravity_rows");
            // the reachability check reads row + 2 of the piece m frames after spawn here
            const uint16_t block = static_cast<uint16_t>(rig.sym("gen_rows2") + rig.m.read(rig.sym("sw_rbase")));
            for (int m = 0; m <= 11; ++m) {
                INFO("g " << int(g) << " hold " << hold << " m " << m);
                REQUIRE(rig.m.read(static_cast<uint16_t>(block + m)) == ai::Gravity{g, hold}.row_after(m) + 2);
            }
        }
    }
}

TEST_CASE("routine: the cost of a placement, and making it permanent") {
    Rig rig;
    std::mt19937 rng(4);
    int checked = 0, clears = 0, pruned = 0, pruned_clears = 0, well_holes_free = 0;
    for (int i = 0; i < 300; ++i) {
        const ai::Board b = test::random_board(rng);
        const uint8_t type = static_cast<uint8_t>(rng() % 7);
        const bool danger = i % 3 == 2;
        rig.set_danger(danger);
        ai::for_each_reachable(b, type, ai::Gravity{2, false}, [&](const ai::Target& t) {
            const ai::Placed p = ai::place(b, t);
            rig.put_eb(b);
            rig.call("ai_board_caches");
            rig.m.write(rig.sym("z_o"), t.orientation);
            rig.m.cpu().set_a(t.orientation);
            rig.call("ai_load_target");  // as the sweep does for its target orientation (A = z_o)
            rig.m.write(rig.sym("z_x"), t.x);
            rig.m.write(rig.sym("z_y"), static_cast<uint8_t>(t.landing_y));
            INFO("board " << i << " o " << int(t.orientation) << " x " << int(t.x) << " y " << int(t.landing_y)
                          << " lines " << int(p.lines) << (p.topped_out ? " topped" : "") << (danger ? " in danger" : ""));
            const uint16_t cost = ai::placement_cost(p, ai::default_tables(), false, danger);
            well_holes_free += danger && !p.topped_out && p.board.holes(ai::kColumns - 1) > 0;
            // The search's bound: a placement that costs at least the bound may come back with
            // Z = 0 (its evaluation stopped early, no cost); one below it and every top-out with
            // Z = 1 and its exact cost. (kCostMax last: z_lines is read after a whole evaluation.)
            for (const uint16_t bound : {uint16_t{1}, static_cast<uint16_t>(cost / 2), cost,
                                         static_cast<uint16_t>(cost + 1), uint16_t{ai::kCostMax}}) {
                rig.m.write(rig.sym("best_lo"), static_cast<uint8_t>(bound));
                rig.m.write(rig.sym("best_hi"), static_cast<uint8_t>(bound >> 8));
                rig.m.write16(rig.sym("z_cost"), static_cast<uint16_t>(cost ^ 0x5A5A));  // stale
                rig.call("ai_eval_placement");
                INFO("bound " << bound);
                const bool stopped = (rig.m.cpu().p() & emu::flag::Z) == 0;
                if (stopped) {
                    REQUIRE(!p.topped_out);
                    REQUIRE(cost >= bound);
                    ++pruned;
                    pruned_clears += p.lines > 0;
                } else {
                    REQUIRE(rig.cost() == cost);
                }
            }
            REQUIRE(rig.get_eb() == b);  // unchanged
            if (!p.topped_out) REQUIRE(rig.m.read(rig.sym("z_lines")) == p.lines);
            rig.call("save_spawn_board");
            rig.call("ai_apply_placement");
            REQUIRE(rig.get_eb() == p.board);
            rig.call("restore_spawn_board");
            REQUIRE(rig.get_eb() == b);  // and back
            ++checked;
            clears += p.lines > 0;
        });
    }
    CHECK(checked > 4000);
    CHECK(clears > 25);            // the line-clear path is exercised
    CHECK(pruned > checked / 2);   // and the bound stops evaluations,
    CHECK(pruned_clears > 10);     // line clears too (before the columns are worked out)
    CHECK(well_holes_free > 100);  // and in danger, placements that leave holes in the well
}

TEST_CASE("routine: placements applied and taken off in turn, as the search does") {
    // The search saves the board it starts from, applies a candidate, copies the board back and
    // applies the next: each step is checked against the reference's board, and the caches that
    // the copy brings back against those worked out anew.
    Rig rig;
    std::mt19937 rng(7);
    int sequences = 0, with_clears = 0;
    for (int i = 0; i < 3000; ++i) {
        const ai::Board b = test::random_board(rng);
        const uint8_t type = static_cast<uint8_t>(rng() % 7);
        std::vector<ai::Target> targets;
        ai::for_each_reachable(b, type, ai::Gravity{2, false}, [&](const ai::Target& t) { targets.push_back(t); });
        if (targets.empty()) continue;
        rig.put_eb(b);
        rig.call("ai_prepare_board");
        rig.call("save_spawn_board");
        const std::vector<uint8_t> caches = rig.eb_caches();
        for (int step = 0; step < 3; ++step) {
            const ai::Target& t = targets[rng() % targets.size()];
            const ai::Placed p = ai::place(b, t);
            INFO("board " << i << " step " << step << " o " << int(t.orientation) << " x " << int(t.x) << " y "
                          << int(t.landing_y) << " lines " << int(p.lines));
            rig.m.write(rig.sym("z_o"), t.orientation);
            rig.m.write(rig.sym("z_x"), t.x);
            rig.m.write(rig.sym("z_y"), static_cast<uint8_t>(t.landing_y));
            rig.call("ai_apply_placement");
            REQUIRE(rig.get_eb() == p.board);
            rig.call("restore_spawn_board");
            REQUIRE(rig.get_eb() == b);
            REQUIRE(rig.eb_caches() == caches);
            with_clears += p.lines > 0;
        }
        ++sequences;
    }
    CHECK(sequences > 2500);
    CHECK(with_clears > 50);
}

TEST_CASE("routine: level after cleared lines") {
    Rig rig;
    std::mt19937 rng(5);
    for (int i = 0; i < 2000; ++i) {
        ai::LevelState s;
        s.level = static_cast<uint8_t>(rng() % 40);
        const unsigned lines = rng() % 400;
        s.lines_lo = static_cast<uint8_t>((lines / 10 % 10) << 4 | lines % 10);
        s.lines_hi = static_cast<uint8_t>(lines / 100);
        s.b_type = rng() % 5 == 0;
        const uint8_t n = static_cast<uint8_t>(rng() % 5);
        rig.m.write(rig.sym("s_level"), s.level);
        rig.m.write(rig.sym("s_lines_lo"), s.lines_lo);
        rig.m.write(rig.sym("s_lines_hi"), s.lines_hi);
        rig.m.write(rig.sym("s_btype"), s.b_type);
        rig.m.cpu().set_a(n);
        rig.call("ai_after_lines");
        const ai::LevelState want = ai::after_lines(s, n);
        INFO("level " << int(s.level) << " lines " << lines << " + " << int(n));
        REQUIRE(rig.m.read(rig.sym("s_level")) == want.level);
        REQUIRE(rig.m.read(rig.sym("s_lines_lo")) == want.lines_lo);
        REQUIRE(rig.m.read(rig.sym("s_lines_hi")) == want.lines_hi);
    }
}

TEST_CASE("table: gen_halo holds the two neighbours of every run that fits in a row") {
    Rig r;
    const uint16_t lo = r.sym("gen_halo_lo"), hi = r.sym("gen_halo_hi");
    int checked = 0;
    for (int n = 1; n <= 4; ++n)
        for (int left = 0; left + n + 1 <= 11; ++left) {  // the right neighbour is at most the wall, cell 11
            const uint16_t want = static_cast<uint16_t>(1u << left | 1u << (left + n + 1));
            const uint16_t entry = static_cast<uint16_t>(r.sym(("HALO_BLOCK_" + std::to_string(n)).c_str()) + left);
            const uint16_t got = static_cast<uint16_t>(r.m.read(static_cast<uint16_t>(lo + entry)) |
                                                       r.m.read(static_cast<uint16_t>(hi + entry)) << 8);
            INFO("run of " << n << " cells, left neighbour " << left);
            CHECK(got == want);
            ++checked;
        }
    CHECK(checked == 34);
}

TEST_CASE("routine: a placement's cost does not depend on the placements evaluated before it") {
    // Placements of every type, in a shuffled order, so the orientation whose row data is at
    // hand changes between any two of them (a run's neighbour index must not carry into the
    // next row's: caught here first).
    Rig rig;
    std::mt19937 rng(44);
    for (int i = 0; i < 100; ++i) {
        const ai::Board b = test::random_board(rng);
        std::vector<ai::Target> targets;
        for (uint8_t type = 0; type < ai::kPieceTypes; ++type)
            ai::for_each_reachable(b, type, ai::Gravity{2, false}, [&](const ai::Target& t) { targets.push_back(t); });
        std::shuffle(targets.begin(), targets.end(), rng);
        const bool danger = i % 2;
        rig.set_danger(danger);
        rig.put_eb(b);
        rig.call("ai_board_caches");
        rig.m.write(rig.sym("best_lo"), 0xFF);
        rig.m.write(rig.sym("best_hi"), 0xFF);
        ai::Target previous{};
        for (const ai::Target& t : targets) {
            INFO("after o " << int(previous.orientation) << " x " << int(previous.x) << " y " << int(previous.landing_y));
            previous = t;
            rig.m.write(rig.sym("z_o"), t.orientation);
            rig.m.cpu().set_a(t.orientation);
            rig.call("ai_load_target");
            rig.m.write(rig.sym("z_x"), t.x);
            rig.m.write(rig.sym("z_y"), static_cast<uint8_t>(t.landing_y));
            rig.call("ai_eval_placement");
            INFO("board " << i << " o " << int(t.orientation) << " x " << int(t.x) << " y " << int(t.landing_y));
            REQUIRE(rig.cost() == ai::placement_cost(ai::place(b, t), ai::default_tables(), false, danger));
        }
    }
}


TEST_CASE("routine: the coach's count and class of a lock") {
    // coach_grade counts the lock, matched when it is where the ghost is; when the full search
    // decided the piece (grade_ready for plan_id), a match is best at once (coach_class) and a
    // miss waits for the next piece's spawn search (grade_pending).
    Rig rig;
    std::mt19937 rng(33);
    for (int i = 0; i < 300; ++i) {
        const bool same = rng() % 2, ready = rng() % 4 != 0, ready_for_it = rng() % 4 != 0;
        const uint8_t x = static_cast<uint8_t>(rng() % 10), y = static_cast<uint8_t>(rng() % 20),
                      o = static_cast<uint8_t>(rng() % 19), id = static_cast<uint8_t>(rng());
        rig.m.write(tetris::tetriminoX, x);
        rig.m.write(tetris::tetriminoY, y);
        rig.m.write(tetris::currentPiece, o);
        const int off = same ? 0 : static_cast<int>(rng() % 3);  // the field that differs
        rig.m.write(rig.sym("ghost_x"), static_cast<uint8_t>(x + (!same && off == 0)));
        rig.m.write(rig.sym("ghost_y"), static_cast<uint8_t>(y + (!same && off == 1)));
        rig.m.write(rig.sym("ghost_o"), static_cast<uint8_t>(o + (!same && off == 2)));
        rig.m.write(rig.sym("plan_id"), id);
        rig.m.write(rig.sym("grade_ready"), ready);
        rig.m.write(rig.sym("grade_ready_id"), ready_for_it ? id : static_cast<uint8_t>(id + 1));
        rig.m.write(rig.sym("grade_pending"), 0);
        const uint16_t total = static_cast<uint16_t>(rng() % 3000), matched = static_cast<uint16_t>(rng() % (total + 1));
        rig.m.write16(rig.sym("grade_total"), total);
        rig.m.write16(rig.sym("grade_matched"), matched);
        for (int c = 0; c < ai::kLockClasses; ++c) {
            rig.m.write(static_cast<uint16_t>(rig.sym("class_lo") + c), 0);
            rig.m.write(static_cast<uint16_t>(rig.sym("class_hi") + c), 0);
        }
        rig.m.write16(rig.sym("grade_points"), 0);
        rig.m.write16(rig.sym("grade_tenths"), 0);
        rig.m.write(rig.sym("grade_lines"), 3);
        rig.call("coach_grade");
        INFO("lock " << i << (same ? ", matched" : ", missed") << (ready && ready_for_it ? ", decided" : ""));
        CHECK(rig.m.read16(rig.sym("grade_total")) == total + 1);
        CHECK(rig.m.read16(rig.sym("grade_matched")) == matched + same);
        CHECK(rig.m.read(rig.sym("ghost_x")) == hooks::GHOST_NONE);  // once
        CHECK(rig.m.read(rig.sym("grade_lines")) == 0);               // the lock's lines counted from 0
        const bool classed_now = ready && ready_for_it && same;
        CHECK(rig.m.read(rig.sym("class_lo")) == (classed_now ? 1 : 0));
        CHECK(rig.m.read(rig.sym("grade_shown")) == (classed_now ? 101 : rig.m.read(rig.sym("grade_shown"))));
        CHECK((rig.m.read(rig.sym("grade_pending")) != 0) == (ready && ready_for_it && !same));
        if (ready && ready_for_it && !same) CHECK(rig.m.read(rig.sym("grade_pending_id")) == static_cast<uint8_t>(id + 1));
        // graded: a second call counts nothing
        rig.call("coach_grade");
        CHECK(rig.m.read16(rig.sym("grade_total")) == total + 1);
    }
}

TEST_CASE("routine: the coach's class of a miss, its counts and the accuracy") {
    // coach_class_miss: the person's total (the lock's lines by the decision's lines table, plus
    // the first ply's best cost: the top-out cost when nothing is reachable) less the decision's
    // best total for the searched type, 0 below; its class (ai::lock_class); coach_class counts
    // it and divides the points by the tenths as ai::coach_accuracy does.
    Rig rig;
    std::mt19937 rng(34);
    const std::array<uint8_t, 3> offsets = {0, ai::kLinesDangerOffset, ai::kLinesFastOffset};
    std::array<uint16_t, ai::kLockClasses> counts{};
    uint16_t points = 0, classed = 0;
    for (int c = 0; c < ai::kLockClasses; ++c) {
        rig.m.write(static_cast<uint16_t>(rig.sym("class_lo") + c), 0);
        rig.m.write(static_cast<uint16_t>(rig.sym("class_hi") + c), 0);
    }
    rig.m.write16(rig.sym("grade_points"), 0);
    rig.m.write16(rig.sym("grade_tenths"), 0);
    std::array<int, ai::kLockClasses> seen{};
    for (int i = 0; i < 600; ++i) {
        const uint8_t type = static_cast<uint8_t>(rng() % ai::kPieceTypes), lines = static_cast<uint8_t>(rng() % 5);
        const uint8_t table = offsets[rng() % 3];
        const bool reachable = rng() % 20 != 0;
        // misses around the thresholds, and far
        const uint16_t ai_total = static_cast<uint16_t>(rng() % 3000);
        const uint16_t first_ply = rng() % 30 == 0 ? ai::kCostMax : static_cast<uint16_t>(ai_total + rng() % 700 - 200);
        for (uint8_t t = 0; t < ai::kPieceTypes; ++t) {
            rig.m.write(static_cast<uint16_t>(rig.sym("grade_best_lo") + t), static_cast<uint8_t>(t == type ? ai_total : rng()));
            rig.m.write(static_cast<uint16_t>(rig.sym("grade_best_hi") + t), static_cast<uint8_t>(t == type ? ai_total >> 8 : rng()));
        }
        rig.m.write(rig.sym("s_type"), type);
        rig.m.write(rig.sym("grade_lines"), lines);
        rig.m.write(rig.sym("grade_lines_off"), table);
        rig.m.write(rig.sym("cand_count"), reachable ? 1 + rng() % 3 : 0);
        rig.m.write(rig.sym("cand_cost_lo"), static_cast<uint8_t>(first_ply));
        rig.m.write(rig.sym("cand_cost_hi"), static_cast<uint8_t>(first_ply >> 8));
        rig.call("coach_class_miss");
        const ai::EvalTables& tables = ai::default_tables();
        const std::array<uint16_t, 5>& lines_table =
            table == 0 ? tables.lines : table == ai::kLinesDangerOffset ? tables.lines_danger : tables.lines_fast;
        const uint16_t person = reachable ? ai::saturating_add(lines_table[lines], first_ply) : ai::kCostMax;
        const uint16_t miss = person > ai_total ? static_cast<uint16_t>(person - ai_total) : 0;
        const uint8_t c = static_cast<uint8_t>(ai::lock_class(miss));
        ++seen[c];
        ++counts[c];
        ++classed;
        points = static_cast<uint16_t>(points + ai::kClassPoints[c]);
        INFO("miss " << miss << ", class " << int(c));
        REQUIRE(rig.m.read(rig.sym("class_shown")) == c);
        REQUIRE(rig.m.read(rig.sym("class_timer")) == hooks::CLASS_FRAMES);
        for (int k = 0; k < ai::kLockClasses; ++k)
            REQUIRE((rig.m.read(static_cast<uint16_t>(rig.sym("class_lo") + k)) |
                     rig.m.read(static_cast<uint16_t>(rig.sym("class_hi") + k)) << 8) == counts[k]);
        REQUIRE(rig.m.read16(rig.sym("grade_points")) == points);
        REQUIRE(rig.m.read16(rig.sym("grade_tenths")) == classed * 10);
        REQUIRE(rig.m.read(rig.sym("grade_shown")) == ai::coach_accuracy(points, classed) + 1);
    }
    for (int n : seen) CHECK(n > 0);  // every class was taken
}

TEST_CASE("routine: the coach's box: the class's label for its frames, else the accuracy, labelled under the curtain") {
    Rig rig;
    std::mt19937 rng(35);
    for (int i = 0; i < 400; ++i) {
        game::GradeShown box;
        box.shown = static_cast<uint8_t>(i < 102 ? i : rng() % 102);
        box.class_shown = static_cast<uint8_t>(rng() % ai::kLockClasses);
        box.class_timer = static_cast<uint8_t>(rng() % 3 == 0 ? rng() % (hooks::CLASS_FRAMES + 1) : 0);
        box.curtain = rng() % 3 == 0;
        for (unsigned a = 0; a < 0x100; ++a) rig.m.write(static_cast<uint16_t>(tetris::oamStaging + a), 0xFF);
        rig.m.write(tetris::renderMode, tetris::RENDER_MODE_PLAY);
        rig.m.write(tetris::playState, box.curtain ? tetris::PLAY_STATE_CURTAIN : tetris::PLAY_STATE_ACTIVE);
        rig.m.write(rig.sym("plan_ok"), 0);
        rig.m.write(tetris::completedLines, 0);
        rig.m.write(rig.sym("grade_shown"), box.shown);
        rig.m.write(rig.sym("class_shown"), box.class_shown);
        rig.m.write(rig.sym("class_timer"), box.class_timer);
        rig.call("coach_ghost");
        std::array<uint8_t, 0x100> want;
        want.fill(0xFF);
        const game::GradeOam oam = game::expected_grade_oam(box);
        std::copy(oam.begin(), oam.end(), want.begin() + hooks::CLASS_OAM);
        INFO("accuracy + 1 " << int(box.shown) << ", class " << int(box.class_shown) << " for " << int(box.class_timer)
                             << (box.curtain ? ", curtain" : ""));
        for (unsigned a = 0; a < 0x100; ++a)  // the box's sprites, and nothing else
            REQUIRE(rig.m.read(static_cast<uint16_t>(tetris::oamStaging + a)) == want[a]);
        CHECK(rig.m.read(rig.sym("class_timer")) == (box.class_timer ? box.class_timer - 1 : 0));
        if (box.class_timer) {  // the label's last letter in its fourth slot, at the ones' x
            CHECK(oam[4 * 3 + 1] == ai::label_tiles(ai::class_label(static_cast<ai::LockClass>(box.class_shown))).back());
            CHECK(oam[4 * 3 + 3] == hooks::GRADE_ONES_X);
        }
        else if (box.shown) CHECK(oam[hooks::GRADE_ONES_X - hooks::CLASS_OAM + 1] == (box.shown - 1) % 10);
    }
    // the lines a lock makes, while the game counts them
    rig.m.write(rig.sym("grade_lines"), 0);
    rig.m.write(tetris::completedLines, 3);
    rig.call("coach_ghost");
    CHECK(rig.m.read(rig.sym("grade_lines")) == 3);
    rig.m.write(tetris::completedLines, 0);
    rig.call("coach_ghost");
    CHECK(rig.m.read(rig.sym("grade_lines")) == 3);
}
