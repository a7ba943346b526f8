#include "ai-reference/ai/ai_eval.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>

namespace nestris::ai {
namespace {

uint16_t capped(int64_t v, uint16_t cap) { return static_cast<uint16_t>(std::clamp<int64_t>(v, 0, cap)); }

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

EvalSet expand_set(const Weights& w) {
    auto p = [&](const char* key) -> int64_t { return w.get(key); };
    EvalSet e;
    for (int i = 0; i <= 20; ++i) {
        e.hole[i] = capped(i == 0 ? 0 : p("hole_first") + p("hole_each") * (i - 1), kCapHole);
        const int64_t over_stack = std::max<int64_t>(0, i - p("stack_free"));
        e.stack[i] = capped(p("stack_lin") * over_stack + p("stack_sq") * over_stack * over_stack, kCapStack);
        const int64_t over_fast = std::max<int64_t>(0, i - p("stack_fast_free"));
        e.stack_fast[i] = capped(p("stack_fast_lin") * over_fast + p("stack_fast_sq") * over_fast * over_fast, kCapStack);
        e.gap[i] = capped(i < kGapMinDepth ? 0 : p("gap_first") + p("gap_each") * (i - kGapMinDepth), kCapGap);
        const int64_t over_spawn = std::max<int64_t>(0, i - p("spawn_free"));
        e.spawn[i] = capped(p("spawn_sq") * over_spawn * over_spawn, kCapSpawn);
        e.cover[i] = capped(i == 0 ? 0 : p("cover_first") + p("cover_each") * (i - 1), kCapWell);
    }
    for (int r = 0; r <= kReadyCap; ++r)
        e.ready[r] = capped(p("ready_each") * (kReadyTetris - std::min(r, kReadyTetris)) +
                                p("ready_over") * std::max(0, r - kReadyTetris),
                            kCapWell);
    for (int n = 0; n <= 4; ++n) {
        e.lines[n] = capped(p(("lines" + std::to_string(n)).c_str()), kCapLines);
        const bool burn = n >= 1 && n <= 3;
        e.lines_danger[n] = burn ? capped(int64_t{e.lines[n]} - p("danger_burn"), kCapLines) : e.lines[n];
        e.lines_fast[n] = capped(p(("lines_fast" + std::to_string(n)).c_str()), kCapLines);
    }
    e.danger_height = static_cast<uint8_t>(p("danger_height"));
    e.row_step = capped(p("row_each"), kCapRowStep);
    e.row_step_fast = capped(p("row_fast_each"), kCapRowStep);
    e.keep = static_cast<uint8_t>(p("keep"));
    e.keep_fast = static_cast<uint8_t>(p("keep_fast"));
    e.keep_margin = static_cast<uint16_t>(p("keep_margin"));
    e.margin_height = static_cast<uint8_t>(p("margin_height"));
    return e;
}

}  // namespace

const std::vector<std::string>& weight_names() {
    static const std::vector<std::string> names = {
        "hole_first", "hole_each",  "stack_free",  "stack_sq",   "spawn_free", "spawn_sq",
        "ready_each", "ready_over", "cover_first", "cover_each", "lines0",     "lines1",
        "lines2",     "lines3",     "lines4",      "row_each",   "stack_lin",  "gap_first",
        "gap_each",   "stack_fast_free", "stack_fast_lin", "stack_fast_sq", "danger_height",
        "danger_burn", "lines_fast0", "lines_fast1", "lines_fast2", "lines_fast3", "lines_fast4", "row_fast_each"};
    return names;
}

const std::vector<std::string>& search_parameter_names() {
    static const std::vector<std::string> names = {"keep", "keep_fast", "keep_margin", "margin_height"};
    return names;
}

int Weights::get(std::string_view key) const {
    auto k = values.find(std::string(key));
    if (k == values.end()) throw WeightsError("weights: no value for '" + std::string(key) + "'");
    return k->second;
}

Weights parse_weights(std::string_view text) {
    Weights w;
    int line_number = 0;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos) eol = text.size();
        std::string_view line = text.substr(pos, eol - pos);
        pos = eol + 1;
        ++line_number;
        if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
        line = trim(line);
        if (line.empty()) continue;
        auto fail = [&](const std::string& why) {
            throw WeightsError("weights line " + std::to_string(line_number) + ": " + why);
        };
        const size_t eq = line.find('=');
        if (eq == std::string_view::npos) fail("expected 'name = value'");
        const std::string key(trim(line.substr(0, eq)));
        const std::string_view value = trim(line.substr(eq + 1));
        const auto& names = weight_names();
        const auto& search = search_parameter_names();
        const bool is_search = std::find(search.begin(), search.end(), key) != search.end();
        if (!is_search && std::find(names.begin(), names.end(), key) == names.end())
            fail("unknown weight '" + key + "'");
        if (w.values.count(key)) fail("'" + key + "' given twice");
        int v = 0;
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
        if (ec != std::errc{} || end != value.data() + value.size()) fail("'" + key + "' needs an integer");
        if (v < 0 || v > 65535) fail("'" + key + "' must be 0..65535");
        if ((key == "keep" || key == "keep_fast") && (v < 1 || v > kMaxKeep))
            fail("'" + key + "' must be 1.." + std::to_string(kMaxKeep));
        if ((key == "margin_height" || key == "danger_height") && v > kRows + 1)
            fail("'" + key + "' must be 0.." + std::to_string(kRows + 1));
        w.values[key] = v;
    }
    for (const std::string& name : weight_names()) (void)w.get(name);
    for (const std::string& name : search_parameter_names()) (void)w.get(name);
    return w;
}

std::string format_weights(const Weights& w) {
    std::ostringstream out;
    for (const std::string& name : weight_names()) out << name << " = " << w.get(name) << "\n";
    for (const std::string& name : search_parameter_names()) out << name << " = " << w.get(name) << "\n";
    return out.str();
}

EvalTables expand_tables(const Weights& w) { return expand_set(w); }

const EvalTables& default_tables() {
    static const EvalTables t = expand_tables(default_weights());
    return t;
}

uint8_t row_transitions(uint16_t row) {
    const uint32_t cells = row | 0x400u;          // the right wall as column 10
    const uint32_t left = (cells << 1) | 1u;       // each cell's left neighbour, the left wall first
    return static_cast<uint8_t>(__builtin_popcount((cells ^ left) & 0x7FFu));
}

uint8_t row_class(uint16_t row) {
    const uint8_t t = row_transitions(row);
    return t == 0 ? 0 : static_cast<uint8_t>(t / 2 - 1);
}

uint8_t gap_depth(const Board& b, int c) {
    const int left = c == 0 ? kRows : b.height[c - 1];
    const int below = std::min<int>(left, b.height[c + 1]) - b.height[c];
    return static_cast<uint8_t>(std::max(0, below));
}

uint16_t evaluate(const Board& b, const EvalSet& e, bool fast, bool danger) {
    // Exact sum: the caps of the tables keep it below kCostMax.
    uint16_t cost = 0;
    auto add = [&cost](uint16_t term) { cost = static_cast<uint16_t>(cost + term); };
    for (int c = 0; c < kColumns; ++c) add(danger && c == kColumns - 1 ? 0 : e.hole[b.holes(c)]);
    uint8_t highest = 0, lowest = 20;
    for (int c = 0; c < 9; ++c) {
        highest = std::max(highest, b.height[c]);
        lowest = std::min(lowest, b.height[c]);
    }
    add((fast ? e.stack_fast : e.stack)[highest]);
    uint8_t spawn_high = 0;  // the spawn point and the path from it to the well
    for (int c = kSpawnTermFirst; c <= 8; ++c) spawn_high = std::max(spawn_high, b.height[c]);
    add(e.spawn[spawn_high]);
    unsigned classes = 0;
    for (int r = 0; r < kRows; ++r) classes += row_class(b.rows[r]);
    add(static_cast<uint16_t>((fast ? e.row_step_fast : e.row_step) * classes));
    for (int c = 0; c < 9; ++c) add(e.gap[gap_depth(b, c)]);
    const uint8_t well = b.height[9];
    if (well <= lowest)
        add(e.ready[std::min(lowest - well, kReadyCap)]);
    else
        add(e.cover[well - lowest]);
    return cost;
}

}  // namespace nestris::ai
