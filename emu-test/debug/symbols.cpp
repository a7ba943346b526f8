#include "emu-test/debug/symbols.hpp"

#include "patcher/cart_image.hpp"
#include "base/file_io.hpp"
#include "patcher/ld65_files.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace nestris::emu {

Symbols Symbols::from_cart(const CartImage& cart) {
    Symbols s;
    for (const auto& sym : cart.symbols) s.add(sym.name, sym.value);
    return s;
}

Symbols Symbols::from_label_text(std::string_view text) {
    Symbols s;
    try {
        for (const auto& sym : parse_vice_labels(text)) s.add(sym.name, sym.value);
    } catch (const std::exception& e) {
        throw SymbolError(std::string("label file: ") + e.what());
    }
    return s;
}

Symbols Symbols::from_label_file(const std::filesystem::path& path) {
    std::string text;
    try {
        text = read_text_file(path);
    } catch (const FileError& e) {
        throw SymbolError(std::string("label file: ") + e.what());
    }
    try {
        return from_label_text(text);
    } catch (const SymbolError& e) {
        throw SymbolError(path.string() + ": " + e.what());
    }
}

void Symbols::add(std::string name, uint16_t value) {
    if (auto it = by_name_.find(name); it != by_name_.end()) {
        // ld65 lists a label once per scope that sees it; keep the first value.
        return;
    }
    by_value_.emplace(value, name);
    by_name_.emplace(std::move(name), value);
}

std::optional<uint16_t> Symbols::find(std::string_view name) const {
    if (auto it = by_name_.find(name); it != by_name_.end()) return it->second;
    return std::nullopt;
}

uint16_t Symbols::require(std::string_view name) const {
    if (auto v = find(name)) return *v;
    throw SymbolError("no symbol named '" + std::string(name) + "'");
}

uint16_t Symbols::resolve(std::string_view text) const {
    if (auto v = find(text)) return *v;
    if (auto v = parse_address(text)) return *v;
    throw SymbolError("'" + std::string(text) + "' is neither a known symbol nor an address "
                      "($C000, 0xC000, C000 or #49152)");
}

std::vector<std::string> Symbols::names_at(uint16_t value) const {
    std::vector<std::string> out;
    auto [lo, hi] = by_value_.equal_range(value);
    for (auto it = lo; it != hi; ++it) out.push_back(it->second);
    std::sort(out.begin(), out.end());
    return out;
}

std::optional<uint16_t> parse_address(std::string_view t) {
    int base = 16;
    if (!t.empty() && t[0] == '$') {
        t.remove_prefix(1);
    } else if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        t.remove_prefix(2);
    } else if (!t.empty() && t[0] == '#') {
        t.remove_prefix(1);
        base = 10;
    }
    if (t.empty() || t.size() > 6) return std::nullopt;
    unsigned value = 0;
    for (const char c : t) {
        int d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (base == 16 && c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (base == 16 && c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return std::nullopt;
        value = value * static_cast<unsigned>(base) + static_cast<unsigned>(d);
    }
    if (value > 0xFFFF) return std::nullopt;
    return static_cast<uint16_t>(value);
}

}  // namespace nestris::emu
