// The one translation unit that compiles stb_image_write.
#include "base/png.hpp"

#include "base/file_io.hpp"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>

#include <stdexcept>

namespace nestris {

std::vector<uint8_t> encode_png(int width, int height, std::span<const uint8_t> rgb) {
    if (width <= 0 || height <= 0 || rgb.size() != static_cast<size_t>(width) * static_cast<size_t>(height) * 3)
        throw std::invalid_argument("PNG: the image has no pixels or a wrong buffer size");
    std::vector<uint8_t> out;
    const auto append = [](void* context, void* data, int size) {
        auto* bytes = static_cast<std::vector<uint8_t>*>(context);
        const auto* p = static_cast<const uint8_t*>(data);
        bytes->insert(bytes->end(), p, p + size);
    };
    if (!stbi_write_png_to_func(append, &out, width, height, 3, rgb.data(), width * 3) || out.empty())
        throw std::runtime_error("PNG: the encoder failed");
    return out;
}

void write_png_file(const std::filesystem::path& path, int width, int height, std::span<const uint8_t> rgb) {
    write_file_atomically(path, encode_png(width, height, rgb));
}

}  // namespace nestris
