// FCEUX .fm2 movies: the parser (hand-written movie text), MD5, and the FCEUX power-on on a tiny
// test cartridge (no ROM needed).
#include "emu-test/debug/fm2.hpp"
#include "base/checksums.hpp"
#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "tests/emu/emu_test_support.hpp"
#include "tests/support/scratch_dir.hpp"

#include <catch2/catch.hpp>

#include <cctype>
#include <filesystem>
#include <string>

using namespace nestris::emu;

namespace {

const char* kHeader =
    "version 3\n"
    "emuVersion 20605\n"
    "rerecordCount 7\n"
    "palFlag 0\n"
    "romFilename Tetris (USA)\n"
    "romChecksum base64:AAECAwQFBgcICQoLDA0ODw==\n"
    "guid 01234567-89AB-CDEF-0123-456789ABCDEF\n"
    "fourscore 0\n"
    "microphone 0\n"
    "port0 1\n"
    "port1 1\n"
    "port2 0\n"
    "FDS 0\n"
    "NewPPU 0\n"
    "RAMInitOption 0\n"
    "RAMInitSeed 1234\n"
    "comment author nestris-ai tests\n"
    "subtitle 10 hello\n"
    "someFutureKey whatever\n";

std::string movie(const std::string& header_extra, const std::string& lines) {
    return kHeader + header_extra + lines;
}

std::string error_of(const std::string& text) {
    try {
        parse_fm2(text);
    } catch (const Fm2Error& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("fm2: header keys and input lines") {
    const Fm2Movie m = parse_fm2(movie("",
                                       "|0|........|........||\n"
                                       "|0|R......A|........||\r\n"
                                       "|1|.L.U.S..|        ||\n"
                                       "\n"
                                       "|2|..D.T.B.|........||\n"));
    CHECK(m.version == 3);
    CHECK(m.emu_version == 20605);
    CHECK(m.rerecord_count == 7);
    CHECK(m.rom_filename == "Tetris (USA)");
    REQUIRE(m.rom_md5);
    for (int i = 0; i < 16; ++i) CHECK((*m.rom_md5)[i] == i);
    CHECK(m.guid == "01234567-89AB-CDEF-0123-456789ABCDEF");
    CHECK(m.ram_init_seed == 1234);
    CHECK(m.comments == std::vector<std::string>{"author nestris-ai tests"});
    CHECK(m.subtitles == std::vector<std::string>{"10 hello"});
    REQUIRE(m.frames.size() == 4);
    CHECK(m.frames[0] == Fm2Frame{0, 0});
    CHECK(m.frames[1] == Fm2Frame{0, static_cast<uint8_t>(button::Right | button::A)});
    CHECK(m.frames[2] == Fm2Frame{fm2_command::Reset, static_cast<uint8_t>(button::Left | button::Up | button::Select)});
    CHECK(m.frames[3] == Fm2Frame{fm2_command::Power, static_cast<uint8_t>(button::Down | button::Start | button::B)});
}

TEST_CASE("fm2: port 1 empty, hex checksum, no checksum") {
    const Fm2Movie m = parse_fm2(
        "version 3\nport1 0\nromChecksum 0x000102030405060708090A0B0C0D0E0F\n|0|.......A|||\n|0|....T...|||\n");
    REQUIRE(m.rom_md5);
    CHECK((*m.rom_md5)[15] == 15);
    REQUIRE(m.frames.size() == 2);
    CHECK(m.frames[1].pad1 == button::Start);
    CHECK_FALSE(parse_fm2("version 3\n|0|........|........||\n").rom_md5);
}

TEST_CASE("fm2: what it refuses, by line number") {
    CHECK(error_of("version 2\n") .find("line 1: an FM2 movie starts with 'version 3'") == 0);
    CHECK(error_of("") .find("line 1:") == 0);
    CHECK(error_of("FCM\x1a") .find("old FCM") != std::string::npos);
    CHECK(error_of("version 3\npalFlag 1\n") == "line 2: palFlag 1: a PAL movie; this is an NTSC machine");
    CHECK(error_of("version 3\nfourscore 1\n") == "line 2: fourscore 1: the Four Score is not supported");
    CHECK(error_of("version 3\nport0 2\n").find("line 2: port0 2: a Zapper") == 0);
    CHECK(error_of("version 3\nport1 5\n").find("line 2: port1 5: not a gamepad") == 0);
    CHECK(error_of("version 3\nport2 1\n").find("line 2: port2 1") == 0);
    CHECK(error_of("version 3\nbinary 1\n|") == "line 2: binary 1: a binary FM2 movie; only text movies are supported");
    CHECK(error_of("version 3\nNewPPU 1\n").find("line 2: NewPPU 1") == 0);
    CHECK(error_of("version 3\nFDS 1\n").find("line 2: FDS 1") == 0);
    CHECK(error_of("version 3\nsavestate base64:AAAA\n").find("line 2: savestate") == 0);
    CHECK(error_of("version 3\nRAMInitOption 3\n").find("line 2: RAMInitOption 3") == 0);
    CHECK(error_of("version 3\npalFlag x\n").find("line 2: palFlag: expected a number") == 0);
    CHECK(error_of("version 3\nromChecksum base64:AAE\n").find("line 2: romChecksum") == 0);
    CHECK(error_of("version 3\nromChecksum 1234\n").find("line 2: romChecksum") == 0);
    const std::string ok = "|0|........|........||\n";
    CHECK(error_of(movie("", ok + "|0|.......X|........||\n")) ==
          "line 21: controller 1: 'X' in column 8 (expected 'A' or '.')");
    CHECK(error_of(movie("", ok + ok + "|0|.......|........||\n")).find("line 22: controller 1: expected 8 characters") == 0);
    CHECK(error_of(movie("", "|0|........|........|\n")).find("line 20: expected |commands|") == 0);
    CHECK(error_of(movie("", "|0|........|........|||\n")).find("line 20: expected |commands|") == 0);
    CHECK(error_of(movie("", "|4|........|........||\n")).find("line 20: commands 4: only soft reset") == 0);
    CHECK(error_of(movie("", "|x|........|........||\n")).find("line 20: commands: expected a number") == 0);
    CHECK(error_of(movie("", "|0|........|.......A||\n")).find("line 20: controller 2 input") == 0);
    CHECK(error_of(movie("", "|0|........|........|x|\n")).find("line 20: expansion port") == 0);
    CHECK(error_of(movie("", ok + "port0 1\n")) == "line 21: a header line after the input lines");
    CHECK(error_of("version 3\nport1 0\n|0|........|........||\n").find("line 3: controller 2: input on a port") == 0);
}

TEST_CASE("fm2: an error quotes at most 60 characters of the file, its control bytes escaped") {
    // A 1 MB field: the message stays short, and says where the quote was cut.
    const std::string field(1 << 20, '7');
    std::string e = error_of("version 3\nemuVersion " + field + "\n");
    CHECK(e.find("line 2: emuVersion: expected a number, got '" + std::string(60, '7') + "...'") == 0);
    CHECK(e.size() < 200);
    e = error_of(movie("", "|0|" + std::string(1 << 20, 'R') + "|........||\n"));
    CHECK(e.size() < 200);
    e = error_of("version " + field + "\n");
    CHECK(e.size() < 200);
    // An escape sequence (here: clear the screen, set the window title) reaches no terminal.
    e = error_of("version 3\nromChecksum \x1b[2J\x1b]0;pwned\x07\n");
    CHECK(e.find('\x1b') == std::string::npos);
    CHECK(e.find('\x07') == std::string::npos);
    CHECK(e == "line 2: romChecksum: expected base64:... or 0x... (16 bytes), got '\\x1B[2J\\x1B]0;pwned\\x07'");
    e = error_of(movie("", "|0|.......\x9b|........||\n"));
    CHECK(e == "line 20: controller 1: '\\x9B' in column 8 (expected 'A' or '.')");
}

TEST_CASE("fm2: MD5 (RFC 1321 test suite), checksum text, header and lines round-trip") {
    auto lower_hex = [](const std::array<uint8_t, 16>& d) {  // RFC 1321 prints lower case
        std::string s = nestris::hex_bytes(d);
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    auto md5s = [&](const std::string& s) {
        return lower_hex(nestris::md5(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size())));
    };
    CHECK(md5s("") == "d41d8cd98f00b204e9800998ecf8427e");
    CHECK(md5s("abc") == "900150983cd24fb0d6963f7d28e17f72");
    CHECK(md5s("message digest") == "f96b697d7cb7938d525a2f31aaf161d0");
    CHECK(md5s("12345678901234567890123456789012345678901234567890123456789012345678901234567890") ==
          "57edf4a22be3c955ac49da2e2107b67a");
    std::array<uint8_t, 16> d{};
    for (int i = 0; i < 16; ++i) d[i] = static_cast<uint8_t>(i);
    CHECK(fm2_checksum_text(d) == "base64:AAECAwQFBgcICQoLDA0ODw==");

    test::TestRom rom;
    rom.vectors(0x8000, 0x8000);
    const auto image = rom.image();
    const auto cart = parse_ines(image);
    std::string text = fm2_header(*cart, "test.nes", "made by a test");
    text += fm2_line(Fm2Frame{0, button::A});
    text += fm2_line(Fm2Frame{fm2_command::Reset, static_cast<uint8_t>(button::Right | button::Start)});
    const Fm2Movie m = parse_fm2(text);
    REQUIRE(m.rom_md5);
    CHECK(*m.rom_md5 == fceux_rom_md5(*cart));
    REQUIRE(m.frames.size() == 2);
    CHECK(m.frames[0] == Fm2Frame{0, button::A});
    CHECK(m.frames[1] == Fm2Frame{fm2_command::Reset, static_cast<uint8_t>(button::Right | button::Start)});
    CHECK(fm2_line(Fm2Frame{2, 0xFF}) == "|2|RLDUTSBA|||\n");
}

TEST_CASE("fm2: Fm2Writer's movie reads back as written: frames, buttons, commands, header") {
    test::TestRom rom;
    rom.vectors(0x8000, 0x8000);
    const auto image = rom.image();
    const auto cart = parse_ines(image);
    nestris::test::ScratchDir dir("fm2_writer");
    std::vector<Fm2Frame> frames;
    for (int i = 0; i < 1000; ++i) frames.push_back(Fm2Frame{0, static_cast<uint8_t>(i * 37)});  // every button, mixed
    frames[500].commands = fm2_command::Reset;
    {
        Fm2Writer w(dir / "m.fm2", *cart, "game-nestris-ai", "author a test");
        for (const Fm2Frame& f : frames) w.frame(f);
        CHECK(w.frames() == frames.size());
        CHECK(dir.listing().size() == 1);  // its temporary file only, until finish()
        CHECK_FALSE(std::filesystem::exists(dir / "m.fm2"));
        w.finish();
    }
    CHECK(dir.listing() == std::vector<std::string>{"m.fm2"});
    const Fm2Movie m = parse_fm2(nestris::read_text_file(dir / "m.fm2"));
    CHECK(m.frames == frames);
    CHECK(m.rom_filename == "game-nestris-ai");
    REQUIRE(m.rom_md5);
    CHECK(*m.rom_md5 == fceux_rom_md5(*cart));
    CHECK(m.port0 == 1);
    CHECK(m.port1 == 0);
    CHECK(m.ram_init_option == 0);  // FCEUX's default pattern: what PowerOn::Fceux makes
    REQUIRE(m.comments.size() == 1);
    CHECK(m.comments[0] == "author a test");
    // A GUID in FCEUX's form, one per comment: FCEUX ties a savestate to a movie by it.
    CHECK(m.guid.size() == 36);
    CHECK(m.guid[8] == '-');
    CHECK(m.guid.find_first_not_of("0123456789ABCDEF-") == std::string::npos);
    CHECK(parse_fm2(fm2_header(*cart, "game-nestris-ai", "author another test")).guid != m.guid);
    CHECK(parse_fm2(fm2_header(*cart, "game-nestris-ai", "author a test")).guid == m.guid);
    // A file name with a newline stays in its field: the movie still reads, with its frames only.
    const Fm2Movie odd = parse_fm2(fm2_header(*cart, "a\n|0|RLDUTSBA|||", "x\ny") + fm2_line(Fm2Frame{0, button::B}));
    CHECK(odd.frames == std::vector<Fm2Frame>{Fm2Frame{0, button::B}});
    CHECK(odd.rom_filename == "a_|0|RLDUTSBA|||");
}

TEST_CASE("fm2: Fm2Writer leaves nothing when it is not finished, and refuses what it cannot write") {
    test::TestRom rom;
    rom.vectors(0x8000, 0x8000);
    const auto image = rom.image();
    const auto cart = parse_ines(image);
    nestris::test::ScratchDir dir("fm2_writer_fail");
    {
        Fm2Writer w(dir / "m.fm2", *cart, "t", "c");
        w.frame(Fm2Frame{0, button::Start});
    }  // an error before finish(): the run never ended
    CHECK(dir.listing().empty());
    CHECK_THROWS_AS(Fm2Writer(dir / "no-such-dir" / "m.fm2", *cart, "t", "c"), nestris::FileError);
    std::filesystem::create_directory(dir / "d");
    CHECK_THROWS_AS(Fm2Writer(dir / "d", *cart, "t", "c"), nestris::FileError);
    CHECK(dir.listing() == std::vector<std::string>{"d"});
}

TEST_CASE("PowerOn::Fceux: RAM pattern, first instruction at line 240, two dead frames, movie frames") {
    // A program that counts vblanks seen by polling $2002 into $00, forever.
    test::TestRom rom;
    rom.put(0x8000, {0xAD, 0x02, 0x20,    // LDA $2002
                     0x10, 0xFB,          // BPL -5
                     0xE6, 0x00,          // INC $00
                     0x4C, 0x00, 0x80})   // JMP $8000
        .vectors(0x8000, 0x8000);
    const auto image = rom.image();
    Nes nes(image);
    nes.power_on(PowerOn::Fceux);
    CHECK(nes.read_ram(0) == 0x00);
    CHECK(nes.read_ram(3) == 0x00);
    CHECK(nes.read_ram(4) == 0xFF);
    CHECK(nes.read_ram(7) == 0xFF);
    CHECK(nes.read_ram(8) == 0x00);
    int line = 0, dot = 0;
    nes.ppu_position(line, dot);
    CHECK(line == 240);
    CHECK(dot == 0);
    CHECK(nes.cycles() == Nes::kFceuxFirstCycle);

    Fm2Movie m;
    m.frames.resize(6);
    const auto count_after = [&](size_t frames) {
        nes.power_on(PowerOn::Fceux);
        nes.write_ram(0, 0);
        for (size_t i = 0; i < frames; ++i) REQUIRE(run_fm2_frame(nes, m, i) == RunStatus::Reached);
        return nes.read_ram(0);
    };
    CHECK(count_after(1) == 0);  // dead
    CHECK(count_after(2) == 0);  // dead
    CHECK(count_after(3) == 1);  // FCEUX's first vblank: in its third frame
    CHECK(count_after(5) == 3);
    nes.ppu_position(line, dot);
    CHECK(line == 240);
    CHECK(dot < 12);  // the boundary falls after the instruction that crosses line 240

    // On hardware: the first vblank 241 lines after power, in the first frame.
    nes.power_on(PowerOn::Hardware);
    nes.write_ram(0, 0);
    REQUIRE(run_fm2_frame(nes, m, 0) == RunStatus::Reached);  // to line 240 of frame 0: none yet
    CHECK(nes.read_ram(0) == 0);
    REQUIRE(run_fm2_frame(nes, m, 1) == RunStatus::Reached);
    CHECK(nes.read_ram(0) == 1);

    // A reset command: two dead frames again; a power command: the RAM pattern again.
    nes.power_on(PowerOn::Fceux);
    for (size_t i = 0; i < 4; ++i) REQUIRE(run_fm2_frame(nes, m, i) == RunStatus::Reached);
    const uint8_t before = nes.read_ram(0);
    CHECK(before == 2);
    m.frames[4].commands = fm2_command::Reset;
    REQUIRE(run_fm2_frame(nes, m, 4) == RunStatus::Reached);
    REQUIRE(run_fm2_frame(nes, m, 5) == RunStatus::Reached);
    CHECK(nes.read_ram(0) == before);  // dead, dead
    m.frames.resize(8);
    REQUIRE(run_fm2_frame(nes, m, 6) == RunStatus::Reached);
    CHECK(nes.read_ram(0) == before + 1);
    nes.write_ram(5, 0x12);
    m.frames[7].commands = fm2_command::Power;
    REQUIRE(run_fm2_frame(nes, m, 7) == RunStatus::Reached);
    CHECK(nes.read_ram(5) == 0xFF);
    CHECK(nes.power_on_mode() == PowerOn::Fceux);
}
