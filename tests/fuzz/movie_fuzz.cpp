// Movie files: refused with std::runtime_error or read; a movie read writes back to text that
// reads as the same frames.
#include "ai-reference/model/player.hpp"

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    nestris::Movie movie;
    try {
        movie = nestris::parse_movie(text);
    } catch (const std::runtime_error&) {
        return 0;
    }
    if (nestris::parse_movie(nestris::movie_to_text(movie)).frames != movie.frames) std::abort();
    return 0;
}
