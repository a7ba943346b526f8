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
// A one-line progress bar for terminals ("\r[#####.....] 50/100 games 3.2 s").
std::string progress_bar(std::size_t done, std::size_t total, double seconds, const char* unit);
bool stderr_is_terminal();

}  // namespace nestris
