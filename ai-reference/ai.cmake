# The reference AI (library nestris_ai). Included from ai-reference/CMakeLists.txt.
set(NESTRIS_WEIGHTS_FILE ${CMAKE_CURRENT_LIST_DIR}/weights.txt)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${NESTRIS_WEIGHTS_FILE})
file(READ ${NESTRIS_WEIGHTS_FILE} NESTRIS_WEIGHTS_TEXT)
configure_file(${CMAKE_CURRENT_LIST_DIR}/weights_text.cpp.in ${NESTRIS_GENERATED_DIR}/weights_text.cpp @ONLY)

add_library(nestris_ai STATIC
  ${CMAKE_CURRENT_LIST_DIR}/ai_board.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ai_geometry.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ai_eval.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ai_search.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ai_player.cpp
  ${NESTRIS_GENERATED_DIR}/weights_text.cpp)
target_include_directories(nestris_ai PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(nestris_ai PUBLIC nestris_model PRIVATE nestris_warnings)
