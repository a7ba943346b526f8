// An RGB picture (the rendered NES frame) and its PNG file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

namespace nestris::emu {

struct Image {
    int width = 0;
    int height = 0;
    std::vector<uint8_t> rgb;  // width * height * 3, rows top to bottom

    Image() = default;
    Image(int w, int h) : width(w), height(h), rgb(static_cast<size_t>(w) * h * 3) {}
    uint8_t* pixel(int x, int y) { return &rgb[(static_cast<size_t>(y) * width + x) * 3]; }
    const uint8_t* pixel(int x, int y) const {
        return &rgb[(static_cast<size_t>(y) * width + x) * 3];
    }
    bool operator==(const Image&) const = default;
};

// Each pixel as a factor x factor square (a picture big enough to look at); factor >= 1.
Image scaled(const Image& image, int factor);

// Writes the image as PNG (stb_image_write); throws std::runtime_error when the file cannot be
// written.
void write_png(const std::filesystem::path& path, const Image& image);

}  // namespace nestris::emu
