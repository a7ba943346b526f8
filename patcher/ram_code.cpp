// The code the cartridge runs from PRG-RAM, at link time: where its segments go, and its packed
// form in the ROM the rest leaves (assemble_cart calls these).
#include "patcher/ram_code.hpp"

#include "base/hex.hpp"

#include <algorithm>
#include <regex>

namespace nestris {

bool is_ram_table(const std::string& segment) { return segment.rfind(kRamTablePrefix, 0) == 0; }

std::vector<FixedStart> fixed_starts(const std::string& config_text, const std::string& area) {
    std::vector<FixedStart> out;
    static const std::regex entry(R"(([A-Za-z_][A-Za-z0-9_]*)\s*:\s*load\s*=\s*([A-Za-z_][A-Za-z0-9_]*)([^;]*);)");
    static const std::regex start_re(R"(start\s*=\s*(\$[0-9A-Fa-f]+|0x[0-9A-Fa-f]+|[0-9]+))");
    const size_t key = config_text.find("SEGMENTS");
    if (key == std::string::npos) return out;
    const std::string body = config_text.substr(key);
    for (std::sregex_iterator it(body.begin(), body.end(), entry), end; it != end; ++it) {
        if ((*it)[2] != area) continue;
        const std::string rest = (*it)[3];
        std::smatch m;
        if (!std::regex_search(rest, m, start_re))
            throw AssembleError("segment " + (*it)[1].str() + " in " + area + " needs a start address (start = $XXXX)");
        std::string n = m[1];
        const uint32_t v = n[0] == '$' ? static_cast<uint32_t>(std::stoul(n.substr(1), nullptr, 16))
                                       : static_cast<uint32_t>(std::stoul(n, nullptr, 0));
        out.push_back({(*it)[1], v, (*it)[0]});
    }
    return out;
}

RamCodeOrder ram_code_order(const RamCodeOrder& segments, uint32_t shuffle) {
    RamCodeOrder order = segments;
    // The generated tables after the code (code next to code packs smaller), each biggest first.
    std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
        if (is_ram_table(a.first) != is_ram_table(b.first)) return !is_ram_table(a.first);
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    // Other orders (shuffle > 0): the code and the tables each in another order among their own.
    const auto tables_from = std::stable_partition(order.begin(), order.end(), [&](const auto& o) { return !is_ram_table(o.first); });
    const auto by = [&](auto less) {
        std::stable_sort(order.begin(), tables_from, less);
        std::stable_sort(tables_from, order.end(), less);
    };
    switch (shuffle % 4) {
    case 1: by([](const auto& a, const auto& b) { return a.second < b.second; }); break;  // smallest first
    case 2: by([](const auto& a, const auto& b) { return a.first < b.first; }); break;    // by name
    case 3: std::reverse(tables_from, order.end()); break;                                 // tables smallest first
    default: break;
    }
    if (shuffle >= 4) {  // and then neighbours swapped, from a fixed seed
        uint32_t seed = shuffle * 2654435761u;
        for (int swaps = 0; swaps < 8; ++swaps) {
            seed = seed * 1664525u + 1013904223u;
            const size_t i = (seed >> 8) % (order.size() - 1);
            if (is_ram_table(order[i].first) == is_ram_table(order[i + 1].first)) std::swap(order[i], order[i + 1]);
        }
    }
    return order;
}

std::vector<std::pair<std::string, uint16_t>> place_ram_code(const RamCodeOrder& segments,
                                                             const std::vector<std::pair<uint32_t, uint32_t>>& taken,
                                                             uint32_t start, uint32_t size, uint32_t shuffle) {
    return place_ram_code_in_order(ram_code_order(segments, shuffle), taken, start, size);
}

std::vector<std::pair<std::string, uint16_t>> place_ram_code_in_order(const RamCodeOrder& order,
                                                                      const std::vector<std::pair<uint32_t, uint32_t>>& taken,
                                                                      uint32_t start, uint32_t size) {
    std::vector<std::pair<uint32_t, uint32_t>> used = taken;  // [from, to)
    std::vector<std::pair<std::string, uint16_t>> placed;
    for (const auto& [name, length] : order) {
        uint32_t at = start;
        for (;;) {
            if (length < 256 && (at & 0xFF) + length > 256) at = (at | 0xFF) + 1;  // to the next page
            bool clash = false;
            for (const auto& [from, to] : used)
                if (at < to && at + length > from) {
                    at = to;
                    clash = true;
                }
            if (!clash) break;
        }
        if (at + length > start + size)
            throw AssembleError("the RAM code does not fit " + std::string(kRamCodeArea) + " (" + hex(start, 4) + ", " +
                                std::to_string(size) + " bytes): segment " + name + " (" + std::to_string(length) +
                                " bytes) has no place left");
        used.emplace_back(at, at + length);
        placed.emplace_back(name, static_cast<uint16_t>(at));
    }
    std::sort(placed.begin(), placed.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    return placed;
}

// The RAM code as ld65 laid it out (one run from the area's start), packed into `rooms`: its
// chunks join the image as ROM segments PACKED_1, PACKED_2, ... The stream is unpacked again
// here and compared, so a packer's mistake stops the build.
void add_packed_ram_code(CartImage& cart, const MemoryArea& area, const std::vector<StreamRoom>& rooms) {
    std::vector<const CartSegment*> code;
    for (const CartSegment& s : cart.segments)
        if (s.region == area.name && !s.bytes.empty()) code.push_back(&s);
    std::sort(code.begin(), code.end(), [](const CartSegment* a, const CartSegment* b) { return a->address < b->address; });
    std::vector<uint8_t> image;  // from the area's start, the gaps between segments 0 (as ld65 fills them)
    for (const CartSegment* s : code) {
        if (s->address < area.start + image.size())
            throw AssembleError("RAM code segments overlap at " + hex(s->address, 4) + " (" + s->name + ")");
        image.resize(s->address - area.start, 0);
        image.insert(image.end(), s->bytes.begin(), s->bytes.end());
    }
    if (image.empty()) return;
    std::vector<PackChunk> chunks;
    try {
        chunks = pack_code(image, rooms);
    } catch (const CodePackError& e) {
        throw AssembleError(std::string(e.what()) + ".\nMake the RAM code smaller, or keep less in ROM (PACK_ segments).");
    }
    std::vector<uint8_t> rom(0x10000, 0);
    for (const PackChunk& c : chunks) std::copy(c.bytes.begin(), c.bytes.end(), rom.begin() + c.address);
    if (unpack_code([&](uint16_t a) { return rom[a]; }, rooms.front().address, image.size()) != image)
        throw AssembleError("the packed RAM code does not unpack to the RAM code (patcher/code_pack.cpp)");
    int n = 0;
    for (PackChunk& c : chunks) {
        for (CartRegion& r : cart.regions)
            if (r.name == c.region) r.used += static_cast<uint32_t>(c.bytes.size());
        cart.segments.push_back({"PACKED_" + std::to_string(++n), c.address, c.region, std::move(c.bytes)});
    }
}

}  // namespace nestris
