#include "tools/harness/crash_rule_rom.hpp"

#include "ai-reference/ai/ai_crash_rule.hpp"
#include "patcher/patch.hpp"

#include <stdexcept>
#include <string>

namespace nestris::game {

const std::array<CrashRuleTable, 8>& crash_rule_tables() {
    static const std::array<CrashRuleTable, 8> tables{{{"gen_crash_first", ai::kCrashClasses, std::nullopt},
                                                       {"gen_crash_count", ai::kCrashClasses, uint8_t{0}},
                                                       {"gen_hidden_first", ai::kHiddenRanges, std::nullopt},
                                                       {"gen_hidden_count", ai::kHiddenRanges, uint8_t{0}},
                                                       {"gen_flip_first", ai::kCrashClasses, std::nullopt},
                                                       {"gen_flip_count", ai::kCrashClasses, uint8_t{0}},
                                                       {"gen_short_first", ai::kCrashClasses, std::nullopt},
                                                       {"gen_short_count", ai::kCrashClasses, uint8_t{0}}}};
    return tables;
}

std::vector<uint8_t> without_crash_rule(std::span<const uint8_t> patched_rom, const CartImage& cart) {
    std::vector<uint8_t> rom(patched_rom.begin(), patched_rom.end());
    // Every range of the rule empty: no lock barred, the preview never hidden.
    for (const CrashRuleTable& t : crash_rule_tables()) {
        if (!t.without_rule) continue;
        const uint16_t table = cart.require(t.symbol);
        for (unsigned i = 0; i < t.size; ++i) {
            const uint32_t at = prg_file_offset(static_cast<uint16_t>(table + i));
            if (at >= rom.size()) throw std::runtime_error(t.symbol + std::string(" is outside the ROM"));
            rom[at] = *t.without_rule;
        }
    }
    return rom;
}

}  // namespace nestris::game
