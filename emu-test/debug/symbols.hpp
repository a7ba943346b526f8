// Names for addresses, so tests and tools say "nmi" or "ai::search" instead of $8005: added one
// by one (the harnesses add a cartridge's), or from an ld65 label file (ld65 -Ln, VICE format
// "al 00D6C9 .name").
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nestris::emu {

struct SymbolError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Symbols {
public:
    Symbols() = default;
    static Symbols from_label_text(std::string_view text);  // throws SymbolError
    static Symbols from_label_file(const std::filesystem::path& path);

    void add(std::string name, uint16_t value);
    std::optional<uint16_t> find(std::string_view name) const;
    // Like find(), but a missing name throws SymbolError naming it (a renamed label must fail
    // loudly, not read address 0).
    uint16_t require(std::string_view name) const;
    // A name, or a number: "$C000", "0xC000", "C000" (hex), "#49152" (decimal).
    // Throws SymbolError when it is neither.
    uint16_t resolve(std::string_view name_or_number) const;
    // Every name with this value (for annotating traces), sorted.
    std::vector<std::string> names_at(uint16_t value) const;
    size_t size() const { return by_name_.size(); }

private:
    std::map<std::string, uint16_t, std::less<>> by_name_;
    std::multimap<uint16_t, std::string> by_value_;
};

// Parses an address written as "$C000", "0xC000", "C000" (hex) or "#49152" (decimal);
// nullopt when the text is not such a number or exceeds $FFFF.
std::optional<uint16_t> parse_address(std::string_view text);

}  // namespace nestris::emu
