# The reference AI. Included from ai-reference/CMakeLists.txt.
#   nestris_ai_core: board, geometry, evaluation, search (no dependency on the game model, so the
#                    build can generate the cartridge's tables from it before assembling asm/)
#   nestris_ai:      the AI as a Player of the game model
#   nestris-gen:     writes generated/ai_tables.inc and ai_constants.inc for the cartridge
set(NESTRIS_WEIGHTS_FILE ${CMAKE_CURRENT_LIST_DIR}/weights.txt)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${NESTRIS_WEIGHTS_FILE})
file(READ ${NESTRIS_WEIGHTS_FILE} NESTRIS_WEIGHTS_TEXT)
configure_file(${CMAKE_CURRENT_LIST_DIR}/weights_text.cpp.in ${NESTRIS_GENERATED_DIR}/weights_text.cpp @ONLY)

add_library(nestris_ai_core STATIC
  ${CMAKE_CURRENT_LIST_DIR}/ai_board.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ai_geometry.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ai_eval.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ai_search.cpp
  ${NESTRIS_GENERATED_DIR}/weights_text.cpp)
target_include_directories(nestris_ai_core PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(nestris_ai_core PUBLIC nestris_game_map nestris_game_time PRIVATE nestris_warnings)

add_library(nestris_ai STATIC ${CMAKE_CURRENT_LIST_DIR}/ai_player.cpp)
target_link_libraries(nestris_ai PUBLIC nestris_ai_core nestris_model PRIVATE nestris_warnings)

set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
add_executable(nestris-gen ${CMAKE_CURRENT_LIST_DIR}/gen_asm_tables.cpp)
target_link_libraries(nestris-gen PRIVATE nestris_ai_core nestris_romtools nestris_warnings)
set(NESTRIS_AI_TABLES_INC ${NESTRIS_GENERATED_DIR}/ai_tables.inc)
set(NESTRIS_AI_CONSTANTS_INC ${NESTRIS_GENERATED_DIR}/ai_constants.inc)
add_custom_command(OUTPUT ${NESTRIS_AI_TABLES_INC} ${NESTRIS_AI_CONSTANTS_INC}
  COMMAND nestris-gen --asm-tables ${NESTRIS_AI_TABLES_INC} --asm-constants ${NESTRIS_AI_CONSTANTS_INC}
  DEPENDS nestris-gen ${NESTRIS_WEIGHTS_FILE}
  COMMENT "Generating the cartridge's AI tables")
add_custom_target(nestris_ai_tables DEPENDS ${NESTRIS_AI_TABLES_INC} ${NESTRIS_AI_CONSTANTS_INC})
set(NESTRIS_ASM_GENERATED_INCLUDES ${NESTRIS_AI_TABLES_INC} ${NESTRIS_AI_CONSTANTS_INC} PARENT_SCOPE)
