// The game model's subcommands of nestris-ai: simulate, fidelity, render.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace nestris {

void add_simulate_command(CLI::App& app);
void add_fidelity_command(CLI::App& app);
void add_render_command(CLI::App& app);

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

// simulate's word on a long run, a few seconds in: how many games, roughly how long at the pace
// of the games done so far, and the memory its per-game results take. Empty when the run is
// not long (under a minute at that pace) or the pace is not known yet (no game done, or under
// 2 s in: the first games are the shortest and would make the estimate too low).
std::string long_run_notice(std::size_t games, std::size_t done, double seconds, unsigned threads,
                            uint64_t result_bytes);
// Memory simulate holds per game: its seed, its result and the summary's per-game values
// (and the CSV's line when it writes one).
uint64_t simulate_bytes_per_game(bool csv);

}  // namespace nestris
