#include "emu-test/debug/symbols.hpp"

#include "base/file_io.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <sstream>

namespace nestris::emu {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

// A label file's address column: hex without a prefix (ld65 writes six digits).
std::optional<uint32_t> label_value(std::string_view hex) {
    hex = trim(hex);
    uint32_t value = 0;
    const auto [end, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), value, 16);
    if (ec != std::errc{} || end != hex.data() + hex.size() || hex.empty()) return std::nullopt;
    return value;
}

}  // namespace

Symbols Symbols::from_label_text(std::string_view text) {
    Symbols s;
    size_t pos = 0;
    int line_number = 0;
    while (pos < text.size()) {
        size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos) eol = text.size();
        std::string_view line = trim(text.substr(pos, eol - pos));
        pos = eol + 1;
        ++line_number;
        // al 00D6C9 .name (ld65 writes no other lines; anything else is skipped)
        if (!line.starts_with("al ")) continue;
        line.remove_prefix(3);
        const size_t space = line.find(' ');
        if (space == std::string_view::npos)
            throw SymbolError("label file line " + std::to_string(line_number) + ": no name");
        const auto value = label_value(line.substr(0, space));
        std::string_view name = trim(line.substr(space + 1));
        if (name.starts_with('.')) name.remove_prefix(1);
        if (!value || name.empty() || *value > 0xFFFF)
            throw SymbolError("label file line " + std::to_string(line_number) + ": expected 'al ADDRESS .name'");
        s.add(std::string(name), static_cast<uint16_t>(*value));
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
