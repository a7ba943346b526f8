#include "patcher/patch.hpp"
#include "base/checksums.hpp"
#include "patcher/asm_driver.hpp"
#include "tests/patcher/support.hpp"

#include <catch2/catch.hpp>

using namespace nestris;
using namespace nestris::test;
using Catch::Matchers::Contains;

namespace {

constexpr size_t kRomSize = 16 + 32768 + 16384;

// A catalogue entry for a random image laid out like Tetris, so the whole patch path runs in
// CI without the game.
struct SyntheticGame {
    std::vector<uint8_t> payload, file;
    std::string file_sha1, payload_sha1;  // KnownRom holds views: the strings live here
    KnownRom entry;
    explicit SyntheticGame(uint32_t seed, bool supported = true) {
        std::mt19937 rng(seed);
        payload = random_bytes(rng, kRomSize - 16);
        file = concat(tetris_header_bytes(), payload);
        file_sha1 = sha1_hex(file);
        payload_sha1 = sha1_hex(payload);
        entry = {"Synthetic (USA)", file_sha1, crc32_of(file), payload_sha1, crc32_of(payload),
                 tetris_usa_header(), supported, supported ? "" : "it is the PAL version"};
    }
    SyntheticGame(const SyntheticGame&) = delete;  // entry points into this object
    SyntheticGame& operator=(const SyntheticGame&) = delete;
    std::span<const KnownRom> catalogue() const { return {&entry, 1}; }
};

CartImage cart_with(std::vector<CartSegment> segments) {
    CartImage cart;
    cart.segments = std::move(segments);
    return cart;
}

}  // namespace

TEST_CASE("file offset = CPU address - $8000 + 16") {
    CHECK(prg_file_offset(0x8000) == 16);
    CHECK(prg_file_offset(0xD6C9) == 0x56D9);
    CHECK(prg_file_offset(0xFFFF) == 0x800F);
    REQUIRE_THROWS_WITH(prg_file_offset(0x7FFF), Contains("$7FFF is not in PRG ROM"));
}

TEST_CASE("the build's patch lands at the right file offsets of a synthetic image") {
    const CartImage& cart = shipped_cart();
    std::mt19937 rng(42);
    const auto image = concat(tetris_header_bytes(), random_bytes(rng, kRomSize - 16));
    const auto ips = serialize_ips(cart_patch(cart));
    const auto patched = minimal_apply(image, ips);
    REQUIRE(patched.size() == image.size());
    std::vector<bool> touched(image.size());
    for (const CartSegment* seg : cart.rom_segments()) {
        const size_t at = seg->address - 0x8000 + 16;
        INFO(seg->name);
        REQUIRE(at + seg->bytes.size() <= patched.size());
        CHECK(std::equal(seg->bytes.begin(), seg->bytes.end(), patched.begin() + static_cast<ptrdiff_t>(at)));
        for (size_t i = 0; i < seg->bytes.size(); ++i) touched[at + i] = true;
    }
    // The header's flags 6 gets the battery bit: the PRG-RAM the AI's code runs from.
    REQUIRE(cart_has_prg_ram(cart));
    CHECK(patched[kInesFlags6Offset] == (image[kInesFlags6Offset] | kInesFlags6Battery));
    touched[kInesFlags6Offset] = true;
    for (size_t i = 0; i < image.size(); ++i)
        if (!touched[i] && patched[i] != image[i]) FAIL("byte " << i << " changed outside the patch");
    // And the patched image carries this build's signature where the cart put it.
    const auto sig = find_signature(patched, cart_build_id(cart));
    REQUIRE(sig);
    CHECK(sig->this_build);
    CHECK(sig->cpu_address == cart.require("nestris_signature"));
    CHECK(sig->version() == cart_version(cart));
}

TEST_CASE("segments of any shape make a patch an independent applier agrees with") {
    std::mt19937 rng(5);
    std::vector<CartSegment> segments = {
        {"A", 0x8000, "R", random_bytes(rng, 300)},
        {"B", 0xD6C9, "R", std::vector<uint8_t>(1591, 0xEA)},  // a run: RLE
        {"C", 0xD6C9 + 1591, "R", random_bytes(rng, 768)},     // touches B
        {"D", 0xFFFA, "R", {1, 2, 3, 4, 5, 6}},                 // the last bytes of PRG
    };
    const CartImage cart = cart_with(segments);
    const auto image = concat(tetris_header_bytes(), random_bytes(rng, kRomSize - 16));
    const auto patched = minimal_apply(image, serialize_ips(cart_patch(cart)));
    for (const CartSegment& seg : segments)
        CHECK(std::equal(seg.bytes.begin(), seg.bytes.end(), patched.begin() + (seg.address - 0x8000 + 16)));
    bool has_rle = false;
    for (const IpsRecord& r : cart_patch(cart).records) has_rle |= r.rle;
    CHECK(has_rle);
    REQUIRE_THROWS_WITH(cart_patch(cart_with({{"RAM", 0x0500, "R", {1}}})), Contains("not in PRG ROM"));
}

TEST_CASE("the stamped build id is the one the assembler driver computes") {
    CHECK(cart_build_id(shipped_cart()) == compute_build_id(shipped_cart()));
    CHECK(cart_version(shipped_cart()) == "0.1.0");
}

TEST_CASE("patching the supported game: original, headerless, other header") {
    const SyntheticGame game(10);
    const CartImage& cart = shipped_cart();
    const PatchedRom from_original = patch_rom(game.file, cart, game.catalogue());
    CHECK(from_original.source.kind == RomKind::Original);
    CHECK(from_original.original == game.file);
    CHECK(from_original.bytes == minimal_apply(game.file, serialize_ips(cart_patch(cart))));
    CHECK_NOTHROW(check_patched(from_original.original, from_original.patch, from_original.bytes));

    const PatchedRom from_headerless = patch_rom(game.payload, cart, game.catalogue());
    CHECK(from_headerless.source.kind == RomKind::Headerless);
    CHECK(from_headerless.bytes == from_original.bytes);  // the standard header was written

    auto reheadered = game.file;
    reheadered[7] = 0x08;
    reheadered[12] = 1;
    const PatchedRom from_other = patch_rom(reheadered, cart, game.catalogue());
    CHECK(from_other.source.kind == RomKind::OriginalReheader);
    CHECK(from_other.bytes == from_original.bytes);

    const RomIdentity result = identify_rom(from_original.bytes, {game.catalogue(), cart_build_id(cart)});
    CHECK(result.kind == RomKind::Patched);
    CHECK(result.signature->this_build);
}

TEST_CASE("patching refuses everything but the supported game") {
    const SyntheticGame game(11), pal(12, false);
    const CartImage& cart = shipped_cart();
    REQUIRE_THROWS_WITH(patch_rom(pal.file, cart, pal.catalogue()),
                        Contains("refusing Synthetic (USA): not supported, it is the PAL version"));
    const PatchedRom once = patch_rom(game.file, cart, game.catalogue());
    REQUIRE_THROWS_WITH(patch_rom(once.bytes, cart, game.catalogue()),
                        Contains("already patched by nestris-ai") && Contains("(this build)"));
    auto other = game.file;
    other[5000] ^= 1;
    REQUIRE_THROWS_WITH(patch_rom(other, cart, game.catalogue()),
                        Contains("not the supported ROM") && Contains(sha1_hex(other)));
    REQUIRE_THROWS_WITH(patch_rom({}, cart, game.catalogue()), Contains("the file is empty"));
    REQUIRE_THROWS_WITH(patch_rom(tetris_header_bytes(), cart, game.catalogue()), Contains("only an iNES header"));
    REQUIRE_THROWS_WITH(patch_rom(std::vector<uint8_t>(game.file.begin(), game.file.begin() + 20000), cart,
                                  game.catalogue()),
                        Contains("truncated"));
    // With the real catalogue a synthetic image is never accepted.
    REQUIRE_THROWS_AS(patch_rom(game.file, cart), PatchError);
}

TEST_CASE("the check of a patched ROM catches every kind of wrong byte") {
    const SyntheticGame game(13);
    const PatchedRom p = patch_rom(game.file, shipped_cart(), game.catalogue());
    const uint32_t first = p.patch.records.front().offset;
    SECTION("a patched byte not as intended") {
        auto bad = p.bytes;
        bad[first] ^= 0xFF;
        REQUIRE_THROWS_WITH(check_patched(p.original, p.patch, bad), Contains("patched byte at file offset") &&
                                                                          Contains("the patch meant"));
        REQUIRE_THROWS_WITH(check_patch_in_place(p.patch, bad), Contains("the patch has"));
    }
    SECTION("a byte outside the patch changed") {
        auto bad = p.bytes;
        bad[16] ^= 1;
        REQUIRE_THROWS_WITH(check_patched(p.original, p.patch, bad),
                            Contains("byte at file offset $000010 (CPU $8000), which the patch does not touch, changed"));
        CHECK_NOTHROW(check_patch_in_place(p.patch, bad));
    }
    SECTION("a different size") {
        auto bad = p.bytes;
        bad.push_back(0);
        REQUIRE_THROWS_WITH(check_patched(p.original, p.patch, bad), Contains("49169 bytes"));
        bad.resize(1000);
        REQUIRE_THROWS_WITH(check_patch_in_place(p.patch, bad), Contains("the file ends before"));
    }
    CHECK_NOTHROW(check_patch_in_place(p.patch, p.bytes));
}
