#include "ai-reference/ai/ai_crash_rule.hpp"

#include <stdexcept>
#include <string>

namespace nestris::ai {

namespace {

// How many of the lines counter's ten units digits make a clear of `lines` change the tens digit
// (tens) or not: the class's share of a level's clears of that count, as the rule weighs them.
int units_digits(uint8_t lines, bool tens) { return tens ? lines : 10 - lines; }

CrashRule build_rule() {
    // Each level's safety for every class of clears (c = crash_class) and for a lock without a line.
    std::array<std::array<LockSafety, kCrashClasses>, 256> clears{};
    std::array<LockSafety, 256> no_line{};
    for (int s = 0; s < 256; ++s) {
        const auto level = static_cast<uint8_t>(s);
        no_line[static_cast<std::size_t>(s)] = ai_lock_safety(level, 0, false);
        for (uint8_t lines = 1; lines <= 4; ++lines)
            for (const bool tens : {false, true})
                clears[static_cast<std::size_t>(s)][crash_class(lines, tens)] = ai_lock_safety(level, lines, tens);
    }
    // The preview by level: of the two, the one that bars the fewer clears (weighed by units
    // digits) besides those both bar; a lock without a line must be safe with it (the AI cannot
    // avoid locking); shown when they tie.
    enum class Choice { shown, hidden, either };
    std::array<Choice, 256> choice{};
    for (int s = 0; s < 256; ++s) {
        int cost_shown = 0, cost_hidden = 0;
        for (uint8_t lines = 1; lines <= 4; ++lines)
            for (const bool tens : {false, true}) {
                const LockSafety safe = clears[static_cast<std::size_t>(s)][crash_class(lines, tens)];
                if (!safe.shown && !safe.hidden) continue;
                cost_shown += safe.shown ? 0 : units_digits(lines, tens);
                cost_hidden += safe.hidden ? 0 : units_digits(lines, tens);
            }
        const LockSafety lock = no_line[static_cast<std::size_t>(s)];
        if (!lock.shown && !lock.hidden)
            throw std::logic_error("the crash rule: a lock without a line at level " + std::to_string(s) +
                                   " may crash with either preview");
        const bool shown_ok = lock.shown, hidden_ok = lock.hidden;
        choice[static_cast<std::size_t>(s)] =
            shown_ok && hidden_ok && cost_shown == 0 && cost_hidden == 0 ? Choice::either
            : shown_ok && (!hidden_ok || cost_shown <= cost_hidden)    ? Choice::shown
                                                                       : Choice::hidden;
    }
    CrashRule rule;
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
    // Barred: the levels where a class may crash with the preview its level has; one run a class.
    for (uint8_t c = 0; c < kCrashClasses; ++c) {
        int first = -1, last = -1;
        for (int s = 0; s < 256; ++s) {
            const LockSafety safe = clears[static_cast<std::size_t>(s)][c];
            if (preview_hidden_at(rule, static_cast<uint8_t>(s)) ? safe.hidden : safe.shown) continue;
            if (first >= 0 && last != s - 1)
                throw std::logic_error("the crash rule: class " + std::to_string(c) + " is barred at levels apart");
            if (first < 0) first = s;
            last = s;
        }
        if (first >= 0) rule.barred[c] = {static_cast<uint8_t>(first), static_cast<uint8_t>(last - first + 1)};
    }
    return rule;
}

}  // namespace

const CrashRule& crash_rule() {
    static const CrashRule rule = build_rule();
    return rule;
}

bool lock_barred(const CrashRule& rule, uint8_t spawn_level, uint8_t lines, uint8_t lines_lo) {
    return lines > 0 && rule.barred[crash_class(lines, tens_digit_changes(lines_lo, lines))].contains(spawn_level);
}

bool preview_hidden_at(const CrashRule& rule, uint8_t level) {
    for (const LevelRange& r : rule.hidden)
        if (r.contains(level)) return true;
    return false;
}

}  // namespace nestris::ai
