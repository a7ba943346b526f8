#include "patcher/bps.hpp"
#include "base/checksums.hpp"
#include "tests/patcher/support.hpp"

#include <catch2/catch.hpp>

using namespace nestris;
using namespace nestris::test;
using Catch::Matchers::Contains;

namespace {

std::vector<uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

// The format's number, written here from the specification (not with the code under test).
void number(std::vector<uint8_t>& out, uint64_t n) {
    for (;;) {
        const uint8_t x = n & 0x7F;
        n >>= 7;
        if (n == 0) {
            out.push_back(0x80 | x);
            return;
        }
        out.push_back(x);
        --n;
    }
}

void le32(std::vector<uint8_t>& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

// A patch from its parts: header, the action bytes, then the three CRC32s.
std::vector<uint8_t> assemble(uint64_t source_size, uint64_t target_size, const std::vector<uint8_t>& actions,
                              uint32_t source_crc, uint32_t target_crc) {
    std::vector<uint8_t> p = bytes_of("BPS1");
    number(p, source_size);
    number(p, target_size);
    number(p, 0);
    p.insert(p.end(), actions.begin(), actions.end());
    le32(p, source_crc);
    le32(p, target_crc);
    le32(p, crc32_of(p));
    return p;
}

void action(std::vector<uint8_t>& out, uint64_t length, int kind) { number(out, (length - 1) << 2 | kind); }

}  // namespace

TEST_CASE("bps: numbers are written as the format says (one encoding each)") {
    const std::vector<uint8_t> source(128, 7);
    const std::vector<uint8_t> patch = bps_from_ips({}, 128, crc32_of(source), crc32_of(source));
    // "BPS1", source size 128 = 00 80, target size 128 = 00 80, metadata size 0 = 80.
    REQUIRE(patch.size() > 9);
    CHECK(std::vector<uint8_t>(patch.begin() + 4, patch.begin() + 9) == std::vector<uint8_t>{0x00, 0x80, 0x00, 0x80, 0x80});
    // The largest two-byte number and the smallest three-byte one (the test's encoder itself).
    std::vector<uint8_t> two, three;
    number(two, 16511);
    number(three, 16512);
    CHECK(two == std::vector<uint8_t>{0x7F, 0xFF});
    CHECK(three == std::vector<uint8_t>{0x00, 0x00, 0x80});
    // A 16 512-byte source: the header the code under test writes.
    const std::vector<uint8_t> big(16512, 1);
    const std::vector<uint8_t> big_patch = bps_from_ips({}, big.size(), crc32_of(big), crc32_of(big));
    CHECK(std::vector<uint8_t>(big_patch.begin() + 4, big_patch.begin() + 10) == concat(three, three));
    CHECK(apply_bps(source, patch) == source);
}

TEST_CASE("bps: every kind of action applies as specified, copies that overlap included") {
    const std::vector<uint8_t> source = bytes_of("ABCDEFGHIJKL");
    const std::vector<uint8_t> target = bytes_of("ABxyxyxyIJCD");
    std::vector<uint8_t> a;
    action(a, 2, 0);  // SourceRead "AB"
    action(a, 2, 1);  // TargetRead "xy"
    a.push_back('x');
    a.push_back('y');
    action(a, 4, 3);  // TargetCopy from target offset 2: reads what it writes ("xyxy")
    number(a, 2 << 1);
    action(a, 2, 0);  // SourceRead at the write position 8: "IJ"
    action(a, 2, 2);  // SourceCopy from source offset 2: "CD"
    number(a, 2 << 1);
    const std::vector<uint8_t> patch = assemble(12, 12, a, crc32_of(source), crc32_of(target));
    CHECK(apply_bps(source, patch) == target);
    const BpsHeader h = parse_bps(patch);
    CHECK(h.actions == 5);
    CHECK(h.literal_bytes == 2);
    CHECK(h.source_crc32 == crc32_of(source));

    // A negative offset: SourceCopy back from the cursor.
    std::vector<uint8_t> b;
    action(b, 3, 2);  // SourceCopy "JKL" from +9
    number(b, 9 << 1);
    action(b, 3, 2);  // then back 12 - 0 -> cursor 0: "ABC" (offset -12)
    number(b, 12 << 1 | 1);
    CHECK(apply_bps(source, assemble(12, 6, b, crc32_of(source), crc32_of(bytes_of("JKLABC")))) == bytes_of("JKLABC"));
}

TEST_CASE("bps: the patch made from an IPS gives what the IPS gives, and carries only the written bytes") {
    std::mt19937 rng(1234);
    for (int round = 0; round < 200; ++round) {
        const std::vector<uint8_t> source = random_bytes(rng, 1 + rng() % 5000);
        std::vector<ByteBlock> blocks;
        for (int i = 0, n = static_cast<int>(rng() % 6); i < n; ++i) {
            const uint32_t at = static_cast<uint32_t>(rng() % source.size());
            const size_t len = std::min<size_t>(1 + rng() % 300, source.size() - at);
            std::vector<uint8_t> bytes = random_bytes(rng, len);
            if (rng() % 3 == 0) std::fill(bytes.begin(), bytes.end(), bytes[0]);  // RLE records too
            blocks.push_back({at, bytes});
        }
        IpsPatch ips;  // records may overlap: later ones win, in IPS and in the BPS made from it
        for (const ByteBlock& b : blocks)
            for (const IpsRecord& r : encode_ips({b}).records) ips.records.push_back(r);
        const std::vector<uint8_t> target = apply_ips(source, ips);
        const std::vector<uint8_t> bps = bps_from_ips(ips, source.size(), crc32_of(source), crc32_of(target));
        REQUIRE(apply_bps(source, bps) == target);
        std::vector<bool> written(source.size());
        for (const IpsRecord& r : ips.records)
            for (uint32_t k = 0; k < r.length; ++k) written[r.offset + k] = true;
        CHECK(parse_bps(bps).literal_bytes == static_cast<uint64_t>(std::count(written.begin(), written.end(), true)));
    }
}

TEST_CASE("bps: applying is strict: the patch, the source and the result are all checked") {
    std::mt19937 rng(99);
    const std::vector<uint8_t> source = random_bytes(rng, 3000);
    IpsPatch ips = encode_ips({{100, random_bytes(rng, 50)}, {2000, random_bytes(rng, 9)}});
    const std::vector<uint8_t> target = apply_ips(source, ips);
    const std::vector<uint8_t> good = bps_from_ips(ips, source.size(), crc32_of(source), crc32_of(target));
    REQUIRE(apply_bps(source, good) == target);

    std::vector<uint8_t> damaged = good;
    damaged[20] ^= 1;
    CHECK_THROWS_WITH(apply_bps(source, damaged), Contains("damaged"));
    CHECK_THROWS_WITH(parse_bps(damaged), Contains("damaged"));

    std::vector<uint8_t> other = source;
    other[5] ^= 0xFF;
    CHECK_THROWS_WITH(apply_bps(other, good), Contains("this patch is for a file with CRC32 " + crc32_hex(crc32_of(source))));
    CHECK_THROWS_WITH(apply_bps(std::vector<uint8_t>(source.begin(), source.end() - 1), good),
                      Contains("this patch is for a file of 3000"));

    const std::vector<uint8_t> wrong_target = bps_from_ips(ips, source.size(), crc32_of(source), crc32_of(target) ^ 1);
    CHECK_THROWS_WITH(apply_bps(source, wrong_target), Contains("the result's CRC32"));

    CHECK_THROWS_WITH(apply_bps(source, std::vector<uint8_t>(good.begin(), good.begin() + 10)), Contains("too short"));
    CHECK_THROWS_WITH(apply_bps(source, bytes_of("PATCH....EOF....")), Contains("not a BPS patch"));
}

TEST_CASE("bps: a patch whose actions do not fit its sizes is refused before anything is applied") {
    const std::vector<uint8_t> source = bytes_of("0123456789");
    const uint32_t crc = crc32_of(source);
    std::vector<uint8_t> a;
    action(a, 11, 0);  // SourceRead past the end of a 10-byte target
    CHECK_THROWS_WITH(parse_bps(assemble(10, 10, a, crc, crc)), Contains("past the end of the target"));
    a.clear();
    action(a, 8, 0);  // too few bytes written
    CHECK_THROWS_WITH(parse_bps(assemble(10, 10, a, crc, crc)), Contains("the actions write 8 bytes"));
    a.clear();
    action(a, 2, 3);  // TargetCopy before anything is written
    number(a, 0);
    action(a, 8, 0);
    CHECK_THROWS_WITH(parse_bps(assemble(10, 10, a, crc, crc)), Contains("not yet written"));
    a.clear();
    action(a, 4, 2);  // SourceCopy from offset 8: runs past the source
    number(a, 8 << 1);
    action(a, 6, 0);
    CHECK_THROWS_WITH(parse_bps(assemble(10, 10, a, crc, crc)), Contains("outside the source"));
    a.clear();
    action(a, 5, 1);  // a TargetRead cut short by the footer
    a.push_back('x');
    CHECK_THROWS_WITH(parse_bps(assemble(10, 5, a, crc, crc)), Contains("cut short"));
    a.clear();
    for (int i = 0; i < 9; ++i) a.push_back(0x7F);  // a number that never ends within bounds
    CHECK_THROWS_WITH(parse_bps(assemble(10, 10, a, crc, crc)), Contains("too large"));
    CHECK_THROWS_WITH(parse_bps(assemble(kBpsMaxFileSize + 1, 10, {}, crc, crc)), Contains("more than"));
}

TEST_CASE("bps: one action as large as the largest target (64 MiB) is read, identified and applied") {
    // A 1-byte source read, then one TargetCopy of 64 MiB - 1 bytes repeating it: the largest
    // action a 64 MiB target allows. The number cap used to refuse any action over ~32 MiB.
    const std::vector<uint8_t> source{0xA5};
    uint32_t target_crc = 0;
    {
        const std::vector<uint8_t> target(kBpsMaxFileSize, 0xA5);
        target_crc = crc32_of(target);
    }  // freed before the patch is applied: one 64 MiB buffer at a time
    std::vector<uint8_t> a;
    action(a, 1, 0);  // SourceRead the one byte
    action(a, kBpsMaxFileSize - 1, 3);  // TargetCopy from target offset 0, overlapping its own writes
    number(a, 0);
    const std::vector<uint8_t> patch = assemble(1, kBpsMaxFileSize, a, crc32_of(source), target_crc);
    const BpsHeader h = parse_bps(patch);
    CHECK(h.target_size == kBpsMaxFileSize);
    CHECK(h.actions == 2);
    const std::vector<uint8_t> target = apply_bps(source, patch);  // checks the target's CRC32 itself
    CHECK(target.size() == kBpsMaxFileSize);
    CHECK(target.back() == 0xA5);
    // One byte more than the largest file is still refused, by name.
    CHECK_THROWS_WITH(parse_bps(assemble(1, kBpsMaxFileSize + 1, a, 0, 0)), Contains("more than"));
}

TEST_CASE("bps: an IPS that truncates or writes past the end cannot become a same-size BPS") {
    IpsPatch truncating;
    truncating.truncate_to = 5;
    CHECK_THROWS_WITH(bps_from_ips(truncating, 10, 0, 0), Contains("truncates"));
    CHECK_THROWS_WITH(bps_from_ips(encode_ips({{8, {1, 2, 3}}}), 10, 0, 0), Contains("past the end"));
}
