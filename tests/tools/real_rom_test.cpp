// Tests on the genuine game: they run only where the user has it (TETRIS_ROM=/path/to/tetris.nes,
// and TETRIS_PAL_ROM for Tetris (Europe)); otherwise they print SKIPPED and ctest says so.
#include "ai-reference/model/game_model.hpp"
#include "base/checksums.hpp"
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "emu-test/debug/fm2.hpp"
#include "emu-test/image.hpp"
#include "emu-test/input.hpp"
#include "emu-test/nes.hpp"
#include "game/tetris_map.hpp"
#include "patcher/bps.hpp"
#include "patcher/ips.hpp"
#include "patcher/patch.hpp"
#include "patcher/release_record.hpp"
#include "tests/patcher/support.hpp"
#include "tests/support/game_rom.hpp"
#include "tests/support/run_cli.hpp"
#include "tools/cli/patcher_commands.hpp"
#include "tools/cli/play_command.hpp"
#include "tools/harness/cart_ai.hpp"
#include "tools/harness/game_harness.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unordered_set>

using namespace nestris;
using namespace nestris::test;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
namespace fs = std::filesystem;

namespace {

std::optional<std::vector<uint8_t>> pal_rom_or_skip() {
    const char* path = std::getenv("TETRIS_PAL_ROM");
    if (!path || !*path) {
        std::cout << "SKIPPED: set TETRIS_PAL_ROM=/path/to/tetris-europe.nes (Tetris (Europe)) to run this test\n";
        return std::nullopt;
    }
    try {
        return read_file(path);
    } catch (const FileError& e) {
        std::cout << "SKIPPED: TETRIS_PAL_ROM: " << e.what() << "\n";
        return std::nullopt;
    }
}

IdentifyContext this_build() { return this_build_context(); }

int run_cli(const std::vector<std::string>& args, std::string& out) {
    CLI::App app{"nestris-ai (test)", "nestris-ai"};
    add_patcher_commands(app);
    std::vector<const char*> argv = {"nestris-ai"};
    for (const std::string& a : args) argv.push_back(a.c_str());
    std::ostringstream text;
    std::streambuf* old = std::cout.rdbuf(text.rdbuf());
    const int code = run_program(app, static_cast<int>(argv.size()), argv.data());
    std::cout.rdbuf(old);
    out = text.str();
    return code;
}

void write_plain(const fs::path& p, const std::vector<uint8_t>& bytes) {
    std::ofstream o(p, std::ios::binary);
    o.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// `play` as a player runs it: on the user's ROM saved as a file of theirs (tetris.nes in `dir`),
// with `options` after its path.
CliResult play_rom(const ScratchDir& dir, const std::vector<uint8_t>& rom, std::vector<std::string> options) {
    write_plain(dir / "tetris.nes", rom);
    options.insert(options.begin(), {"play", (dir / "tetris.nes").string()});
    return run_commands(add_play_command, options);
}

}  // namespace

TEST_CASE("real game: Tetris (USA) is identified, with or without its header") {
    const auto rom = tetris_rom_or_skip();
    if (!rom) return;
    const RomIdentity id = identify_rom(*rom, this_build());
    REQUIRE(id.kind == RomKind::Original);
    CHECK(id.file_crc32 == 0x6D72C53A);
    CHECK(id.payload_crc32 == 0x1394F57E);
    // The header written from the iNES fields is the dump's own.
    const auto header = encode_ines(tetris_usa_header());
    CHECK(std::equal(header.begin(), header.end(), rom->begin()));
    const std::vector<uint8_t> headerless(rom->begin() + 16, rom->end());
    CHECK(identify_rom(headerless, this_build()).kind == RomKind::Headerless);
    auto diskdude = *rom;
    const char junk[] = "DiskDude!";
    std::copy(junk, junk + 9, diskdude.begin() + 7);
    CHECK(identify_rom(diskdude, this_build()).kind == RomKind::OriginalReheader);
}

TEST_CASE("real game: patching gives one result from every form of the dump, and it checks out") {
    const auto rom = tetris_rom_or_skip();
    if (!rom) return;
    const CartImage& cart = shipped_cart();
    const PatchedRom p = patch_rom(*rom, cart);
    CHECK(p.original == *rom);
    CHECK(patch_rom(std::vector<uint8_t>(rom->begin() + 16, rom->end()), cart).bytes == p.bytes);
    const RomIdentity result = identify_rom(p.bytes, this_build());
    REQUIRE(result.kind == RomKind::Patched);
    CHECK(result.signature->this_build);
    CHECK(result.signature->cpu_address == cart.require("nestris_signature"));
    // Code goes into PRG only, never into the graphics (CHR); of the header, flags 6 alone (the
    // battery bit: PRG-RAM declared).
    for (const IpsRecord& r : p.patch.records) {
        if (r.offset < 16) {
            CHECK(r.offset == kInesFlags6Offset);
            CHECK(r.length == 1);
            continue;
        }
        CHECK(r.end() <= 16 + 32768);
    }
    CHECK(p.bytes[kInesFlags6Offset] == (rom->at(kInesFlags6Offset) | kInesFlags6Battery));
    REQUIRE_THROWS_WITH(patch_rom(p.bytes, cart), Contains("already patched"));
}

TEST_CASE("real game: the patch command writes next to the input, in place, and verify agrees") {
    const auto rom = tetris_rom_or_skip();
    if (!rom) return;
    ScratchDir dir("real_cli");
    write_plain(dir / "tetris.nes", *rom);
    std::string out;
    REQUIRE(run_cli({"patch", (dir / "tetris.nes").string()}, out) == 0);
    const auto patched = read_file(dir / "tetris-nestris-ai.nes");
    CHECK_THAT(out, Contains("SHA-1 " + sha1_hex(patched)));
    CHECK(read_file(dir / "tetris.nes") == *rom);
    CHECK(dir.listing() == std::vector<std::string>{"tetris-nestris-ai.nes", "tetris.nes"});
    REQUIRE(run_cli({"verify", (dir / "tetris-nestris-ai.nes").string(), "--original", (dir / "tetris.nes").string()},
                    out) == 0);
    CHECK_THAT(out, Contains("every other byte equals"));
    // An output directory that cannot be written: an error, and nothing anywhere.
    CHECK(run_cli({"patch", (dir / "tetris.nes").string(), "-o", (dir / "missing" / "t.nes").string()}, out) == 1);
    CHECK(run_cli({"patch", (dir / "tetris.nes").string(), "-o", "/proc/nestris-ai-test.nes"}, out) == 1);
    CHECK_FALSE(fs::exists("/proc/nestris-ai-test.nes"));
    CHECK(dir.listing() == std::vector<std::string>{"tetris-nestris-ai.nes", "tetris.nes"});
    write_plain(dir / "copy.nes", std::vector<uint8_t>(rom->begin() + 16, rom->end()));
    REQUIRE(run_cli({"patch", (dir / "copy.nes").string(), "--in-place"}, out) == 0);
    CHECK(read_file(dir / "copy.nes") == patched);
    // --in-place through a symbolic link patches the file it points to; the link stays.
    write_plain(dir / "real.nes", *rom);
    fs::create_symlink("real.nes", dir / "link.nes");
    REQUIRE(run_cli({"patch", (dir / "link.nes").string(), "--in-place"}, out) == 0);
    CHECK(fs::is_symlink(dir / "link.nes"));
    CHECK(read_file(dir / "real.nes") == patched);
    // A read-only ROM is not replaced by --in-place.
    write_plain(dir / "ro.nes", *rom);
    fs::permissions(dir / "ro.nes", fs::perms(0444));
    CHECK(run_cli({"patch", (dir / "ro.nes").string(), "--in-place"}, out) == 1);
    CHECK(read_file(dir / "ro.nes") == *rom);
}

TEST_CASE("real game: Tetris (Europe) is recognised and refused") {
    const auto pal = pal_rom_or_skip();
    if (!pal) return;
    const RomIdentity id = identify_rom(*pal, this_build());
    REQUIRE(id.kind == RomKind::Refused);
    CHECK(id.game->name == "Tetris (Europe)");
    CHECK(id.file_crc32 == id.game->file_crc32);
    CHECK(id.payload_crc32 == id.game->payload_crc32);
    CHECK(id.payload_sha1 == id.game->payload_sha1);
    CHECK(identify_rom(std::vector<uint8_t>(pal->begin() + 16, pal->end()), this_build()).kind == RomKind::Refused);
    REQUIRE_THROWS_WITH(patch_rom(*pal, shipped_cart()), Contains("PAL"));
}

TEST_CASE("real game: play's summary says in plain words what ran, and counts AI play's lag apart") {
    const auto rom = tetris_rom_or_skip();
    if (!rom) return;
    ScratchDir dir("real_play");
    const CliResult r = play_rom(dir, *rom, {"--frames", "1200"});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Contains("at the end: a game, the AI playing, level 19"));
    CHECK_THAT(r.out, Contains("frames in which the game's main loop did not run:") && Contains("the game's own"));
    // (title wait 0's seed; title waits 1-3 share the next one, $69FB)
    CHECK_THAT(r.out, Contains("the RNG's seed at the run's start: $ECA3 "));
    CHECK_THAT(r.out, Contains("0 lag frames in them (frames whose main loop never ran), at most 0 in a row"));
    CHECK(r.err.empty());  // a short run: no progress
    const CliResult b = play_rom(dir, *rom, {"--b-type", "--level", "9", "--height", "0", "--frames", "600"});
    REQUIRE(b.code == 0);
    CHECK_THAT(b.out, Contains("lines left"));
}

// --to-the-end: the run stops in the frame the curtain falls (a hate-mode game from level 19 tops
// out within a few thousand frames), its summary the frames run and the state at the top-out.
TEST_CASE("real game: play --to-the-end stops at the game's curtain and says the frames it ran") {
    const auto rom = tetris_rom_or_skip();
    if (!rom) return;
    ScratchDir dir("real_play_to_the_end");
    const CliResult r = play_rom(dir, *rom, {"--hate", "--to-the-end", "--frames", "100000"});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Contains("1 top-out\n"));
    CHECK_THAT(r.out, Contains("at the end: a game, the AI playing, level 19"));
    const std::size_t at = r.out.find(" for ");
    REQUIRE(at != std::string::npos);
    const unsigned long frames = std::stoul(r.out.substr(at + 5));
    CHECK(frames > 600);
    CHECK(frames < 100000);
    const CliResult whole = play_rom(dir, *rom, {"--hate", "--frames", std::to_string(frames + 100)});
    CHECK_THAT(whole.out, Contains("1 top-out\n"));  // the same game, to the same curtain, then on
    CHECK_THAT(whole.out, Contains("for " + std::to_string(frames + 100) + " frames"));
}

TEST_CASE("real game: a long play run reports its progress on stderr, a line a tenth with the time left, stdout as before") {
    const auto rom = tetris_rom_or_skip();
    if (!rom) return;
    ScratchDir dir("real_play_progress");
    // 18 000 frames (5 minutes of the game, some 3 s here): the shortest run that reports. Its
    // stderr here is a string, not a terminal: lines.
    const CliResult r = play_rom(dir, *rom, {"--frames", "18000"});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.err, StartsWith("nestris-ai play: 1800/18000 frames, ") && Contains(" left\n") &&
                          Contains("\nnestris-ai play: 18000/18000 frames, "));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 10);
    CHECK_THAT(r.out, StartsWith("played an AI A-Type game from level 19 for 18000 frames (299.5 s); at the end: "));
    CHECK_THAT(r.out, !Contains("nestris-ai play:") && !Contains("/18000 frames"));
}

// The score's six digits on the screen: the game's font has the digits 0-9 as tiles $00-$09, so
// the nametable holds them as a run of six tiles somewhere in the status area.
bool nametable_shows(const emu::Nes& nes, uint32_t score) {
    std::array<uint8_t, 6> digits{};
    for (int i = 5; i >= 0; --i, score /= 10) digits[static_cast<size_t>(i)] = static_cast<uint8_t>(score % 10);
    const emu::VideoMap map = nes.video_map();
    for (uint16_t at = 0x2000; at + 6 <= 0x23C0; ++at) {
        bool same = true;
        for (uint16_t i = 0; i < 6 && same; ++i) same = nes.ppu().vram_read(static_cast<uint16_t>(at + i), map) == digits[i];
        if (same) return true;
    }
    return false;
}

TEST_CASE("real game: play's screenshot shows the state it prints (the game draws a frame's state in the next)") {
    const auto rom = tetris_rom_or_skip();
    if (!rom) return;
    emu::Nes nes(patch_rom(*rom, shipped_cart()).bytes);
    nes.run_input(game::menu_walk_input({19, false, 0, true, 0}));
    nes.set_buttons(0);
    const auto score = [&] { return bcd_to_int(nes.ram().data() + tetris::score, 3); };
    // The first frame that changes the score: its state is not on the screen displayed in it yet.
    uint32_t before = score();
    for (int f = 0; f < 20000 && score() == before; ++f) {
        before = score();
        nes.run_frame();
    }
    REQUIRE(score() != before);
    CHECK(nametable_shows(nes, before));  // what nes.screenshot() would show: the frame before
    const emu::NesState now = nes.snapshot();
    const emu::Image picture = screen_of_state(nes);
    CHECK(nes.snapshot() == now);  // the run goes on untouched
    nes.run_frame();
    CHECK(nametable_shows(nes, bcd_to_int(now.ram.data() + tetris::score, 3)));
    CHECK(picture.rgb == nes.screenshot().rgb);  // the picture is that of the next frame

    // --png-every names its files.
    ScratchDir dir("real_play_png");
    const CliResult r = play_rom(dir, *rom, {"--frames", "120", "--png", (dir / "g.png").string(), "--png-every", "60"});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Contains("2 files, " + (dir / "g-000060.png").string() + " to " + (dir / "g-000120.png").string()));
    CHECK_THAT(r.out, Contains("screenshot: " + (dir / "g.png").string() + ", the state above"));
    CHECK(fs::exists(dir / "g-000060.png"));
}

TEST_CASE("real game: apply-ips refuses a nestris-ai patch on a headerless dump (16 bytes off) unless --force") {
    const auto rom = tetris_rom_or_skip();
    if (!rom) return;
    ScratchDir dir("real_apply_ips");
    write_plain(dir / "headerless.nes", std::vector<uint8_t>(rom->begin() + 16, rom->end()));
    write_plain(dir / "tetris.nes", *rom);
    write_plain(dir / "p.ips", serialize_ips(cart_patch(shipped_cart())));
    std::string out;
    const std::string patch = (dir / "p.ips").string();
    CHECK(run_cli({"apply-ips", (dir / "headerless.nes").string(), patch, "-o", (dir / "a.nes").string()}, out) == 1);
    CHECK_FALSE(fs::exists(dir / "a.nes"));
    CHECK(run_cli({"apply-ips", (dir / "headerless.nes").string(), patch, "-o", (dir / "a.nes").string(), "--force",
                   "--allow-grow"}, out) == 0);
    CHECK(run_cli({"apply-ips", (dir / "tetris.nes").string(), patch, "-o", (dir / "b.nes").string()}, out) == 0);
    CHECK(read_file(dir / "b.nes") == patch_rom(*rom, shipped_cart()).bytes);
    // The error line says why and what to do.
    std::ostringstream err;
    std::streambuf* old = std::cerr.rdbuf(err.rdbuf());
    run_cli({"apply-ips", (dir / "headerless.nes").string(), patch, "-o", (dir / "a2.nes").string()}, out);
    std::cerr.rdbuf(old);
    CHECK_THAT(err.str(), Contains("nestris-ai apply-ips: error:") && Contains("16 bytes off") &&
                              Contains("nestris-ai patch") && Contains("--force"));
}

TEST_CASE("real game: play --movie: an FCEUX movie of the original game plays the same game on the patch") {
    const auto rom = tetris_rom_or_skip();
    if (!rom) return;
    ScratchDir dir("real_play_movie");
    // The movie is a human game (menus, an A-Type game from level 5, to top-out); FCEUX 2.6.5 ends
    // it with 15 lines and 4 475 points on the original (tests/fixtures/fceux, emu-test/README.md).
    const std::string movie = (fs::path(NESTRIS_SOURCE_DIR) / "tests/fixtures/fceux/tetris_game.fm2").string();
    const CliResult r = play_rom(dir, *rom, {"--movie", movie, "--power-on", "fceux", "--frames", "1"});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Contains("romChecksum matches this ROM"));
    CHECK_THAT(r.out, Contains("the AI off, level 5, 15 lines, score 4475"));
}

TEST_CASE("real game: the release in dist/ makes the ROM its record names, by IPS, by BPS and by patch") {
    const auto rom = tetris_rom_or_skip();
    if (!rom) return;
    const fs::path dist = fs::path(NESTRIS_SOURCE_DIR) / "dist";
    const ReleaseRecord record = parse_release_record(read_text_file(dist / "release.txt"));
    const PatchedRom patched = patch_rom(*rom, shipped_cart());
    CHECK(sha1_hex(patched.bytes) == record.patched_sha1);
    CHECK(crc32_of(patched.bytes) == record.patched_crc32);
    CHECK(apply_bps(*rom, read_file(dist / "nestris-ai.bps")) == patched.bytes);
    CHECK(apply_ips(*rom, parse_ips(read_file(dist / "nestris-ai.ips"))) == patched.bytes);
    // The BPS refuses the headerless dump (it checks its source), and says how to go on.
    const std::vector<uint8_t> headerless(rom->begin() + 16, rom->end());
    CHECK_THROWS_WITH(apply_bps(headerless, read_file(dist / "nestris-ai.bps")), Contains("this patch is for a file of"));
}

// A window of 8 bytes that carries nothing of the game even when the game has it too: at most
// four distinct values (runs of zeros, masks such as 00 00 00 01 02 04), or counting by one
// step (0, 1, 2, ...).
bool window_without_information(const uint8_t* w) {
    const std::unordered_set<uint8_t> values(w, w + 8);
    if (values.size() <= 4) return true;
    for (int i = 1; i < 7; ++i)
        if (static_cast<uint8_t>(w[i + 1] - w[i]) != static_cast<uint8_t>(w[1] - w[0])) return false;
    return true;
}

TEST_CASE("real game: the release patches hold our bytes only (no 8 bytes of the game in them)") {
    const auto rom = tetris_rom_or_skip();
    if (!rom) return;
    const auto window = [](const uint8_t* p) {
        uint64_t v = 0;
        for (int i = 0; i < 8; ++i) v = v << 8 | p[i];
        return v;
    };
    std::unordered_set<uint64_t> game;
    for (size_t i = 0; i + 8 <= rom->size(); ++i) game.insert(window(rom->data() + i));
    const fs::path dist = fs::path(NESTRIS_SOURCE_DIR) / "dist";
    for (const char* name : {"nestris-ai.ips", "nestris-ai.bps"}) {
        const std::vector<uint8_t> patch = read_file(dist / name);
        std::vector<std::string> copied;
        for (size_t i = 0; i + 8 <= patch.size(); ++i)
            if (game.count(window(patch.data() + i)) && !window_without_information(patch.data() + i))
                copied.push_back("at byte " + std::to_string(i));
        INFO(name);
        CHECK(copied == std::vector<std::string>{});
    }
}

TEST_CASE("real game: the game's tables the AI reads are the ones the harnesses give it") {
    const auto rom = tetris_rom_or_skip();
    if (!rom) return;
    for (const tools::GameTable& table : tools::game_tables_read_by_ai()) {
        const size_t at = prg_file_offset(table.address);
        REQUIRE(at + table.bytes.size() <= rom->size());
        CHECK(std::vector<uint8_t>(rom->begin() + static_cast<long>(at),
                                   rom->begin() + static_cast<long>(at + table.bytes.size())) == table.bytes);
    }
}

TEST_CASE("real game: play --write-movie: the movie of an AI game holds the menu walk only, and replays the game") {
    const auto rom = tetris_rom_or_skip();
    if (!rom) return;
    ScratchDir dir("real_write_movie");
    write_plain(dir / "tetris.nes", *rom);
    const std::vector<uint8_t> patched = patch_rom(*rom, shipped_cart()).bytes;
    write_plain(dir / "tetris-nestris-ai.nes", patched);
    constexpr uint64_t kFrames = 20000;
    const std::string movie = (dir / "m.fm2").string();
    const CliResult w = run_commands(add_play_command, {"play", (dir / "tetris.nes").string(), "--title-wait", "2", "--power-on",
                                                        "fceux", "--frames", std::to_string(kFrames), "--write-movie", movie,
                                                        "--png", (dir / "w.png").string()});
    INFO(w.out << w.err);
    REQUIRE(w.code == 0);
    // "level L, N lines, score S": what the run printed at its end, and what the replay must print.
    const auto state = [](const std::string& out) {
        const size_t at = out.find("at the end: ");
        const size_t end = out.find(", score ", at);
        REQUIRE(at != std::string::npos);
        REQUIRE(end != std::string::npos);
        return out.substr(at, out.find(',', end + 8) - at);
    };
    const std::string written_state = state(w.out);
    CHECK_THAT(written_state, Contains("a game, the AI playing"));

    // The pad as the player held it: the menu walk, then nothing, though the AI moved every piece.
    const std::vector<uint8_t> walk = emu::parse_input(game::menu_walk_input({19, false, 0, true, 2}));
    const emu::Fm2Movie m = emu::parse_fm2(read_text_file(movie));
    REQUIRE(m.frames.size() == walk.size() + kFrames);
    for (size_t i = 0; i < m.frames.size(); ++i) {
        INFO("frame " << i + 1);
        REQUIRE(m.frames[i] == emu::Fm2Frame{0, i < walk.size() ? walk[i] : uint8_t{0}});
    }
    CHECK(m.rom_filename == "tetris-nestris-ai");
    REQUIRE(m.rom_md5);
    CHECK(*m.rom_md5 == emu::fceux_rom_md5(*emu::parse_ines(patched)));  // the patched ROM's, as FCEUX checks it
    CHECK_THAT(w.out, Contains("movie: " + movie + ", " + std::to_string(m.frames.size()) +
                               " frames from FCEUX's power-on, the state above its last: the run's frame N is its frame " +
                               std::to_string(walk.size()) + "+N"));

    // play --movie on the patched ROM: the same game, the same state after the movie's last frame.
    const CliResult r = run_commands(add_play_command, {"play", (dir / "tetris-nestris-ai.nes").string(), "--movie", movie,
                                                        "--power-on", "fceux", "--frames", "0", "--png", (dir / "r.png").string()});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Contains("romChecksum matches this ROM"));
    CHECK(state(r.out) == written_state);
    // The screen too (the falling piece's place, the next piece, the statistics): a frame apart,
    // they would differ.
    CHECK(read_file(dir / "r.png") == read_file(dir / "w.png"));

    // The whole RAM: the movie played frame by frame as FCEUX plays it (run_fm2_frame, then the line
    // to the vblank) against the run as play makes it. Without play's first line from FCEUX's
    // power-on, its frames would be a frame off FCEUX's, and the games apart.
    const auto played = [&](bool first_line) {
        emu::Nes nes(patched);
        nes.power_on(emu::PowerOn::Fceux);
        if (first_line) nes.run_frame();
        REQUIRE(nes.run_frames(walk) == emu::RunStatus::Reached);
        REQUIRE(nes.run_frames(kFrames, 0) == emu::RunStatus::Reached);
        return std::vector<uint8_t>(nes.ram().begin(), nes.ram().end());
    };
    emu::Nes replay(patched);
    emu::fm2_power_on(replay, m, emu::PowerOn::Fceux);
    for (size_t i = 0; i < m.frames.size(); ++i) REQUIRE(emu::run_fm2_frame(replay, m, i) == emu::RunStatus::Reached);
    replay.set_buttons(0);
    replay.run_frame();
    CHECK(lines_made(replay.read_ram(tetris::lines), replay.read_ram(tetris::lines + 1)) >= 100);  // the AI played
    const std::vector<uint8_t> replayed(replay.ram().begin(), replay.ram().end());
    CHECK(replayed == played(true));
    CHECK(replayed != played(false));
}
