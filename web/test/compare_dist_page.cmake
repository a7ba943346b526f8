# dist/nestris-ai.html must be the one-file page this build makes, byte for byte (emscripten's
# output does not depend on where the sources are). Run by ctest.
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${BUILT} ${DIST} RESULT_VARIABLE differ)
if(differ)
  message(FATAL_ERROR "${DIST} is not the page this build makes (${BUILT}): refresh dist/ with "
                      "tools/scripts/update-dist.sh path/to/tetris.nes")
endif()
message(STATUS "dist/nestris-ai.html is this build's page")
