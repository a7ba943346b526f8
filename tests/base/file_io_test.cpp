#include "base/file_io.hpp"
#include "base/command_runner.hpp"
#include "tests/patcher/support.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <limits.h>

#include <algorithm>
#include <fstream>

using namespace nestris;
using namespace nestris::test;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

void write_plain(const fs::path& p, const std::vector<uint8_t>& bytes) {
    std::ofstream out(p, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

mode_t mode_of(const fs::path& p) {
    struct stat st {};
    REQUIRE(::stat(p.c_str(), &st) == 0);
    return st.st_mode & 07777;
}

}  // namespace

TEST_CASE("an atomic write publishes exactly the bytes, checked as read back") {
    ScratchDir dir("atomic_ok");
    const std::vector<uint8_t> bytes = {1, 2, 3, 4, 5};
    std::vector<uint8_t> seen;
    write_file_atomically(dir / "out.bin", bytes, [&](std::span<const uint8_t> on_disk) {
        seen.assign(on_disk.begin(), on_disk.end());
    });
    CHECK(seen == bytes);
    CHECK(read_file(dir / "out.bin") == bytes);
    CHECK(mode_of(dir / "out.bin") == 0644);
    CHECK(dir.listing() == std::vector<std::string>{"out.bin"});
}

TEST_CASE("an atomic write replaces an existing file and keeps its mode") {
    ScratchDir dir("atomic_replace");
    write_plain(dir / "out.bin", {9, 9});
    fs::permissions(dir / "out.bin", fs::perms(0600));
    write_file_atomically(dir / "out.bin", std::vector<uint8_t>{7});
    CHECK(read_file(dir / "out.bin") == std::vector<uint8_t>{7});
    CHECK(mode_of(dir / "out.bin") == 0600);
}

TEST_CASE("a failing check leaves no file, no temporary file, and the old file untouched") {
    ScratchDir dir("atomic_fail");
    auto failing = [](std::span<const uint8_t>) { throw std::runtime_error("check failed on purpose"); };
    REQUIRE_THROWS_WITH(write_file_atomically(dir / "new.bin", std::vector<uint8_t>{1, 2}, failing),
                        "check failed on purpose");
    CHECK(dir.listing().empty());
    write_plain(dir / "old.bin", {5, 5, 5});
    REQUIRE_THROWS(write_file_atomically(dir / "old.bin", std::vector<uint8_t>{1, 2}, failing));
    CHECK(read_file(dir / "old.bin") == std::vector<uint8_t>{5, 5, 5});
    CHECK(dir.listing() == std::vector<std::string>{"old.bin"});
}

TEST_CASE("an unwritable destination is an error and nothing is written") {
    ScratchDir dir("atomic_unwritable");
    const std::vector<uint8_t> bytes = {1};
    REQUIRE_THROWS_WITH(write_file_atomically(dir / "missing" / "out.bin", bytes), Contains("no directory"));
    write_plain(dir / "file", {0});
    REQUIRE_THROWS_AS(write_file_atomically(dir / "file" / "out.bin", bytes), FileError);
    fs::create_directory(dir / "adir");
    REQUIRE_THROWS_WITH(write_file_atomically(dir / "adir", bytes), Contains("it is a directory"));
    CHECK(dir.listing() == std::vector<std::string>{"adir", "file"});
    // /proc takes no new files, even from root.
    REQUIRE_THROWS_WITH(write_file_atomically("/proc/nestris-ai-test.nes", bytes), Contains("cannot create a file in"));
    CHECK_FALSE(fs::exists("/proc/nestris-ai-test.nes"));
    // A read-only directory stops everyone but root.
    fs::create_directory(dir / "ro");
    fs::permissions(dir / "ro", fs::perms(0555));
    if (::geteuid() != 0) {
        REQUIRE_THROWS_WITH(write_file_atomically(dir / "ro" / "out.bin", bytes), Contains("Permission denied"));
        CHECK(fs::is_empty(dir / "ro"));
    }
}

TEST_CASE("reading refuses what is not a readable regular file of sane size") {
    ScratchDir dir("read");
    REQUIRE_THROWS_WITH(read_file(dir / "nope"), Contains("no such file"));
    REQUIRE_THROWS_WITH(read_file(dir.path()), Contains("it is a directory"));
    write_plain(dir / "big", std::vector<uint8_t>(100));
    REQUIRE_THROWS_WITH(read_file(dir / "big", 99), Contains("100 bytes, more than the 99"));
    CHECK(read_file(dir / "big", 100).size() == 100);
    write_plain(dir / "empty", {});
    CHECK(read_file(dir / "empty").empty());
}

TEST_CASE("reading checks the kind of file before opening it: a FIFO or a device is refused, never waited on") {
    ScratchDir dir("read_kinds");
    REQUIRE(::mkfifo((dir / "fifo").c_str(), 0644) == 0);
    REQUIRE_THROWS_WITH(read_file(dir / "fifo"), Contains("not a regular file"));
    REQUIRE_THROWS_WITH(read_file("/dev/zero"), Contains("not a regular file"));
    REQUIRE_THROWS_WITH(read_text_file("/dev/null"), Contains("not a regular file"));
    write_plain(dir / "text", {'h', 'i'});
    CHECK(read_text_file(dir / "text") == "hi");
    REQUIRE_THROWS_WITH(read_text_file(dir / "text", 1), Contains("2 bytes, more than the 1"));
}

TEST_CASE("an atomic write never replaces a device, a FIFO, a read-only file or an input") {
    ScratchDir dir("write_kinds");
    const std::vector<uint8_t> bytes = {7, 8, 9};
    REQUIRE(::mkfifo((dir / "fifo").c_str(), 0644) == 0);
    REQUIRE_THROWS_WITH(write_file_atomically(dir / "fifo", bytes), Contains("not a regular file"));
    CHECK(fs::is_fifo(dir / "fifo"));
    REQUIRE_THROWS_WITH(write_file_atomically("/dev/null", bytes), Contains("not a regular file"));
    CHECK(fs::is_character_file("/dev/null"));
    write_plain(dir / "ro.nes", {1});
    fs::permissions(dir / "ro.nes", fs::perms(0444));
    REQUIRE_THROWS_WITH(write_file_atomically(dir / "ro.nes", bytes), Contains("read-only"));
    CHECK(read_file(dir / "ro.nes") == std::vector<uint8_t>{1});
    write_plain(dir / "in.ips", {2});
    const std::vector<fs::path> inputs = {dir / "in.ips"};
    REQUIRE_THROWS_WITH(write_text_atomically(dir / "." / "in.ips", "x", inputs), Contains("is an input of this command"));
    CHECK(read_file(dir / "in.ips") == std::vector<uint8_t>{2});
    CHECK(dir.listing() == std::vector<std::string>{"fifo", "in.ips", "ro.nes"});
}

TEST_CASE("an atomic write through a symbolic link replaces the file it points to and keeps the link") {
    ScratchDir dir("write_link");
    write_plain(dir / "real.nes", {1, 2});
    fs::create_symlink("real.nes", dir / "link.nes");
    write_file_atomically(dir / "link.nes", std::vector<uint8_t>{3, 4, 5});
    CHECK(fs::is_symlink(dir / "link.nes"));
    CHECK(read_file(dir / "real.nes") == std::vector<uint8_t>{3, 4, 5});
    CHECK(dir.listing() == std::vector<std::string>{"link.nes", "real.nes"});
}

TEST_CASE("an atomic write through a link to a file not there yet creates that file, check_output refuses early") {
    ScratchDir dir("write_dangling");
    fs::create_symlink("new.txt", dir / "link.txt");  // dangling: new.txt is still to be written
    CHECK(same_file(dir / "link.txt", dir / "new.txt"));
    const std::vector<fs::path> inputs = {dir / "new.txt"};
    REQUIRE_THROWS_WITH(check_output(dir / "link.txt", inputs), Contains("is an input"));
    CHECK(check_output(dir / "link.txt") == fs::weakly_canonical(dir / "new.txt"));
    write_text_atomically(dir / "link.txt", "x");
    CHECK(fs::is_symlink(dir / "link.txt"));
    CHECK(read_text_file(dir / "new.txt") == "x");
    REQUIRE(::mkfifo((dir / "fifo").c_str(), 0644) == 0);
    REQUIRE_THROWS_WITH(check_output(dir / "fifo"), Contains("not a regular file"));
    REQUIRE_THROWS_WITH(check_output(dir / "no" / "file"), Contains("no directory"));
    CHECK(dir.listing() == std::vector<std::string>{"fifo", "link.txt", "new.txt"});
}

TEST_CASE("while a command runs, no output is written onto a file it read (path, hard or symbolic link)") {
    ScratchDir dir("command_inputs");
    write_plain(dir / "state.txt", {'s'});
    fs::create_hard_link(dir / "state.txt", dir / "hard.txt");
    fs::create_symlink("state.txt", dir / "soft.txt");
    {
        const CommandInputs command;
        CHECK(read_text_file(dir / "state.txt") == "s");
        for (const char* name : {"state.txt", "hard.txt", "soft.txt"})
            REQUIRE_THROWS_WITH(write_text_atomically(dir / name, "x"), Contains("is an input of this command"));
        // A named input not read yet (a label file nothing looked up) is one too.
        note_input(dir / "labels.txt");
        REQUIRE_THROWS_WITH(write_text_atomically(dir / "labels.txt", "x"), Contains("is an input"));
        write_text_atomically(dir / "other.txt", "x");  // not an input: written
        // Replaced on purpose (patch --in-place, the tuner's state): allowed.
        replaces_input(dir / "state.txt");
        write_text_atomically(dir / "state.txt", "t");
    }
    CHECK(read_text_file(dir / "state.txt") == "t");
    // Outside a command nothing is recorded.
    CHECK(read_text_file(dir / "other.txt") == "x");
    write_text_atomically(dir / "other.txt", "y");
    CHECK(dir.listing() == std::vector<std::string>{"hard.txt", "other.txt", "soft.txt", "state.txt"});
}

TEST_CASE("a file name of up to 255 bytes is written: the temporary name is cut to fit") {
    ScratchDir dir("long_names");
    for (const size_t length : {200, 248, 250, 255}) {
        const std::string name(length, 'n');
        write_text_atomically(dir / name, "x");
        CHECK(read_text_file(dir / name) == "x");
        CHECK(temporary_name(dir / name).size() <= NAME_MAX);
    }
    CHECK(temporary_name(dir / "short.nes") == ".short.nes.XXXXXX");
    // Cut at a character, not inside one: 'é' is two bytes.
    std::string accents;
    while (accents.size() < 255) accents += "\xC3\xA9";
    accents.resize(254);
    const std::string temp = temporary_name(dir / accents);
    CHECK(temp.size() <= NAME_MAX);
    CHECK(temp.substr(temp.size() - 9, 2) == "\xC3\xA9");
    write_text_atomically(dir / accents, "y");
    CHECK(read_text_file(dir / accents) == "y");
    CHECK(dir.listing().size() == 5);
}

TEST_CASE("an output written in pieces is published whole at commit, and is nowhere before") {
    ScratchDir dir("output_file");
    write_plain(dir / "out.txt", {'o', 'l', 'd'});
    {
        OutputFile out(dir / "out.txt");
        for (int i = 0; i < 100'000; ++i) out.write("line " + std::to_string(i) + "\n");
        CHECK(read_text_file(dir / "out.txt") == "old");  // not published yet
        CHECK(dir.listing().size() == 2);                  // the temporary file
        out.commit();
    }
    const std::string text = read_text_file(dir / "out.txt");
    CHECK(text.substr(0, 14) == "line 0\nline 1\n");
    CHECK(std::count(text.begin(), text.end(), '\n') == 100'000);
    {
        OutputFile out(dir / "out.txt");
        out.write("never published");
    }  // destroyed without commit: an error, an exception
    CHECK(read_text_file(dir / "out.txt") == text);
    CHECK(dir.listing() == std::vector<std::string>{"out.txt"});
}

TEST_CASE("remove_temporary_files (the signal handler's) removes the live temporary files, and only those") {
    ScratchDir dir("temp_registry");
    OutputFile a(dir / "a.txt"), b(dir / "b.txt");
    a.write("a");
    CHECK(dir.listing().size() == 2);
    remove_temporary_files();
    CHECK(dir.listing().empty());
    write_plain(dir / "keep.txt", {'k'});
    remove_temporary_files();
    CHECK(dir.listing() == std::vector<std::string>{"keep.txt"});
}

TEST_CASE("a symbolic link loop or an over-long name as output is refused in words, not the library's") {
    ScratchDir dir("write_loop");
    fs::create_symlink("b", dir / "a");
    fs::create_symlink("a", dir / "b");
    REQUIRE_THROWS_WITH(write_text_atomically(dir / "a", "x"), Contains("cannot write") && !Contains("filesystem error"));
    CHECK(fs::is_symlink(fs::symlink_status(dir / "a")));
    REQUIRE_THROWS_WITH(write_text_atomically(dir / std::string(300, 'x'), "x"),
                        Contains("cannot write") && !Contains("filesystem error"));
}

TEST_CASE("same_file: two spellings of one file not there yet are the same file (o.wav and ./o.wav, a and sub/../a)") {
    ScratchDir dir("same_file_spellings");
    fs::create_directory(dir / "sub");
    const fs::path before = fs::current_path();
    fs::current_path(dir.path());  // relative names, as a user types them
    const bool plain_dot = same_file("o.wav", "./o.wav");
    const bool up_again = same_file("a.png", "sub/../a.png");
    const bool others = same_file("a.png", "sub/a.png");
    std::string refusal;
    try {
        check_outputs({"o.wav", "./o.wav"});
    } catch (const UsageError& e) {  // two outputs on one file: the command line's mistake (exit 2)
        refusal = e.what();
    }
    fs::current_path(before);
    CHECK(plain_dot);
    CHECK(up_again);
    CHECK_FALSE(others);
    CHECK_THAT(refusal, Catch::Matchers::Contains("is the same file"));
}

TEST_CASE("a text line longer than the bound is refused as soon as it is read, naming the line and the bound") {
    ScratchDir dir("long_line");
    std::string text = "short\n" + std::string(100, 'x') + "\n" + std::string(101, 'y') + "\nend";
    std::ofstream(dir / "t.txt") << text;
    CHECK(read_text_file(dir / "t.txt", kMaxTextInput, 101) == text);
    REQUIRE_THROWS_WITH(read_text_file(dir / "t.txt", kMaxTextInput, 100),
                        Contains("line 3 is longer than 100 bytes"));
    // A line that spans the reader's 64 KiB pieces is counted whole; a binary read has no lines.
    std::ofstream(dir / "big.txt") << std::string(200'000, 'z');
    REQUIRE_THROWS_WITH(read_text_file(dir / "big.txt"), Contains("line 1 is longer than 65536 bytes"));
    CHECK(read_file(dir / "big.txt").size() == 200'000);
    CHECK(read_text_file(dir / "big.txt", kMaxTextInput, 200'000).size() == 200'000);
}

TEST_CASE("write_at fills in a header after the rest went out, and the read-back check covers both") {
    ScratchDir dir("write_at");
    {
        OutputFile out(dir / "o.bin");
        out.write(std::vector<uint8_t>(4, 0));  // the header, its sizes not known yet
        for (int i = 0; i < 50'000; ++i) out.write(std::vector<uint8_t>{uint8_t(i), uint8_t(i >> 8)});
        out.write_at(0, std::vector<uint8_t>{1, 2, 3, 4});
        REQUIRE_THROWS_AS(out.write_at(2, std::vector<uint8_t>{9}), std::logic_error);  // each byte once
        REQUIRE_THROWS_AS(out.write_at(out.size(), std::vector<uint8_t>{9}), std::logic_error);  // past the end
        out.commit();
    }
    const std::vector<uint8_t> bytes = read_file(dir / "o.bin", 1 << 20);
    REQUIRE(bytes.size() == 100'004);
    CHECK(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 6) == std::vector<uint8_t>{1, 2, 3, 4, 0, 0});
    CHECK(bytes.back() == uint8_t(49'999 >> 8));
    CHECK(dir.listing() == std::vector<std::string>{"o.bin"});
}

TEST_CASE("outputs committed together: when one cannot be finished, none is published") {
    ScratchDir dir("together");
    write_plain(dir / "a.txt", {'o', 'l', 'd'});
    {
        OutputFile a(dir / "a.txt"), b(dir / "b.txt");
        a.write("new a");
        b.write("new b");
        fs::create_directory(dir / "b.txt");  // b's target turned into a directory during the run
        REQUIRE_THROWS_WITH(commit_together({&a, nullptr, &b}), Contains("it is a directory"));
    }
    CHECK(read_text_file(dir / "a.txt") == "old");
    CHECK(dir.listing() == std::vector<std::string>{"a.txt", "b.txt"});
    {
        OutputFile a(dir / "a.txt"), c(dir / "c.txt");
        a.write("new a");
        c.write("new c");
        commit_together({&a, &c});
    }
    CHECK(read_text_file(dir / "a.txt") == "new a");
    CHECK(read_text_file(dir / "c.txt") == "new c");
}

TEST_CASE("PublishedFiles: a failed command's outputs published so far are removed, with the directory made for them") {
    ScratchDir dir("published");
    {
        PublishedFiles published;
        published.make_directory(dir / "new" / "deeper");
        write_text_atomically(dir / "new" / "deeper" / "game-1.png", "x");
        published.add(dir / "new" / "deeper" / "game-1.png");
    }  // destroyed without keep(): the command failed
    CHECK(dir.listing().empty());
    {
        PublishedFiles published;
        published.make_directory(dir / "kept");
        write_text_atomically(dir / "kept" / "game-1.png", "x");
        published.add(dir / "kept" / "game-1.png");
        published.keep();
    }
    CHECK(fs::exists(dir / "kept" / "game-1.png"));
}

TEST_CASE("an output series is checked against the other outputs by the number each name would have") {
    ScratchDir dir("series");
    fs::create_directory(dir / "sub");
    const OutputSeries shots{(dir / "p-").string(), ".png", 6, [](uint64_t n) { return n % 10 == 0 && n <= 40; },
                             "the screenshot of frame"};
    CHECK(shots.file(10) == dir / "p-000010.png");
    const auto refusal = [&](const fs::path& other) -> std::string {
        try {
            check_outputs(std::vector<fs::path>{dir / "p.png", other}, shots);
        } catch (const UsageError& e) {
            return e.what();
        }
        return "";
    };
    CHECK_THAT(refusal(dir / "p-000010.png"), Contains("it is the screenshot of frame 10 too"));
    CHECK_THAT(refusal(dir / "sub" / ".." / "p-000040.png"), Contains("frame 40"));
    CHECK(refusal(dir / "p-000050.png").empty());  // past the run
    CHECK(refusal(dir / "p-000015.png").empty());  // not a multiple
    CHECK(refusal(dir / "p-10.png").empty());      // another file
    CHECK(refusal(dir / "q-000010.png").empty());
}
