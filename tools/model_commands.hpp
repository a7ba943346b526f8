// The game model's subcommands of nestris-ai: simulate, fidelity, render.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace nestris {

void add_simulate_command(CLI::App& app);
void add_fidelity_command(CLI::App& app);
void add_render_command(CLI::App& app);

// "0-99", "3,7,12" or "0-9,20-29" -> the numbers; throws UsageError (command_runner.hpp) when malformed.
std::vector<uint32_t> parse_number_list(const std::string& text);
// A one-line progress bar for terminals ("\r[#####.....] 50/100 games 3.2 s").
std::string progress_bar(std::size_t done, std::size_t total, double seconds, const char* unit);
bool stderr_is_terminal();

}  // namespace nestris
