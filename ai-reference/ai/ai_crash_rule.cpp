#include "ai-reference/ai/ai_crash_rule.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace nestris::ai {

namespace {

// How many of the lines counter's ten units digits make a clear of `lines` change the tens digit
// (tens) or not: the class's share of a level's clears of that count, as the rule weighs them.
int units_digits(uint8_t lines, bool tens) { return tens ? lines : 10 - lines; }

// A level's safety for every class of clears (c = crash_class) and for a lock without a line, with
// the soft drop's points or without.
struct LevelSafety {
    std::array<LockSafety, kCrashClasses> clears{};
    LockSafety no_line{};
};
using Safety = std::array<LevelSafety, 256>;

Safety safety(bool soft_drop) {
    Safety out{};
    for (int s = 0; s < 256; ++s) {
        const auto level = static_cast<uint8_t>(s);
        LevelSafety& l = out[static_cast<std::size_t>(s)];
        l.no_line = ai_lock_safety(level, 0, false, soft_drop);
        for (uint8_t lines = 1; lines <= 4; ++lines)
            for (const bool tens : {false, true})
                l.clears[crash_class(lines, tens)] = ai_lock_safety(level, lines, tens, soft_drop);
    }
    return out;
}

enum class Choice { shown, hidden, either, none };

// The preview at one level, and what it bars (weighed by units digits), without the soft drop or
// with it (then shown, and a lock without a line safe both ways: one that cannot make the points
// locks without them).
struct LevelChoice {
    Choice preview = Choice::none;
    int cost = 0;
};
LevelChoice choose(const LevelSafety& plain, const LevelSafety& soft, bool soft_drop) {
    const LevelSafety& l = soft_drop ? soft : plain;
    int cost_shown = 0, cost_hidden = 0;
    for (uint8_t lines = 1; lines <= 4; ++lines)
        for (const bool tens : {false, true}) {
            const LockSafety safe = l.clears[crash_class(lines, tens)];
            cost_shown += safe.shown ? 0 : units_digits(lines, tens);
            cost_hidden += safe.hidden ? 0 : units_digits(lines, tens);
        }
    const bool shown_ok = l.no_line.shown && plain.no_line.shown;  // (a piece may not make the points)
    const bool hidden_ok = !soft_drop && plain.no_line.hidden;
    if (!shown_ok && !hidden_ok) return {};
    if (shown_ok && hidden_ok && cost_shown == 0 && cost_hidden == 0) return {Choice::either, 0};
    if (shown_ok && (!hidden_ok || cost_shown <= cost_hidden)) return {Choice::shown, cost_shown};
    return {Choice::hidden, cost_hidden};
}

// Singles barred at a level with its preview and soft drop choice (weighed by units digits).
int singles_barred(const LevelSafety& l, bool hidden) {
    int cost = 0;
    for (const bool tens : {false, true}) {
        const LockSafety safe = l.clears[crash_class(1, tens)];
        cost += (hidden ? safe.hidden : safe.shown) ? 0 : units_digits(1, tens);
    }
    return cost;
}

// How many of the 19 orientations a lock without a line at `level` whose row 5 has its first
// block at `row5_first` may crash with, with the preview hidden or shown (by locked_piece_sooner:
// 8 orientations 12 cycles sooner, 1 4 sooner, 10 as measured).
int row5_unsafe_orientations(uint8_t level, uint8_t row5_first, bool hidden) {
    int unsafe = 0;
    for (const auto& [orientation, count] : {std::pair{0, 8}, std::pair{8, 1}, std::pair{9, 10}}) {
        const LockSafety s = ai_lock_safety(level, 0, false, false, locked_piece_sooner(static_cast<uint8_t>(orientation)),
                                            row5_first);
        unsafe += (hidden ? s.hidden : s.shown) ? 0 : count;
    }
    return unsafe;
}

// The row-5 part of the rule: from the lowest level where a lock with a block in row 5 may crash
// with the preview its level has, one range of columns hidden a level, the one with the fewest
// (column, orientation) pairs that may crash (ties: the fewest columns, then the first).
void add_row5_rule(CrashRule& rule) {
    for (int s = hooks::AI_POLL_PAUSE_LEVEL; s < 256 && rule.row5_level == 0; ++s) {
        const auto level = static_cast<uint8_t>(s);
        for (uint8_t c = 0; c < kRow5Empty && rule.row5_level == 0; ++c)
            for (uint8_t o = 0; o < kOrientationHidden; ++o) {  // (every orientation, with its preview)
                const LockSafety safe = ai_lock_safety(level, 0, false, false, locked_piece_sooner(o), c);
                if (!(preview_hidden_at(rule, level, o) ? safe.hidden : safe.shown)) {
                    rule.row5_level = level;
                    break;
                }
            }
    }
    if (rule.row5_level == 0) return;
    if (256 - rule.row5_level > static_cast<int>(kRow5Levels))
        throw std::logic_error("the crash rule: a lock with a block in row 5 may crash from level " +
                               std::to_string(rule.row5_level) + ", more than " + std::to_string(kRow5Levels) +
                               " levels");
    for (int s = rule.row5_level; s < 256; ++s) {
        const auto level = static_cast<uint8_t>(s);
        std::array<int, kRow5Empty> unsafe_hidden{}, unsafe_shown{};
        for (uint8_t c = 0; c < kRow5Empty; ++c) {
            unsafe_hidden[c] = row5_unsafe_orientations(level, c, true);
            unsafe_shown[c] = row5_unsafe_orientations(level, c, false);
        }
        LevelRange best{};
        int best_unsafe = INT_MAX;
        for (uint8_t count = 0; count <= kRow5Empty; ++count)
            for (uint8_t first = 0; first + count <= kRow5Empty; ++first) {
                if (count == 0 && first != 0) break;
                const LevelRange r{first, count};
                int unsafe = 0;
                for (uint8_t c = 0; c < kRow5Empty; ++c) unsafe += r.contains(c) ? unsafe_hidden[c] : unsafe_shown[c];
                if (unsafe < best_unsafe) {
                    best_unsafe = unsafe;
                    best = r;
                }
            }
        rule.row5_hidden[static_cast<std::size_t>(s - rule.row5_level)] = best;
    }
}

// What a level's choice bars, weighed by units digits (LevelChoice::cost), and of it the singles:
// the soft drop is taken where it bars fewer singles, the AI's most common clear at one row a
// frame, or as many and fewer clears in all (at 172-173 it frees doubles and triples).
bool soft_drop_pays(const LevelChoice& without, const LevelChoice& with, int singles_without, int singles_with) {
    if (with.preview == Choice::none) return false;
    if (without.preview == Choice::none) return true;
    return singles_with < singles_without || (singles_with == singles_without && with.cost < without.cost);
}

// The levels of one class's part of the rule, which must be one run.
class RunBuilder {
public:
    RunBuilder(const char* what, uint8_t crash_class) : what_(what), class_(crash_class) {}
    void add(int level) {
        if (first_ >= 0 && last_ != level - 1)
            throw std::logic_error(std::string("the crash rule: class ") + std::to_string(class_) + " " + what_ +
                                   " at levels apart");
        if (first_ < 0) first_ = level;
        last_ = level;
    }
    LevelRange range() const {
        return first_ < 0 ? LevelRange{} : LevelRange{static_cast<uint8_t>(first_), static_cast<uint8_t>(last_ - first_ + 1)};
    }

private:
    const char* what_;
    uint8_t class_;
    int first_ = -1, last_ = -1;
};

CrashRule build_rule() {
    const Safety plain = safety(false), soft = safety(true);
    CrashRule rule;
    std::size_t soft_ranges = 0;
    std::array<Choice, 256> choice{};
    for (int s = 0; s < 256; ++s) {
        const auto at = static_cast<std::size_t>(s);
        const auto level = static_cast<uint8_t>(s);
        const LevelChoice without = choose(plain[at], soft[at], false), with = choose(plain[at], soft[at], true);
        choice[at] = without.preview;
        if (s >= hooks::AI_POLL_PAUSE_LEVEL &&
            soft_drop_pays(without, with, singles_barred(plain[at], without.preview == Choice::hidden),
                           singles_barred(soft[at], with.preview == Choice::hidden))) {
            if (soft_ranges > 0 && rule.soft_drop[soft_ranges - 1].first + rule.soft_drop[soft_ranges - 1].count == s) {
                ++rule.soft_drop[soft_ranges - 1].count;
            } else {
                if (soft_ranges == kSoftDropRanges)
                    throw std::logic_error("the crash rule: the soft drop in more than " +
                                           std::to_string(kSoftDropRanges) + " ranges of levels");
                rule.soft_drop[soft_ranges++] = {level, 1};
            }
            choice[at] = with.preview;
        }
        if (choice[at] != Choice::none) continue;
        // A lock without a line may crash with either preview: by the locked piece's orientation,
        // hidden for 0-8 and shown for 9-18, with every clear safe with both.
        const bool by_piece = ai_lock_safety(level, 0, false, false, locked_piece_sooner(0)).hidden &&
                              ai_lock_safety(level, 0, false, false, locked_piece_sooner(8)).hidden &&
                              ai_lock_safety(level, 0, false, false, locked_piece_sooner(kHiddenOrientations)).shown &&
                              without.cost == 0 && [&] {
                                  for (const LockSafety& c : plain[at].clears)
                                      if (!c.shown || !c.hidden) return false;
                                  return true;
                              }();
        if (!by_piece || rule.preview_by_piece != 0)
            throw std::logic_error("the crash rule: a lock without a line at level " + std::to_string(s) +
                                   " may crash with either preview, and by its piece" +
                                   (by_piece ? " at more than one level" : ""));
        rule.preview_by_piece = level;
        choice[at] = Choice::either;
    }
    // Hidden in runs of levels that want it, joined across levels where either does.
    std::size_t ranges = 0;
    for (int s = 0; s < 256;) {
        if (choice[static_cast<std::size_t>(s)] != Choice::hidden) {
            ++s;
            continue;
        }
        int end = s + 1;
        for (int next = end; next < 256 && choice[static_cast<std::size_t>(next)] != Choice::shown; ++next)
            if (choice[static_cast<std::size_t>(next)] == Choice::hidden) end = next + 1;
        if (ranges == kHiddenRanges)
            throw std::logic_error("the crash rule: the preview is hidden in more than " +
                                   std::to_string(kHiddenRanges) + " ranges of levels");
        rule.hidden[ranges++] = {static_cast<uint8_t>(s), static_cast<uint8_t>(end - s)};
        s = end;
    }
    // Per class: where it may crash with the preview its level has and the soft drop, flipped
    // when the other preview is safe and the AI can give it (not at a soft-drop level: Down held
    // leaves no frame for Select; not at the preview by piece), else barred; and at soft-drop
    // levels, where it may crash without the points (a clear too short to make them). One run a
    // class each.
    for (uint8_t c = 0; c < kCrashClasses; ++c) {
        RunBuilder barred("barred", c), flipped("made with the other preview", c), barred_short("barred short of the points", c);
        for (int s = 0; s < 256; ++s) {
            const auto level = static_cast<uint8_t>(s);
            const bool soft_level = in_soft_drop_range(rule, level);
            const LockSafety safe = (soft_level ? soft : plain)[static_cast<std::size_t>(s)].clears[c];
            const bool hidden = preview_hidden_at(rule, level, kOrientationHidden);
            if (soft_level && !(hidden ? plain[static_cast<std::size_t>(s)].clears[c].hidden
                                       : plain[static_cast<std::size_t>(s)].clears[c].shown))
                barred_short.add(s);
            if (hidden ? safe.hidden : safe.shown) continue;
            const bool other_safe = hidden ? safe.shown : safe.hidden;
            if (other_safe && !soft_level && s >= hooks::AI_POLL_PAUSE_LEVEL && level != rule.preview_by_piece)
                flipped.add(s);
            else
                barred.add(s);
        }
        rule.barred[c] = barred.range();
        rule.flipped[c] = flipped.range();
        rule.barred_short[c] = barred_short.range();
    }
    add_row5_rule(rule);
    for (const LevelRange& r : rule.flipped)
        if (r.count != 0 && rule.row5_level != 0 && r.first + r.count > rule.row5_level)
            throw std::logic_error("the crash rule: a clear made with the other preview from level " +
                                   std::to_string(rule.row5_level) + ", where row 5's block sets it");
    return rule;
}

}  // namespace

const CrashRule& crash_rule() {
    static const CrashRule rule = build_rule();
    return rule;
}

bool in_soft_drop_range(const CrashRule& rule, uint8_t level) {
    if (level < hooks::AI_POLL_PAUSE_LEVEL) return false;
    for (const LevelRange& r : rule.soft_drop)
        if (r.contains(level)) return true;
    return false;
}

bool soft_drop_at(const CrashRule& rule, uint8_t level) {
    return level < hooks::AI_POLL_PAUSE_LEVEL || in_soft_drop_range(rule, level);
}

std::vector<uint8_t> soft_drop_levels(const CrashRule& rule) {
    std::vector<uint8_t> levels;
    for (int s = hooks::AI_POLL_PAUSE_LEVEL; s < 256; ++s)
        if (in_soft_drop_range(rule, static_cast<uint8_t>(s))) levels.push_back(static_cast<uint8_t>(s));
    return levels;
}

bool lock_barred(const CrashRule& rule, uint8_t spawn_level, uint8_t lines, uint8_t lines_lo, uint8_t x, int landing_y) {
    if (lines == 0) return false;
    const uint8_t c = crash_class(lines, tens_digit_changes(lines_lo, lines));
    if (rule.barred[c].contains(spawn_level)) return true;
    // (a clear too short for the points may still make them: it must be safe both ways)
    return in_soft_drop_range(rule, spawn_level) && !soft_drop_in_time(x, landing_y) &&
           rule.barred_short[c].contains(spawn_level);
}

bool lock_preview_hidden(const CrashRule& rule, uint8_t level, uint8_t orientation, uint8_t lines, uint8_t lines_lo) {
    const bool hidden = preview_hidden_at(rule, level, orientation);
    if (lines == 0) return hidden;
    return hidden != rule.flipped[crash_class(lines, tens_digit_changes(lines_lo, lines))].contains(level);
}

std::optional<bool> row5_preview_hidden(const CrashRule& rule, uint8_t level, uint8_t row5_first) {
    if (rule.row5_level == 0 || level < rule.row5_level || row5_first >= kRow5Empty) return std::nullopt;
    return rule.row5_hidden[static_cast<std::size_t>(level - rule.row5_level)].contains(row5_first);
}

bool preview_hidden_at(const CrashRule& rule, uint8_t level, uint8_t orientation) {
    if (rule.preview_by_piece != 0 && level == rule.preview_by_piece) return orientation < kHiddenOrientations;
    for (const LevelRange& r : rule.hidden)
        if (r.contains(level)) return true;
    return false;
}

}  // namespace nestris::ai
