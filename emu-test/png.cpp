// The one translation unit that compiles stb_image_write.
#include "image.hpp"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>

#include <stdexcept>

namespace nestris::emu {

void write_png(const std::filesystem::path& path, const Image& image) {
    if (image.width <= 0 || image.height <= 0 ||
        image.rgb.size() != static_cast<size_t>(image.width) * image.height * 3) {
        throw std::runtime_error("write_png: the image has no pixels or a wrong buffer size");
    }
    if (!stbi_write_png(path.string().c_str(), image.width, image.height, 3, image.rgb.data(),
                        image.width * 3)) {
        throw std::runtime_error("cannot write PNG file " + path.string());
    }
}

}  // namespace nestris::emu
