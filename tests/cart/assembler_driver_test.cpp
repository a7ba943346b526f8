#include "patcher/asm_driver.hpp"
#include "patcher/ld65_files.hpp"
#include "tests/support/scratch_dir.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

namespace fs = std::filesystem;
using namespace nestris;

namespace {

// The fixture's objects, labels and map go to `work` (removed with it).
AssembleOptions fixture(const std::string& source, const test::ScratchDir& work) {
    AssembleOptions o;
    o.ca65 = NESTRIS_CA65;
    o.ld65 = NESTRIS_LD65;
    o.config = fs::path(NESTRIS_FIXTURES_DIR) / "tiny.cfg";
    o.sources = {fs::path(NESTRIS_FIXTURES_DIR) / source};
    o.work_dir = work.path();
    return o;
}

}  // namespace

TEST_CASE("ld65 MEMORY blocks are read with names, ranges and RAM areas") {
    const auto areas = parse_ld65_memory(R"(
        # comment with MEMORY { inside }
        MEMORY {
            A: start = $D6C9, size = $0637, type = ro, file = %O;  # trailing
            B: start = 0x500, size = 256, type = rw, file = "";
        }
        SEGMENTS { X: load = A, type = ro; })");
    REQUIRE(areas.size() == 2);
    CHECK(areas[0].name == "A");
    CHECK(areas[0].start == 0xD6C9);
    CHECK(areas[0].size == 1591);
    CHECK_FALSE(areas[0].is_ram);
    CHECK(areas[1].start == 0x500);
    CHECK(areas[1].size == 256);
    CHECK(areas[1].is_ram);
    CHECK_THROWS_AS(parse_ld65_memory("SEGMENTS {}"), Ld65Error);
    CHECK_THROWS_AS(parse_ld65_memory("MEMORY { A: start = $10; }"), Ld65Error);
}

TEST_CASE("the driver assembles code into its region and reports usage and symbols") {
    const test::ScratchDir work("asm_fits");
    const CartImage cart = assemble_cart(fixture("fits.s", work));
    const auto rom = cart.rom_segments();
    REQUIRE(rom.size() == 2);
    CHECK(rom[0]->address == 0xD6C9);
    CHECK(rom[0]->region == "SMALL");
    REQUIRE(rom[0]->bytes.size() == 12);
    CHECK(rom[0]->bytes[0] == 0xA9);  // lda #
    CHECK(rom[0]->bytes[1] == 0x2A);
    CHECK(rom[0]->bytes[11] == 4);
    CHECK(rom[1]->address == 0xF9EB);
    CHECK(rom[1]->bytes == std::vector<uint8_t>{0xEA});
    CHECK(cart.require("entry") == 0xD6C9);
    CHECK(cart.require("entry::loop") == 0xD6CB);  // scoped names keep their scope
    CHECK(cart.require("answer") == 0x2A);         // equates come through too
    CHECK(cart.require("counter") == 0x0500);
    CHECK_FALSE(cart.symbol("loop").has_value());
    CHECK_THROWS_WITH(cart.require("missing"), Catch::Contains("missing"));
    CHECK(cart.region("SMALL").used == 12);
    CHECK(cart.region("OTHER").used == 1);
    CHECK(cart.region("VARS").used == 3);
    CHECK_THROWS_WITH(cart.region("NOWHERE"), Catch::Contains("NOWHERE"));
    CHECK_THAT(cart.usage_report(), Catch::Contains("SMALL") && Catch::Contains("12"));
}

TEST_CASE("a region overflow fails with the region's name and the overflow") {
    const test::ScratchDir work("asm_overflow");
    try {
        assemble_cart(fixture("overflow.s", work));
        FAIL("overflow was accepted");
    } catch (const AssembleError& e) {
        const std::string message = e.what();
        CHECK_THAT(message, Catch::Contains("region SMALL"));
        CHECK_THAT(message, Catch::Contains("$D6C9-$D6D8"));
        CHECK_THAT(message, Catch::Contains("overflows by 5 bytes"));
    }
}

TEST_CASE("assembler errors and a missing assembler are reported clearly") {
    const test::ScratchDir work("asm_errors");
    CHECK_THROWS_WITH(assemble_cart(fixture("syntax_error.s", work)),
                      Catch::Contains("ca65 failed on") && Catch::Contains("syntax_error.s"));
    AssembleOptions missing = fixture("fits.s", work);
    missing.ca65 = "/nonexistent/ca65";
    CHECK_THROWS_WITH(assemble_cart(missing), Catch::Contains("install the Debian package 'cc65'"));
}

TEST_CASE("the build id changes with the code and ignores its own bytes") {
    CartImage a;
    a.segments.push_back({"CODE", 0xD6C9, "R", {1, 2, 3}});
    CartImage b = a;
    CHECK(compute_build_id(a) == compute_build_id(b));
    b.segments[0].bytes[1] = 9;
    CHECK(compute_build_id(a) != compute_build_id(b));
    a.symbols.push_back({"nestris_build_id", 0xD6CA, true});
    CartImage c = a;
    c.segments[0].bytes[1] = 77;  // inside the id: does not count
    CHECK(compute_build_id(a) == compute_build_id(c));
}

TEST_CASE("PACK_ segments fill each region, smallest first, as full as they go, the biggest takes the rest") {
    const auto placed = pack_segments({{"PACK_a", 10}, {"PACK_b", 30}, {"PACK_c", 25}, {"PACK_d", 5}},
                                      {{"R1", 40}, {"R2", 28}, {"R3", 6}});
    // R3 (6): d (5); R2 (28): c (25), the fullest of a, c, a + ... ; R1: the rest, b and a (40).
    REQUIRE(placed.size() == 4);
    CHECK(placed[0] == std::pair<std::string, std::string>{"PACK_d", "R3"});
    CHECK(placed[1] == std::pair<std::string, std::string>{"PACK_c", "R2"});
    CHECK(placed[2] == std::pair<std::string, std::string>{"PACK_b", "R1"});
    CHECK(placed[3] == std::pair<std::string, std::string>{"PACK_a", "R1"});
    // Biggest first into the fullest region that holds each (the packing before) fails here: 6 -> B
    // (3 left), 5 and 5 -> A (1 left), 4 fits nowhere. By sums, B takes 5 + 4 and A the 6 and 5.
    const auto tight = pack_segments({{"PACK_w", 4}, {"PACK_x", 6}, {"PACK_y", 5}, {"PACK_z", 5}}, {{"A", 11}, {"B", 9}});
    REQUIRE(tight.size() == 4);
    CHECK(tight[0] == std::pair<std::string, std::string>{"PACK_y", "B"});
    CHECK(tight[1] == std::pair<std::string, std::string>{"PACK_w", "B"});
    CHECK(tight[2] == std::pair<std::string, std::string>{"PACK_x", "A"});
    CHECK(tight[3] == std::pair<std::string, std::string>{"PACK_z", "A"});
    CHECK_THROWS_WITH(pack_segments({{"PACK_big", 50}}, {{"R1", 40}, {"R2", 28}}),
                      Catch::Contains("PACK_big (50 bytes) fits no free region") &&
                          Catch::Contains("the largest has 40"));
    // The figures are what is left when the segment comes: the segments placed before it taken out.
    CHECK_THROWS_WITH(pack_segments({{"PACK_a", 30}, {"PACK_b", 30}}, {{"R1", 40}}),
                      Catch::Contains("PACK_b (30 bytes) fits no free region") &&
                          Catch::Contains("the largest has 10 bytes left, all of them 10") &&
                          Catch::Contains("take 60 bytes of the 40 free (20 too many)"));
}

TEST_CASE("PACK_ segments the regions one by one leave without a region go in by best fit") {
    // 32 bytes into 34. Region by region throws here: R0 (the smallest) is filled first as full
    // as it goes, and then the 7s no longer go into R1 and R2. Best fit, biggest first, places
    // them: 7 -> R0, 7 -> R1, 7 -> R2, 5 -> R2, 4 -> R1, 2 -> R0.
    const std::vector<std::pair<std::string, uint32_t>> segs{{"PACK_a", 4}, {"PACK_b", 7}, {"PACK_c", 5},
                                                             {"PACK_d", 7}, {"PACK_e", 2}, {"PACK_f", 7}};
    const auto placed = pack_segments(segs, {{"R0", 10}, {"R1", 11}, {"R2", 13}});
    REQUIRE(placed.size() == 6);
    std::map<std::string, uint32_t> used;
    std::map<std::string, uint32_t> size_of(segs.begin(), segs.end());
    for (const auto& [segment, region] : placed) used[region] += size_of.at(segment);
    CHECK(used["R0"] <= 10);
    CHECK(used["R1"] <= 11);
    CHECK(used["R2"] <= 13);
    CHECK(used["R0"] + used["R1"] + used["R2"] == 32);
}

TEST_CASE("the driver packs PACK_ segments into the room the config's segments leave") {
    const test::ScratchDir work("asm_packed");
    const CartImage cart = assemble_cart(fixture("packed.s", work));
    // SMALL ($D6C9, 16 bytes) holds the config's CODE (12 bytes) and OTHER ($F9EB, 8 bytes)
    // nothing: the 3-byte routine goes to SMALL's 4 bytes left, the fullest region that holds it,
    // then the 2-byte table to OTHER.
    std::map<std::string, std::string> region;
    for (const CartSegment& seg : cart.segments) region[seg.name] = seg.region;
    CHECK(region["CODE"] == "SMALL");
    CHECK(region["PACK_routine"] == "SMALL");
    CHECK(region["PACK_table"] == "OTHER");
    CHECK(cart.require("routine") == 0xD6C9 + 12);
    CHECK(cart.require("table") == 0xF9EB);
}
