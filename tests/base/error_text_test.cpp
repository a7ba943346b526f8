// Text from files in error lines (error_text.hpp) and the command runner's error line: bounded,
// one line, nothing a terminal would act on.
#include "base/error_text.hpp"
#include "base/command_runner.hpp"
#include "tests/support/run_cli.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

using namespace nestris;

TEST_CASE("error text: control bytes, C1 controls and malformed UTF-8 are spelled \\xNN, text and UTF-8 pass") {
    CHECK(printable("plain text, 100% ASCII ~") == "plain text, 100% ASCII ~");
    CHECK(printable("\x1b[31mred\x1b[0m") == "\\x1B[31mred\\x1B[0m");
    CHECK(printable(std::string("a\0b\tc\nd\re\x7f", 10)) == "a\\x00b\\x09c\\x0Ad\\x0De\\x7F");
    CHECK(printable("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x8e\xae") == "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x8e\xae");
    CHECK(printable("\x9b" "2J") == "\\x9B2J");                   // an 8-bit CSI
    CHECK(printable("\xc2\x9b" "2J") == "\\xC2\\x9B2J");          // CSI as UTF-8 (U+009B)
    CHECK(printable("\xc3") == "\\xC3");                          // a sequence cut short
    CHECK(printable("\xc0\xaf") == "\\xC0\\xAF");                  // overlong
    CHECK(printable("\xed\xa0\x80") == "\\xED\\xA0\\x80");         // a surrogate
    CHECK(printable("\xf4\x90\x80\x80") == "\\xF4\\x90\\x80\\x80");  // above U+10FFFF
}

TEST_CASE("error text: quoted_excerpt() keeps 60 characters and marks the cut") {
    CHECK(quoted_excerpt("abc") == "'abc'");
    CHECK(quoted_excerpt(std::string(60, 'x')) == "'" + std::string(60, 'x') + "'");
    CHECK(quoted_excerpt(std::string(1 << 20, 'x')) == "'" + std::string(60, 'x') + "...'");
    // A character is a UTF-8 sequence or one escaped byte, never cut in half.
    std::string accents;
    for (int i = 0; i < 70; ++i) accents += "\xc3\xa9";
    CHECK(quoted_excerpt(accents) == "'" + accents.substr(0, 120) + "...'");
    CHECK(quoted_excerpt(std::string(70, '\x1b')).size() == 2 + 60 * 4 + 3);
}

TEST_CASE("error text: the command runner's error line is one line, bounded, escaped, whatever the message") {
    test::Capture capture;
    run_command("nestris-ai test", [] () -> int {
        throw std::runtime_error("bad: '" + std::string(1 << 20, 'z') + "'\n\x1b]0;title\x07");
    });
    const std::string err = capture.err.str();
    CHECK(err.rfind("nestris-ai test: error: bad: 'zzz", 0) == 0);
    CHECK(err.size() < kMaxErrorLine + 100);
    CHECK(err.find("...") != std::string::npos);
    CHECK(std::count(err.begin(), err.end(), '\n') == 1);
    CHECK(err.find('\x1b') == std::string::npos);
    test::Capture again;
    run_command("nestris-ai test", [] () -> int { throw UsageError("x\ny\x1b"); });
    CHECK(again.err.str() == "nestris-ai test: error: x\\x0Ay\\x1B\n");
}
