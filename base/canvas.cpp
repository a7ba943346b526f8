#include "base/canvas.hpp"

#include <array>
#include <stdexcept>

namespace nestris {
namespace {

// 3x5 glyphs, one string a row, '#' a pixel.
using Glyph = std::array<const char*, 5>;

const Glyph& glyph(char c) {
    static const std::array<Glyph, 10> digits{{
        {"###", "#.#", "#.#", "#.#", "###"}, {".#.", "##.", ".#.", ".#.", "###"},
        {"###", "..#", "###", "#..", "###"}, {"###", "..#", "###", "..#", "###"},
        {"#.#", "#.#", "###", "..#", "..#"}, {"###", "#..", "###", "..#", "###"},
        {"###", "#..", "###", "#.#", "###"}, {"###", "..#", ".#.", ".#.", ".#."},
        {"###", "#.#", "###", "#.#", "###"}, {"###", "#.#", "###", "..#", "###"},
    }};
    static const std::array<Glyph, 26> letters{{
        {".#.", "#.#", "###", "#.#", "#.#"}, {"##.", "#.#", "##.", "#.#", "##."},  // A B
        {"###", "#..", "#..", "#..", "###"}, {"##.", "#.#", "#.#", "#.#", "##."},  // C D
        {"###", "#..", "##.", "#..", "###"}, {"###", "#..", "##.", "#..", "#.."},  // E F
        {"###", "#..", "#.#", "#.#", "###"}, {"#.#", "#.#", "###", "#.#", "#.#"},  // G H
        {"###", ".#.", ".#.", ".#.", "###"}, {"..#", "..#", "..#", "#.#", "###"},  // I J
        {"#.#", "#.#", "##.", "#.#", "#.#"}, {"#..", "#..", "#..", "#..", "###"},  // K L
        {"#.#", "###", "###", "#.#", "#.#"}, {"##.", "#.#", "#.#", "#.#", "#.#"},  // M N
        {"###", "#.#", "#.#", "#.#", "###"}, {"###", "#.#", "###", "#..", "#.."},  // O P
        {"###", "#.#", "#.#", "###", "..#"}, {"##.", "#.#", "##.", "#.#", "#.#"},  // Q R
        {"###", "#..", "###", "..#", "###"}, {"###", ".#.", ".#.", ".#.", ".#."},  // S T
        {"#.#", "#.#", "#.#", "#.#", "###"}, {"#.#", "#.#", "#.#", "#.#", ".#."},  // U V
        {"#.#", "#.#", "###", "###", "#.#"}, {"#.#", "#.#", ".#.", "#.#", "#.#"},  // W X
        {"#.#", "#.#", ".#.", ".#.", ".#."}, {"###", "..#", ".#.", "#..", "###"},  // Y Z
    }};
    static const struct {
        char c;
        Glyph rows;
    } marks[] = {
        {'-', {"...", "...", "###", "...", "..."}}, {'.', {"...", "...", "...", "...", ".#."}},
        {'%', {"#.#", "..#", ".#.", "#..", "#.#"}}, {'/', {"..#", "..#", ".#.", "#..", "#.."}},
        {':', {"...", ".#.", "...", ".#.", "..."}}, {'+', {"...", ".#.", "###", ".#.", "..."}},
        {',', {"...", "...", "...", ".#.", "#.."}},
    };
    static const Glyph blank{"...", "...", "...", "...", "..."};
    if (c >= '0' && c <= '9') return digits[static_cast<std::size_t>(c - '0')];
    if (c >= 'A' && c <= 'Z') return letters[static_cast<std::size_t>(c - 'A')];
    for (const auto& mark : marks)
        if (mark.c == c) return mark.rows;
    return blank;
}

}  // namespace

Canvas::Canvas(int width, int height, int scale) : scale_(scale), width_(width * scale), height_(height * scale) {
    if (scale < 1 || scale > 16) throw std::invalid_argument("canvas scale must be 1-16");
    if (width < 1 || height < 1) throw std::invalid_argument("canvas sizes must be positive");
    rgb_.assign(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_) * 3, 0);
}

void Canvas::pixel(int x, int y, uint32_t rgb) {
    for (int dy = 0; dy < scale_; ++dy)
        for (int dx = 0; dx < scale_; ++dx) {
            const int px = x * scale_ + dx, py = y * scale_ + dy;
            if (px < 0 || py < 0 || px >= width_ || py >= height_) continue;
            uint8_t* p = &rgb_[(static_cast<std::size_t>(py) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(px)) * 3];
            p[0] = static_cast<uint8_t>(rgb >> 16);
            p[1] = static_cast<uint8_t>(rgb >> 8);
            p[2] = static_cast<uint8_t>(rgb);
        }
}

void Canvas::rect(int x, int y, int w, int h, uint32_t rgb) {
    for (int j = 0; j < h; ++j)
        for (int i = 0; i < w; ++i) pixel(x + i, y + j, rgb);
}

void Canvas::text(int x, int y, std::string_view s, uint32_t rgb) {
    for (const char c : s) {
        const Glyph& g = glyph(c);
        for (int r = 0; r < kTextHeight; ++r)
            for (int k = 0; k < 3; ++k)
                if (g[static_cast<std::size_t>(r)][k] == '#') pixel(x + k, y + r, rgb);
        x += 4;
    }
}

}  // namespace nestris
