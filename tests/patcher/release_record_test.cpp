#include "patcher/release_record.hpp"

#include <catch2/catch.hpp>

using namespace nestris;
using Catch::Matchers::Contains;

TEST_CASE("release record: written and read back equal, malformed records are refused by line") {
    const ReleaseRecord r{"1.2.3", 0xD4B37B11, std::string(40, 'A'), std::string(40, 'B'), std::string(40, 'C'),
                          0x0589144E};
    const std::string text = format_release_record(r);
    CHECK(parse_release_record(text) == r);
    CHECK_THAT(text, Contains("build = D4B37B11") && Contains("patched_crc32 = 0589144E"));

    CHECK_THROWS_WITH(parse_release_record(text + "colour = red\n"), Contains("line 12: unknown key 'colour'"));
    CHECK_THROWS_WITH(parse_release_record(text + "build = 00000000\n"), Contains("given twice"));
    CHECK_THROWS_WITH(parse_release_record("version = 1\n"), Contains("'build' is missing"));
    std::string lower = text;
    lower.replace(lower.find("D4B37B11"), 8, "d4b37b11");
    CHECK_THROWS_WITH(parse_release_record(lower), Contains("malformed value"));
    CHECK_THROWS_WITH(parse_release_record("just words\n"), Contains("line 1: expected key = value"));
}
