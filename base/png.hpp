// PNG output, the one writer of pictures: encoded in memory (stb_image_write), then written
// atomically like every other output (file_io.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

namespace nestris {

// 8-bit RGB, rows top to bottom. Throws std::invalid_argument on an empty image or a buffer
// of the wrong size.
std::vector<uint8_t> encode_png(int width, int height, std::span<const uint8_t> rgb);
void write_png_file(const std::filesystem::path& path, int width, int height, std::span<const uint8_t> rgb);

}  // namespace nestris
