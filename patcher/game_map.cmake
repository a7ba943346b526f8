# The game's map for the C++ side: every `name = value` of asm/tetris.inc (RAM and ROM addresses,
# modes, play states, buttons) as a constexpr in namespace nestris::tetris, written at configure
# time to generated/tetris_map.hpp (CMake re-runs when tetris.inc changes). tetris.inc stays the
# one source of these numbers; the model, the harnesses, `play` and the tests read this copy.
set(NESTRIS_TETRIS_INC ${PROJECT_SOURCE_DIR}/asm/tetris.inc)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${NESTRIS_TETRIS_INC})
file(STRINGS ${NESTRIS_TETRIS_INC} tetris_inc_lines)
set(body "")
foreach(line IN LISTS tetris_inc_lines)
  if(line MATCHES "^([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*(\\$[0-9A-Fa-f]+|[0-9]+)[ \t]*(;[ \t]*(.*))?$")
    set(name ${CMAKE_MATCH_1})
    set(value ${CMAKE_MATCH_2})
    set(comment "${CMAKE_MATCH_4}")
    if(name STREQUAL "TETRIS_INC_INCLUDED")
      continue()
    endif()
    string(REPLACE "$" "0x" value ${value})
    if(comment)
      string(APPEND body "inline constexpr uint16_t ${name} = ${value};  // ${comment}\n")
    else()
      string(APPEND body "inline constexpr uint16_t ${name} = ${value};\n")
    endif()
  elseif(line MATCHES "^[A-Za-z_][A-Za-z0-9_]*[ \t]*=")
    message(FATAL_ERROR "asm/tetris.inc: a definition the game map cannot read (a number, $hex or "
                        "decimal, is expected): ${line}")
  endif()
endforeach()
set(NESTRIS_TETRIS_MAP_HPP ${NESTRIS_GENERATED_DIR}/tetris_map.hpp)
file(WRITE ${NESTRIS_TETRIS_MAP_HPP}.new
"// Generated from asm/tetris.inc by patcher/game_map.cmake at configure time: do not edit.
#pragma once

#include <cstdint>

namespace nestris::tetris {

${body}
}  // namespace nestris::tetris
")
configure_file(${NESTRIS_TETRIS_MAP_HPP}.new ${NESTRIS_TETRIS_MAP_HPP} COPYONLY)
add_library(nestris_game_map INTERFACE)
target_include_directories(nestris_game_map INTERFACE ${NESTRIS_GENERATED_DIR})
