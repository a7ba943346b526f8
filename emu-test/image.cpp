#include "emu-test/image.hpp"

#include "base/png.hpp"

namespace nestris::emu {

Image scaled(const Image& image, int factor) {
    Image out(image.width * factor, image.height * factor);
    for (int y = 0; y < out.height; ++y)
        for (int x = 0; x < out.width; ++x) {
            const uint8_t* from = image.pixel(x / factor, y / factor);
            uint8_t* to = out.pixel(x, y);
            to[0] = from[0];
            to[1] = from[1];
            to[2] = from[2];
        }
    return out;
}

void write_png(const std::filesystem::path& path, const Image& image) {
    write_png_file(path, image.width, image.height, image.rgb);
}

}  // namespace nestris::emu
