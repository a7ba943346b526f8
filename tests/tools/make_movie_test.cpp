// make-tetris-movie ends as every tool does (command_runner.hpp): refusals are one line
// "make-tetris-movie: error: ..." and exit 1, never an abort; usage errors exit 2. Run in-process.
#include "base/file_io.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tools/movie/movie_command.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

using namespace nestris;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
namespace fs = std::filesystem;

namespace {

test::CliResult make_movie(std::vector<std::string> args) {
    args.insert(args.begin(), "make-tetris-movie");
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());
    test::CliResult result;
    test::Capture capture;
    result.code = tools::run_make_tetris_movie(static_cast<int>(argv.size()), argv.data());
    result.out = capture.out.str();
    result.err = capture.err.str();
    return result;
}

// An NROM image (32 KiB PRG, 8 KiB CHR) that loops at $8000: no game, so no top-out.
std::vector<uint8_t> looping_rom() {
    std::vector<uint8_t> rom = {'N', 'E', 'S', 0x1A, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    std::vector<uint8_t> prg(0x8000, 0);
    prg[0] = 0x4C, prg[1] = 0x00, prg[2] = 0x80;  // JMP $8000
    for (const size_t vector : {0x7FFA, 0x7FFC, 0x7FFE}) prg[vector + 1] = 0x80;
    rom.insert(rom.end(), prg.begin(), prg.end());
    rom.resize(rom.size() + 0x2000, 0);
    return rom;
}

void write_bytes(const fs::path& p, const std::vector<uint8_t>& bytes) {
    std::ofstream f(p, std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

void check_one_error_line(const test::CliResult& r, const std::string& what) {
    CHECK_THAT(r.err, StartsWith("make-tetris-movie: error: ") && Contains(what));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

}  // namespace

TEST_CASE("make-tetris-movie: a bad ROM or output is a refusal (exit 1, one error line), never an abort") {
    test::ScratchDir dir("make_movie");
    const std::vector<uint8_t> image = looping_rom();
    write_bytes(dir / "loop.nes", image);
    write_bytes(dir / "header.nes", std::vector<uint8_t>(image.begin(), image.begin() + 16));
    const std::string rom = (dir / "loop.nes").string();

    test::CliResult r = make_movie({(dir / "header.nes").string(), "-o", (dir / "x.fm2").string()});
    CHECK(r.code == 1);
    check_one_error_line(r, "truncated iNES image");
    r = make_movie({rom, "-o", rom});
    CHECK(r.code == 1);
    check_one_error_line(r, "is an input of this command");
    CHECK(read_file(rom) == looping_rom());
    r = make_movie({rom, "-o", (dir / "nodir" / "x.fm2").string()});
    CHECK(r.code == 1);
    check_one_error_line(r, "no directory");
    r = make_movie({(dir / "missing.nes").string(), "-o", (dir / "x.fm2").string()});
    CHECK(r.code == 1);  // a missing input is a refusal, not a usage error
    check_one_error_line(r, "no such file");
    r = make_movie({rom, "-o", (dir / "x.fm2").string(), "--max-frames", "10"});
    CHECK(r.code == 1);
    check_one_error_line(r, "no top-out within 10 frames");
    CHECK(dir.listing() == std::vector<std::string>{"header.nes", "loop.nes"});
}

TEST_CASE("make-tetris-movie: counts out of their range are usage errors (exit 2), --help names the bounds") {
    test::ScratchDir dir("make_movie_usage");
    write_bytes(dir / "loop.nes", looping_rom());
    const std::string rom = (dir / "loop.nes").string(), out = (dir / "x.fm2").string();
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"--max-frames", "1000000000000"}, {"--max-frames", "-1"}, {"--pieces", "-3"},
          {"--level", "12"}}) {
        std::vector<std::string> args = {rom, "-o", out};
        args.insert(args.end(), bad.begin(), bad.end());
        const test::CliResult r = make_movie(args);
        INFO(bad[0] << " " << bad[1]);
        CHECK(r.code == 2);
        CHECK_THAT(r.err, StartsWith("make-tetris-movie: error: "));
    }
    const test::CliResult help = make_movie({"--help"});
    CHECK(help.code == 0);
    CHECK_THAT(help.out, Contains("at most 1000000") && Contains("Exit status"));
}
