// Controller input per frame, written as a string: one item per frame.
//
//   .          nothing pressed
//   L R U D    Left, Right, Up, Down
//   A B        A, B
//   S E        Start, sElect
//   A+L        buttons held together in one frame ('+' between buttons)
//   L*5        the item repeated: 5 frames of Left
//   (L.)*3     a group repeated: L . L . L .
//   spaces, tabs, newlines and ',' separate items and are otherwise ignored
//
// Example: ".*60 S .*30 (L.)*4 A+R" = 60 idle frames, Start for one frame, 30 idle frames, four
// taps of Left every other frame, then A and Right together. Anything else is an InputError
// naming the column.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nestris::emu {

struct InputError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// At most this many frames from one string (guards "A*99999999999").
inline constexpr size_t kMaxInputFrames = 10'000'000;

// One byte of button:: bits per frame.
std::vector<uint8_t> parse_input(std::string_view text);

// The inverse for one frame: ".", "L", "A+L", ...
std::string format_buttons(uint8_t buttons);

}  // namespace nestris::emu
