# The constants of the asm includes for the C++ side, written at configure time (CMake re-runs
# when an include changes); the include stays the one source of its numbers:
#   asm/tetris.inc -> generated/tetris_map.hpp, namespace nestris::tetris: the game's RAM and ROM
#                     addresses, modes, play states, buttons (the model, the harnesses, `play`,
#                     the tests read this copy);
#   asm/hooks.inc  -> generated/hooks_map.hpp, namespace nestris::hooks: what the hooks and the AI
#                     share (the AI modes, the demo's level and end).
# Every `name = value` line (value a number, $hex or decimal) becomes a constexpr.
function(nestris_constants_header inc header namespace)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${inc})
  get_filename_component(inc_name ${inc} NAME)
  file(STRINGS ${inc} inc_lines)
  set(body "")
  foreach(line IN LISTS inc_lines)
    if(line MATCHES "^([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*(\\$[0-9A-Fa-f]+|[0-9]+)[ \t]*(;[ \t]*(.*))?$")
      set(name ${CMAKE_MATCH_1})
      set(value ${CMAKE_MATCH_2})
      set(comment "${CMAKE_MATCH_4}")
      if(name MATCHES "_INC_INCLUDED$")
        continue()
      endif()
      string(REPLACE "$" "0x" value ${value})
      # An address (a name in the game's camelCase) is 16-bit; a constant (ALL_CAPS: modes, play
      # states, buttons, tiles) is the byte the game stores, unless it needs more.
      set(type uint16_t)
      math(EXPR number "${value}")
      if(name MATCHES "^[A-Z][A-Z0-9_]*$" AND number LESS 256)
        set(type uint8_t)
      endif()
      if(comment)
        string(APPEND body "inline constexpr ${type} ${name} = ${value};  // ${comment}\n")
      else()
        string(APPEND body "inline constexpr ${type} ${name} = ${value};\n")
      endif()
    elseif(line MATCHES "^[A-Za-z_][A-Za-z0-9_]*[ \t]*=")
      message(FATAL_ERROR "asm/${inc_name}: a definition the C++ side cannot read (a number, $hex or "
                          "decimal, is expected): ${line}")
    endif()
  endforeach()
  file(WRITE ${header}.new
"// Generated from asm/${inc_name} by patcher/game_map.cmake at configure time: do not edit.
#pragma once

#include <cstdint>

namespace ${namespace} {

${body}
}  // namespace ${namespace}
")
  configure_file(${header}.new ${header} COPYONLY)
endfunction()

set(NESTRIS_TETRIS_INC ${PROJECT_SOURCE_DIR}/asm/tetris.inc)
set(NESTRIS_TETRIS_MAP_HPP ${NESTRIS_GENERATED_DIR}/tetris_map.hpp)
nestris_constants_header(${NESTRIS_TETRIS_INC} ${NESTRIS_TETRIS_MAP_HPP} nestris::tetris)
nestris_constants_header(${PROJECT_SOURCE_DIR}/asm/hooks.inc ${NESTRIS_GENERATED_DIR}/hooks_map.hpp nestris::hooks)
add_library(nestris_game_map INTERFACE)
target_include_directories(nestris_game_map INTERFACE ${CMAKE_BINARY_DIR})  # "generated/tetris_map.hpp"
