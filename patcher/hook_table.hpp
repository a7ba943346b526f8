// The hook sites as game/hooks.inc declares them, once: `hook NAME, SITE, SIZE ; what it is`.
// nestris-asm writes each site's memory area and segment (HOOK_NAME) into the config ld65 links
// with; the hook test reads the same lines.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nestris {

struct HookTableError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct HookSite {
    std::string name;     // HOOK_<name> is its memory area and segment
    std::string site;     // the game's address: a name of game/tetris.inc, or a number ($hex, decimal)
    uint32_t size = 0;    // bytes of the game's code rewritten
    std::string comment;  // what it is
    std::string area() const { return "HOOK_" + name; }
};

// Every `hook` line of an asm include, in order; a malformed one throws HookTableError (with its
// line number), and so does a name given twice.
std::vector<HookSite> parse_hook_table(std::string_view text);

// Every `name = number` line of an asm include ($hex or decimal), as tetris.inc writes them.
std::map<std::string, uint32_t> parse_asm_constants(std::string_view text);

// The config with each hook site's memory area added at the end of its MEMORY block and its
// segment at the end of its SEGMENTS block; a site's address is a number or a name of `constants`
// (HookTableError when it is neither).
std::string config_with_hook_sites(const std::string& config_text, const std::vector<HookSite>& hooks,
                                   const std::map<std::string, uint32_t>& constants);

}  // namespace nestris
