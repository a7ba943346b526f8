// State files: refused with std::runtime_error or read; a state read writes back to text that
// reads as the same state.
#include "ai-reference/model/state_io.hpp"

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    nestris::GameState state;
    try {
        state = nestris::state_from_text(text);
    } catch (const std::runtime_error&) {
        return 0;
    }
    if (!(nestris::state_from_text(nestris::state_to_text(state)) == state)) std::abort();
    return 0;
}
