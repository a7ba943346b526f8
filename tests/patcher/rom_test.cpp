#include "patcher/rom.hpp"
#include "base/checksums.hpp"
#include "tests/patcher/support.hpp"

#include <catch2/catch.hpp>

using namespace nestris;
using namespace nestris::test;
using Catch::Matchers::Contains;

namespace {

constexpr size_t kPayload = 49152;  // 2 x 16 KiB PRG + 2 x 8 KiB CHR

// A made-up game with Tetris's layout, and a catalogue that knows it: the identification logic
// runs on it exactly as on the real table, without any byte of the real game.
struct SyntheticGame {
    std::vector<uint8_t> payload;
    std::vector<uint8_t> file;  // standard header + payload
    std::string file_sha1, payload_sha1;
    KnownRom supported, refused;

    explicit SyntheticGame(uint32_t seed) {
        std::mt19937 rng(seed);
        payload = random_bytes(rng, kPayload);
        file = concat(tetris_header_bytes(), payload);
        file_sha1 = sha1_hex(file);
        payload_sha1 = sha1_hex(payload);
        supported = {"Synthetic (USA)", file_sha1, crc32_of(file), payload_sha1, crc32_of(payload),
                     tetris_usa_header(), true, ""};
        refused = supported;
        refused.name = "Synthetic (Europe)";
        refused.supported = false;
        refused.refusal = "it is the PAL version";
    }
};

RomIdentity identify(const std::vector<uint8_t>& file, const KnownRom& entry, uint32_t build = 0x12345678) {
    return identify_rom(file, {std::span<const KnownRom>(&entry, 1), build});
}

std::vector<uint8_t> with_signature(std::vector<uint8_t> file, size_t at, uint32_t build) {
    const uint8_t sig[] = {'N', 'E', 'S', 'T', 'R', 'I', 'S', '-', 'A', 'I', 0, 0, 1, 0,
                           static_cast<uint8_t>(build), static_cast<uint8_t>(build >> 8),
                           static_cast<uint8_t>(build >> 16), static_cast<uint8_t>(build >> 24)};
    std::copy(std::begin(sig), std::end(sig), file.begin() + static_cast<ptrdiff_t>(at));
    return file;
}

}  // namespace

TEST_CASE("checksums come out as ROM databases print them") {
    const std::string abc = "abc";
    const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(abc.data()), abc.size());
    CHECK(sha1_hex(bytes) == "A9993E364706816ABA3E25717850C26C9CD0D89D");  // FIPS 180 example
    CHECK(crc32_hex(crc32_of(bytes)) == "352441C2");
    CHECK(sha1_hex({}) == "DA39A3EE5E6B4B0D3255BFEF95601890AFD80709");
    CHECK(crc32_of({}) == 0);
}

TEST_CASE("the iNES header of Tetris (USA) is written from its fields") {
    const InesHeader h = tetris_usa_header();
    CHECK(h.mapper == 1);
    CHECK(h.prg_rom_bytes == 32768);
    CHECK(h.chr_rom_bytes == 16384);
    const auto bytes = encode_ines(h);
    CHECK(std::vector<uint8_t>(bytes.begin(), bytes.end()) == tetris_header_bytes());
    const auto back = parse_ines(bytes);
    REQUIRE(back);
    CHECK(back->mapper == 1);
    CHECK_FALSE(back->nes2);
    CHECK_FALSE(back->archaic);
    CHECK(back->expected_file_size() == 49168);
    CHECK(back->describe() == "mapper 1 (MMC1), PRG 2 x 16 KiB, CHR 2 x 8 KiB, horizontal mirroring, NTSC");
}

TEST_CASE("iNES header variants are read") {
    // "NES" $1A, then bytes 4.. as given, then zeros up to 16.
    auto header = [](std::initializer_list<uint8_t> from_byte_4) {
        std::vector<uint8_t> h(16, 0);
        h[0] = 'N';
        h[1] = 'E';
        h[2] = 'S';
        h[3] = 0x1A;
        size_t i = 4;
        for (uint8_t b : from_byte_4) h[i++] = b;
        return h;
    };
    SECTION("iNES 1.0 flags and mapper high nibble") {
        const auto h = parse_ines(header({8, 0, 0x4F, 0x40}));
        REQUIRE(h);
        CHECK(h->mapper == 0x44);
        CHECK(h->vertical_mirroring);
        CHECK(h->battery);
        CHECK(h->trainer);
        CHECK(h->four_screen);
        CHECK(h->chr_rom_bytes == 0);
        CHECK(h->expected_file_size() == 16 + 512 + 8 * 16384);
        CHECK_THAT(h->describe(), Contains("CHR RAM") && Contains("battery") && Contains("trainer"));
    }
    SECTION("iNES 1.0 PAL flag (byte 9)") {
        const auto h = parse_ines(header({2, 2, 0x10, 0, 0, 1}));
        REQUIRE(h);
        CHECK(h->tv == TvSystem::Pal);
        CHECK_THAT(h->describe(), Contains("PAL"));
    }
    SECTION("NES 2.0: mapper bits 8-11, submapper, size MSBs, timing") {
        const auto h = parse_ines(header({2, 2, 0x10, 0x08, 0x31, 0x10, 0, 0, 1}));
        REQUIRE(h);
        CHECK(h->nes2);
        CHECK(h->mapper == 0x101);
        CHECK(h->submapper == 3);
        CHECK(h->prg_rom_bytes == 2 * 16384);
        CHECK(h->chr_rom_bytes == (0x100 + 2) * 8192u);
        CHECK(h->tv == TvSystem::Pal);
    }
    SECTION("NES 2.0 exponent-multiplier sizes") {
        const auto h = parse_ines(header({(10 << 2) | 1, 2, 0, 0x08, 0, 0x0F}));
        REQUIRE(h);
        CHECK(h->prg_rom_bytes == 1024 * 3);
    }
    SECTION("an old header with junk in bytes 7-15 does not lend its junk to the mapper") {
        auto bytes = header({2, 2, 0x10});
        const char junk[] = "DiskDude!";
        std::copy(junk, junk + 9, bytes.begin() + 7);
        const auto h = parse_ines(bytes);
        REQUIRE(h);
        CHECK(h->archaic);
        CHECK(h->mapper == 1);
    }
    SECTION("not a header") {
        CHECK_FALSE(parse_ines({}));
        CHECK_FALSE(parse_ines(std::vector<uint8_t>(15, 0)));
        auto bad = header({2, 2, 0x10});
        bad[3] = 0x1B;
        CHECK_FALSE(parse_ines(bad));
        auto short_header = tetris_header_bytes();
        short_header.pop_back();
        CHECK_FALSE(parse_ines(short_header));
    }
}

TEST_CASE("the catalogue: Tetris (USA) supported, Tetris (Europe) refused for PAL") {
    const auto roms = known_roms();
    REQUIRE(roms.size() == 2);
    CHECK(roms[0].name == "Tetris (USA)");
    CHECK(roms[0].supported);
    CHECK(roms[0].file_sha1 == "77747840541BFC62A28A5957692A98C550BD6B2B");
    CHECK(roms[0].file_crc32 == 0x6D72C53A);
    CHECK(roms[0].payload_sha1 == "FD9079CB5E8479EB06D93C2AE5175BFCE871746A");
    CHECK(roms[0].payload_crc32 == 0x1394F57E);
    CHECK(encode_ines(roms[0].header) == encode_ines(tetris_usa_header()));
    CHECK(roms[1].name == "Tetris (Europe)");
    CHECK_FALSE(roms[1].supported);
    CHECK(roms[1].file_sha1 == "817169B819AADAAE52CCE6B3D8D2FC24270566D7");
    CHECK_THAT(std::string(roms[1].refusal), Contains("PAL"));
}

TEST_CASE("identification by checksum, on a synthetic game") {
    const SyntheticGame game(1);
    SECTION("the original") {
        const RomIdentity id = identify(game.file, game.supported);
        CHECK(id.kind == RomKind::Original);
        CHECK(id.patchable());
        CHECK(id.game == &game.supported);
        CHECK(id.file_sha1 == game.file_sha1);
        CHECK(id.payload_sha1 == game.payload_sha1);
        CHECK(id.payload_offset() == 16);
        CHECK(id.notes.empty());
        CHECK(id.summary() == "Synthetic (USA), the original (supported)");
    }
    SECTION("headerless: accepted, and said so") {
        const RomIdentity id = identify(game.payload, game.supported);
        CHECK(id.kind == RomKind::Headerless);
        CHECK(id.patchable());
        CHECK(id.payload_offset() == 0);
        CHECK_THAT(id.summary(), Contains("headerless"));
    }
    SECTION("another header on the same game: accepted, the header will be replaced") {
        auto nes2 = game.file;
        nes2[7] = 0x08;  // NES 2.0
        auto diskdude = game.file;
        const char junk[] = "DiskDude!";
        std::copy(junk, junk + 9, diskdude.begin() + 7);
        for (const auto& file : {nes2, diskdude}) {
            const RomIdentity id = identify(file, game.supported);
            CHECK(id.kind == RomKind::OriginalReheader);
            CHECK(id.patchable());
            REQUIRE_FALSE(id.notes.empty());
            CHECK_THAT(id.notes.back(), Contains("header differs"));
        }
    }
    SECTION("a refused game, with its header or without") {
        CHECK(identify(game.file, game.refused).kind == RomKind::Refused);
        const RomIdentity headerless = identify(game.payload, game.refused);
        CHECK(headerless.kind == RomKind::Refused);
        CHECK_FALSE(headerless.patchable());
        CHECK(headerless.summary() == "Synthetic (Europe): not supported, it is the PAL version");
    }
    SECTION("one byte off: unknown, with checksums and a hint") {
        auto bad = game.file;
        bad[30000] ^= 1;
        const RomIdentity id = identify(bad, game.supported);
        CHECK(id.kind == RomKind::Unknown);
        CHECK_FALSE(id.patchable());
        CHECK(id.file_sha1 == sha1_hex(bad));
        CHECK(id.file_crc32 == crc32_of(bad));
        REQUIRE(id.header);
        CHECK(id.header->mapper == 1);
        REQUIRE_FALSE(id.notes.empty());
        CHECK_THAT(id.notes.back(), Contains("header and size are those of Synthetic (USA)"));
        auto bad_headerless = game.payload;
        bad_headerless[0] ^= 1;
        const RomIdentity hl = identify(bad_headerless, game.supported);
        CHECK(hl.kind == RomKind::Unknown);
        CHECK_THAT(hl.notes.back(), Contains("size of a headerless Synthetic (USA) dump"));
    }
    SECTION("a PAL header on an unknown ROM is reported") {
        auto pal = game.file;
        pal[9] = 1;
        pal[100] ^= 1;
        const RomIdentity id = identify(pal, game.supported);
        CHECK(id.kind == RomKind::Unknown);
        CHECK(id.header->tv == TvSystem::Pal);
        bool noted = false;
        for (const auto& n : id.notes) noted |= n.find("PAL game") != std::string::npos;
        CHECK(noted);
    }
    SECTION("the real catalogue does not know a synthetic game") {
        CHECK(identify_rom(game.file, {}).kind == RomKind::Unknown);
    }
}

TEST_CASE("broken files are identified as unknown, with what is wrong") {
    const SyntheticGame game(2);
    auto notes_of = [&](const std::vector<uint8_t>& file) {
        const RomIdentity id = identify(file, game.supported);
        CHECK(id.kind == RomKind::Unknown);
        std::string all;
        for (const auto& n : id.notes) all += n + "\n";
        return all;
    };
    CHECK_THAT(notes_of({}), Contains("empty"));
    CHECK_THAT(notes_of(tetris_header_bytes()), Contains("only an iNES header"));
    CHECK_THAT(notes_of(std::vector<uint8_t>(game.file.begin(), game.file.begin() + 30000)),
               Contains("truncated: the header describes 49168 bytes, the file has 30000"));
    CHECK_THAT(notes_of(concat(game.file, {1, 2, 3})), Contains("3 bytes follow the PRG and CHR"));
    CHECK_THAT(notes_of({'h', 'e', 'l', 'l', 'o'}), Contains("no iNES header"));
}

TEST_CASE("a ROM patched by nestris-ai is recognised by its signature") {
    const SyntheticGame game(3);
    const size_t at = 16 + (0xFF30 - 0x8000);
    SECTION("this build") {
        const RomIdentity id = identify(with_signature(game.file, at, 0xCAFEF00D), game.supported, 0xCAFEF00D);
        REQUIRE(id.kind == RomKind::Patched);
        REQUIRE(id.signature);
        CHECK(id.signature->file_offset == at);
        CHECK(id.signature->cpu_address == 0xFF30);
        CHECK(id.signature->version() == "0.1.0");
        CHECK(id.signature->build_id == 0xCAFEF00D);
        CHECK(id.signature->this_build);
        CHECK(id.summary() == "already patched by nestris-ai 0.1.0, build CAFEF00D (this build)");
        CHECK_FALSE(id.patchable());
    }
    SECTION("another build") {
        const RomIdentity id = identify(with_signature(game.file, at, 0xCAFEF00D), game.supported, 0x1);
        REQUIRE(id.kind == RomKind::Patched);
        CHECK_FALSE(id.signature->this_build);
        CHECK_THAT(id.summary(), Contains("(not this build)"));
    }
    SECTION("headerless patched copy") {
        const auto patched = with_signature(game.file, at, 5);
        const std::vector<uint8_t> headerless(patched.begin() + 16, patched.end());
        const RomIdentity id = identify(headerless, game.supported, 5);
        REQUIRE(id.kind == RomKind::Patched);
        CHECK(id.signature->cpu_address == 0xFF30);
    }
    SECTION("only PRG is searched, and a cut-off signature is no signature") {
        const size_t in_chr = 16 + 32768 + 100;
        CHECK_FALSE(find_signature(with_signature(game.file, in_chr, 5), 5));
        auto cut = with_signature(game.file, 16 + 32768 - kSignatureSize, 5);
        CHECK(find_signature(cut, 5));
        cut = with_signature(game.file, 16 + 32768 - kSignatureSize + 1, 5);
        CHECK_FALSE(find_signature(cut, 5));
    }
}
