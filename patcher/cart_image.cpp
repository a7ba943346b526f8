#include "patcher/cart_image.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace nestris {

std::optional<uint16_t> CartImage::symbol(std::string_view name) const {
    for (const CartSymbol& s : symbols)
        if (s.name == name) return s.value;
    return std::nullopt;
}

uint16_t CartImage::require(std::string_view name) const {
    if (auto v = symbol(name)) return *v;
    throw std::runtime_error("cartridge symbol '" + std::string(name) +
                             "' is not defined by the assembled code (asm/)");
}

const CartRegion& CartImage::region(std::string_view name) const {
    for (const CartRegion& r : regions)
        if (r.name == name) return r;
    throw std::runtime_error("cartridge region '" + std::string(name) +
                             "' is not a memory area of the ld65 config (asm/)");
}

std::vector<const CartSegment*> CartImage::rom_segments() const {
    std::vector<const CartSegment*> out;
    for (const CartSegment& s : segments) {
        if (s.bytes.empty()) continue;
        const auto r = std::find_if(regions.begin(), regions.end(), [&](const CartRegion& c) { return c.name == s.region; });
        if (r != regions.end() && r->is_ram) continue;  // code unpacked into RAM: the patch holds it packed
        out.push_back(&s);
    }
    std::sort(out.begin(), out.end(),
              [](const CartSegment* a, const CartSegment* b) { return a->address < b->address; });
    return out;
}

bool CartRegion::is_hook_site() const { return name.rfind("HOOK_", 0) == 0; }

std::string CartImage::usage_report() const {
    std::string out = "region                 range           used   free   size\n";
    uint32_t rom_used = 0, rom_size = 0, prg_ram_used = 0, prg_ram_size = 0, ram_used = 0, ram_size = 0,
             hook_bytes = 0, hook_sites = 0;
    char line[160];
    auto row = [&](const CartRegion& r) {
        std::snprintf(line, sizeof line, "%-22s $%04X-$%04X  %5u  %5u  %5u%s\n", r.name.c_str(),
                      r.start, static_cast<unsigned>(r.start + r.size - 1), r.used,
                      r.size - r.used, r.size, r.is_ram ? "  (RAM)" : "");
        out += line;
    };
    for (const CartRegion& r : regions) {
        if (r.is_hook_site()) continue;
        row(r);
        if (!r.is_ram) {
            rom_used += r.used;
            rom_size += r.size;
        } else if (r.start >= 0x6000 && r.start < 0x8000) {
            prg_ram_used += r.used;
            prg_ram_size += r.size;
        } else {
            ram_used += r.used;
            ram_size += r.size;
        }
    }
    auto total = [&](const char* name, uint32_t used, uint32_t size) {
        if (size == 0) return;
        std::snprintf(line, sizeof line, "%-22s %-12s  %5u  %5u  %5u\n", name, "", used, size - used, size);
        out += line;
    };
    total("ROM total", rom_used, rom_size);
    total("PRG-RAM total", prg_ram_used, prg_ram_size);
    total("console RAM total", ram_used, ram_size);
    for (const CartRegion& r : regions) {
        if (!r.is_hook_site()) continue;
        if (hook_sites++ == 0) out += "hook sites (game code rewritten in place):\n";
        row(r);
        hook_bytes += r.used;
    }
    if (hook_sites) {
        std::snprintf(line, sizeof line, "%-22s %-12s  %5u\n", "hook bytes", "", hook_bytes);
        out += line;
    }
    return out;
}

}  // namespace nestris
