// nestris-tune: its state file read by the shared reader, every count checked against the bytes
// there before anything is allocated; its outputs written by the shared atomic writer, never onto
// an input, each other, a FIFO or a read-only file. Run in-process as a user runs it.
#include "base/file_io.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tools/tune/tune_command.hpp"
#include "tools/tune/tune_state.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

using namespace nestris;
using namespace nestris::tools;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

std::string state_error(const std::string& text) {
    try {
        tune_state_from_text(text);
    } catch (const TuneStateError& e) {
        return e.what();
    }
    return "no error";
}

const std::string kWeights = std::string(NESTRIS_SOURCE_DIR) + "/ai-reference/weights.txt";

// nestris-tune with a quick protocol (one level-29 game, two particles, one weight) after `args`.
test::CliResult tune(std::vector<std::string> args, int iterations = 1) {
    for (const char* a : {"--protocol", "29", "--games", "1", "--particles", "2", "--threads", "1", "--vary", "hole_first"})
        args.push_back(a);
    args.push_back("--iterations");
    args.push_back(std::to_string(iterations));
    std::vector<const char*> argv = {"nestris-tune"};
    for (const std::string& a : args) argv.push_back(a.c_str());
    test::CliResult r;
    test::Capture capture;
    r.code = run_tune(static_cast<int>(argv.size()), argv.data());
    r.out = capture.out.str();
    r.err = capture.err.str();
    return r;
}

void write_text(const fs::path& p, const std::string& text) { write_text_atomically(p, text); }

}  // namespace

TEST_CASE("tune state: a state reads back as written") {
    TuneSwarm s;
    s.iteration = 3;
    s.best_f = 12.25;
    s.rng_state = 0xFEDCBA9876543210ull;
    s.best_x = {1.5, 2.0 / 3};
    s.particles = {{{1, 2}, {-0.1, 0}, {1, 2}, 4.5}, {{7, 8}, {0.5, 1e-300}, {6, 5}, -1e300}};
    CHECK(tune_state_from_text(tune_state_to_text(s)) == s);
    // The format of the state files nestris-tune wrote before (17 digits, the same layout).
    const std::string old = "nestris-tune-state 1\n2 44.594999999999999 1234\n1 10\n2\n1 10\n1 0\n1 10\n"
                            "44.594999999999999\n1 12\n1 -0.5\n1 12\n-1.0000000000000001e+300\n";
    const TuneSwarm read = tune_state_from_text(old);
    CHECK(read.particles.size() == 2);
    CHECK(read.particles[1].best_f == -1e300);
}

TEST_CASE("tune state: every count is checked against the bytes there, before anything is allocated") {
    // Empty vectors (the tuner indexed them: a crash): a named error.
    CHECK_THAT(state_error("nestris-tune-state 1\n1 5 7\n0\n1\n0\n0\n0\n5\n"), Contains("the best position is empty"));
    CHECK_THAT(state_error("nestris-tune-state 1\n1 5 7\n1 3\n1\n0\n1 0\n1 3\n5\n"), Contains("particle 1's position is empty"));
    // A vector of 10^12 values (std::bad_alloc) and 10^8 particles in 43 bytes (7.8 GB, then
    // "truncated"): refused at the count.
    CHECK_THAT(state_error("nestris-tune-state 1\n1 5 7\n1000000000000 1 2\n"),
               Contains("truncated: the best position declares 1000000000000 values"));
    const std::string small = "nestris-tune-state 1\n0 0 1\n1 5\n100000000\n12";
    REQUIRE(small.size() == 43);
    CHECK_THAT(state_error(small), Contains("truncated: it declares 100000000 particles"));
    CHECK_THAT(state_error("nestris-tune-state 1\n0 0 1\n1 5\n18446744073709551615\n"), Contains("truncated"));
    CHECK_THAT(state_error("nestris-tune-state 1\n0 0 1\n1 5\n0\n"), Contains("no particles"));
    // Vectors of different lengths, numbers that are not, text after the end, another file.
    CHECK_THAT(state_error("nestris-tune-state 1\n0 0 1\n2 5 6\n1\n2 1 2\n1 0\n2 1 2\n3\n"),
               Contains("particle 1's velocity has 1 values, the swarm's best 2"));
    CHECK_THAT(state_error("nestris-tune-state 1\n0 0 1\n1 nan\n"), Contains("not a finite number"));
    CHECK_THAT(state_error("nestris-tune-state 1\n0 0 1\n1 x\x1b[2J\n"), Contains("got 'x\\x1B[2J'"));
    CHECK_THAT(state_error("nestris-tune-state 1\n0 0 1\n1 5\n1\n1 5\n1 0\n1 5\n5\nmore\n"), Contains("text after"));
    CHECK_THAT(state_error("nestris-tune-state 1\n-1 0 1\n"), Contains("the iteration: expected a whole number"));
    CHECK_THAT(state_error("nestris-tune-state 1\n0 0 1\n1 5\n1\n1 5\n"), Contains("truncated"));
    CHECK_THAT(state_error("# weights\n"), Contains("not a tune state file"));
    CHECK_THAT(state_error(""), Contains("not a tune state file"));
}

TEST_CASE("tune: a bad state file is refused at once (exit 1), a FIFO never waited on") {
    test::ScratchDir dir("tune_state_in");
    const std::string out = (dir / "w.txt").string();
    write_text(dir / "empty.txt", "nestris-tune-state 1\n1 5 7\n0\n1\n0\n0\n0\n5\n");
    test::CliResult r = tune({"--state", (dir / "empty.txt").string(), "--out", out});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("nestris-tune: error:") && Contains("empty.txt") && Contains("is empty"));
    write_text(dir / "big.txt", "nestris-tune-state 1\n0 0 1\n1 5\n100000000\n12");
    r = tune({"--state", (dir / "big.txt").string(), "--out", out});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("truncated"));
    REQUIRE(::mkfifo((dir / "fifo").c_str(), 0644) == 0);
    r = tune({"--state", (dir / "fifo").string(), "--out", out});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Contains("not a regular file"));
    CHECK(fs::is_fifo(dir / "fifo"));
    CHECK_FALSE(fs::exists(out));
}

TEST_CASE("tune: its outputs are never an input, each other, a FIFO or a read-only file, a link is followed") {
    test::ScratchDir dir("tune_out");
    const std::string weights_text = read_text_file(kWeights);
    write_text(dir / "start.txt", weights_text);
    const std::string start = (dir / "start.txt").string(), state = (dir / "s.txt").string();
    // A refused output is a failure (exit 1); an option that goes unused, a usage error (exit 2).
    auto refused = [&](const std::vector<std::string>& args, const char* why, int code = 1) {
        std::vector<std::string> all = {"--weights", start};
        all.insert(all.end(), args.begin(), args.end());
        const test::CliResult r = tune(all);
        INFO(r.err);
        CHECK(r.code == code);
        CHECK_THAT(r.err, Contains("nestris-tune: error:") && Contains(why));
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    };
    // The same file as --weights: by path, hard link or symbolic link (the weights untouched).
    fs::create_hard_link(dir / "start.txt", dir / "hard.txt");
    fs::create_symlink(dir / "start.txt", dir / "soft.txt");
    for (const char* same : {"start.txt", "hard.txt", "soft.txt"}) {
        refused({"--state", state, "--out", (dir / same).string()}, "is an input");
        refused({"--state", (dir / same).string(), "--out", (dir / "w.txt").string()}, "is an input");
    }
    CHECK(read_text_file(dir / "start.txt") == weights_text);
    // --out and --state the same (the state overwrote the tuned weights, exit 0): refused, a usage error.
    refused({"--state", state, "--out", state}, "the same file", 2);
    // Protocol 29's fitness is the lines: a --fitness given with it would be silently unused.
    refused({"--state", state, "--out", (dir / "w.txt").string(), "--fitness", "goal"}, "--fitness is for --protocol 19", 2);
    fs::create_symlink(dir / "s.txt", dir / "s-link.txt");
    refused({"--state", state, "--out", (dir / "s-link.txt").string()}, "the same file", 2);
    // A FIFO or a read-only file (replaced before): refused, left as they were.
    REQUIRE(::mkfifo((dir / "fifo").c_str(), 0644) == 0);
    refused({"--state", state, "--out", (dir / "fifo").string()}, "not a regular file");
    CHECK(fs::is_fifo(dir / "fifo"));
    write_text(dir / "ro.txt", "keep\n");
    fs::permissions(dir / "ro.txt", fs::perms::owner_read);
    refused({"--state", state, "--out", (dir / "ro.txt").string()}, "read-only");
    refused({"--state", (dir / "ro.txt").string(), "--out", (dir / "w.txt").string()}, "read-only");
    CHECK(read_text_file(dir / "ro.txt") == "keep\n");
    CHECK_FALSE(fs::exists(dir / "s.txt"));
    CHECK_FALSE(fs::exists(dir / "w.txt"));

    // A run: the tuned weights through a symbolic link (the link stays, its file replaced), the
    // state beside them, no temporary file; then a resume.
    write_text(dir / "tuned.txt", "old\n");
    fs::create_symlink(dir / "tuned.txt", dir / "out-link.txt");
    fs::remove(dir / "s-link.txt");
    test::CliResult r = tune({"--weights", start, "--state", state, "--out", (dir / "out-link.txt").string()});
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(fs::is_symlink(dir / "out-link.txt"));
    CHECK_THAT(read_text_file(dir / "tuned.txt"), Contains("# tuned by nestris-tune, protocol 29, fitness (lines) ") &&
                                                      Contains("hole_first"));
    CHECK(tune_state_from_text(read_text_file(dir / "s.txt")).iteration == 1);
    r = tune({"--weights", start, "--state", state, "--out", (dir / "out-link.txt").string()});
    REQUIRE(r.code == 0);
    CHECK(read_tune_state(dir / "s.txt").iteration == 2);
    CHECK(dir.listing() == std::vector<std::string>{"fifo", "hard.txt", "out-link.txt", "ro.txt", "s.txt", "soft.txt",
                                                    "start.txt", "tuned.txt"});
}
