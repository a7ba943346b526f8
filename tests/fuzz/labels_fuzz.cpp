// Label files (ld65 -Ln, VICE format) and command-line addresses: refused with SymbolError or
// read; no label read has an empty name.
#include "emu-test/debug/symbols.hpp"

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    nestris::emu::Symbols symbols;
    try {
        symbols = nestris::emu::Symbols::from_label_text(text);
        if (symbols.find("")) std::abort();
    } catch (const nestris::emu::SymbolError&) {
    }
    // The same bytes as an address on the command line.
    try {
        symbols.resolve(text);
    } catch (const nestris::emu::SymbolError&) {
    }
    return 0;
}
