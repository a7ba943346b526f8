// The patch-file commands as a user runs them (in-process): identify, verify, apply-ips,
// apply-bps; exit codes, messages, and files written or not written.
#include "base/checksums.hpp"
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "dist/release_record_text.hpp"
#include "patcher/bps.hpp"
#include "patcher/cart_image.hpp"
#include "patcher/ips.hpp"
#include "patcher/patch.hpp"
#include "patcher/release_record.hpp"
#include "patcher/rom.hpp"
#include "tests/patcher/support.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/tools/cli_support.hpp"
#include "tools/cli/patcher_commands.hpp"
#include "tools/cli/play_command.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <regex>

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using namespace nestris;
using namespace nestris::test;

TEST_CASE("cli: identify says what a file is, with exit codes") {
    ScratchDir dir("cli_identify");
    write_plain(dir / "random.nes", synthetic_rom(3));
    CliResult r = run_cli({"identify", (dir / "random.nes").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Contains("unknown NES ROM") && Contains("SHA-1 ") && Contains("CRC32 ") &&
                          Contains("mapper 1 (MMC1)") && Contains("matches no known dump"));
    // Why it cannot be patched, on the error line: the checksum wanted.
    CHECK_THAT(r.err, Contains("nestris-ai identify: error: ") && Contains("cannot be patched: ") &&
                          Contains("nestris-ai needs Tetris (USA): SHA-1 77747840541BFC62A28A5957692A98C550BD6B2B"));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    // A file that is no ROM at all: patch says why on its one line, the notes after the checksum
    // (never an escaped newline, \x0A, in the middle).
    write_plain(dir / "zeros.nes", std::vector<uint8_t>(49168, 0));
    r = run_cli({"patch", (dir / "zeros.nes").string(), "-o", (dir / "out.nes").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("matches no known dump: no iNES header"));
    CHECK_THAT(r.err, !Contains("\\x0A"));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_FALSE(fs::exists(dir / "out.nes"));
    // The usual mistakes, each said: an archive, a dump cut short, bytes appended to the game.
    write_plain(dir / "game.zip", std::vector<uint8_t>{'P', 'K', 3, 4, 20, 0, 0, 0});
    r = run_cli({"identify", (dir / "game.zip").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("it is a zip archive, not a ROM: unzip it first"));
    std::vector<uint8_t> cut = synthetic_rom(3);
    cut.resize(30000);
    write_plain(dir / "cut.nes", cut);
    r = run_cli({"identify", (dir / "cut.nes").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("a dump cut short") && Contains("should be 49168 bytes, but it has only 30000"));
    write_plain(dir / "patched.nes", apply_ips(synthetic_rom(3), cart_patch(shipped_cart())));
    r = run_cli({"identify", (dir / "patched.nes").string()});
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("already patched by nestris-ai " + cart_version(shipped_cart())) &&
                          Contains("(this build)") && Contains("CPU $FF30"));
    r = run_cli({"identify", (dir / "nope").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("no such file"));
}

TEST_CASE("cli: identify and play trust the bytes, not the signature") {
    ScratchDir dir("cli_signature");
    const std::vector<uint8_t> patched = apply_ips(synthetic_rom(3), cart_patch(shipped_cart()));
    const auto sig = find_signature(patched, cart_build_id(shipped_cart()));
    REQUIRE(sig);
    // Another image that holds this build's signature and nothing else of its patch.
    std::vector<uint8_t> copied = synthetic_rom(5);
    std::copy_n(patched.begin() + static_cast<std::ptrdiff_t>(sig->file_offset), kSignatureSize,
                copied.begin() + static_cast<std::ptrdiff_t>(sig->file_offset));
    write_plain(dir / "copied.nes", copied);
    CliResult r = run_cli({"identify", (dir / "copied.nes").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Contains("a damaged nestris-ai patch"));
    r = run_commands(add_play_command, {"play", (dir / "copied.nes").string(), "--frames", "10"});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("damaged"));
    // A headerless dump patched by a generic IPS tool: every record lands 16 bytes off.
    const std::vector<uint8_t> dump = synthetic_rom(3);
    const std::vector<uint8_t> headerless(dump.begin() + 16, dump.end());
    write_plain(dir / "off.nes", apply_ips(headerless, cart_patch(shipped_cart()), {.allow_growth = true}));
    r = run_cli({"identify", (dir / "off.nes").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Contains("patched 16 bytes off") && Contains("nestris-ai patch") && Contains("no header"));
    // The real thing still says "this build".
    write_plain(dir / "good.nes", patched);
    r = run_cli({"identify", (dir / "good.nes").string()});
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("(this build)"));
}

TEST_CASE("cli: verify checks signature, header and every patch byte") {
    ScratchDir dir("cli_verify");
    const auto patched = apply_ips(synthetic_rom(4), cart_patch(shipped_cart()));
    write_plain(dir / "p.nes", patched);
    CliResult r = run_cli({"verify", (dir / "p.nes").string()});
    INFO(r.out << r.err);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("every byte of this build's patch in place") && Contains("not checked"));
    // An --original that is not the supported game proves nothing: refused.
    write_plain(dir / "o.nes", synthetic_rom(4));
    r = run_cli({"verify", (dir / "p.nes").string(), "--original", (dir / "o.nes").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("is not the supported original"));
    const size_t signature = prg_file_offset(shipped_cart().require("nestris_signature"));
    auto broken = patched;
    broken[signature] ^= 0x55;  // the magic: no longer a nestris-ai ROM
    write_plain(dir / "b.nes", broken);
    r = run_cli({"verify", (dir / "b.nes").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("not patched by nestris-ai"));
    broken = patched;
    broken[signature + kSignatureSize - 1] ^= 0x55;  // a byte of the build id
    write_plain(dir / "b.nes", broken);
    r = run_cli({"verify", (dir / "b.nes").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("(not this build); this nestris-ai is build"));
    broken = patched;
    broken[signature + kSignatureMagic.size()] ^= 0x55;  // the version: same build id, wrong byte
    write_plain(dir / "b.nes", broken);
    r = run_cli({"verify", (dir / "b.nes").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("the patch has"));
    auto headerless = std::vector<uint8_t>(patched.begin() + 16, patched.end());
    write_plain(dir / "h.nes", headerless);
    r = run_cli({"verify", (dir / "h.nes").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("not Tetris (USA) with the patch's header and size"));
    // The header without the PRG-RAM the patch declares (the battery bit): refused.
    auto no_ram = patched;
    no_ram[kInesFlags6Offset] &= static_cast<uint8_t>(~kInesFlags6Battery);
    write_plain(dir / "n.nes", no_ram);
    r = run_cli({"verify", (dir / "n.nes").string()});
    CHECK(r.code == 1);
}

TEST_CASE("cli: apply-ips applies any patch, strictly") {
    ScratchDir dir("cli_apply");
    std::mt19937 rng(8);
    const auto source = random_bytes(rng, 5000);
    auto target = source;
    for (int i = 0; i < 50; ++i) target[rng() % target.size()] = static_cast<uint8_t>(rng());
    target.resize(5200, 0x33);
    write_plain(dir / "in.bin", source);
    write_plain(dir / "p.ips", serialize_ips(diff_ips(source, target)));
    CliResult r = run_cli({"apply-ips", (dir / "in.bin").string(), (dir / "p.ips").string(), "-o", (dir / "out.bin").string()});
    CHECK(r.code == 1);  // grows the file: refused by default
    CHECK_THAT(r.err, Contains("past the end of the 5000-byte file"));
    CHECK_FALSE(fs::exists(dir / "out.bin"));
    r = run_cli({"apply-ips", (dir / "in.bin").string(), (dir / "p.ips").string(), "-o", (dir / "out.bin").string(),
                 "--allow-grow"});
    CHECK(r.code == 0);
    CHECK(read_file(dir / "out.bin") == target);

    write_plain(dir / "bad.ips", {'P', 'A', 'T', 'C', 'H', 0, 0, 1, 0, 9, 1});
    r = run_cli({"apply-ips", (dir / "in.bin").string(), (dir / "bad.ips").string(), "-o", (dir / "out2.bin").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("bad.ips: truncated record at byte 5"));
    CHECK_FALSE(fs::exists(dir / "out2.bin"));
    r = run_cli({"apply-ips", (dir / "in.bin").string(), (dir / "p.ips").string(), "-o", (dir / "in.bin").string()});
    CHECK(r.code == 1);
    CHECK(read_file(dir / "in.bin") == source);
    // Never onto the patch itself.
    const std::vector<uint8_t> patch_bytes = read_file(dir / "p.ips");
    r = run_cli({"apply-ips", (dir / "in.bin").string(), (dir / "p.ips").string(), "-o", (dir / "p.ips").string(),
                 "--allow-grow"});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("is an input"));
    CHECK(read_file(dir / "p.ips") == patch_bytes);
    // Never onto a device (it would become a regular file).
    r = run_cli({"apply-ips", (dir / "in.bin").string(), (dir / "p.ips").string(), "-o", "/dev/null", "--allow-grow"});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("not a regular file"));
    CHECK(fs::is_character_file("/dev/null"));
}

TEST_CASE("cli: apply-bps applies any BPS, strictly, and writes nothing when a check fails") {
    ScratchDir dir("cli_apply_bps");
    std::mt19937 rng(18);
    const auto source = random_bytes(rng, 4000);
    const IpsPatch ips = encode_ips({{10, random_bytes(rng, 30)}, {3000, random_bytes(rng, 5)}});
    const auto target = apply_ips(source, ips);
    write_plain(dir / "in.bin", source);
    write_plain(dir / "p.bps", bps_from_ips(ips, source.size(), crc32_of(source), crc32_of(target)));
    CliResult r = run_cli({"apply-bps", (dir / "in.bin").string(), (dir / "p.bps").string(), "-o", (dir / "out.bin").string()});
    INFO(r.out << r.err);
    CHECK(r.code == 0);
    CHECK(read_file(dir / "out.bin") == target);
    CHECK_THAT(r.out, Contains("SHA-1 " + sha1_hex(target)));

    auto other = source;
    other[0] ^= 1;
    write_plain(dir / "other.bin", other);
    r = run_cli({"apply-bps", (dir / "other.bin").string(), (dir / "p.bps").string(), "-o", (dir / "o2.bin").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("p.bps: the file's CRC32 is " + crc32_hex(crc32_of(other))));
    auto damaged = read_file(dir / "p.bps");
    damaged[8] ^= 0x40;
    write_plain(dir / "damaged.bps", damaged);
    r = run_cli({"apply-bps", (dir / "in.bin").string(), (dir / "damaged.bps").string(), "-o", (dir / "o3.bin").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("damaged"));
    r = run_cli({"apply-bps", (dir / "in.bin").string(), (dir / "p.bps").string(), "-o", (dir / "p.bps").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("is an input"));
    CHECK(dir.listing() == std::vector<std::string>{"damaged.bps", "in.bin", "other.bin", "out.bin", "p.bps"});
}

TEST_CASE("cli: identify names IPS and BPS patches, this build's own, and damaged ones") {
    ScratchDir dir("cli_identify_patches");
    const IpsPatch ips = cart_patch(shipped_cart());
    write_plain(dir / "ours.ips", serialize_ips(ips));
    CliResult r = run_cli({"identify", (dir / "ours.ips").string()});
    INFO(r.out << r.err);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("IPS patch") && Contains("this is nestris-ai") && Contains("standard 16-byte iNES header"));
    CHECK_THAT(r.out, !Contains("already patched"));

    const ReleaseRecord record = parse_release_record(kRecordedReleaseText);
    write_plain(dir / "ours.bps", bps_from_ips(ips, 49168, known_roms()[0].file_crc32, record.patched_crc32));
    r = run_cli({"identify", (dir / "ours.bps").string()});
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("BPS patch") && Contains("= Tetris (USA) (standard header)") &&
                          Contains("CRC32 " + crc32_hex(record.patched_crc32)) && Contains("this is nestris-ai"));

    std::mt19937 rng(3);
    const auto some = random_bytes(rng, 100);
    write_plain(dir / "other.ips", serialize_ips(encode_ips({{4, {1, 2, 3}}})));
    r = run_cli({"identify", (dir / "other.ips").string()});
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("1 record(s) (0 RLE) writing 3 bytes") && !Contains("this is nestris-ai"));
    write_plain(dir / "other.bps", bps_from_ips({}, some.size(), crc32_of(some), crc32_of(some)));
    r = run_cli({"identify", (dir / "other.bps").string()});
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("no ROM this nestris-ai knows"));

    write_plain(dir / "cut.ips", {'P', 'A', 'T', 'C', 'H', 0, 0, 1, 0, 9, 1});
    r = run_cli({"identify", (dir / "cut.ips").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Contains("a damaged IPS patch") && !Contains("damaged: "));
    CHECK_THAT(r.err, Contains("nestris-ai identify: error: ") && Contains("truncated record"));
    auto bad_bps = read_file(dir / "ours.bps");
    bad_bps[bad_bps.size() / 2] ^= 1;
    write_plain(dir / "bad.bps", bad_bps);
    r = run_cli({"identify", (dir / "bad.bps").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Contains("a damaged BPS patch") && !Contains("damaged: the patch is damaged"));
    CHECK_THAT(r.err, Contains("nestris-ai identify: error: ") && Contains("its CRC32"));
}

TEST_CASE("cli: apply-ips reports a truncation record and refuses it unless --allow-truncate") {
    ScratchDir dir("cli_truncate");
    std::mt19937 rng(9);
    const auto source = random_bytes(rng, 3000);
    auto target = source;
    target[7] ^= 0xFF;
    target.resize(2000);
    write_plain(dir / "in.bin", source);
    write_plain(dir / "t.ips", serialize_ips(diff_ips(source, target)));
    CliResult r = run_cli({"apply-ips", (dir / "in.bin").string(), (dir / "t.ips").string(), "-o", (dir / "out.bin").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("cuts the 3000-byte file to 2000 bytes"));
    CHECK_FALSE(fs::exists(dir / "out.bin"));
    r = run_cli({"apply-ips", (dir / "in.bin").string(), (dir / "t.ips").string(), "-o", (dir / "out.bin").string(),
                 "--allow-truncate"});
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("truncation record cut the file from 3000 to 2000 bytes"));
    CHECK(read_file(dir / "out.bin") == target);
}

TEST_CASE("cli: apply-ips says a truncation record grew the file when it did") {
    ScratchDir dir("cli_truncate_grow");
    std::mt19937 rng(11);
    write_plain(dir / "in.bin", random_bytes(rng, 1024));
    IpsPatch patch = encode_ips({{4, {1, 2, 3}}});
    patch.truncate_to = 2000;
    write_plain(dir / "g.ips", serialize_ips(patch));
    const CliResult r = run_cli({"apply-ips", (dir / "in.bin").string(), (dir / "g.ips").string(), "-o",
                                 (dir / "out.bin").string(), "--allow-grow", "--allow-truncate"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Contains("grew the file from 1024 to 2000 bytes") && !Contains("cut"));
    CHECK(fs::file_size(dir / "out.bin") == 2000);
}

