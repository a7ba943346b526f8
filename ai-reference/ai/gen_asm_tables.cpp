// nestris-gen: writes the cartridge's copy of the AI's tables (piece geometry, rotation choices,
// gravity, row transitions and the evaluation tables expanded from weights.txt) as a ca65
// include. The C++ side is the single source; this include is generated at build time.
#include "ai-reference/ai/ai_coach.hpp"
#include "ai-reference/ai/ai_crash_rule.hpp"
#include "ai-reference/ai/ai_eval.hpp"
#include "ai-reference/ai/ai_geometry.hpp"
#include "ai-reference/ai/ai_search.hpp"
#include "ai-reference/model/frame_time.hpp"
#include "ai-reference/model/pieces.hpp"
#include "base/file_io.hpp"
#include "base/hex.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <span>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace nestris;
using namespace nestris::ai;

namespace {

std::string bytes(const std::vector<int>& v) {
    std::ostringstream o;
    for (size_t i = 0; i < v.size(); ++i) {
        if (i % 16 == 0) o << (i ? "\n" : "") << "    .byte ";
        else o << ",";
        o << hex(static_cast<unsigned>(v[i] & 0xFF), 2);
    }
    return o.str() + "\n";
}

// Each table in a segment of its own: RAM_ (unpacked into PRG-RAM with the code), or PACK_ (in
// ROM, as it is: the crash rule's, which the harnesses empty in a ROM to measure games without it,
// tools/harness/ai_game_original.cpp without_crash_rule). The assembler driver places both.
void table(std::ostream& o, const std::string& name, const std::vector<int>& v, const char* prefix = "RAM_") {
    o << ".segment \"" << prefix << name << "\"\n" << name << ":\n" << bytes(v);
}

// An entry the cartridge never reads (overlapped() lets it hold whatever is there).
constexpr int kAny = -1;

struct Table {
    std::string name;
    std::vector<int> v;  // bytes, or kAny
};

// Tables that share bytes, in one segment (named after the first): each starts at the first offset
// where its entries agree with the bytes already there (a kAny entry agrees with any byte), the
// rest appended. So a table's head may lie in the tail of the one before (runs of zeros), a table
// inside another, and two tables read at even entries only interleave. kAny bytes no table
// covers are written as 0, but at the end, where they are left out.
void overlapped(std::ostream& o, const std::vector<Table>& tables) {
    std::vector<int> s;
    std::vector<std::pair<size_t, std::string>> labels;  // offset, table
    for (const Table& t : tables) {
        size_t at = 0;
        for (;; ++at) {
            bool fits = true;
            for (size_t k = 0; k < t.v.size() && fits; ++k)
                fits = t.v[k] == kAny || at + k >= s.size() || s[at + k] == kAny || s[at + k] == t.v[k];
            if (fits) break;
        }
        if (s.size() < at + t.v.size()) s.resize(at + t.v.size(), kAny);
        for (size_t k = 0; k < t.v.size(); ++k)
            if (t.v[k] != kAny) s[at + k] = t.v[k];
        labels.emplace_back(at, t.name);
    }
    while (!s.empty() && s.back() == kAny) s.pop_back();
    std::stable_sort(labels.begin(), labels.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    o << ".segment \"RAM_" << tables.front().name << "\"\n";
    size_t written = 0;
    for (size_t i = 0; i <= labels.size(); ++i) {
        const size_t end = i < labels.size() ? labels[i].first : s.size();
        if (end > written) {
            std::vector<int> run(s.begin() + static_cast<std::ptrdiff_t>(written), s.begin() + static_cast<std::ptrdiff_t>(end));
            for (int& b : run) b = b == kAny ? 0 : b;
            o << bytes(run);
            written = end;
        }
        if (i < labels.size()) o << labels[i].second << ":\n";
    }
}

// A 16-bit table's low and high bytes as two tables (name_lo, name_hi) for overlapped(); kAny
// entries stay kAny in both.
std::pair<Table, Table> split16(const std::string& name, const std::vector<int>& v) {
    Table lo{name + "_lo", {}}, hi{name + "_hi", {}};
    for (int x : v) {
        lo.v.push_back(x == kAny ? kAny : x & 0xFF);
        hi.v.push_back(x == kAny ? kAny : x >> 8);
    }
    return {lo, hi};
}

template <size_t N>
std::vector<int> entries(const std::array<uint16_t, N>& v) {
    return std::vector<int>(v.begin(), v.end());
}

// Two tables as one: b's entries after a's (the cartridge adds a's size to index b).
template <size_t N, size_t M>
std::array<uint16_t, N + M> one_after_other(const std::array<uint16_t, N>& a, const std::array<uint16_t, M>& b) {
    std::array<uint16_t, N + M> both{};
    std::copy(a.begin(), a.end(), both.begin());
    std::copy(b.begin(), b.end(), both.begin() + N);
    return both;
}

// A 16-bit table as two byte tables: name_lo, name_hi.
template <size_t N>
void table16(std::ostream& o, const std::string& name, const std::array<uint16_t, N>& v) {
    std::vector<int> lo, hi;
    for (uint16_t x : v) {
        lo.push_back(x & 0xFF);
        hi.push_back(x >> 8);
    }
    table(o, name + "_lo", lo);
    table(o, name + "_hi", hi);
}

// The first index from which every entry of v equals the last: the cartridge keeps v up to it and
// clamps its index there (asm/ai.inc: holes_of_column, clamp_gap_y), the rest being that value.
template <size_t N>
size_t saturated_from(const std::array<uint16_t, N>& v) {
    size_t first = N - 1;
    while (first > 0 && v[first - 1] == v[N - 1]) --first;
    return first;
}

// A table whose tail repeats one value, kept up to saturated_from (inclusive).
template <size_t N>
std::vector<int> saturating(const std::array<uint16_t, N>& v) {
    return std::vector<int>(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(saturated_from(v)) + 1);
}

// The crash rule (ai_crash_rule.hpp): by class 2 * lines + tens - 2 (0-7), the first spawn level
// it bars and how many (the cartridge tests level - first < count); the ranges of levels where the
// preview is kept hidden, the same way.
std::vector<int> range_field(std::span<const LevelRange> ranges, bool count) {
    std::vector<int> out;
    for (const LevelRange& r : ranges) out.push_back(count ? r.count : r.first);
    return out;
}

// The two neighbours of a run of n cells (n = 1-4) in a row whose left neighbour is cell i (the
// run's first column): entry halo.base[n] + i holds bit i | bit i + n + 1 (a row's bits: the left
// wall, columns 0-9, the right wall), for every i whose right neighbour is at most the right wall
// (cell 11). One block of entries a length, each at the first offset where it fits (low and high
// byte both agree: none do).
struct Halo {
    std::array<int, 5> base{};  // by the run's cells n (1-4)
    std::vector<int> lo, hi;
};
Halo halo_blocks() {
    Halo h;
    for (int n : {2, 1, 3, 4}) {  // (the runs of 2 first: their zeros end gen_bit_hi's, see generate)
        std::vector<int> block;
        for (int i = 0; i + n + 1 <= 11; ++i) block.push_back(1 << i | 1 << (i + n + 1));
        size_t at = 0;
        for (;; ++at) {
            bool fits = true;
            for (size_t k = 0; k < block.size() && at + k < h.lo.size(); ++k)
                fits &= (h.lo[at + k] | h.hi[at + k] << 8) == block[k];
            if (fits) break;
        }
        for (size_t k = 0; k < block.size(); ++k)
            if (at + k >= h.lo.size()) {
                h.lo.push_back(block[k] & 0xFF);
                h.hi.push_back(block[k] >> 8);
            }
        h.base[static_cast<size_t>(n)] = static_cast<int>(at);
    }
    return h;
}

std::string generate(const EvalTables& tables) {
    std::ostringstream o;
    o << "; Generated by nestris-gen from ai-reference (pieces.hpp, ai_geometry, weights.txt).\n"
         "; Do not edit: change the C++ side and rebuild.\n\n";

    // Per orientation: extent, cells, per-column lowest/highest cell.
    // Row offsets are stored +2 (cells lie at dy -2..1), so the cartridge compares unsigned.
    // Per column of an orientation one byte: (highest cell + 2) << 2 | (lowest cell + 2).
    std::vector<int> min_dx, width, columns, min_dy2;
    for (uint8_t o2 = 0; o2 < kOrientations; ++o2) {
        const Shape& s = shape(o2);
        min_dx.push_back(s.min_dx);
        width.push_back(s.width());
        int lowest_dy = 127;
        for (int i = 0; i < 4; ++i) {
            lowest_dy = std::min<int>(lowest_dy, s.cell_dy[i]);
            columns.push_back(i < s.width() ? ((s.top_dy[i] + 2) << 2) | (s.bottom_dy[i] + 2) : kAny);
        }
        min_dy2.push_back(lowest_dy + 2);
    }
    // Per row of an orientation (slots dy + 2 = 0..3) its run of cells: every row of a tetromino
    // is one run, which lets the cartridge update a row's transitions from the run's two
    // neighbours alone. Byte: 0 (no cell in that row) or (leftmost dx + 2) << 4 | length.
    std::vector<int> runs;
    for (uint8_t o2 = 0; o2 < kOrientations; ++o2) {
        const Shape& sh = shape(o2);
        for (int slot = 0; slot < 4; ++slot) {
            int left = 99, right = -99, count = 0;
            for (int i = 0; i < 4; ++i)
                if (sh.cell_dy[i] + 2 == slot) {
                    left = std::min<int>(left, sh.cell_dx[i]);
                    right = std::max<int>(right, sh.cell_dx[i]);
                    ++count;
                }
            if (count && right - left + 1 != count) throw std::logic_error("a piece row is not one run");
            runs.push_back(count ? ((left + 2) << 4) | count : 0);
        }
    }
    // The evaluation's view of the same rows, top down: how many + 4 (its class count when every
    // run lands between two empty cells: one class more a row, + 4 to keep it positive), and per
    // row (aligned with the
    // last of 4 slots) gen_halo's entry + 2 for its run at column 0 (the entry of a run of n
    // cells whose left neighbour is cell i is halo.base[n] + i; the left neighbour of a run
    // starting at column c is cell c). The top row's slot is gen_shape_min_dy2 (the cartridge
    // finds the top row from it). The slots before the top row's are never read (kAny).
    const Halo halo = halo_blocks();
    std::vector<int> row_classes, row_halo;
    for (uint8_t o2 = 0; o2 < kOrientations; ++o2) {
        std::vector<int> entries;
        int top = -1;
        for (int slot = 0; slot < 4; ++slot) {
            const int run = runs[4u * o2 + static_cast<unsigned>(slot)];
            if (!run) continue;
            if (top < 0) top = slot;
            entries.push_back((run >> 4) + halo.base[static_cast<size_t>(run & 0x0F)]);
        }
        row_classes.push_back(static_cast<int>(entries.size()) + 4);
        if (top != min_dy2[o2]) throw std::logic_error("the top row is not the highest cell's");
        for (size_t i = entries.size(); i < 4; ++i) row_halo.push_back(kAny);
        for (int e : entries) row_halo.push_back(e);
    }
    o << "; ---- piece geometry (orientation ids 0-18); row offsets + 2 ----\n";
    overlapped(o, {{"gen_shape_runs", runs},      // 4 per orientation, by row slot
                   {"gen_row_halo", row_halo}});  // 4 per orientation
    table(o, "gen_row_classes", row_classes);
    table(o, "gen_shape_min_dx", min_dx);
    table(o, "gen_shape_width", width);
    table(o, "gen_shape_min_dy2", min_dy2);       // the highest cell
    overlapped(o, {{"gen_shape_column", columns}});  // 4 per orientation, by column offset (kAny: 0)

    // The bit of cell i of a row (i = column + 1: 1-10; the walls' bits are never looked up) in
    // its low byte (cells 0-7) and high byte (cells 8-11), and the runs' neighbours (halo_blocks):
    // gen_bit_lo's last zeros are gen_bit_hi's first, and gen_halo_hi's first entries (the runs
    // of 2: five zeros, then 01 02 04) end gen_bit_hi.
    std::vector<int> bit_lo(12, kAny), bit_hi(12, kAny);
    for (int i = 1; i <= 10; ++i) {
        bit_lo[static_cast<size_t>(i)] = (1 << i) & 0xFF;
        bit_hi[static_cast<size_t>(i)] = (1 << i) >> 8;
    }
    o << "\n; ---- a row's bits: cells, and the two neighbours of a run ----\n";
    overlapped(o, {{"gen_bit_lo", bit_lo}, {"gen_bit_hi", bit_hi}, {"gen_halo_hi", halo.hi}});
    overlapped(o, {{"gen_halo_lo", halo.lo}});

    // Rotation choices are slots 0-3: none, A, A+A, B; a type has the first rot_count of them
    // (checked here against the reference's rotations()).
    // The orientations themselves (spawn, after A, after B) the cartridge reads from the game's
    // own tables (spawnTable, rotationTable: tools/harness/cart_ai.cpp game_tables_read_by_ai).
    std::vector<int> rot_count;
    for (uint8_t t = 0; t < kPieceTypes; ++t) {
        const TypeRotations& r = rotations(t);
        static constexpr uint8_t presses[4] = {0, 1, 2, 1};
        for (uint8_t i = 0; i < r.count; ++i) {
            uint8_t o2 = kSpawnOrientation[t];
            for (int k = 0; k < presses[i]; ++k) o2 = i == 3 ? kRotateCounterClockwise[o2] : kRotateClockwise[o2];
            if (r.choice[i].orientation != o2 || r.choice[i].presses != presses[i] || r.choice[i].ccw != (i == 3))
                throw std::logic_error("rotation choices are not the slots none, A, A+A, B");
        }
        rot_count.push_back(r.count);
    }


    // The row of the piece k = 0..11 frames after spawn (+2, as the sweep compares it with
    // landing rows + 2), one block of 12 per gravity: block 0 for the hold and for every gravity
    // slower than 11 frames a row (row 0 throughout), then one per frames-per-drop value 1..11
    // that some level has. gen_gravity_base[g] (g = 0..12, 12 standing for every slower one)
    // is the block's offset. The sweep never asks beyond frame 11 (2 x 5 shifts + 1).
    // The blocks overlap where their values agree (each is placed at the first offset that fits).
    constexpr int kRowFrames = 12;
    std::vector<int> rows2(kRowFrames, 2), base(13, kAny);  // (gravities no level has: never read)
    base[12] = 0;
    std::vector<bool> used(13, false);
    for (int level = 0; level < 256; ++level) {
        const int g = ai::frames_per_drop(static_cast<uint8_t>(level));
        if (g <= 11) used[static_cast<size_t>(g)] = true;
    }
    for (int g = 11; g >= 1; --g) {
        if (!used[static_cast<size_t>(g)]) continue;
        const ai::Gravity gravity{static_cast<uint8_t>(g), false};
        std::vector<int> block;
        for (int k = 0; k < kRowFrames; ++k) block.push_back(gravity.row_after(k) + 2);
        size_t at = 0;
        for (;; ++at) {
            bool fits = true;
            for (size_t k = 0; k < block.size() && at + k < rows2.size(); ++k) fits &= rows2[at + k] == block[k];
            if (fits) break;
        }
        for (size_t k = rows2.size() - at; k < block.size(); ++k) rows2.push_back(block[k]);
        base[static_cast<size_t>(g)] = static_cast<int>(at);
    }
    for (int k = 0; k < kRowFrames; ++k)
        if (ai::Gravity{12, false}.row_after(k) != 0 || ai::Gravity{1, true}.row_after(k) != 0)
            throw std::logic_error("block 0 of gen_rows2 is not row 0 throughout");
    o << "\n; ---- rotation: choices per type (slots none, A, A+A, B) ----\n";
    table(o, "gen_rot_count", rot_count);
    // The blocks' offsets by gravity, and the spawn term's high bytes: its first zeros are the
    // entries of the slowest gravities and of those no level has.
    o << "\n; ---- the piece's row (+2) k frames after spawn, by gravity (gen_gravity_base) ----\n";
    const auto [spawn_lo, spawn_hi] = split16("gen_spawn", entries(tables.spawn));
    overlapped(o, {{"gen_gravity_base", base}, spawn_hi});
    table(o, "gen_rows2", rows2);

    // Rows in the cartridge are 12 bits: bit 0 the left wall, bit c+1 column c, bit 11 the right
    // wall (low byte: wall and columns 0-6; high byte: columns 7-9 and the wall). Transitions are
    // the popcount of row ^ (row >> 1) over bits 0..10, counted by nibbles. Checked against the
    // reference before writing.
    std::vector<int> nibble;
    for (int n = 0; n < 16; ++n) nibble.push_back(__builtin_popcount(static_cast<unsigned>(n)));
    for (int r = 0; r < 1024; ++r) {
        const int row12 = (r << 1) | 1 | 0x800;
        const int lo = row12 & 0xFF, hi = row12 >> 8;
        const int x_lo = (lo ^ ((lo >> 1) | ((hi & 1) << 7))) & 0xFF;
        const int x_hi = (hi ^ (hi >> 1)) & 7;
        const int t = nibble[x_lo & 15] + nibble[x_lo >> 4] + nibble[x_hi];
        if (t != row_transitions(static_cast<uint16_t>(r)))
            throw std::logic_error("the cartridge's row transitions disagree with row_transitions()");
    }
    o << "\n; ---- row transitions: popcount of row ^ (row >> 1), walls in the row ----\n";
    table(o, "gen_nibble_count", nibble);

    // Evaluation tables, 16-bit values as _lo/_hi (overlapped: one table's head in another's tail,
    // where their bytes agree).
    o << "\n; ---- evaluation tables ----\n";
    // More holes, or deeper gaps, than a few cost the same: those tables stop there (HOLE_LAST,
    // GAP_LAST), and the cartridge clamps its index.
    const auto [hole_lo, hole_hi] = split16("gen_hole", saturating(tables.hole));
    const auto [gap_lo, gap_hi] = split16("gen_gap", saturating(tables.gap));
    // The stack term's two tables, one after the other: the cartridge adds STACK_FAST_OFFSET to
    // the index at one row a frame (s_stack_off).
    table16(o, "gen_stack", one_after_other(tables.stack, tables.stack_fast));
    table(o, spawn_lo.name, spawn_lo.v);
    // The well term's two tables, one after the other (one lookup serves both): ready[0..cap],
    // then cover[1..20] from WELL_COVER_OFFSET + 1 (cover[0], never read: the well column is at
    // least one row above the lowest other column, would be ready[cap]'s entry).
    std::vector<int> well = entries(tables.ready);
    for (size_t d = 1; d < tables.cover.size(); ++d) well.push_back(tables.cover[d]);
    const auto [well_lo, well_hi] = split16("gen_well", well);
    table(o, well_lo.name, well_lo.v);
    // The lines term's three tables, one after the other: a search in danger adds
    // LINES_DANGER_OFFSET to the index, one at one row a frame LINES_FAST_OFFSET (s_lines_off).
    const auto [lines_lo, lines_hi] = split16(
        "gen_lines", entries(one_after_other(one_after_other(tables.lines, tables.lines_danger), tables.lines_fast)));
    table(o, lines_lo.name, lines_lo.v);
    overlapped(o, {well_hi, lines_hi});
    // The row cost of a row by its transitions 0..10: row_step x class (a full row: class 0). A
    // row's transitions are even (both walls are filled), so the low and high bytes interleave:
    // gen_row_hi is gen_row_lo + 1 (ai_constants.inc). It shares no byte: ai_row_tables rewrites
    // it, and gen_row_delta, in PRG-RAM in the step of the search's speed.
    std::vector<int> by_transitions(12, 0);
    for (size_t t = 0; t <= 10; t += 2) {
        const int cost = (tables.row_step * (t == 0 ? 0 : static_cast<int>(t) / 2 - 1)) & 0xFFFF;
        by_transitions[t] = cost & 0xFF;
        by_transitions[t + 1] = cost >> 8;
    }
    table(o, "gen_row_lo", by_transitions);
    // A placement's row cost change by its count of class changes d = -4..+4 (entry d + 4),
    // modulo 2^16: added to a 16-bit sum.
    std::vector<int> delta;
    for (int d = -4; d <= 4; ++d) delta.push_back((d * tables.row_step) & 0xFFFF);
    const auto [delta_lo, delta_hi] = split16("gen_row_delta", delta);
    table(o, delta_lo.name, delta_lo.v);
    // (gen_gap_hi's zeros would fit in gen_row_delta_hi's tail, but those 8 bytes, 00 00 00 00
    // 01 02 03 04, are the game's too: tests/tools "the release patches hold our bytes only")
    table(o, delta_hi.name, delta_hi.v);
    overlapped(o, {gap_hi, hole_hi});
    table(o, gap_lo.name, gap_lo.v);
    table(o, "gen_crash_first", range_field(crash_rule().barred, false), "PACK_");
    table(o, "gen_crash_count", range_field(crash_rule().barred, true), "PACK_");
    table(o, "gen_hidden_first", range_field(crash_rule().hidden, false), "PACK_");
    table(o, "gen_hidden_count", range_field(crash_rule().hidden, true), "PACK_");
    table(o, "gen_flip_first", range_field(crash_rule().flipped, false), "PACK_");
    table(o, "gen_flip_count", range_field(crash_rule().flipped, true), "PACK_");
    table(o, "gen_short_first", range_field(crash_rule().barred_short, false), "PACK_");
    table(o, "gen_short_count", range_field(crash_rule().barred_short, true), "PACK_");
    table(o, "gen_soft_drop_first", range_field(crash_rule().soft_drop, false), "PACK_");
    table(o, "gen_soft_drop_count", range_field(crash_rule().soft_drop, true), "PACK_");
    std::vector<int> soft_rows;
    for (uint8_t x = 0; x < kColumns; ++x) soft_rows.push_back(soft_drop_lowest_row(x));
    table(o, "gen_soft_drop_rows", soft_rows);
    // The row-5 preview's columns by level from ROW5_LEVEL, the first less the row's width (mod
    // 256): the driver's scan of row 5 counts its index from -COLUMNS.
    std::vector<int> row5_first, row5_count;
    const CrashRule& rule = crash_rule();
    for (int level = rule.row5_level; rule.row5_level != 0 && level < 256; ++level) {
        const LevelRange r = rule.row5_hidden[static_cast<std::size_t>(level - rule.row5_level)];
        row5_first.push_back((r.first - kColumns) & 0xFF);
        row5_count.push_back(r.count);
    }
    table(o, "gen_row5_scan_first", row5_first);
    table(o, "gen_row5_count", row5_count);
    table(o, hole_lo.name, hole_lo.v);
    // The coach's grade (ai_coach.hpp): each class's most miss, its points toward the accuracy
    // and its four letters in the game's font (A-Z: tiles $0A-$23, '-' $24), then the accuracy's.
    std::vector<int> miss_lo, miss_hi, points, tiles;
    for (uint16_t m : kClassMissMax) {
        miss_lo.push_back(m & 0xFF);
        miss_hi.push_back(m >> 8);
    }
    auto letters = [&](std::string_view label) {
        if (label.size() != class_label(LockClass::Best).size()) throw std::logic_error("the labels are as long");
        for (uint8_t tile : label_tiles(label)) tiles.push_back(tile);
    };
    for (uint8_t c = 0; c < kLockClasses; ++c) {
        points.push_back(kClassPoints[c]);
        letters(class_label(static_cast<LockClass>(c)));
    }
    letters(kAccuracyLabel);
    table(o, "gen_grade_miss_lo", miss_lo);
    table(o, "gen_grade_miss_hi", miss_hi);
    table(o, "gen_grade_points", points);
    table(o, "gen_class_tiles", tiles);
    return o.str();
}

// The constants both languages use, as ca65 equates (included by asm/ai.inc).
std::string generate_constants(const EvalTables& tables) {
    std::ostringstream o;
    o << "; Generated by nestris-gen from ai-reference (ai_search.hpp, ai_eval.hpp, weights.txt).\n"
         "; Do not edit: change the C++ side and rebuild.\n\n";
    o << "KEEP        = " << int(tables.keep) << "     ; K: first-ply candidates kept (weights.txt keep)\n";
    o << "HIDDEN_RANGES = " << kHiddenRanges
      << " ; ranges of levels where the AI keeps the preview hidden (gen_hidden_first, gen_hidden_count)\n";
    o << "HIGH_ROWS = " << int(kHighRows)
      << " ; from level 128 a lock with a cell in rows 0 to HIGH_ROWS - 1 tops out\n";
    o << "SOFT_DROP_RANGES = " << kSoftDropRanges
      << " ; ranges of levels from 128 where the AI soft-drops (gen_soft_drop_first, gen_soft_drop_count), a clear "
         "there as low as gen_soft_drop_rows\n";
    o << "BY_PIECE_LEVEL = " << int(crash_rule().preview_by_piece)
      << " ; the level where the preview is hidden for orientations below HIDDEN_ORIENTATIONS (0: none)\n";
    o << "HIDDEN_ORIENTATIONS = " << int(kHiddenOrientations) << "\n";
    o << "ROW5_LEVEL = " << int(crash_rule().row5_level)
      << " ; from this level (0: none) the preview after a lock with a block in row 5 goes by its column "
         "(gen_row5_scan_first, gen_row5_count)\n";
    o << "KEEP_FAST   = " << int(tables.keep_fast) << "     ; K at one row a frame (keep_fast)\n";
    o << "K_MAX       = " << std::max(int(tables.keep), int(tables.keep_fast)) << "     ; room for the candidates\n";
    o << "KEEP_MARGIN = " << int(tables.keep_margin)
      << "     ; a candidate goes on to the second ply only within this of the best (keep_margin)\n";
    o << "MARGIN_HEIGHT = " << int(tables.margin_height)
      << "   ; ... while the highest of columns 0-8 is below this (margin_height)\n";
    o << "DANGER_HEIGHT = " << int(tables.danger_height)
      << "   ; below level 29, a search from a stack (columns 0-8) this high is in danger (danger_height)\n";
    o << "LINES_DANGER_OFFSET = " << int(kLinesDangerOffset)
      << " ; gen_lines' second table (in danger)\n";
    o << "LINES_FAST_OFFSET = " << int(kLinesFastOffset)
      << " ; gen_lines' third table (at one row a frame)\n";
    o << "SPAWN_X     = " << ai::kSpawnX << "     ; the spawn column\n";
    o << "GAP_MIN_DEPTH = " << kGapMinDepth << "   ; a gap shallower than this costs nothing\n";
    o << "HOLE_LAST   = " << saturated_from(tables.hole)
      << "     ; gen_hole's last entry: more holes cost the same (the index is clamped to it)\n";
    o << "GAP_LAST    = " << saturated_from(tables.gap)
      << "     ; gen_gap's last entry: deeper gaps cost the same (the index is clamped to it)\n";
    o << "ROW_STEP    = " << tables.row_step << "     ; the row term's step a class (row_each)\n";
    o << "ROW_STEP_FAST = " << tables.row_step_fast << "   ; ... at one row a frame (row_fast_each)\n";
    o << "gen_row_hi  = gen_row_lo + 1 ; (interleaved: a row's transitions are even)\n";
    o << "STACK_FAST_OFFSET = " << std::tuple_size_v<decltype(tables.stack)>
      << " ; gen_stack's second table (one row a frame)\n";
    // ai_board_caches leaves the well out of eb_base by reading this entry: it must cost nothing.
    if (tables.ready[kReadyTetris] != 0) throw std::logic_error("the ready table's tetris entry must be 0");
    o << "READY_ZERO  = " << kReadyTetris << "     ; gen_well's ready entry that costs nothing (a tetris ready)\n";
    o << "READY_CAP   = " << kReadyCap << "     ; the well depth gen_well's ready part tells apart\n";
    o << "WELL_COVER_OFFSET = " << kReadyCap
      << " ; gen_well's cover part (its entry 0, never read, is the ready part's last)\n";
    const Halo halo = halo_blocks();
    for (int n = 1; n <= 4; ++n)
        o << "HALO_BLOCK_" << n << " = " << halo.base[static_cast<size_t>(n)]
          << " ; gen_halo's entry of a run of " << n << " cell(s) whose left neighbour is cell 0\n";
    o << "SPAWN_TERM_FIRST = " << kSpawnTermFirst << " ; the spawn term reads the highest of columns SPAWN_TERM_FIRST-8\n";
    o << "PIECE_TYPES = " << kPieceTypes << "     ; the types the preview may show\n";
    o << "LOCK_CLASSES = " << int(kLockClasses) << "    ; the coach's classes of a lock, best first (gen_grade_*)\n";
    o << "CLASS_LETTERS = " << class_label(LockClass::Best).size() << "   ; the letters of a class's label (gen_class_tiles)\n";
    o << "FIRST_PIECE_START_FRAME = " << ai::kFirstPieceStartFrame << " ; a game's first piece: its first input frame\n";
    // The tables ai_tables.inc defines, declared for every file (ai_tables.s exports them).
    o << "\n.global ";
    const std::regex label(R"(^(gen_\w+):$)", std::regex::multiline);
    const std::string text = generate(tables);
    const char* comma = "";
    for (auto it = std::sregex_iterator(text.begin(), text.end(), label); it != std::sregex_iterator(); ++it) {
        o << comma << (*it)[1];
        comma = ", ";
    }
    o << "\n";
    return o.str();
}

// The coach's classes for the web page (web/make_coach_map.cmake puts them beside the RAM
// addresses): their names, four-letter labels and points, best first, as JSON.
std::string generate_coach_json() {
    std::ostringstream o;
    auto list = [&](const char* key, auto item) {
        o << "\"" << key << "\":[";
        for (uint8_t c = 0; c < kLockClasses; ++c) o << (c ? "," : "") << item(static_cast<LockClass>(c));
        o << "]";
    };
    o << "{";
    list("names", [](LockClass c) { return "\"" + std::string(class_name(c)) + "\""; });
    o << ",";
    list("labels", [](LockClass c) { return "\"" + std::string(class_label(c)) + "\""; });
    o << ",";
    list("points", [](LockClass c) { return std::to_string(kClassPoints[static_cast<uint8_t>(c)]); });
    o << "}\n";
    return o.str();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::string(argv[1]) == "--version") {  // it makes the tables the build id covers: none of its own
        std::cout << NESTRIS_VERSION << " (the cartridge's table generator: the build id is what it makes)\n";
        return 0;
    }
    if ((argc != 5 && argc != 7) || std::string(argv[1]) != "--asm-tables" || std::string(argv[3]) != "--asm-constants" ||
        (argc == 7 && std::string(argv[5]) != "--coach-json")) {
        std::cerr << "usage: nestris-gen --asm-tables TABLES.inc --asm-constants CONSTANTS.inc [--coach-json COACH.json]\n"
                     "Writes the cartridge's AI tables and constants, generated from the C++ reference, and the\n"
                     "coach's classes for the web page.\n";
        return 2;
    }
    try {
        write_text_atomically(argv[2], generate(default_tables()));
        write_text_atomically(argv[4], generate_constants(default_tables()));
        if (argc == 7) write_text_atomically(argv[6], generate_coach_json());
    } catch (const std::exception& e) {
        std::cerr << "nestris-gen: error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
