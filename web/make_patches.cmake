# Writes the patches the web page serves: nestris-ai build into OUT, and the release record.
# When the release record is not of this build (the code changed since dist/ was written), the
# BPS cannot be made without the game: the page then offers the IPS alone, and says so.
execute_process(COMMAND ${NESTRIS_AI} build -o ${OUT}/nestris-ai.ips RESULT_VARIABLE result
                OUTPUT_QUIET ERROR_VARIABLE error)
if(NOT result EQUAL 0)
  message(WARNING "web: ${error}the page gets the IPS patch only")
  execute_process(COMMAND ${NESTRIS_AI} build -o ${OUT}/nestris-ai.ips --no-bps RESULT_VARIABLE result OUTPUT_QUIET)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "web: nestris-ai build failed")
  endif()
  file(REMOVE ${OUT}/nestris-ai.bps)
endif()
file(COPY_FILE ${RECORD} ${OUT}/release.txt)
