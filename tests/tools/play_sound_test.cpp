// play --wav with the real game (TETRIS_ROM; SKIPPED without it): the WAV lasts the whole run
// (power-on, the menu walk, the frames asked), the game's music is in it, the game played is the
// same as without --wav, and the screenshots' side frames are not heard (the WAV is byte for
// byte the same with --png-every).
#include "emu-test/wav.hpp"
#include "tests/support/game_rom.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tools/cli/play_command.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

using namespace nestris;
using namespace nestris::test;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

std::vector<uint8_t> bytes_of(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// The summary without the lines that name output files.
std::string summary(const std::string& out) {
    std::istringstream in(out);
    std::string line, kept;
    while (std::getline(in, line))
        if (line.rfind("sound:", 0) != 0 && line.rfind("screenshot", 0) != 0) kept += line + "\n";
    return kept;
}

}  // namespace

TEST_CASE("real game: play --wav writes the game's sound from power-on, and plays the same game") {
    const auto rom = tetris_rom_or_skip();
    if (!rom) return;
    ScratchDir dir("play_wav");
    {
        std::ofstream o(dir / "tetris.nes", std::ios::binary);
        o.write(reinterpret_cast<const char*>(rom->data()), static_cast<std::streamsize>(rom->size()));
    }
    const std::string nes = (dir / "tetris.nes").string();
    const CliResult plain = run_commands(add_play_command, {"play", nes, "--level", "9", "--frames", "900"});
    REQUIRE(plain.code == 0);
    const CliResult loud = run_commands(add_play_command, {"play", nes, "--level", "9", "--frames", "900", "--wav",
                                                           (dir / "game.wav").string()});
    INFO(loud.out << loud.err);
    REQUIRE(loud.code == 0);
    CHECK(summary(loud.out) == summary(plain.out));
    CHECK_THAT(loud.out, Contains("sound: " + (dir / "game.wav").string()) && Contains("at 48000 Hz"));
    const emu::Wav w = emu::parse_wav(bytes_of(dir / "game.wav"));
    CHECK(w.sample_rate == 48000);
    // The menu walk (a few hundred frames) and the 900 frames of the game: more than 900 frames.
    const double seconds = static_cast<double>(w.samples.size()) / w.sample_rate;
    CHECK(seconds > 900 / 60.0988);
    CHECK(seconds < 900 / 60.0988 + 60);
    // The game's music during the last 10 s: well above silence (16-bit RMS; measured about 1 000).
    double energy = 0;
    const size_t from = w.samples.size() - 10 * 48000;
    for (size_t i = from; i < w.samples.size(); ++i) energy += static_cast<double>(w.samples[i]) * w.samples[i];
    CHECK(std::sqrt(energy / (10 * 48000)) > 200);
    // Screenshots every 100 frames: their side frames are run on a silent copy.
    const CliResult shots = run_commands(add_play_command, {"play", nes, "--level", "9", "--frames", "900", "--wav",
                                                            (dir / "shots.wav").string(), "--png",
                                                            (dir / "s.png").string(), "--png-every", "100"});
    REQUIRE(shots.code == 0);
    CHECK(bytes_of(dir / "shots.wav") == bytes_of(dir / "game.wav"));
    // Refusals.
    CliResult r = run_commands(add_play_command, {"play", nes, "--sample-rate", "44100"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("--sample-rate is for --wav"));
    r = run_commands(add_play_command, {"play", nes, "--soak", "--wav", (dir / "x.wav").string()});
    CHECK(r.code == 2);
    CHECK_FALSE(fs::exists(dir / "x.wav"));
}
