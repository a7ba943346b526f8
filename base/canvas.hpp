// A small RGB drawing surface for the tools' pictures (a board, a chart): pixels, filled
// rectangles and text in a 3x5 font, each logical pixel drawn as a scale x scale square.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace nestris {

class Canvas {
public:
    // Black, width x height logical pixels; throws std::invalid_argument unless 1 <= scale <= 16
    // and the sizes are positive.
    Canvas(int width, int height, int scale = 1);
    // Drawing outside the canvas is clipped, not an error.
    void pixel(int x, int y, uint32_t rgb);
    void rect(int x, int y, int w, int h, uint32_t rgb);
    // Upper-case letters, digits and " -.,%/:+", 4 logical pixels a glyph (3 and a gap), 5 high;
    // other characters are blank.
    void text(int x, int y, std::string_view s, uint32_t rgb);
    static int text_width(std::string_view s) { return s.empty() ? 0 : static_cast<int>(s.size()) * 4 - 1; }
    static constexpr int kTextHeight = 5;

    int width() const { return width_; }    // in real pixels (logical ones times the scale)
    int height() const { return height_; }
    const std::vector<uint8_t>& rgb() const { return rgb_; }  // width * height * 3, rows top down
    std::vector<uint8_t> take_rgb() { return std::move(rgb_); }

private:
    int scale_, width_, height_;
    std::vector<uint8_t> rgb_;
};

}  // namespace nestris
