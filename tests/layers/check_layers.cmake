# The folders are layers (README.md, "Repository layout"): a folder's C++ includes headers only
# from itself and the folders it may use. Every include carries its folder ("patcher/ips.hpp"),
# so this check reads the folder from the include itself; a header the build generates carries the
# folder of its source ("game/tetris_map.hpp" from game/tetris.inc, "dist/release_record_text.hpp"
# from dist/release.txt: it lies in that folder's build directory). Run by ctest:
#   cmake -DSOURCE_DIR=<repo> -P check_layers.cmake
# Fails with every include that reaches up or sideways, is bare, or names no file.
cmake_minimum_required(VERSION 3.20)  # IN_LIST in script mode
# game/ is the ground beside base/: the game's facts (asm includes, and the headers made of them).
# dist/ is the release, data: the top may compile its record in.
set(uses_base "")
set(uses_game "")
set(uses_patcher base)
set(uses_emu-test base)
set(uses_ai-reference base game)
set(uses_tools base game patcher emu-test ai-reference dist)
set(uses_web base patcher emu-test)
set(layers base game patcher emu-test ai-reference tools web)
set(folders base game patcher emu-test ai-reference asm tools web tests dist)
set(generated game/tetris_map.hpp game/hooks_map.hpp dist/release_record_text.hpp)

set(bad "")
foreach(layer IN LISTS layers)
  file(GLOB_RECURSE sources "${SOURCE_DIR}/${layer}/*.cpp" "${SOURCE_DIR}/${layer}/*.hpp" "${SOURCE_DIR}/${layer}/*.in")
  list(FILTER sources EXCLUDE REGEX "/node_modules/")
  foreach(source IN LISTS sources)
    file(STRINGS "${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    file(RELATIVE_PATH rel "${SOURCE_DIR}" "${source}")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*$" "\\1" header "${line}")
      if(NOT header MATCHES "/")
        list(APPEND bad "${rel} includes \"${header}\" without its folder")
        continue()
      endif()
      string(REGEX REPLACE "/.*$" "" folder "${header}")
      if(NOT folder IN_LIST folders OR (NOT EXISTS "${SOURCE_DIR}/${header}" AND NOT header IN_LIST generated))
        list(APPEND bad "${rel} includes \"${header}\", which is no file of the project")
      elseif(NOT folder STREQUAL layer AND NOT folder IN_LIST uses_${layer})
        list(APPEND bad "${rel} includes ${header}: ${layer}/ may use only ${uses_${layer}}")
      endif()
    endforeach()
  endforeach()
endforeach()
if(bad)
  list(JOIN bad "\n  " text)
  message(FATAL_ERROR "includes against the layers (a folder may use only the ones below it):\n  ${text}")
endif()
message(STATUS "layers: every include carries its folder and goes down")
