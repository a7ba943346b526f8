// What the commands and tools share on the command line: lists of numbers (seeds, levels) and
// the progress bar of long runs.
#pragma once

#include "base/worker_pool.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace nestris {

// An option given where the mode the command runs in would leave it unused is refused, never
// ignored: the first of `options` (or positional arguments, by name) given on the command line
// is a UsageError "OPTION WHY" (exit 2), e.g. why = "goes with --ai-game (the lock table's runs
// have no title wait)".
void refuse_given(const CLI::App& app, std::initializer_list<const char*> options, const std::string& why);

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
// update may be called as often as wanted (a run's every frame): the bar is redrawn at most every
// 50 ms, and a line only at a tenth.
class ProgressReport {
public:
    ProgressReport(std::string name, std::size_t total, const char* unit, bool terminal, bool quiet);
    std::string update(std::size_t done, double seconds);
    // After the run: the bar's line ended, or the last line if no tenth printed it.
    std::string finish(double seconds);
    // To print before other output on the terminal (a result's line on stdout), which would
    // otherwise go on after the bar: the bar's line cleared (the next update draws it again).
    std::string clear() const;

private:
    std::string line(std::size_t done, double seconds, bool ended = false) const;
    std::string name_;
    std::size_t total_;
    const char* unit_;
    bool terminal_;
    bool quiet_;
    std::size_t tenths_printed_ = 0;
    std::size_t done_ = 0;
    double drawn_at_ = -1;  // when the bar was last drawn (-1: never)
};

// A ProgressReport on stderr (quiet only for an empty run) for a run on a worker pool, reported
// by the pool's watching thread (parallel_for with options()). That thread holds `lines`, when
// given: the lock under which the workers print their results, each after clear() (else a
// result's line would go on after the bar on a terminal).
class PoolProgress {
public:
    PoolProgress(std::string name, std::size_t total, const char* unit, std::mutex* lines = nullptr);
    PoolProgress(const PoolProgress&) = delete;  // (options() reports through `this`)
    PoolProgress& operator=(const PoolProgress&) = delete;
    // The pool's count of indices done, or `done` when the run counts in other units (an index a
    // stripe of many games, say).
    PoolOptions options(const std::atomic<std::size_t>* done = nullptr);
    std::string clear() const { return report_.clear(); }
    // After the pool: the report's end, on stderr.
    void finish();

private:
    double seconds() const;
    ProgressReport report_;
    std::mutex* lines_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace nestris
