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
