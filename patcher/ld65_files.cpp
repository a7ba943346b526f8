#include "patcher/ld65_files.hpp"

#include <cctype>
#include <charconv>
#include <map>
#include <optional>

namespace nestris {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

std::optional<uint32_t> parse_number(std::string_view s) {
    s = trim(s);
    int base = 10;
    if (s.starts_with('$')) {
        s.remove_prefix(1);
        base = 16;
    } else if (s.starts_with("0x") || s.starts_with("0X")) {
        s.remove_prefix(2);
        base = 16;
    }
    uint32_t value = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
    if (ec != std::errc{} || end != s.data() + s.size() || s.empty()) return std::nullopt;
    return value;
}

std::string strip_comments(std::string_view text) {
    std::string out;
    bool in_comment = false;
    for (char c : text) {
        if (c == '#') in_comment = true;
        if (c == '\n') in_comment = false;
        if (!in_comment) out += c;
    }
    return out;
}

// Splits "key = value, key2 = value2" (ld65 debug lines) or "a = b; c = d" into a map.
std::map<std::string, std::string> split_attributes(std::string_view s, char separator) {
    std::map<std::string, std::string> out;
    size_t pos = 0;
    while (pos <= s.size()) {
        size_t end = pos;
        bool quoted = false;
        while (end < s.size() && (quoted || s[end] != separator)) {
            if (s[end] == '"') quoted = !quoted;
            ++end;
        }
        std::string_view item = trim(s.substr(pos, end - pos));
        if (auto eq = item.find('='); eq != std::string_view::npos) {
            std::string key(trim(item.substr(0, eq)));
            std::string value(trim(item.substr(eq + 1)));
            if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
                value = value.substr(1, value.size() - 2);
            out[key] = value;
        }
        pos = end + 1;
    }
    return out;
}

}  // namespace

std::vector<MemoryArea> parse_ld65_memory(std::string_view config_text) {
    const std::string text = strip_comments(config_text);
    const size_t key = text.find("MEMORY");
    if (key == std::string::npos) throw Ld65Error("ld65 config has no MEMORY block");
    const size_t open = text.find('{', key);
    const size_t close = text.find('}', open);
    if (open == std::string::npos || close == std::string::npos)
        throw Ld65Error("ld65 config: MEMORY block is not closed");
    std::vector<MemoryArea> areas;
    std::string_view body(text.data() + open + 1, close - open - 1);
    size_t pos = 0;
    while (pos < body.size()) {
        size_t semicolon = body.find(';', pos);
        // An area is "NAME: attr = value, attr = value;"
        if (semicolon == std::string_view::npos) semicolon = body.size();
        std::string_view entry = trim(body.substr(pos, semicolon - pos));
        pos = semicolon + 1;
        if (entry.empty()) continue;
        const size_t colon = entry.find(':');
        if (colon == std::string_view::npos)
            throw Ld65Error("ld65 config: MEMORY entry without ':' near '" + std::string(entry) + "'");
        MemoryArea area;
        area.name = std::string(trim(entry.substr(0, colon)));
        auto attrs = split_attributes(entry.substr(colon + 1), ',');
        auto start = attrs.count("start") ? parse_number(attrs["start"]) : std::nullopt;
        auto size = attrs.count("size") ? parse_number(attrs["size"]) : std::nullopt;
        if (!start || !size)
            throw Ld65Error("ld65 config: memory area " + area.name +
                            " needs numeric start and size");
        area.start = *start;
        area.size = *size;
        area.is_ram = attrs.count("type") && attrs["type"] == "rw";
        areas.push_back(std::move(area));
    }
    return areas;
}

DebugInfo parse_ld65_debug(std::string_view dbg_text) {
    struct Scope {
        std::string name;
        std::optional<int> parent;
    };
    std::map<int, Scope> scopes;
    struct RawSymbol {
        std::string name;
        int scope = 0;
        uint32_t value = 0;
        bool is_label = false;
    };
    std::vector<RawSymbol> raw;
    DebugInfo info;

    size_t pos = 0;
    while (pos < dbg_text.size()) {
        size_t eol = dbg_text.find('\n', pos);
        if (eol == std::string_view::npos) eol = dbg_text.size();
        std::string_view line = dbg_text.substr(pos, eol - pos);
        pos = eol + 1;
        const size_t tab = line.find_first_of("\t ");
        if (tab == std::string_view::npos) continue;
        std::string_view kind = line.substr(0, tab);
        auto attrs = split_attributes(line.substr(tab + 1), ',');
        auto number = [&](const char* k) -> std::optional<uint32_t> {
            auto it = attrs.find(k);
            if (it == attrs.end()) return std::nullopt;
            return parse_number(it->second);
        };
        if (kind == "seg") {
            DebugSegment s;
            s.name = attrs["name"];
            s.start = number("start").value_or(0);
            s.size = number("size").value_or(0);
            s.output_file = attrs.count("oname") ? attrs["oname"] : "";
            s.output_offset = number("ooffs").value_or(0);
            info.segments.push_back(std::move(s));
        } else if (kind == "scope") {
            auto id = number("id");
            if (!id) continue;
            Scope sc{attrs["name"], std::nullopt};
            if (auto p = number("parent")) sc.parent = static_cast<int>(*p);
            scopes[static_cast<int>(*id)] = sc;
        } else if (kind == "sym") {
            auto value = number("val");
            const std::string type = attrs["type"];
            if (!value || (type != "lab" && type != "equ")) continue;  // imports carry no value
            raw.push_back({attrs["name"], static_cast<int>(number("scope").value_or(0)), *value,
                           type == "lab"});
        }
    }
    for (const RawSymbol& r : raw) {
        std::string qualified = r.name;
        std::optional<int> scope = r.scope;
        int guard = 0;
        while (scope && scopes.count(*scope) && ++guard < 64) {
            const Scope& sc = scopes[*scope];
            if (!sc.name.empty()) qualified = sc.name + "::" + qualified;
            scope = sc.parent;
        }
        info.symbols.push_back({qualified, static_cast<uint16_t>(r.value), r.is_label});
    }
    return info;
}

}  // namespace nestris
