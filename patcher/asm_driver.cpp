#include "patcher/asm_driver.hpp"

#include "base/checksums.hpp"
#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "base/process.hpp"
#include "patcher/hook_table.hpp"
#include "patcher/ld65_files.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <regex>
#include <sstream>

namespace nestris {
namespace fs = std::filesystem;
namespace {

// Through the one input reader (a FIFO or a device such as /dev/zero is refused at once, a file
// over 64 MiB too), its refusal said as the assembler's.
std::string read_text(const fs::path& path) {
    try {
        return read_text_file(path);
    } catch (const FileError& e) {
        throw AssembleError(e.what());
    }
}

// ld65 says: "Segment 'X' overflows memory area 'Y' by N bytes". Say it in terms of our map.
std::string explain_link_failure(const std::string& output, const std::vector<MemoryArea>& areas) {
    static const std::regex overflow(R"(Segment '([^']+)' overflows memory area '([^']+)' by (\d+) bytes?)");
    std::string message;
    for (std::sregex_iterator it(output.begin(), output.end(), overflow), end; it != end; ++it) {
        const std::string segment = (*it)[1], region = (*it)[2], by = (*it)[3];
        std::string range;
        for (const MemoryArea& a : areas)
            if (a.name == region)
                range = " (" + hex(a.start, 4) + "-" + hex((a.start + a.size - 1) & 0xFFFF, 4) + ", " +
                        std::to_string(a.size) + " bytes)";
        message += "region " + region + range + " overflows by " + by + " bytes (segment " +
                   segment + ")\n";
    }
    if (message.empty()) return "ld65 failed:\n" + output;
    return "the cartridge code does not fit its free space:\n" + message +
           "Move code to a region with room (asm/nestris.cfg) or make it smaller.";
}

// Sizes of the segments in an object file (od65 --dump-segsize), added to `sizes`.
void add_segment_sizes(const AssembleOptions& options, const std::string& object,
                       std::map<std::string, uint32_t>& sizes) {
    const fs::path od65 = options.od65.empty() ? options.ld65.parent_path() / "od65" : options.od65;
    const ProcessResult r = run_process({od65.string(), "--dump-segsize", object});
    if (r.exit_code == -1)
        throw AssembleError("cannot run od65 (" + od65.string() + "): install the Debian package 'cc65'");
    if (r.exit_code != 0) throw AssembleError("od65 failed on " + object + ":\n" + r.output);
    static const std::regex line(R"(^\s+([A-Za-z_][A-Za-z0-9_]*):\s+(\d+)\s*$)");
    std::istringstream in(r.output);
    for (std::string l; std::getline(in, l);) {
        std::smatch m;
        if (std::regex_match(l, m, line)) sizes[m[1]] += static_cast<uint32_t>(std::stoul(m[2]));
    }
}

// The config's SEGMENTS block: segment name -> the memory area it loads into.
std::map<std::string, std::string> config_segments(const std::string& config_text) {
    std::map<std::string, std::string> loads;
    static const std::regex entry(R"(([A-Za-z_][A-Za-z0-9_]*)\s*:\s*load\s*=\s*([A-Za-z_][A-Za-z0-9_]*))");
    const size_t key = config_text.find("SEGMENTS");
    if (key == std::string::npos) return loads;
    const std::string body = config_text.substr(key);
    for (std::sregex_iterator it(body.begin(), body.end(), entry), end; it != end; ++it) loads[(*it)[1]] = (*it)[2];
    return loads;
}

// The config with the packed segments added to its SEGMENTS block, the RAM code's segments
// after them, and the packed stream's start as a symbol.
std::string config_with(const std::string& config_text,
                        const std::vector<std::pair<std::string, std::string>>& placed,
                        const std::vector<std::pair<std::string, uint16_t>>& ram_code = {},
                        std::optional<uint16_t> packed_start = {}) {
    const size_t key = config_text.find("SEGMENTS");
    const size_t close = key == std::string::npos ? std::string::npos : config_text.find("\n}", key);
    if (close == std::string::npos) throw AssembleError("ld65 config: no SEGMENTS block closed by a '}' line");
    std::string lines = "\n    # Packed by nestris-asm (PACK_* segments: each region, smallest first, filled as full as it goes; the biggest takes the rest):";
    for (const auto& [segment, region] : placed) lines += "\n    " + segment + ": load = " + region + ", type = ro;";
    if (!ram_code.empty()) {
        lines += "\n    # The RAM code (the config's segments there, and the RAM_* segments: biggest first, each at the lowest address where it crosses no page), unpacked from ROM into " +
                 std::string(kRamCodeArea) + ":";
        for (const auto& [segment, start] : ram_code)
            lines += "\n    " + segment + ": load = " + std::string(kRamCodeArea) + ", type = rw, start = " + hex(start, 4) + ";";
    }
    std::string symbols;
    if (packed_start)
        symbols = "\n\nSYMBOLS {\n    # The packed RAM code's first chunk (code_pack.hpp), by nestris-asm.\n    __PACKED_START__: type = export, value = " +
                  hex(*packed_start, 4) + ";\n}";
    return config_text.substr(0, close) + lines + config_text.substr(close, 2) + symbols + config_text.substr(close + 2);
}

// The config with the hook sites of options.hook_table (if any) added.
std::string with_hook_sites(const std::string& config_text, const AssembleOptions& options) {
    if (options.hook_table.empty()) return config_text;
    const std::string table = read_text(options.hook_table);
    std::map<std::string, uint32_t> constants = parse_asm_constants(table);
    static const std::regex include_re(R"re(^\.include[ \t]+"([^"]+)")re");
    std::istringstream lines(table);
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (!std::regex_search(line, m, include_re)) continue;
        for (const fs::path& dir : options.include_dirs)
            if (fs::exists(dir / m[1].str())) {
                constants.merge(parse_asm_constants(read_text(dir / m[1].str())));
                break;
            }
    }
    try {
        return config_with_hook_sites(config_text, parse_hook_table(table), constants);
    } catch (const HookTableError& e) {
        throw AssembleError(options.hook_table.string() + ": " + e.what());
    }
}

}  // namespace

namespace {

// Best fit in the given order: each segment into the region with the least room that holds it.
std::optional<std::vector<std::pair<std::string, std::string>>> pack_best_fit_in_order(
    const std::vector<std::pair<std::string, uint32_t>>& order, std::vector<PackRoom> rooms) {
    std::vector<std::pair<std::string, std::string>> placed;
    for (const auto& [name, size] : order) {
        PackRoom* best = nullptr;
        for (PackRoom& r : rooms)
            if (r.free >= size && (!best || r.free < best->free)) best = &r;
        if (!best) return std::nullopt;
        best->free -= size;
        placed.emplace_back(name, best->region);
    }
    return placed;
}

// Best fit, biggest first; failing that, in orders with neighbours of the biggest-first order
// swapped at random (a fixed seed: the same code packs the same way every time).
std::optional<std::vector<std::pair<std::string, std::string>>> pack_best_fit(
    const std::vector<std::pair<std::string, uint32_t>>& segments, const std::vector<PackRoom>& rooms) {
    std::vector<std::pair<std::string, uint32_t>> order = segments;
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    uint32_t seed = 0x6502;
    const auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
    for (int attempt = 0; attempt < 20000; ++attempt) {
        std::vector<std::pair<std::string, uint32_t>> tried = order;
        if (attempt > 0 && tried.size() > 1)
            for (int swaps = 1 + static_cast<int>(next() >> 28); swaps > 0; --swaps) {
                const std::size_t i = (next() >> 8) % (tried.size() - 1);
                std::swap(tried[i], tried[i + 1 + (next() >> 8) % std::min<std::size_t>(4, tried.size() - 1 - i)]);
            }
        if (auto placed = pack_best_fit_in_order(tried, rooms)) return placed;
    }
    return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> pack_by_rooms(
    const std::vector<std::pair<std::string, uint32_t>>& segments, std::vector<PackRoom> rooms, uint32_t shuffle = 0);

}  // namespace

std::vector<std::pair<std::string, std::string>> pack_segments(
    const std::vector<std::pair<std::string, uint32_t>>& segments, std::vector<PackRoom> rooms) {
    // Region by region first (the layout this project grew up with); where that leaves a segment
    // without a region, best fit, biggest first, which packs tighter when the free bytes are few.
    try {
        return pack_by_rooms(segments, rooms);
    } catch (const AssembleError& e) {
        if (auto placed = pack_best_fit(segments, rooms)) return *placed;
        // Region by region in other orders of the regions (all but the biggest, shuffled with a
        // fixed seed: the same code packs the same way every time).
        for (uint32_t shuffle = 1; shuffle <= 300; ++shuffle) {
            try {
                return pack_by_rooms(segments, rooms, shuffle);
            } catch (const AssembleError&) {
            }
        }
        uint64_t need = 0, have = 0;
        for (const auto& [name, size] : segments) need += size;
        for (const PackRoom& r : rooms) have += r.free;
        throw AssembleError(std::string(e.what()) + "\nIn all, the PACK_ segments take " + std::to_string(need) +
                            " bytes of the " + std::to_string(have) + " free" +
                            (need > have ? " (" + std::to_string(need - have) + " too many)." : "."));
    }
}

namespace {

std::vector<std::pair<std::string, std::string>> pack_by_rooms(
    const std::vector<std::pair<std::string, uint32_t>>& segments, std::vector<PackRoom> rooms, uint32_t shuffle) {
    // Biggest first (then by name): the order of the result and of the subset search below.
    std::vector<std::pair<std::string, uint32_t>> left = segments;
    std::stable_sort(left.begin(), left.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    // The regions smallest first (a stable order for ties); the biggest takes what the others leave.
    std::vector<std::size_t> by_room(rooms.size());
    for (std::size_t i = 0; i < rooms.size(); ++i) by_room[i] = i;
    std::stable_sort(by_room.begin(), by_room.end(),
                     [&](std::size_t a, std::size_t b) { return rooms[a].free < rooms[b].free; });
    if (shuffle && by_room.size() > 2) {
        uint32_t seed = shuffle * 2654435761u;
        for (std::size_t i = by_room.size() - 2; i > 0; --i) {
            seed = seed * 1664525u + 1013904223u;
            std::swap(by_room[i], by_room[(seed >> 8) % (i + 1)]);
        }
    }
    std::vector<std::pair<std::string, std::string>> placed;
    for (std::size_t r = 0; r + 1 < by_room.size(); ++r) {
        PackRoom& room = rooms[by_room[r]];
        // Fill it as full as it goes: the subset of the segments left with the largest sum that
        // fits (0/1 knapsack by sums; of the subsets with that sum, the one the order finds first).
        const uint32_t cap = room.free;
        std::vector<std::vector<bool>> took(left.size(), std::vector<bool>(cap + 1, false));
        std::vector<bool> reach(cap + 1, false);
        reach[0] = true;
        for (std::size_t k = 0; k < left.size(); ++k) {
            const uint32_t size = left[k].second;
            if (size > cap) continue;
            for (uint32_t sum = cap; sum >= size; --sum)
                if (!reach[sum] && reach[sum - size]) {
                    reach[sum] = true;
                    took[k][sum] = true;
                }
        }
        uint32_t sum = cap;
        while (!reach[sum]) --sum;
        std::vector<bool> chosen(left.size(), false);
        for (std::size_t k = left.size(); k-- > 0 && sum > 0;)
            if (took[k][sum]) {
                chosen[k] = true;
                sum -= left[k].second;
            }
        std::vector<std::pair<std::string, uint32_t>> rest;
        for (std::size_t k = 0; k < left.size(); ++k) {
            if (chosen[k]) {
                room.free -= left[k].second;
                placed.emplace_back(left[k].first, room.region);
            } else {
                rest.push_back(left[k]);
            }
        }
        left = std::move(rest);
    }
    for (const auto& [name, size] : left) {
        PackRoom* biggest = by_room.empty() ? nullptr : &rooms[by_room.back()];
        if (!biggest || biggest->free < size) {
            // What is left now, the segments placed so far taken out.
            uint32_t total = 0, most = 0;
            for (const PackRoom& r : rooms) {
                total += r.free;
                most = std::max(most, r.free);
            }
            throw AssembleError("the cartridge code does not fit its free space: segment " + name + " (" +
                                std::to_string(size) + " bytes) fits no free region (the largest has " +
                                std::to_string(most) + " bytes left, all of them " + std::to_string(total) +
                                ").\nMake it smaller or split it (a PACK_ segment per routine).");
        }
        biggest->free -= size;
        placed.emplace_back(name, biggest->region);
    }
    return placed;
}

}  // namespace

CartImage assemble_cart(const AssembleOptions& options) {
    std::error_code ec;
    fs::create_directories(options.work_dir, ec);
    if (ec) throw AssembleError("cannot create " + options.work_dir.string() + ": " + ec.message());
    const std::string config_text = with_hook_sites(read_text(options.config), options);
    const std::vector<MemoryArea> areas = parse_ld65_memory(config_text);

    std::vector<std::string> objects;
    for (const fs::path& source : options.sources) {
        const fs::path object = fs::absolute(options.work_dir / source.filename()).replace_extension(".o");
        std::vector<std::string> argv = {options.ca65.string(), "-g"};
        for (const fs::path& dir : options.include_dirs) {
            argv.push_back("-I");
            argv.push_back(fs::absolute(dir).string());
        }
        argv.push_back(fs::absolute(source).string());
        argv.push_back("-o");
        argv.push_back(object.string());
        const ProcessResult r = run_process(argv);
        if (r.exit_code == -1)
            throw AssembleError("cannot run ca65 (" + options.ca65.string() +
                                "): install the Debian package 'cc65'");
        if (r.exit_code != 0)
            throw AssembleError("ca65 failed on " + source.string() + ":\n" + r.output);
        objects.push_back(object.string());
    }

    const fs::path work = fs::absolute(options.work_dir);
    for (const char* stale : {"cart.bin", "cart.dbg", "cart.lbl", "cart.map", "cart.cfg", "ramcode.bin"}) fs::remove(work / stale, ec);

    // Pack the PACK_* segments into what the config's own segments leave of the free regions.
    std::map<std::string, uint32_t> sizes;
    for (const std::string& object : objects) add_segment_sizes(options, object, sizes);
    const std::map<std::string, std::string> fixed = config_segments(config_text);
    std::vector<PackRoom> rooms;
    for (const MemoryArea& a : areas) {
        if (a.is_ram || CartRegion{a.name, 0, 0, 0, false}.is_hook_site()) continue;
        uint32_t used = 0;
        for (const auto& [segment, region] : fixed)
            if (region == a.name && sizes.count(segment)) used += sizes[segment];
        rooms.push_back({a.name, a.size > used ? a.size - used : 0});
    }
    std::vector<std::pair<std::string, uint32_t>> packed, ram_code;
    for (const auto& [segment, size] : sizes) {
        if (segment.rfind("PACK_", 0) == 0 && size > 0) {
            if (fixed.count(segment)) throw AssembleError("segment " + segment + " is packed: the config must not place it");
            packed.emplace_back(segment, size);
        }
        if (segment.rfind(kRamCodePrefix, 0) == 0 && size > 0) {
            if (fixed.count(segment)) throw AssembleError("segment " + segment + " is RAM code: the config must not place it");
            ram_code.emplace_back(segment, size);
        }
    }
    const auto ram_area = std::find_if(areas.begin(), areas.end(), [](const MemoryArea& a) { return a.name == kRamCodeArea; });
    if (!ram_code.empty() && ram_area == areas.end())
        throw AssembleError("segment " + ram_code.front().first + " is RAM code, but the config has no memory area " +
                            std::string(kRamCodeArea));
    const std::vector<std::pair<std::string, std::string>> placed = pack_segments(packed, rooms);
    // What the ROM regions have left, biggest first: the packed RAM code's rooms.
    std::vector<StreamRoom> stream_rooms;
    if (ram_area != areas.end()) {
        for (PackRoom room : rooms) {
            for (const auto& [segment, region] : placed)
                if (region == room.region) room.free -= sizes[segment];
            const auto area = std::find_if(areas.begin(), areas.end(), [&](const MemoryArea& a) { return a.name == room.region; });
            if (room.free > 0)
                stream_rooms.push_back({room.region, static_cast<uint16_t>(area->start + area->size - room.free), room.free});
        }
        std::stable_sort(stream_rooms.begin(), stream_rooms.end(),
                         [](const StreamRoom& a, const StreamRoom& b) { return a.free > b.free; });
        if (stream_rooms.empty()) throw AssembleError("no ROM is left for the packed RAM code");
    }
    // Links with the RAM code in `order` (place_ram_code_in_order) and packs it.
    const auto link_and_pack = [&](const RamCodeOrder& order) {
        // The RAM code's segments, the config's own among them, in the order of their addresses (ld65
        // lays a memory area out in the order of the config's lines).
        std::vector<std::pair<std::string, uint16_t>> ram_placed;
        std::string link_config = config_text;
        if (ram_area != areas.end()) {
            std::vector<std::pair<uint32_t, uint32_t>> taken;
            const std::vector<FixedStart> fixed_ram = fixed_starts(config_text, ram_area->name);
            for (const FixedStart& f : fixed_ram)
                if (sizes.count(f.segment)) taken.emplace_back(f.start, f.start + sizes[f.segment]);
            ram_placed = place_ram_code_in_order(order, taken, ram_area->start, ram_area->size);
            for (const FixedStart& f : fixed_ram) {
                link_config.erase(link_config.find(f.line), f.line.size());
                ram_placed.emplace_back(f.segment, static_cast<uint16_t>(f.start));
            }
            std::sort(ram_placed.begin(), ram_placed.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
        }
        {
            std::ofstream cfg(work / "cart.cfg", std::ios::binary);
            cfg << config_with(link_config, placed, ram_placed,
                               stream_rooms.empty() ? std::optional<uint16_t>{} : stream_rooms.front().address);
            if (!cfg) throw AssembleError("cannot write " + (work / "cart.cfg").string());
        }
        std::vector<std::string> argv = {options.ld65.string(), "-C", (work / "cart.cfg").string(),
                                         "-o", "cart.bin", "-Ln", "cart.lbl", "--dbgfile", "cart.dbg",
                                         "-m", "cart.map"};
        argv.insert(argv.end(), objects.begin(), objects.end());
        const ProcessResult link = run_process(argv, work);
        if (link.exit_code == -1)
            throw AssembleError("cannot run ld65 (" + options.ld65.string() +
                                "): install the Debian package 'cc65'");
        if (link.exit_code != 0) throw AssembleError(explain_link_failure(link.output, areas));

        const DebugInfo dbg = parse_ld65_debug(read_text(work / "cart.dbg"));
        CartImage cart;
        cart.symbols = dbg.symbols;
        for (const MemoryArea& a : areas) cart.regions.push_back({a.name, static_cast<uint16_t>(a.start), a.size, 0, a.is_ram});

        for (const DebugSegment& s : dbg.segments) {
            if (s.size == 0) continue;
            CartSegment seg;
            seg.name = s.name;
            seg.address = static_cast<uint16_t>(s.start);
            for (CartRegion& r : cart.regions) {
                if (s.start >= r.start && s.start + s.size <= r.start + r.size) {
                    seg.region = r.name;
                    r.used += s.size;
                }
            }
            if (seg.region.empty())
                throw AssembleError("segment " + s.name + " at " + hex(s.start, 4) +
                                    " lies in no memory area of " + options.config.string());
            if (!s.output_file.empty()) {
                std::ifstream in(work / s.output_file, std::ios::binary);
                in.seekg(s.output_offset);
                seg.bytes.resize(s.size);
                in.read(reinterpret_cast<char*>(seg.bytes.data()), static_cast<std::streamsize>(s.size));
                if (!in) throw AssembleError("ld65 output " + s.output_file + " is shorter than its segments");
            }
            cart.segments.push_back(std::move(seg));
        }

        if (ram_area != areas.end()) add_packed_ram_code(cart, *ram_area, stream_rooms);
        return cart;
    };
    // The RAM code's order that packs smallest of a few, then of their best with neighbours
    // swapped (ram_code.hpp: kRamCodeOrdersTried, kRamCodeSwapPasses): ROM is what is short.
    RamCodeOrder best = ram_code_order(ram_code, 0);
    CartImage cart = link_and_pack(best);
    if (ram_area != areas.end()) {
        const auto packed_size = [](const CartImage& c) {
            size_t n = 0;
            for (const CartSegment& seg : c.segments)
                if (seg.name.rfind("PACKED_", 0) == 0) n += seg.bytes.size();
            return n;
        };
        size_t best_size = packed_size(cart);
        const auto try_order = [&](const RamCodeOrder& order) {
            try {
                const size_t size = packed_size(link_and_pack(order));
                if (size < best_size) {
                    best_size = size;
                    best = order;
                }
            } catch (const AssembleError&) {
                // an order whose packing does not fit, or whose layout breaks a page assertion
            }
        };
        for (uint32_t shuffle = 1; shuffle <= kRamCodeOrdersTried; ++shuffle) try_order(ram_code_order(ram_code, shuffle));
        for (uint32_t pass = 0; pass < kRamCodeSwapPasses; ++pass)
            for (size_t i = 0; i + 1 < best.size(); ++i) {
                if (is_ram_table(best[i].first) != is_ram_table(best[i + 1].first)) continue;
                RamCodeOrder swapped = best;
                std::swap(swapped[i], swapped[i + 1]);
                try_order(swapped);
            }
        cart = link_and_pack(best);  // (its files stay in work_dir)
    }

    // Stamp the build id so a patched ROM says which build made it.
    if (auto id_address = cart.symbol("nestris_build_id")) {
        const uint32_t id = compute_build_id(cart);
        for (CartSegment& seg : cart.segments) {
            if (*id_address >= seg.address && *id_address + 4u <= seg.address + seg.bytes.size()) {
                for (int i = 0; i < 4; ++i)
                    seg.bytes[*id_address - seg.address + static_cast<unsigned>(i)] = static_cast<uint8_t>(id >> (8 * i));
            }
        }
    }
    return cart;
}

uint32_t compute_build_id(const CartImage& cart) {
    const auto id_address = cart.symbol("nestris_build_id");
    std::vector<uint8_t> hashed;  // each segment's address (little endian), then its bytes but the id's
    for (const CartSegment* seg : cart.rom_segments()) {
        hashed.push_back(static_cast<uint8_t>(seg->address));
        hashed.push_back(static_cast<uint8_t>(seg->address >> 8));
        for (size_t i = 0; i < seg->bytes.size(); ++i) {
            const uint32_t address = seg->address + static_cast<uint32_t>(i);
            if (id_address && address >= *id_address && address < *id_address + 4u) continue;
            hashed.push_back(seg->bytes[i]);
        }
    }
    return crc32_of(hashed);
}

void write_cart_cpp(const CartImage& cart, std::ostream& out) {
    auto quoted = [](const std::string& s) {
        std::string q = "\"";
        for (char c : s) {
            if (c == '"' || c == '\\') q += '\\';
            q += c;
        }
        return q + "\"";
    };
    out << "// Generated by nestris-asm from asm/: the cartridge code shipped with this build.\n"
           "// Do not edit; change asm/ and rebuild.\n"
           "#include \"patcher/cart_image.hpp\"\n\n"
           "namespace nestris {\n\n"
           "const CartImage& shipped_cart() {\n"
           "    static const CartImage cart = [] {\n"
           "        CartImage c;\n";
    for (const CartRegion& r : cart.regions)
        out << "        c.regions.push_back({" << quoted(r.name) << ", " << r.start << ", " << r.size
            << ", " << r.used << ", " << (r.is_ram ? "true" : "false") << "});\n";
    for (const CartSegment& s : cart.segments) {
        out << "        c.segments.push_back({" << quoted(s.name) << ", " << s.address << ", "
            << quoted(s.region) << ", {";
        for (size_t i = 0; i < s.bytes.size(); ++i) {
            if (i % 24 == 0) out << "\n            ";
            out << static_cast<unsigned>(s.bytes[i]) << ",";
        }
        out << "}});\n";
    }
    for (const CartSymbol& s : cart.symbols)
        out << "        c.symbols.push_back({" << quoted(s.name) << ", " << s.value << ", "
            << (s.is_label ? "true" : "false") << "});\n";
    out << "        return c;\n"
           "    }();\n"
           "    return cart;\n"
           "}\n\n"
           "}  // namespace nestris\n";
}

}  // namespace nestris
