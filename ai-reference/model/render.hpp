// Pictures of a model state for people: a text board for terminals and PNG images.
#pragma once

#include "ai-reference/model/game_model.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace nestris {

struct TextOptions {
    bool color = false;        // ANSI colours (for a terminal)
    bool hidden_rows = false;  // also show rows -2 and -1
};
// The playfield with the active piece ('@'), locked blocks ('#'), curtain ('='), next to the
// level, lines, score, next piece and play state.
std::string render_text(const GameState& state, const TextOptions& options = {});

struct RgbImage {
    int width = 0;
    int height = 0;
    std::vector<uint8_t> rgb;  // width * height * 3
};
// The playfield (8x8 pixel cells, the level's colours) with the active piece, the next piece
// and the counters, scaled by `scale` (1-16).
RgbImage render_image(const GameState& state, int scale = 2);
// Throws std::runtime_error when the file cannot be written.
void write_png(const std::string& path, const RgbImage& image);

}  // namespace nestris
