// The release files in dist/: this build makes them byte for byte (a reproducible build), the
// release record is of this build, and README links it. Runs without the game; the
// real-game tests check the record's patched-ROM checksums against the game.
#include "base/checksums.hpp"
#include "base/file_io.hpp"
#include "dist/release_record_text.hpp"
#include "patcher/bps.hpp"
#include "patcher/cart_image.hpp"
#include "patcher/patch.hpp"
#include "patcher/release_record.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tools/cli/patcher_commands.hpp"

#include <catch2/catch.hpp>

using namespace nestris;
using namespace nestris::test;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

const fs::path kDist = fs::path(NESTRIS_SOURCE_DIR) / "dist";

ReleaseRecord dist_record() { return parse_release_record(read_text_file(kDist / "release.txt")); }

}  // namespace

TEST_CASE("dist: the release record is of this build, and the build compiled in the record as it is on disk") {
    const ReleaseRecord record = dist_record();
    INFO("dist/ is stale when the cartridge code changed: refresh it with "
         "nestris-ai release --rom tetris.nes --dir dist (needs the game)");
    CHECK(record.build_id == cart_build_id(shipped_cart()));
    CHECK(record.version == cart_version(shipped_cart()));
    CHECK(parse_release_record(kRecordedReleaseText) == record);
}

TEST_CASE("dist: nestris-ai build makes dist's IPS and BPS byte for byte") {
    ScratchDir dir("dist_build");
    const CliResult r = run_commands(add_patcher_commands, {"build", "-o", (dir / "nestris-ai.ips").string()});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    const ReleaseRecord record = dist_record();
    for (const char* name : {"nestris-ai.ips", "nestris-ai.bps"}) {
        INFO(name);
        const std::vector<uint8_t> built = read_file(dir / name);
        CHECK(built == read_file(kDist / name));
        CHECK(sha1_hex(built) == (fs::path(name).extension() == ".ips" ? record.ips_sha1 : record.bps_sha1));
    }
    CHECK(parse_bps(read_file(dir / "nestris-ai.bps")).target_crc32 == record.patched_crc32);
}

// A copy of the record's figures in README would go stale at the next release: README links it.
TEST_CASE("dist: README links the release record for the release's checksums and copies none of them") {
    const std::string readme = read_text_file(fs::path(NESTRIS_SOURCE_DIR) / "README.md");
    const ReleaseRecord record = dist_record();
    CHECK_THAT(readme, Contains("](dist/release.txt)"));
    CHECK_THAT(readme, !Contains(record.ips_sha1));
    CHECK_THAT(readme, !Contains(record.bps_sha1));
    CHECK_THAT(readme, !Contains(record.patched_sha1));
    CHECK_THAT(readme, !Contains(crc32_hex(record.patched_crc32)));
}
