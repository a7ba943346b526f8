#include "patcher/ips.hpp"
#include "tests/patcher/support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>

using namespace nestris;
using namespace nestris::test;
using Catch::Matchers::Contains;

namespace {

std::vector<uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

// Header + the given raw bytes.
std::vector<uint8_t> patch_file(std::vector<uint8_t> body) { return concat(bytes_of("PATCH"), body); }

size_t literal_only_size(const std::vector<uint8_t>& block) {
    return 5 + 3 + (block.size() + kIpsMaxRecordLength - 1) / kIpsMaxRecordLength * 5 + block.size();
}

// The target of a random edit of `source`: overwritten bytes, filled runs, growth or truncation.
std::vector<uint8_t> random_edit(std::mt19937& rng, std::vector<uint8_t> data) {
    const int edits = static_cast<int>(rng() % 12);
    for (int e = 0; e < edits; ++e) {
        const size_t at = data.empty() ? 0 : rng() % data.size();
        const size_t len = 1 + rng() % 300;
        switch (rng() % 5) {
            case 0:  // random bytes
                for (size_t i = at; i < std::min(data.size(), at + len); ++i) data[i] = static_cast<uint8_t>(rng());
                break;
            case 1:  // a run (RLE material)
                std::fill(data.begin() + static_cast<ptrdiff_t>(at),
                          data.begin() + static_cast<ptrdiff_t>(std::min(data.size(), at + len)),
                          static_cast<uint8_t>(rng()));
                break;
            case 2:  // scattered single bytes
                for (size_t i = at; i < std::min(data.size(), at + len); i += 1 + rng() % 8) data[i] ^= 0x5A;
                break;
            case 3: {  // grow
                const auto more = random_bytes(rng, len);
                data.insert(data.end(), more.begin(), more.end());
                break;
            }
            default:  // shrink
                data.resize(data.size() - std::min(data.size(), len / 4));
        }
    }
    return data;
}

}  // namespace

TEST_CASE("random images round trip: diff, write, read, apply") {
    std::mt19937 rng(20240601);
    for (int iteration = 0; iteration < 300; ++iteration) {
        const auto source = random_bytes(rng, rng() % 6000);
        auto target = random_edit(rng, source);
        INFO("iteration " << iteration << ", " << source.size() << " -> " << target.size() << " bytes");
        const IpsPatch patch = diff_ips(source, target);
        const std::vector<uint8_t> file = serialize_ips(patch);
        const IpsPatch reread = parse_ips(file);
        CHECK(reread == patch);
        CHECK(apply_ips(source, reread, {.allow_growth = true, .allow_truncation = true}) == target);
        CHECK(minimal_apply(source, file) == target);
        if (source == target) CHECK(file.size() == 8);
    }
}

TEST_CASE("a diff writes only what changed") {
    std::mt19937 rng(7);
    const auto source = random_bytes(rng, 4096);
    auto target = source;
    target[100] ^= 1;
    target[3000] ^= 1;
    const IpsPatch patch = diff_ips(source, target);
    REQUIRE(patch.records.size() == 2);
    CHECK(patch.records[0].offset == 100);
    CHECK(patch.records[0].length == 1);
    CHECK(patch.records[1].offset == 3000);
    CHECK_FALSE(patch.truncate_to);
    // Bytes 5 apart: one record of 6 costs less than two of 1 (a header is 5 bytes).
    target = source;
    target[10] ^= 1;
    target[15] ^= 1;
    CHECK(diff_ips(source, target).records.size() == 1);
}

TEST_CASE("RLE records are used where they make the patch smaller, and only there") {
    SECTION("a long run is one RLE record") {
        const IpsPatch p = encode_ips({{0x100, std::vector<uint8_t>(1000, 0xAA)}});
        REQUIRE(p.records.size() == 1);
        CHECK(p.records[0].rle);
        CHECK(p.records[0].length == 1000);
        CHECK(serialize_ips(p).size() == 5 + 8 + 3);
    }
    SECTION("data without runs stays literal") {
        std::vector<uint8_t> block(500);
        for (size_t i = 0; i < block.size(); ++i) block[i] = static_cast<uint8_t>(i * 7 + i / 3);
        const IpsPatch p = encode_ips({{0, block}});
        REQUIRE(p.records.size() == 1);
        CHECK_FALSE(p.records[0].rle);
    }
    SECTION("a run inside a literal is split out only when it saves bytes") {
        // Inside a literal an RLE record (8) plus a second literal header (5) beats a run of 14.
        auto with_run = [](size_t run) {
            std::vector<uint8_t> block;
            for (int i = 0; i < 20; ++i) block.push_back(static_cast<uint8_t>(i + 1));
            block.insert(block.end(), run, 0xEE);
            for (int i = 0; i < 20; ++i) block.push_back(static_cast<uint8_t>(i + 100));
            return block;
        };
        const IpsPatch kept = encode_ips({{0x40, with_run(13)}});
        CHECK(kept.records.size() == 1);
        CHECK(serialize_ips(kept).size() == literal_only_size(with_run(13)));
        const IpsPatch split = encode_ips({{0x40, with_run(14)}});
        REQUIRE(split.records.size() == 3);
        CHECK(split.records[1].rle);
        CHECK(serialize_ips(split).size() < literal_only_size(with_run(14)));
        // At the end of a block a run pays from 9 bytes: no second literal header is needed.
        std::vector<uint8_t> tail = {1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9};
        CHECK(encode_ips({{0, tail}}).records.size() == 2);
        tail.pop_back();
        CHECK(encode_ips({{0, tail}}).records.size() == 1);
    }
    SECTION("never bigger than all-literal records, on random data with runs") {
        std::mt19937 rng(99);
        for (int i = 0; i < 200; ++i) {
            std::vector<uint8_t> block;
            while (block.size() < 3000) {
                if (rng() % 2) block.insert(block.end(), rng() % 40, static_cast<uint8_t>(rng()));
                else for (int k = 0; k < 10; ++k) block.push_back(static_cast<uint8_t>(rng()));
            }
            const auto file = serialize_ips(encode_ips({{0x10, block}}));
            CHECK(file.size() <= literal_only_size(block));
            CHECK(minimal_apply(std::vector<uint8_t>(0x10), file) == concat(std::vector<uint8_t>(0x10), block));
        }
    }
}

TEST_CASE("records are split at 65535 bytes") {
    std::mt19937 rng(3);
    const auto block = random_bytes(rng, 200000);
    const IpsPatch literal = encode_ips({{0x20, block}});
    REQUIRE(literal.records.size() == 4);
    uint32_t next = 0x20;
    for (const IpsRecord& r : literal.records) {
        CHECK(r.length <= kIpsMaxRecordLength);
        CHECK(r.offset == next);
        next = r.end();
    }
    CHECK(next == 0x20 + 200000);
    CHECK(minimal_apply({}, serialize_ips(literal)) == concat(std::vector<uint8_t>(0x20), block));

    const IpsPatch run = encode_ips({{0, std::vector<uint8_t>(200000, 0x11)}});
    REQUIRE(run.records.size() == 4);
    for (const IpsRecord& r : run.records) CHECK(r.rle);
}

TEST_CASE("no record starts at $454F46, the offset that reads as 'EOF'") {
    constexpr uint32_t E = kIpsEofOffset;
    std::mt19937 rng(454);
    const auto source = random_bytes(rng, E + 70000);
    auto check_patch = [&](const std::vector<uint8_t>& target) {
        const IpsPatch patch = diff_ips(source, target);
        for (const IpsRecord& r : patch.records) CHECK(r.offset != E);
        const auto file = serialize_ips(patch);
        CHECK(parse_ips(file) == patch);
        CHECK(apply_ips(source, patch) == target);
        CHECK(minimal_apply(source, file) == target);
    };
    SECTION("one byte at $454F46: the record starts a byte early, rewriting the source's byte") {
        auto target = source;
        target[E] ^= 0xFF;
        check_patch(target);
        const IpsPatch patch = diff_ips(source, target);
        REQUIRE(patch.records.size() == 1);
        CHECK(patch.records[0].offset == E - 1);
        CHECK(patch.records[0].data == std::vector<uint8_t>{source[E - 1], target[E]});
    }
    SECTION("an RLE run starting at $454F46") {
        auto target = source;
        std::fill(target.begin() + E, target.begin() + E + 500, 0x77);
        check_patch(target);
    }
    SECTION("a long literal whose 65535-byte split falls on $454F46") {
        auto target = source;
        for (uint32_t i = E - kIpsMaxRecordLength; i < E + 100; ++i) target[i] = static_cast<uint8_t>(~source[i]);
        check_patch(target);
    }
    SECTION("a run ending at $454F45 then a literal at $454F46") {
        auto target = source;
        std::fill(target.begin() + E - 300, target.begin() + E, 0x00);
        for (uint32_t i = E; i < E + 50; ++i) target[i] = static_cast<uint8_t>(~source[i]);
        check_patch(target);
    }
    SECTION("without the source's byte at $454F45 the encoder refuses") {
        REQUIRE_THROWS_WITH(encode_ips({{E, {1, 2, 3}}}), Contains("$454F46") && Contains("$454F45"));
    }
    SECTION("a hand-made record at $454F46 is refused by the writer") {
        IpsPatch bad;
        bad.records.push_back({E, 1, false, {9}});
        REQUIRE_THROWS_WITH(serialize_ips(bad), Contains("$454F46"));
    }
    SECTION("a reader sees such a record as the end of the patch") {
        const auto file = patch_file({0x45, 0x4F, 0x46, 0, 1, 0xAB, 'E', 'O', 'F'});
        REQUIRE_THROWS_WITH(parse_ips(file), Contains("after the 'EOF' marker at byte 5 of the patch") && Contains("$454F46"));
    }
}

TEST_CASE("offsets are 24-bit") {
    IpsPatch p;
    p.records.push_back({0x1000000, 1, false, {1}});
    REQUIRE_THROWS_WITH(serialize_ips(p), Contains("24-bit"));
    p.records[0].offset = kIpsMaxOffset;  // the last addressable offset is fine
    CHECK(parse_ips(serialize_ips(p)) == p);
    REQUIRE_THROWS_WITH(encode_ips({{0x1000000, {1}}}), Contains("24-bit"));
    REQUIRE_THROWS_WITH(encode_ips({{kIpsMaxOffset - 10, std::vector<uint8_t>(70000, 1)}}), Contains("24-bit"));
    const std::vector<uint8_t> source(0x1000010, 0);
    auto target = source;
    target[0x1000001] = 1;
    REQUIRE_THROWS_WITH(diff_ips(source, target), Contains("24-bit"));
}

TEST_CASE("the truncation record (Lunar IPS extension)") {
    std::mt19937 rng(11);
    const auto source = random_bytes(rng, 1000);
    auto target = source;
    target.resize(600);
    target[10] = static_cast<uint8_t>(~target[10]);
    const IpsPatch patch = diff_ips(source, target);
    REQUIRE(patch.truncate_to == 600u);
    const auto file = serialize_ips(patch);
    CHECK(std::vector<uint8_t>(file.end() - 6, file.end()) == std::vector<uint8_t>{'E', 'O', 'F', 0, 2, 0x58});
    CHECK(parse_ips(file) == patch);
    // Cutting the file short is refused unless asked for.
    REQUIRE_THROWS_WITH(apply_ips(source, patch), Contains("truncation record at byte") && Contains("cuts the 1000-byte file to 600"));
    CHECK(apply_ips(source, patch, {.allow_truncation = true}) == target);
    CHECK(minimal_apply(source, file) == target);
    // Truncating to more than the file has is growth.
    IpsPatch grow;
    grow.truncate_to = 2000;
    REQUIRE_THROWS_WITH(apply_ips(source, grow), Contains("truncation size at byte 8 of the patch") && Contains("2000"));
    CHECK(apply_ips(source, grow, {.allow_growth = true}).size() == 2000);
}

TEST_CASE("malformed patches are refused, naming the byte offset") {
    const std::vector<uint8_t> rec = {0, 0, 0x10, 0, 2, 0xAB, 0xCD};  // 2 bytes at $10: 7 bytes long
    struct Case {
        const char* what;
        std::vector<uint8_t> file;
        const char* message;
    };
    const Case cases[] = {
        {"empty", {}, "0 bytes, too short for the 'PATCH' header at byte 0"},
        {"short header", bytes_of("PAT"), "too short"},
        {"bad header", concat(bytes_of("PATCX"), bytes_of("EOF")), "bytes 0-4 are not 'PATCH'"},
        {"no records, no EOF", bytes_of("PATCH"), "missing 'EOF' marker: the patch ends at byte 5 after 0 record(s)"},
        {"record then no EOF", patch_file(rec), "missing 'EOF' marker: the patch ends at byte 12 after 1 record(s)"},
        {"EOF cut short", concat(patch_file(rec), bytes_of("EO")), "truncated record at byte 12 of the patch: 2 byte(s) left"},
        {"offset only", patch_file({0, 0, 0x10}), "truncated record at byte 5 of the patch (file offset $000010): its 2-byte size"},
        {"size cut", patch_file({0, 0, 0x10, 0}), "truncated record at byte 5 of the patch"},
        {"data cut", patch_file({0, 0, 0x10, 0, 10, 1, 2, 3, 4}),
         "truncated record at byte 5 of the patch (file offset $000010): it declares 10 bytes, the patch has 4 left"},
        {"second record cut", concat(patch_file(rec), {0, 1, 0, 0, 3, 9}), "truncated record at byte 12 of the patch (file offset $000100)"},
        {"RLE cut", patch_file({0, 0, 0x10, 0, 0, 0, 5}), "truncated RLE record at byte 5 of the patch"},
        {"RLE count 0", concat(patch_file({0, 0, 0x10, 0, 0, 0, 0, 0xFF}), bytes_of("EOF")),
         "RLE record at byte 5 of the patch (file offset $000010) has a count of 0"},
        {"junk after EOF", concat(patch_file(rec), bytes_of("EOFxy")), "2 unexpected byte(s) after the 'EOF' marker at byte 12 of the patch"},
        {"long junk after EOF", concat(patch_file(rec), bytes_of("EOF1234")), "4 unexpected byte(s)"},
    };
    for (const Case& c : cases) {
        INFO(c.what);
        REQUIRE_THROWS_AS(parse_ips(c.file), IpsError);
        REQUIRE_THROWS_WITH(parse_ips(c.file), Contains(c.message));
    }
    // And the well-formed neighbours of those cases are read.
    CHECK(parse_ips(concat(patch_file(rec), bytes_of("EOF"))).records.size() == 1);
    CHECK(parse_ips(concat(patch_file({0, 0, 0x10, 0, 0, 0, 5, 0xFF}), bytes_of("EOF"))).records[0].length == 5);
    CHECK(parse_ips(bytes_of("PATCHEOF")).records.empty());
}

TEST_CASE("records past the end of the file are refused unless growth is allowed") {
    const std::vector<uint8_t> source(100, 0x11);
    const auto file = concat(patch_file({0, 0, 10, 0, 1, 0x22, 0, 0, 98, 0, 4, 1, 2, 3, 4}), bytes_of("EOF"));
    const IpsPatch patch = parse_ips(file);
    REQUIRE_THROWS_WITH(apply_ips(source, patch),
                        Contains("record 2 at byte 11 of the patch writes file offsets $000062-$000065") &&
                            Contains("past the end of the 100-byte file"));
    const auto grown = apply_ips(source, patch, {.allow_growth = true});
    REQUIRE(grown.size() == 102);
    CHECK(grown[10] == 0x22);
    CHECK(grown[98] == 1);
    CHECK(grown[101] == 4);
    // Records past a gap are zero-filled up to their offset.
    const auto gap = apply_ips(source, parse_ips(concat(patch_file({0, 0, 110, 0, 1, 7}), bytes_of("EOF"))),
                               {.allow_growth = true});
    REQUIRE(gap.size() == 111);
    CHECK(gap[105] == 0);
    CHECK(gap[110] == 7);
}

TEST_CASE("records apply in order, and a later record wins where they overlap") {
    const std::vector<uint8_t> source(16, 0);
    IpsPatch p;
    p.records.push_back({2, 6, true, {0xAA}});
    p.records.push_back({4, 2, false, {1, 2}});
    const auto out = apply_ips(source, p);
    CHECK(out == std::vector<uint8_t>{0, 0, 0xAA, 0xAA, 1, 2, 0xAA, 0xAA, 0, 0, 0, 0, 0, 0, 0, 0});
    CHECK(minimal_apply(source, serialize_ips(p)) == out);
}

TEST_CASE("overlapping records, growth included, apply as a naive applier does") {
    std::mt19937 rng(35);
    for (int round = 0; round < 200; ++round) {
        const std::vector<uint8_t> source = random_bytes(rng, 1 + rng() % 2000);
        IpsPatch p;
        const int records = 1 + static_cast<int>(rng() % 40);
        for (int i = 0; i < records; ++i) {
            IpsRecord r;
            r.offset = static_cast<uint32_t>(rng() % 2500);
            r.length = 1 + static_cast<uint32_t>(rng() % 600);
            r.rle = rng() % 2 == 0;
            r.data = r.rle ? random_bytes(rng, 1) : random_bytes(rng, r.length);
            if (r.offset == kIpsEofOffset) continue;
            p.records.push_back(std::move(r));
        }
        if (rng() % 4 == 0) p.truncate_to = static_cast<uint32_t>(rng() % 3000);
        INFO("round " << round);
        CHECK(apply_ips(source, p, {.allow_growth = true, .allow_truncation = true}) ==
              minimal_apply(source, serialize_ips(p)));
    }
}

TEST_CASE("records that rewrite the same bytes over and over cost no more than the file's size") {
    // 100 000 RLE records of 65 535 bytes, all at offset 0 of a 64 KiB file: an 800 KB patch
    // that writes 6.5 GB when applied in order (it took 18.5 s). Each byte is written once now.
    const std::vector<uint8_t> source(64 * 1024, 0x11);
    std::vector<uint8_t> body;
    for (uint32_t i = 0; i < 100'000; ++i) {
        body.insert(body.end(), {0, 0, 0, 0, 0, 0xFF, 0xFF, static_cast<uint8_t>(i)});
    }
    const IpsPatch patch = parse_ips(concat(patch_file(body), bytes_of("EOF")));
    REQUIRE(patch.records.size() == 100'000);
    const auto start = std::chrono::steady_clock::now();
    const std::vector<uint8_t> out = apply_ips(source, patch);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(seconds < 2.0);  // milliseconds here, and under the sanitizers; 5-18 s applied in order
    // The last record wins: byte 99 999 & 0xFF = 0x9F everywhere it writes, the last byte kept.
    REQUIRE(out.size() == source.size());
    CHECK(std::all_of(out.begin(), out.begin() + 0xFFFF, [](uint8_t b) { return b == 0x9F; }));
    CHECK(out.back() == 0x11);
}

TEST_CASE("the writer refuses records that break the format") {
    auto refused = [](IpsRecord r, const char* message) {
        IpsPatch p;
        p.records.push_back(std::move(r));
        REQUIRE_THROWS_WITH(serialize_ips(p), Contains(message));
    };
    refused({0, 0, false, {}}, "writes 0 bytes");
    refused({0, 65536, true, {1}}, "writes 65536 bytes");
    refused({0, 3, false, {1, 2}}, "holds 2 data bytes");
    refused({0, 3, true, {1, 2}}, "RLE record (needs 1)");
    IpsPatch t;
    t.truncate_to = 0x1000000;
    REQUIRE_THROWS_WITH(serialize_ips(t), Contains("24 bits"));
    REQUIRE_THROWS_WITH(encode_ips({{10, {1, 2, 3}}, {12, {4}}}), Contains("overlap at file offset $00000C"));
}
