// Readers for the files ld65 reads and writes: the linker config (its MEMORY block is the
// free-space map) and the debug file (segments, scopes, symbols).
#pragma once

#include "patcher/cart_image.hpp"

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nestris {

struct Ld65Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct MemoryArea {
    std::string name;
    uint32_t start = 0;
    uint32_t size = 0;
    bool is_ram = false;  // type = rw
};

// Parses the MEMORY { ... } block of an ld65 config. Numbers may be $hex, 0xhex or decimal.
std::vector<MemoryArea> parse_ld65_memory(std::string_view config_text);

struct DebugSegment {
    std::string name;
    uint32_t start = 0;
    uint32_t size = 0;
    std::string output_file;  // empty for segments that are not written (bss)
    uint32_t output_offset = 0;
};

struct DebugInfo {
    std::vector<DebugSegment> segments;
    std::vector<CartSymbol> symbols;
};

// Parses an ld65 --dbgfile. Symbol names are qualified with their enclosing scopes.
DebugInfo parse_ld65_debug(std::string_view dbg_text);

}  // namespace nestris
