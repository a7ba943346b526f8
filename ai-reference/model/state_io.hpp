// Checking states for plausibility and saving/loading them as text.
//
// validate() lists every way a state differs from what the game can produce in a 1-player game
// (a piece overlapping the stack outside its spawn frame, counters out of their ranges, broken
// BCD digits, tiles the game never writes, ...). States from files and from RAM go through it,
// so the model only ever runs on states the game could be in.
//
// The text format is line based: "nestris-state 1", then one "name value..." line per variable
// (numbers decimal or 0x-hex), the playfield as "row R" lines (R = -2..19, ten hex tiles each)
// plus "page_200 ..." for the 36 bytes between row 19 and the hidden rows. '#' starts a comment.
#pragma once

#include "ai-reference/model/game_model.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace nestris {

std::vector<std::string> validate(const GameState& state);
std::string join_problems(const std::vector<std::string>& problems);

void write_state(std::ostream& out, const GameState& state);
std::string state_to_text(const GameState& state);
// Throws std::runtime_error with the line number and the reason for malformed text, missing or
// repeated variables, values out of range (a level of 256 ...), and for states that validate()
// rejects.
GameState read_state(std::istream& in);
GameState state_from_text(const std::string& text);
GameState load_state_file(const std::string& path);
void save_state_file(const std::string& path, const GameState& state);

}  // namespace nestris
