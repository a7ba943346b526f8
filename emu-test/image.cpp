#include "emu-test/image.hpp"

#include "base/png.hpp"

namespace nestris::emu {

void write_png(const std::filesystem::path& path, const Image& image) {
    write_png_file(path, image.width, image.height, image.rgb);
}

}  // namespace nestris::emu
