#include "patcher/hook_table.hpp"

#include "base/hex.hpp"

#include <optional>
#include <regex>
#include <set>
#include <sstream>

namespace nestris {
namespace {

std::optional<uint32_t> number(const std::string& text) {
    static const std::regex hex_number(R"(\$([0-9A-Fa-f]+))"), decimal(R"([0-9]+)");
    std::smatch m;
    if (std::regex_match(text, m, hex_number)) return static_cast<uint32_t>(std::stoul(m[1].str(), nullptr, 16));
    if (std::regex_match(text, decimal)) return static_cast<uint32_t>(std::stoul(text));
    return std::nullopt;
}

// Inserts `rows` before the line that closes the block opened by `key` ("MEMORY", "SEGMENTS").
std::string insert_in_block(const std::string& config, const std::string& key, const std::string& rows) {
    const size_t at = config.find(key + " {");
    const size_t close = at == std::string::npos ? std::string::npos : config.find("\n}", at);
    if (close == std::string::npos) throw HookTableError("ld65 config: no " + key + " block closed by a '}' line");
    return config.substr(0, close) + rows + config.substr(close);
}

}  // namespace

std::vector<HookSite> parse_hook_table(std::string_view text) {
    static const std::regex line_re(R"(^hook[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*,[ \t]*([A-Za-z_][A-Za-z0-9_]*|\$[0-9A-Fa-f]+|[0-9]+)[ \t]*,[ \t]*([0-9]+)[ \t]*(;[ \t]*(.*))?$)");
    std::vector<HookSite> hooks;
    std::set<std::string> names;
    std::istringstream in{std::string(text)};
    std::string line;
    for (int number_of_line = 1; std::getline(in, line); ++number_of_line) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.rfind("hook", 0) != 0 || (line.size() > 4 && line[4] != ' ' && line[4] != '\t')) continue;
        std::smatch m;
        if (!std::regex_match(line, m, line_re))
            throw HookTableError("line " + std::to_string(number_of_line) + ": a hook line is `hook NAME, SITE, SIZE ; comment`: " + line);
        HookSite h{m[1].str(), m[2].str(), static_cast<uint32_t>(std::stoul(m[3].str())), m[5].str()};
        if (h.size == 0 || h.size > 0x100)
            throw HookTableError("line " + std::to_string(number_of_line) + ": hook " + h.name + " has size " + m[3].str());
        if (!names.insert(h.name).second)
            throw HookTableError("line " + std::to_string(number_of_line) + ": hook " + h.name + " is declared twice");
        hooks.push_back(std::move(h));
    }
    return hooks;
}

std::map<std::string, uint32_t> parse_asm_constants(std::string_view text) {
    static const std::regex line_re(R"(^([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*(\$[0-9A-Fa-f]+|[0-9]+)[ \t]*(;.*)?$)");
    std::map<std::string, uint32_t> constants;
    std::istringstream in{std::string(text)};
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::smatch m;
        if (std::regex_match(line, m, line_re)) constants[m[1].str()] = *number(m[2].str());
    }
    return constants;
}

std::string config_with_hook_sites(const std::string& config_text, const std::vector<HookSite>& hooks,
                                   const std::map<std::string, uint32_t>& constants) {
    if (hooks.empty()) return config_text;
    std::string memory = "\n    # Hook sites (game/hooks.inc), added by nestris-asm:";
    std::string segments = "\n    # Hook sites (game/hooks.inc), added by nestris-asm:";
    for (const HookSite& h : hooks) {
        std::optional<uint32_t> start = number(h.site);
        if (!start) {
            const auto it = constants.find(h.site);
            if (it == constants.end())
                throw HookTableError("hook " + h.name + ": its site " + h.site + " is no name of the game's map");
            start = it->second;
        }
        memory += "\n    " + h.area() + ": start = " + hex(*start, 4) + ", size = " + hex(h.size, 4) +
                  ", type = ro, file = %O;" + (h.comment.empty() ? "" : "  # " + h.comment);
        segments += "\n    " + h.area() + ": load = " + h.area() + ", type = ro;";
    }
    return insert_in_block(insert_in_block(config_text, "MEMORY", memory), "SEGMENTS", segments);
}

}  // namespace nestris
