// The patched ROM without the AI's crash rule, for the proofs on crashing games, and the rule's
// tables in the cartridge that it empties.
#pragma once

#include "patcher/cart_image.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace nestris::game {

// The cartridge's tables of the AI's crash rule (ai_crash_rule.hpp): symbol, bytes, and the value
// without_crash_rule writes into each byte (none: left as it is).
struct CrashRuleTable {
    const char* symbol;
    std::size_t size;
    std::optional<uint8_t> without_rule;
};
const std::array<CrashRuleTable, 8>& crash_rule_tables();
// The patched ROM without the AI's crash rule (its ranges emptied: no lock barred, the preview
// never hidden; the high rows' top-out stays): the AI of before issue 30, whose long games crash
// the game (for the proofs on crashing games).
std::vector<uint8_t> without_crash_rule(std::span<const uint8_t> patched_rom, const CartImage& cart);

}  // namespace nestris::game
