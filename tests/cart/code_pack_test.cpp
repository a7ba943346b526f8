// The packed RAM code: the stream's format (patcher/code_pack.hpp) round trip, its chunks in
// rooms, its errors, and the shipped cartridge's stream against its RAM code.
#include "patcher/code_pack.hpp"
#include "patcher/asm_driver.hpp"
#include "patcher/cart_image.hpp"

#include <catch2/catch.hpp>

#include <random>

using namespace nestris;

namespace {

std::vector<uint8_t> unpack_chunks(const std::vector<PackChunk>& chunks, uint16_t start, size_t limit) {
    std::vector<uint8_t> rom(0x10000, 0xEA);
    for (const PackChunk& c : chunks) std::copy(c.bytes.begin(), c.bytes.end(), rom.begin() + c.address);
    return unpack_code([&](uint16_t a) { return rom[a]; }, start, limit);
}

std::vector<uint8_t> unpack_run(const std::vector<uint8_t>& stream, size_t limit) {
    return unpack_chunks({{"", 0x8000, stream}}, 0x8000, limit);
}

// Bytes like code: a few opcodes often, operands from a small set, repeats at many distances.
std::vector<uint8_t> code_like(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<uint8_t> v;
    const uint8_t ops[] = {0xA5, 0x85, 0xA9, 0xD0, 0xF0, 0x20, 0x60, 0xBD, 0x9D, 0xE8, 0xCA, 0x18, 0x69};
    while (v.size() < n) {
        if (v.size() > 16 && rng() % 4 == 0) {
            const size_t from = rng() % (v.size() - 8), len = 3 + rng() % 12;
            for (size_t k = 0; k < len && v.size() < n; ++k) v.push_back(v[from + k]);
        } else {
            v.push_back(ops[rng() % std::size(ops)]);
            if (v.size() < n) v.push_back(static_cast<uint8_t>(0x10 + rng() % 24));
        }
    }
    return v;
}

}  // namespace

TEST_CASE("the packed stream unpacks to what was packed") {
    std::mt19937 rng(7);
    std::vector<std::vector<uint8_t>> inputs = {{}, {0x42}, std::vector<uint8_t>(1000, 0), std::vector<uint8_t>(3, 0xFF)};
    std::vector<uint8_t> random(3000);
    for (uint8_t& b : random) b = static_cast<uint8_t>(rng());
    // Random bytes with a repeat now and then (a literal run ends in a match).
    std::vector<uint8_t> sparse = random;
    for (size_t i = 200; i + 2 < sparse.size(); i += 200) sparse[i + 1] = sparse[i], sparse[i + 2] = sparse[i];
    inputs.push_back(sparse);
    std::vector<uint8_t> pattern;
    for (int i = 0; i < 2000; ++i) pattern.push_back(static_cast<uint8_t>(i % 7 == 0 ? i : i % 3));
    inputs.push_back(pattern);
    for (uint32_t seed = 1; seed <= 5; ++seed) inputs.push_back(code_like(6000, seed));
    for (const auto& in : inputs) {
        INFO(in.size() << " bytes");
        const std::vector<uint8_t> stream = pack_code(in);
        CHECK(unpack_run(stream, in.size()) == in);
    }
    // Code-like bytes pack smaller; random ones grow by little.
    CHECK(pack_code(code_like(6000, 9)).size() < 4500);
    CHECK(pack_code(sparse).size() < sparse.size() + sparse.size() / 50);
    // Random bytes alone have no way on after a literal run: refused, not written wrong.
    CHECK_THROWS_WITH(pack_code(random), Catch::Contains("cannot be packed"));
}

TEST_CASE("the packed stream is laid out in its rooms, a jump from each to the next") {
    const std::vector<uint8_t> in = code_like(5000, 3);
    const std::vector<StreamRoom> rooms = {{"A", 0xD000, 700}, {"B", 0x9000, 3},   {"C", 0xA000, 40},
                                           {"D", 0xB000, 9},   {"E", 0xC100, 2500}, {"F", 0xE000, 4000}};
    const std::vector<PackChunk> chunks = pack_code(in, rooms);
    REQUIRE(chunks.size() >= 2);
    CHECK(chunks.front().address == 0xD000);
    for (const PackChunk& c : chunks) {
        const auto room = std::find_if(rooms.begin(), rooms.end(), [&](const StreamRoom& r) { return r.region == c.region; });
        REQUIRE(room != rooms.end());
        CHECK(c.address == room->address);
        CHECK(c.bytes.size() <= room->free);
        CHECK(c.region != "B");  // too small for anything and a jump
    }
    CHECK(unpack_chunks(chunks, 0xD000, in.size()) == in);
    // Every size of first room, so that every kind of token meets a room's end.
    for (uint32_t first = 8; first < 80; ++first) {
        INFO("first room " << first);
        const std::vector<StreamRoom> tight = {{"A", 0x8000, first}, {"B", 0x9000, first + 3}, {"C", 0xA000, 6000}};
        CHECK(unpack_chunks(pack_code(in, tight), 0x8000, in.size()) == in);
    }
}

TEST_CASE("a stream that does not fit its rooms, or that is malformed, is refused") {
    const std::vector<uint8_t> in = code_like(3000, 4);
    CHECK_THROWS_WITH(pack_code(in, {{"A", 0x8000, 500}, {"B", 0x9000, 600}}), Catch::Contains("does not fit"));
    // A match at the start reaches before it.
    CHECK_THROWS_WITH(unpack_run({0xC0, 0x00, 0x80, 0x00}, 100), Catch::Contains("before the start"));
    // A literal run that never ends writes past the limit.
    std::vector<uint8_t> endless;
    for (int i = 0; i < 40; ++i) {
        endless.push_back(0x2B);  // 0 (literal), gamma(5) = 0 0 0 1 1, then ...
    }
    CHECK_THROWS(unpack_run(endless, 20));
}

TEST_CASE("RAM code is placed so that no segment under 256 bytes crosses a page") {
    const std::vector<std::pair<std::string, uint32_t>> segs = {
        {"RAM_a", 200}, {"RAM_b", 100}, {"RAM_c", 60}, {"RAM_d", 300}, {"RAM_e", 255}, {"RAM_f", 1}, {"RAM_g", 90}};
    const auto placed = place_ram_code(segs, {{0x6300, 0x6340}}, 0x6200, 0x0800);
    REQUIRE(placed.size() == segs.size());
    std::vector<std::pair<uint32_t, uint32_t>> ranges = {{0x6300, 0x6340}};
    for (const auto& [name, at] : placed) {
        const uint32_t len = std::find_if(segs.begin(), segs.end(), [&](const auto& s) { return s.first == name; })->second;
        INFO(name);
        if (len < 256) CHECK((at & 0xFF) + len <= 256);
        for (const auto& [from, to] : ranges) CHECK((at >= to || at + len <= from));
        ranges.emplace_back(at, at + len);
        CHECK(at >= 0x6200);
        CHECK(at + len <= 0x6A00);
    }
    CHECK_THROWS_WITH(place_ram_code({{"RAM_big", 0x900}}, {}, 0x6200, 0x0800), Catch::Contains("RAM_big"));
}

TEST_CASE("every order of the RAM code has each segment once, the code before the generated tables") {
    const RamCodeOrder segs = {{"RAM_gen_t1", 40}, {"RAM_a", 200}, {"RAM_b", 100}, {"RAM_gen_t2", 7},
                               {"RAM_c", 60}, {"RAM_gen_t3", 90}, {"RAM_d", 3}};
    for (uint32_t shuffle = 0; shuffle <= kRamCodeOrdersTried; ++shuffle) {
        INFO("shuffle " << shuffle);
        RamCodeOrder order = ram_code_order(segs, shuffle);
        REQUIRE(order.size() == segs.size());
        size_t tables_from = 0;
        while (tables_from < order.size() && !is_ram_table(order[tables_from].first)) ++tables_from;
        CHECK(tables_from == 4);
        for (size_t i = tables_from; i < order.size(); ++i) CHECK(is_ram_table(order[i].first));
        std::sort(order.begin(), order.end());
        RamCodeOrder sorted = segs;
        std::sort(sorted.begin(), sorted.end());
        CHECK(order == sorted);
    }
    // The first order: each class biggest first.
    CHECK(ram_code_order(segs).front().first == "RAM_a");
    CHECK(ram_code_order(segs).back().first == "RAM_gen_t2");
}

TEST_CASE("the unpacker's codes for a jump and the end are the packer's") {
    const CartImage& cart = shipped_cart();
    CHECK(cart.require("PACK_JUMP") == kPackJump);
    CHECK(cart.require("PACK_END") == kPackEnd);
}

TEST_CASE("the shipped cartridge's packed stream unpacks to its RAM code") {
    const CartImage& cart = shipped_cart();
    const CartRegion& area = cart.region(kRamCodeArea);
    std::vector<uint8_t> rom(0x10000, 0);
    for (const CartSegment* s : cart.rom_segments()) std::copy(s->bytes.begin(), s->bytes.end(), rom.begin() + s->address);
    const auto first = std::find_if(cart.segments.begin(), cart.segments.end(), [](const CartSegment& s) { return s.name == "PACKED_1"; });
    REQUIRE(first != cart.segments.end());
    const uint16_t start_at = cart.require("unpack_start");  // the unpacker's first source address
    CHECK((rom[start_at] | rom[start_at + 1u] << 8) == first->address);
    const std::vector<uint8_t> out = unpack_code([&](uint16_t a) { return rom[a]; }, first->address, area.size);
    size_t code_bytes = 0;
    for (const CartSegment& s : cart.segments) {
        if (s.region != area.name || s.bytes.empty()) continue;
        INFO(s.name);
        REQUIRE(s.address - area.start + s.bytes.size() <= out.size());
        CHECK(std::equal(s.bytes.begin(), s.bytes.end(), out.begin() + (s.address - area.start)));
        code_bytes += s.bytes.size();
    }
    CHECK(code_bytes > 4000);
    CHECK(code_bytes == area.used);
    // None of the RAM code is in the patch as it is: only packed.
    for (const CartSegment* s : cart.rom_segments()) CHECK(s->address >= 0x8000);
}
