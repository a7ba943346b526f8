// The subcommands as a user runs them (in-process): exit codes, messages, and files written or
// not written.
#include "ai-reference/model/power_on.hpp"
#include "ai-reference/model/render.hpp"
#include "base/checksums.hpp"
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "dist/release_record_text.hpp"
#include "emu-test/debug/emu_commands.hpp"
#include "patcher/bps.hpp"
#include "patcher/cart_image.hpp"
#include "patcher/ips.hpp"
#include "patcher/patch.hpp"
#include "patcher/release_record.hpp"
#include "patcher/rom.hpp"
#include "tests/patcher/support.hpp"
#include "tests/support/file_size_limit.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/tools/cli_support.hpp"
#include "tools/cli/command_line.hpp"
#include "tools/cli/model_commands.hpp"
#include "tools/cli/patcher_commands.hpp"
#include "tools/cli/play_command.hpp"
#include "tools/cli/results_chart.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>
#include <thread>

using namespace nestris;
using namespace nestris::test;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

TEST_CASE("cli: build writes the patches and reports the build id (and the usage with --verbose)") {
    ScratchDir dir("cli_build");
    const CliResult r = run_cli({"build", "-o", (dir / "x.ips").string()});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    const IpsPatch expected = cart_patch(shipped_cart());
    CHECK(read_file(dir / "x.ips") == serialize_ips(expected));
    CHECK_THAT(r.out, Contains("build " + crc32_hex(cart_build_id(shipped_cart()))));
    CHECK_THAT(r.out, !Contains("cartridge usage"));
    CHECK_THAT(r.out, Contains("wrote " + (dir / "x.ips").string()));
    // The BPS lands beside the IPS; its target CRC32 is the release record's, its bytes the IPS's.
    const std::vector<uint8_t> bps = read_file(dir / "x.bps");
    const ReleaseRecord record = parse_release_record(kRecordedReleaseText);
    CHECK(parse_bps(bps).target_crc32 == record.patched_crc32);
    CHECK(bps == bps_from_ips(expected, 49168, known_roms()[0].file_crc32, record.patched_crc32));
    CHECK_THAT(r.out, Contains("wrote " + (dir / "x.bps").string()));
    const CliResult verbose = run_cli({"build", "-o", (dir / "x.ips").string(), "--verbose", "--no-bps"});
    CHECK_THAT(verbose.out, Contains(shipped_cart().usage_report()));
    CHECK_THAT(verbose.out, !Contains(".bps"));

    const CliResult bad = run_cli({"build", "-o", (dir / "missing" / "x.ips").string()});
    CHECK(bad.code == 1);
    CHECK_THAT(bad.err, Contains("nestris-ai build: error: cannot write"));
    const CliResult same = run_cli({"build", "-o", (dir / "y.ips").string(), "--bps", (dir / "y.ips").string()});
    CHECK(same.code == 2);  // two outputs on one file: a usage error
    CHECK_THAT(same.err, Contains("the same file"));
    CHECK(dir.listing() == std::vector<std::string>{"x.bps", "x.ips"});
}

TEST_CASE("cli: patch refuses bad input with a message, a non-zero exit and no file") {
    ScratchDir dir("cli_bad_input");
    const auto rom = synthetic_rom(1);
    auto pal = rom;
    pal[9] = 1;
    auto patched = apply_ips(rom, cart_patch(shipped_cart()));
    struct Case {
        const char* name;
        std::vector<uint8_t> bytes;
        const char* message;
    };
    const Case cases[] = {
        {"empty.nes", {}, "the file is empty"},
        {"header.nes", tetris_header_bytes(), "only an iNES header"},
        {"truncated.nes", std::vector<uint8_t>(rom.begin(), rom.begin() + 30000), "truncated"},
        {"other.nes", rom, "not the supported ROM, Tetris (USA)"},
        {"pal.nes", pal, "marks a PAL game"},
        {"patched.nes", patched, "already patched by nestris-ai"},
    };
    for (const Case& c : cases) {
        INFO(c.name);
        write_plain(dir / c.name, c.bytes);
        const auto before = dir.listing();
        const CliResult r = run_cli({"patch", (dir / c.name).string()});
        CHECK(r.code == 1);
        CHECK_THAT(r.err, Contains("nestris-ai patch: error:") && Contains(c.message));
        CHECK(dir.listing() == before);
    }
    const CliResult missing = run_cli({"patch", (dir / "nope.nes").string()});
    CHECK(missing.code == 1);
    CHECK_THAT(missing.err, Contains("no such file"));
}

TEST_CASE("cli: patch never writes over its input unless --in-place") {
    ScratchDir dir("cli_same");
    write_plain(dir / "t.nes", synthetic_rom(2));
    const CliResult r = run_cli({"patch", (dir / "t.nes").string(), "-o", (dir / "." / "t.nes").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("is the input ROM; use --in-place"));
    const CliResult both = run_cli({"patch", (dir / "t.nes").string(), "--in-place", "-o", (dir / "u.nes").string()});
    CHECK(both.code == 2);  // a usage error: --in-place excludes -o
    CHECK_THAT(both.err, Contains("nestris-ai patch: error:") && Contains("excludes"));
    CHECK(read_file(dir / "t.nes") == synthetic_rom(2));
    CHECK(dir.listing() == std::vector<std::string>{"t.nes"});
}

TEST_CASE("cli: one exit-code convention: 0 done, 1 refused or failed, 2 usage, one error line") {
    const CliResult unknown_option = run_cli({"patch", "t.nes", "--frobnicate"});
    CHECK(unknown_option.code == 2);
    CHECK_THAT(unknown_option.err, Contains("nestris-ai patch: error:") && Contains("--frobnicate"));
    const CliResult no_command = run_cli({});
    CHECK(no_command.code == 2);
    CHECK_THAT(no_command.err, Contains("nestris-ai: error:"));
    const CliResult help = run_cli({"patch", "--help"});
    CHECK(help.code == 0);
    CHECK_THAT(help.out, Contains("Usage:"));
    const CliResult missing = run_cli({"verify", "/nonexistent/t.nes"});
    CHECK(missing.code == 1);
    CHECK_THAT(missing.err, Contains("nestris-ai verify: error:"));
}

TEST_CASE("cli: an unknown command or option is named, with a pointer to --help (exit 2)") {
    const CliResult command = run_cli({"frobnicate"});
    CHECK(command.code == 2);
    CHECK_THAT(command.err, Contains("nestris-ai: error: unknown command 'frobnicate'") && Contains("--help"));
    CHECK_THAT(command.err, !Contains("A subcommand is required"));
    const CliResult option = run_cli({"--frobnicate"});
    CHECK(option.code == 2);
    CHECK_THAT(option.err, Contains("unknown option '--frobnicate'"));
    const CliResult none = run_cli({});  // nothing typed: CLI11's own words still fit
    CHECK(none.code == 2);
    CHECK_THAT(none.err, Contains("A subcommand is required"));
}

TEST_CASE("cli: play refuses options it would ignore (a usage error, exit 2)") {
    const auto play = [](std::vector<std::string> args) {
        args.insert(args.begin(), {"play", "/nonexistent/t.nes"});
        return run_commands(add_play_command, args);
    };
    const struct {
        std::vector<std::string> args;
        const char* message;
    } refused[] = {
        {{"--demo", "--level", "9"}, "--demo excludes"},
        {{"--demo", "--b-type"}, "--demo excludes"},
        {{"--demo", "--height", "0"}, "--demo excludes"},
        {{"--input", ".", "--level", "5"}, "--input and --movie exclude"},
        {{"--input", ".", "--human"}, "--input and --movie exclude"},
        {{"--movie", (fs::path(NESTRIS_SOURCE_DIR) / "tests/fixtures/fceux/tetris_game.fm2").string(), "--b-type"},
         "--input and --movie exclude"},
        {{"--png-every", "10"}, "--png-every needs --png"},
        {{"--png-scale", "3"}, "--png-scale is for --png"},
        {{"--png", "x.png", "--png-scale", "9"}, "--png-scale: Value 9 not in range"},
    };
    for (const auto& c : refused) {
        const CliResult r = play(c.args);
        INFO(c.args.front() << " " << c.args.back());
        CHECK(r.code == 2);
        CHECK_THAT(r.err, Contains("nestris-ai play: error: ") && Contains(c.message));
    }
    // Alone, --demo and --input pass the usage checks and reach the ROM (missing here: exit 1).
    CHECK(play({"--demo"}).code == 1);
    CHECK(play({"--input", "."}).code == 1);
    CHECK(play({"--level", "9", "--b-type", "--height", "2"}).code == 1);
}

TEST_CASE("cli: one name per kind of positional argument across the commands (ROM, FILE, PATCH)") {
    CLI::App app{"nestris-ai (test)", "nestris-ai"};
    add_patcher_commands(app);
    add_play_command(app);
    add_emu_commands(app);
    add_simulate_command(app);
    add_fidelity_command(app);
    add_render_command(app);
    std::map<std::string, std::string> names;  // command -> its positionals
    const CLI::App& commands = app;
    for (const CLI::App* sub : commands.get_subcommands(std::function<bool(const CLI::App*)>{})) {
        for (const CLI::Option* option : sub->get_options()) {
            if (!option->get_positional()) continue;
            const std::string name = option->get_name();
            INFO(sub->get_name() << " " << name);
            CHECK((name == "ROM" || name == "FILE" || name == "PATCH"));
            names[sub->get_name()] += (names[sub->get_name()].empty() ? "" : " ") + name;
        }
    }
    // A ROM where only a ROM will do; FILE where any file is taken (identify: a ROM or a patch).
    CHECK(names["patch"] == "ROM");
    CHECK(names["verify"] == "ROM");
    CHECK(names["play"] == "ROM");
    CHECK(names["run-rom"] == "ROM");
    CHECK(names["identify"] == "FILE");
    CHECK(names["apply-ips"] == "FILE PATCH");
    CHECK(names["apply-bps"] == "FILE PATCH");
}

TEST_CASE("cli: patch -o never replaces a device") {
    ScratchDir dir("cli_device");
    write_plain(dir / "t.nes", synthetic_rom(4));
    const CliResult r = run_cli({"patch", (dir / "t.nes").string(), "-o", "/dev/null"});
    CHECK(r.code == 1);
    CHECK(fs::is_character_file("/dev/null"));
}

TEST_CASE("cli: every subcommand explains itself in --help") {
    const std::pair<const char*, std::vector<const char*>> expected[] = {
        {"build", {"Needs no ROM", "-o,--output", "--bps", "--no-bps", "--rom", "release record", "build id"}},
        {"apply-bps", {"CRC32", "nothing is written"}},
        {"release", {"--rom", "--dir", "release.txt"}},
        {"patch", {"Tetris (USA)", "--in-place", "headerless", "nothing is written", "77747840541BFC62A28A5957692A98C550BD6B2B"}},
        {"identify", {"Tetris (Europe)", "IPS and BPS", "16 bytes off", "Exit status"}},
        {"verify", {"--original", "Exit status"}},
        {"apply-ips", {"--allow-grow", "truncation"}},
    };
    for (const auto& [command, phrases] : expected) {
        const CliResult r = run_cli({command, "--help"});
        INFO(command << ":\n" << r.out);
        CHECK(r.code == 0);
        for (const char* phrase : phrases) CHECK_THAT(r.out, Contains(phrase));
    }
}

TEST_CASE("cli: play refuses options that do not go together before it reads the ROM") {
    ScratchDir dir("cli_play_usage");
    write_plain(dir / "t.nes", synthetic_rom(6));
    const std::string rom = (dir / "t.nes").string();
    CliResult r = run_commands(add_play_command, {"play", rom, "--height", "3"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("--height is for B-Type games"));
    r = run_commands(add_play_command, {"play", rom, "--demo", "--input", "S"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("--demo goes alone"));
    r = run_commands(add_play_command, {"play", rom, "--frames", "-1"});
    CHECK(r.code == 2);
    write_plain(dir / "m.fm2", std::vector<uint8_t>{'v', 'e', 'r', 's', 'i', 'o', 'n', ' ', '3', '\n'});
    const std::string movie = (dir / "m.fm2").string();
    r = run_commands(add_play_command, {"play", rom, "--movie", movie, "--input", "S"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("--input and --movie"));
    r = run_commands(add_play_command, {"play", rom, "--movie", movie, "--soak"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("--soak is for AI games"));
    for (const char* other : {"--soak", "--demo"}) {
        r = run_commands(add_play_command, {"play", rom, "--to-the-end", other});
        CHECK(r.code == 2);
        CHECK_THAT(r.err, Contains("--to-the-end is for one game"));
    }
    for (const char* other : {"--demo", "--human"}) {
        r = run_commands(add_play_command, {"play", rom, "--hate", other});
        CHECK(r.code == 2);
        CHECK_THAT(r.err, Contains("--hate is for AI and coach games"));
    }
    // FCEUX's power-on goes with every run now (a movie of it replays in FCEUX): past the usage
    // checks, this ROM is refused.
    r = run_commands(add_play_command, {"play", rom, "--power-on", "fceux"});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("not the supported ROM"));
    r = run_commands(add_play_command, {"play", rom, "--movie", movie, "--power-on", "nintendo"});
    CHECK(r.code == 2);
    r = run_commands(add_play_command, {"play", rom, "--frames", "5"});
    CHECK(r.code == 1);  // not Tetris (USA)
    CHECK_THAT(r.err, Contains("nestris-ai play: error:") && Contains("not the supported ROM"));
}

TEST_CASE("cli: play --write-movie: refused without FCEUX's power-on, with --movie, too long or unwritable, leaving nothing") {
    ScratchDir dir("cli_play_write_movie");
    write_plain(dir / "t.nes", synthetic_rom(6));
    const std::string rom = (dir / "t.nes").string(), out = (dir / "out.fm2").string();
    const std::string movie = (fs::path(NESTRIS_SOURCE_DIR) / "tests/fixtures/fceux/tetris_game.fm2").string();
    const struct {
        std::vector<std::string> args;
        const char* message;
    } refused[] = {
        {{"--write-movie", out}, "--write-movie needs --power-on fceux"},
        {{"--write-movie", out, "--power-on", "hardware"}, "--write-movie needs --power-on fceux"},
        {{"--write-movie", out, "--demo"}, "--write-movie needs --power-on fceux"},
        {{"--write-movie", out, "--power-on", "fceux", "--movie", movie}, "--write-movie is not for --movie"},
        {{"--write-movie", out, "--power-on", "fceux", "--frames", "4000001"}, "at most 4000000 frames"},
    };
    for (const auto& c : refused) {
        std::vector<std::string> args = {"play", rom};
        args.insert(args.end(), c.args.begin(), c.args.end());
        const CliResult r = run_commands(add_play_command, args);
        INFO(c.message << ": " << r.err);
        CHECK(r.code == 2);
        CHECK_THAT(r.err, Contains("nestris-ai play: error: ") && Contains(c.message));
    }
    // At the bound, the options pass (and the ROM, not Tetris, is refused).
    CliResult r = run_commands(add_play_command, {"play", rom, "--write-movie", out, "--power-on", "fceux", "--frames", "4000000"});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("not the supported ROM"));
    // An output it cannot write is refused before the run: no directory, a directory, the ROM itself,
    // the screenshot's own file.
    fs::create_directory(dir / "d");
    const struct {
        std::vector<std::string> extra;
        const char* message;
    } unwritable[] = {
        {{"--write-movie", (dir / "none" / "m.fm2").string()}, "no directory"},
        {{"--write-movie", (dir / "d").string()}, "it is a directory"},
        {{"--write-movie", rom}, "is an input of this command"},
        {{"--write-movie", out, "--png", out}, "is the same file"},
    };
    for (const auto& c : unwritable) {
        std::vector<std::string> args = {"play", rom, "--power-on", "fceux"};
        args.insert(args.end(), c.extra.begin(), c.extra.end());
        r = run_commands(add_play_command, args);
        INFO(c.message << ": " << r.err);
        CHECK(r.code == (std::string(c.message) == "is the same file" ? 2 : 1));  // (two outputs on one file: usage)
        CHECK_THAT(r.err, Contains("nestris-ai play: error: cannot write") && Contains(c.message));
    }
    CHECK(read_file(dir / "t.nes") == synthetic_rom(6));
    CHECK(dir.listing() == std::vector<std::string>{"d", "t.nes"});
}

TEST_CASE("cli: fidelity and render refuse bad input with a clear message") {
    ScratchDir dir("cli_model_cmds");
    fs::create_directory(dir / "adir");
    CliResult r = run_commands(add_fidelity_command, {"fidelity", "--rom", (dir / "adir").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("nestris-ai fidelity: error:") && Contains("it is a directory"));
    // A ROM patched by this build is named as such (not "not this build").
    write_plain(dir / "patched.nes", apply_ips(synthetic_rom(3), cart_patch(shipped_cart())));
    r = run_commands(add_fidelity_command, {"fidelity", "--rom", (dir / "patched.nes").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("(this build)"));
    r = run_commands(add_render_command, {"render", "--seed", "-5"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("--seed") && Contains("negative"));
}

TEST_CASE("cli: simulate bounds its games (named in --help) and refuses more before a game is played") {
    const CliResult help = run_commands(add_simulate_command, {"simulate", "--help"});
    INFO(help.out);
    REQUIRE_THAT(help.out, Contains("at most 1 000 000"));
    // 100 million games reached 5.8 GB in 15 s: now a usage error, at once.
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"simulate", "--player", "drop", "--games", "100000000"},
          std::vector<std::string>{"simulate", "--player", "drop", "--games", "1000001"},
          std::vector<std::string>{"simulate", "--player", "drop", "--seeds", "0-99999999"},
          std::vector<std::string>{"simulate", "--player", "drop", "--seeds", "5,0-999999"}}) {
        const CliResult r = run_commands(add_simulate_command, args);
        INFO(args.back());
        CHECK(r.code == 2);
        CHECK_THAT(r.err, Contains("nestris-ai simulate: error:") && Contains("1 000 000"));
    }
    CHECK(parse_number_list("0-999999").size() == kMaxListNumbers);
    CHECK_THROWS_AS(parse_number_list("0-999999,7"), UsageError);
    CHECK_THROWS_AS(parse_number_list("0-4294967295"), UsageError);
}

TEST_CASE("cli: simulate --hate: --help says what it is, the summary says hate mode, the cartridge deals its own") {
    const CliResult help = run_commands(add_simulate_command, {"simulate", "--help"});
    CHECK_THAT(help.out, Contains("--hate") && Contains("first two pieces") && Contains("With --player cart"));
    CliResult r = run_commands(add_simulate_command, {"simulate", "--hate", "--player", "cart", "--seeds", "3", "--quiet"});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Contains("1 games (cart, level 19, A-Type, hate mode)") &&
                          Contains("previews dealt by the cartridge's adversary, 0 the game's own draw"));
    r = run_commands(add_simulate_command,
                     {"simulate", "--hate", "--player", "drop", "--games", "2", "--max-frames", "3000", "--quiet"});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Contains("2 games (drop, level 19, A-Type, hate mode)") &&
                          Contains("pieces dealt by the adversary; its seven sweeps"));
}

TEST_CASE("cli: simulate rounds what it measures (one decimal, rates in per cent)") {
    const CliResult r = run_commands(add_simulate_command, {"simulate", "--player", "drop", "--games", "2", "--quiet"});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    const auto has = [&](const char* pattern) { return std::regex_search(r.out, std::regex(pattern)); };
    CHECK(has(R"(2 games \(drop, level 19, A-Type\) in [0-9]+\.[0-9] s: [0-9]+\.[0-9] games/min, [0-9]+ frames/s\n)"));
    CHECK(has(R"(top-out rate [0-9]+\.[0-9] %, max-out rate [0-9]+\.[0-9] %, tetris rate [0-9]+\.[0-9] %\n)"));
    CHECK(has(R"(may-crash, MODEL.md "Time"\): rate [0-9]+\.[0-9] %\n)"));
    CHECK(has(R"(lines mean [0-9]+\.[0-9] median [0-9]+\.[0-9] )"));
}

TEST_CASE("cli: simulate --histogram: a bin's count by value, the bars' heights by count") {
    const std::vector<uint32_t> few{0, 0, 0, 5, 9};
    Histogram h = make_histogram(few, 60);
    CHECK(h.bin_width == 1);
    CHECK(h.counts == std::vector<uint32_t>{3, 0, 0, 0, 0, 1, 0, 0, 0, 1});
    const std::vector<uint32_t> wide{0, 119, 120, 999999};
    h = make_histogram(wide, 60);
    CHECK(h.bin_width == 16667);                  // 999 999 in the 60th bin, not a 61st
    CHECK(h.counts.size() == 60);
    CHECK(h.counts.front() == 3);
    CHECK(h.counts.back() == 1);
    CHECK(make_histogram(std::vector<uint32_t>{4294967295u}, 60).counts.size() == 60);
    CHECK(make_histogram(std::vector<uint32_t>{}, 60).counts == std::vector<uint32_t>{0});
    CHECK_THROWS_AS(make_histogram(few, 0), std::invalid_argument);
    CHECK_THROWS_AS(results_chart({}), std::invalid_argument);

    // Three games with 10 lines and one with 0 (the lines panel's bars are green): the 10-line
    // bar three times the 0-line bar's height.
    std::vector<GameResult> results(4);
    for (int i = 0; i < 3; ++i) results[static_cast<std::size_t>(i)].lines = 10;
    const Canvas chart = results_chart(results);
    auto green_height = [&](int bin) {  // bars 27 logical pixels apart here (300 / 11 bins), at x 12 on
        const int x = (12 + bin * 27 + 5) * 2;
        int n = 0;
        for (int y = 0; y < chart.height() / 3; ++y) {
            const uint8_t* p = &chart.rgb()[(static_cast<std::size_t>(y) * static_cast<std::size_t>(chart.width()) + x) * 3];
            if (p[0] == 0x58 && p[1] == 0xD8 && p[2] == 0x54) ++n;
        }
        return n;
    };
    CHECK(green_height(10) == 140);  // the most games: the bars' whole height (70, scale 2)
    CHECK(green_height(0) == 2 * 24);  // a third of 70, rounded up
    CHECK(green_height(5) == 0);
}

TEST_CASE("cli: simulate --histogram writes its PNG whole, and a bad path is refused before the games") {
    ScratchDir dir("cli_simulate_histogram");
    const std::string png = (dir / "h.png").string();
    CliResult r = run_commands(add_simulate_command, {"simulate", "--player", "drop", "--games", "3", "--quiet",
                                                      "--histogram", png});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    const std::vector<uint8_t> bytes = read_file(png);
    REQUIRE(bytes.size() > 8);
    CHECK(std::string(bytes.begin() + 1, bytes.begin() + 4) == "PNG");
    // A directory as the file: refused at once (exit 1), before any game (no summary printed).
    std::filesystem::create_directory(dir / "d");
    r = run_commands(add_simulate_command, {"simulate", "--player", "drop", "--games", "3", "--quiet", "--histogram",
                                            (dir / "d").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("nestris-ai simulate: error:"));
    CHECK(r.out.find("games (drop") == std::string::npos);
    CHECK(dir.listing() == std::vector<std::string>{"d", "h.png"});
}

TEST_CASE("cli: render --frame out of its range (negative, past 2^64, over 10 000 000) is a usage error naming it") {
    for (const char* frame : {"-5", "18446744073709551616", "10000001"}) {
        const CliResult r = run_commands(add_render_command, {"render", "--seed", "1", "--player", "drop", "--frame", frame});
        INFO(frame << ": " << r.err);
        CHECK(r.code == 2);
        CHECK_THAT(r.err, Contains("--frame") && Contains("10000000"));
        CHECK(r.out.empty());
    }
    CHECK(run_commands(add_render_command, {"render", "--seed", "1", "--player", "drop", "--frame", "3"}).code == 0);
}

TEST_CASE("cli: render says what it wrote, labels its picture in words, and starts at play's level 19") {
    ScratchDir dir("cli_render_says");
    CliResult r = run_commands(add_render_command, {"render", "--seed", "1", "--player", "drop", "--frame", "30", "--png",
                                                    (dir / "b.png").string(), "--save-state", (dir / "s.txt").string()});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Contains("wrote " + (dir / "b.png").string() + ": the state after 30 frames"));
    CHECK_THAT(r.out, Contains("wrote " + (dir / "s.txt").string() + ": the state after 30 frames"));
    r = run_commands(add_render_command, {"render", "--seed", "1", "--player", "drop", "--frame", "10", "--frames-dir",
                                          (dir / "f").string(), "--every", "4"});
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Contains("wrote 3 PNG frame(s) to " + (dir / "f").string() + " (frame_000000.png to frame_000008.png)"));
    r = run_commands(add_render_command, {"render", "--seed", "1"});  // the text board
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Contains("level 19") && Contains("state "));
    CHECK(render_text(seeded_game(1, 19, 0, 0), {}) == r.out);
}

TEST_CASE("cli: a long simulate run says how many games, about how long and how much memory") {
    const uint64_t bytes = 1'000'000 * simulate_bytes_per_game(false);
    CHECK(bytes < 200u << 20);  // the bound's memory stays modest
    // 1 000 games done in 10 s of 1 000 000: ~2.8 h.
    const std::string notice = long_run_notice(1'000'000, 1'000, 10, 2, bytes);
    CHECK_THAT(notice, Contains("1 000 000 games on 2 threads") && Contains("about 2.8 h") &&
                           Contains("first 1 000") && Contains(" MB for the per-game results"));
    CHECK(long_run_notice(1'000'000, 0, 10, 2, bytes).empty());   // no pace yet
    CHECK(long_run_notice(1'000'000, 10, 1, 2, bytes).empty());   // too early to tell
    CHECK(long_run_notice(100, 50, 10, 2, bytes).empty());        // 20 s in all: not long
    CHECK_THAT(long_run_notice(200, 2, 3, 2, bytes), Contains("about 5 min"));
}

TEST_CASE("cli: a long run's progress: a bar on a terminal, elsewhere a line a tenth, each with the time left") {
    ProgressReport log("run", 100, "games", false, false);
    CHECK(log.update(5, 1.0).empty());  // less than a tenth
    CHECK(log.update(10, 2.0) == "run: 10/100 games, 2.0 s, about 18 s left\n");
    CHECK(log.update(15, 3.0).empty());
    CHECK(log.update(50, 600.0) == "run: 50/100 games, 600.0 s, about 10 min left\n");
    CHECK(log.update(100, 1200.0) == "run: 100/100 games, 1200.0 s\n");  // the end: no time left
    CHECK(log.finish(1201.0).empty());                                    // (said already)
    // A run shorter than ten steps: a line a step; the last one says so even if no step did, and
    // a run that ended short of its total (play --to-the-end) has no time left.
    ProgressReport small("run", 3, "games", false, false);
    CHECK_THAT(small.update(1, 1.0), Contains("1/3 games") && Contains("about 2 s left"));
    CHECK(small.finish(2.5) == "run: 1/3 games, 2.5 s\n");
    ProgressReport terminal("run", 100, "games", true, false);
    const std::string bar = terminal.update(25, 10.0);
    CHECK(bar.rfind("\r[", 0) == 0);
    CHECK_THAT(bar, Contains("25/100 games  10.0 s, about 30 s left"));
    // Updated every frame of a run, the bar is redrawn at most every 50 ms (and always at the end).
    CHECK(terminal.update(26, 10.02).empty());
    CHECK_THAT(terminal.update(27, 10.06), Contains("27/100 games"));
    CHECK_THAT(terminal.update(100, 10.07), Contains("100/100 games"));
    // A result's line printed meanwhile clears the bar first (elsewhere there is no bar to clear).
    CHECK(terminal.clear() == "\r\x1b[K");
    CHECK(log.clear().empty());
    CHECK(terminal.finish(40.0) == "\n");
    ProgressReport quiet("run", 100, "games", false, true);
    CHECK(quiet.update(100, 1.0).empty());
    CHECK(quiet.finish(1.0).empty());
    // simulate with its stderr not a terminal (here: a string): lines (the pool reports every
    // 100 ms: a run this short has its last one only).
    const CliResult r = run_commands(add_simulate_command, {"simulate", "--player", "drop", "--games", "4", "--max-frames", "200"});
    CHECK(r.code == 0);
    CHECK_THAT(r.err, Contains("nestris-ai simulate: 4/4 games, "));
    const CliResult q = run_commands(add_simulate_command, {"simulate", "--player", "drop", "--games", "4", "--max-frames", "200", "--quiet"});
    CHECK(q.err.empty());
}

TEST_CASE("cli: the stand-alone tools' pools report their progress from one thread, between their result lines") {
    // (check-identity, measure-lock and bench-cart run their games on the worker pool this way)
    std::mutex lines;
    Capture capture;
    {
        PoolProgress progress("tool", 4, "games", &lines);
        parallel_for(4, 2, [&](std::size_t i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(150 * (i + 1)));  // the pool reports every 100 ms
            std::lock_guard<std::mutex> lock(lines);
            std::cerr << progress.clear() << "game " << i << "\n";
        }, progress.options());
        progress.finish();
    }
    const std::string err = capture.err.str();
    INFO(err);
    CHECK_THAT(err, Contains("tool: 4/4 games, ") && Contains(" left\n") && Contains("game 3\n"));
    // Counted in units of one's own (a pool index a stripe of games): those are reported.
    Capture own;
    std::atomic<std::size_t> done{0};
    PoolProgress stripes("tool", 10, "positions");
    parallel_for(2, 2, [&](std::size_t) { done += 5; }, stripes.options(&done));
    stripes.finish();
    CHECK_THAT(own.err.str(), Contains("tool: 10/10 positions, "));
    // An empty run says nothing.
    Capture empty;
    PoolProgress none("tool", 0, "games");
    parallel_for(0, 2, [&](std::size_t) {}, none.options());
    none.finish();
    CHECK(empty.err.str().empty());
}

TEST_CASE("cli: on a full disk simulate's JSON and CSV and render's PNG are not written, and the command fails") {
    ScratchDir dir("cli_full_disk");
    CliResult json, csv, png;
    {
        const test::FileSizeLimit full_disk(64);
        json = run_commands(add_simulate_command, {"simulate", "--player", "drop", "--games", "2", "--max-frames", "200",
                                                   "--quiet", "--json", (dir / "s.json").string()});
        csv = run_commands(add_simulate_command, {"simulate", "--player", "drop", "--games", "2", "--max-frames", "200",
                                                  "--quiet", "--csv", (dir / "s.csv").string()});
        png = run_commands(add_render_command, {"render", "--seed", "1", "--png", (dir / "b.png").string()});
    }
    CHECK(json.code == 1);
    CHECK_THAT(json.err, Contains("nestris-ai simulate: error:"));
    CHECK(csv.code == 1);
    CHECK(png.code == 1);
    CHECK(dir.listing().empty());
}

TEST_CASE("cli: render and play never write onto their state or movie (path, hard or symbolic link)") {
    ScratchDir dir("cli_outputs_inputs");
    CliResult r = run_commands(add_render_command, {"render", "--seed", "1", "--save-state", (dir / "st.txt").string()});
    REQUIRE(r.code == 0);
    const std::string state = read_text_file(dir / "st.txt");
    fs::create_hard_link(dir / "st.txt", dir / "hard.txt");
    fs::create_symlink("st.txt", dir / "soft.txt");
    for (const char* option : {"--png", "--save-state"}) {
        for (const char* name : {"st.txt", "hard.txt", "soft.txt"}) {
            r = run_commands(add_render_command, {"render", "--state", (dir / "st.txt").string(), option, (dir / name).string()});
            INFO(option << " " << name << ": " << r.err);
            CHECK(r.code == 1);
            CHECK_THAT(r.err, Contains("nestris-ai render: error:") && Contains("is an input of this command"));
            CHECK(read_text_file(dir / "st.txt") == state);
        }
    }
    r = run_commands(add_render_command, {"render", "--state", (dir / "st.txt").string(), "--png", (dir / "b.png").string(),
                                          "--save-state", (dir / "b.png").string()});
    CHECK(r.code == 2);  // two outputs on one file: a usage error
    CHECK_THAT(r.err, Contains("same file"));
    // play: the movie is an input, refused before the ROM is even looked at.
    write_plain(dir / "t.nes", synthetic_rom(6));
    const std::string movie_text = "version 3\n|0|........|........||\n";
    std::ofstream(dir / "m.fm2") << movie_text;
    r = run_commands(add_play_command, {"play", (dir / "t.nes").string(), "--movie", (dir / "m.fm2").string(), "--png",
                                        (dir / "m.fm2").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("nestris-ai play: error:") && Contains("is an input of this command"));
    CHECK(read_text_file(dir / "m.fm2") == movie_text);
    CHECK(dir.listing() == std::vector<std::string>{"hard.txt", "m.fm2", "soft.txt", "st.txt", "t.nes"});
}

TEST_CASE("cli: a link loop or an over-long name is named in words, not as the library's 'filesystem error'") {
    ScratchDir dir("cli_fs_words");
    fs::create_symlink("b", dir / "a");
    fs::create_symlink("a", dir / "b");
    CliResult r = run_commands(add_render_command, {"render", "--seed", "1", "--frames-dir", (dir / "a").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("nestris-ai render: error:") && Contains("link") && !Contains("filesystem error"));
    r = run_commands(add_render_command,
                     {"render", "--seed", "1", "--frames-dir", (dir / std::string(300, 'x') / "f").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("too long") && !Contains("filesystem error"));
    r = run_commands(add_render_command, {"render", "--seed", "1", "--png", (dir / "a").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("cannot write") && !Contains("filesystem error"));
    CHECK(dir.listing() == std::vector<std::string>{"a", "b"});
}
