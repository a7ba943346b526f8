// What the commands and tools share on the command line: lists of numbers (seeds, levels) and
// the progress bar of long runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace nestris {

// 1234567 -> "1 234 567", as the README and --help write numbers.
std::string thousands(uint64_t n);

// The most numbers a list may hold, and so the most games simulate plays in one run: every
// game's result is kept for the summary's medians and the CSV (~110 bytes a game), and a run
// of a million AI games from level 19 already takes days.
inline constexpr std::size_t kMaxListNumbers = 1'000'000;

// "0-99", "3,7,12" or "0-9,20-29" -> the numbers; throws UsageError (command_runner.hpp) when
// malformed or longer than kMaxListNumbers (counted before a range is expanded).
std::vector<uint32_t> parse_number_list(const std::string& text);
// A one-line progress bar for terminals ("\r[#####.....] 50/100 games  3.2 s, about 3 s left").
std::string progress_bar(std::size_t done, std::size_t total, double seconds, const char* unit);
bool stderr_is_terminal();
// 75 -> "75 s", 600 -> "10 min", 7200 -> "2.0 h", 3 days -> "3.0 days".
std::string rough_duration(double seconds);

// The progress of a long run on stderr, with the time left at the pace so far: on a terminal the
// bar redrawn in place; elsewhere (a log, a pipe) a line at each tenth of the run, the last one
// included ("simulate: 50/100 games, 3.2 s, about 3 s left"); nothing when quiet. update and
// finish return the text to print ("" for nothing); the caller prints it, from one thread at a time.
class ProgressReport {
public:
    ProgressReport(std::string name, std::size_t total, const char* unit, bool terminal, bool quiet);
    std::string update(std::size_t done, double seconds);
    // After the run: the bar's line ended, or the last line if no tenth printed it.
    std::string finish(double seconds);

private:
    std::string line(std::size_t done, double seconds) const;
    std::string name_;
    std::size_t total_;
    const char* unit_;
    bool terminal_;
    bool quiet_;
    std::size_t tenths_printed_ = 0;
    std::size_t done_ = 0;
};

}  // namespace nestris
