// Text from outside the program (a file's field, a path) made safe for an error line: bounded,
// so a 1 MB field does not make a 1 MB message, and with every byte a terminal could act on
// (control characters, escape sequences, malformed UTF-8) spelled as \xNN, so a file cannot
// move the cursor, recolour or retitle the user's terminal.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace nestris {

// The longest excerpt of a file's content an error message quotes, in characters.
inline constexpr size_t kMaxQuoted = 60;
// The longest error line the command runner prints, in characters (the backstop for messages
// that quote without quoted_excerpt()).
inline constexpr size_t kMaxErrorLine = 1000;

// `text` with C0 controls, DEL, C1 controls and bytes that are not well-formed UTF-8 as \xNN;
// printable ASCII and well-formed UTF-8 pass. At most `max_chars` characters of `text` are kept
// (a character: a UTF-8 sequence or one escaped byte), then "..." marks the cut.
std::string printable(std::string_view text, size_t max_chars = std::string_view::npos);

// `text` between single quotes for an error message: printable(text, kMaxQuoted).
std::string quoted_excerpt(std::string_view text);

}  // namespace nestris
