# The folders are layers (README.md, "Repository layout"): a folder's C++ includes headers only
# from itself and the folders it may use. Every include carries its folder ("patcher/ips.hpp"),
# so this check reads the folder from the include itself; a header the build generates carries the
# folder of its source ("game/tetris_map.hpp" from game/tetris.inc, "dist/release_record_text.hpp"
# from dist/release.txt: it lies in that folder's build directory). Run by ctest:
#   cmake -DSOURCE_DIR=<repo> -P check_layers.cmake
# Inside ai-reference, emu-test and tools the sub-folders are layers too, checked the same way, so
# that no cycle forms inside a layer either.
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

# The sub-folders of a layer, bottom first ("." is the layer's own root), and the ones below each
# that it may use (checked to lie below it, so that the declaration itself holds no cycle). An
# include from or into a sub-folder not listed here fails, so a new one is placed too.
set(parts_ai-reference model ai)
set(uses_ai-reference/model "")
set(uses_ai-reference/ai model)
set(parts_emu-test . debug)
set(uses_emu-test/. "")
set(uses_emu-test/debug .)
# tools: the harness under everything; each program's own folder (tune, movie) and the commands
# (cli) beside each other over it; bench's programs share the commands' number lists and progress bar.
set(parts_tools harness cli tune movie bench)
set(uses_tools/harness "")
set(uses_tools/cli harness)
set(uses_tools/tune harness)
set(uses_tools/movie harness)
set(uses_tools/bench harness cli)

# The sub-folder of a path inside its layer: "debug" for debug/fm2.hpp, "." for nes.hpp.
function(part_of path out)
  if(path MATCHES "/")
    string(REGEX REPLACE "/.*$" "" path "${path}")
  else()
    set(path ".")
  endif()
  set(${out} "${path}" PARENT_SCOPE)
endfunction()

set(bad "")
foreach(layer IN LISTS layers)
  set(below "")
  foreach(part IN LISTS parts_${layer})
    foreach(used IN LISTS uses_${layer}/${part})
      if(NOT used IN_LIST below)
        list(APPEND bad "check_layers.cmake: inside ${layer}/, ${part} may use ${used}, which is not listed below it")
      endif()
    endforeach()
    list(APPEND below "${part}")
  endforeach()
endforeach()
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
        list(JOIN uses_${layer} ", " may)
        list(APPEND bad "${rel} includes ${header}: ${layer}/ may use only ${may}")
      elseif(folder STREQUAL layer AND DEFINED parts_${layer})
        string(LENGTH "${layer}/" skip)
        string(SUBSTRING "${rel}" ${skip} -1 inside)
        part_of("${inside}" from)
        string(SUBSTRING "${header}" ${skip} -1 inside)
        part_of("${inside}" to)
        if(NOT from IN_LIST parts_${layer} OR NOT to IN_LIST parts_${layer})
          list(APPEND bad "${rel} includes ${header}: ${layer}/${from} or ${layer}/${to} is no sub-folder declared in check_layers.cmake")
        elseif(NOT from STREQUAL to AND NOT to IN_LIST uses_${layer}/${from})
          list(JOIN uses_${layer}/${from} ", " may)  # (a ';' would split the message into two entries)
          if(NOT may)
            set(may "none")
          endif()
          list(APPEND bad "${rel} includes ${header}: inside ${layer}/, ${from} may use only: ${may}")
        endif()
      endif()
    endforeach()
  endforeach()
endforeach()
if(bad)
  list(JOIN bad "\n  " text)
  message(FATAL_ERROR "includes against the layers (a folder, or a sub-folder inside its layer, may use only the ones below it):\n  ${text}")
endif()
message(STATUS "layers: every include carries its folder and goes down, between the layers and inside them")
