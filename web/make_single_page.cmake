# The page as one file (nestris-ai.html) that works opened straight from disk, with no server:
# the style, the WebAssembly module (nestris.js, built with the wasm inside), the patches and
# the release record are put inline. Deterministic: the same inputs give the same bytes, so the
# copy in dist/ can be checked against the build.
#   cmake -DDIR=build/web -P make_single_page.cmake
function(read_hex name out)
  if(EXISTS ${DIR}/${name})
    file(READ ${DIR}/${name} hex HEX)
    string(TOUPPER "${hex}" hex)
    set(${out} "\"${hex}\"" PARENT_SCOPE)
  else()
    set(${out} "null" PARENT_SCOPE)
  endif()
endfunction()

file(READ ${DIR}/index.html page)
file(READ ${DIR}/style.css style)
file(READ ${DIR}/nestris.js module)
file(READ ${DIR}/app.js app)
file(READ ${DIR}/release.txt release)
foreach(part module app)
  string(FIND "${${part}}" "</script" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "web: ${part} holds </script, which would end its inline script")
  endif()
endforeach()
read_hex(nestris-ai.ips ips)
read_hex(nestris-ai.bps bps)
string(REPLACE "\\" "\\\\" release "${release}")
string(REPLACE "\n" "\\n" release "${release}")
string(REPLACE "\"" "\\\"" release "${release}")
set(embedded "<script>window.NESTRIS_EMBEDDED = {ips: ${ips}, bps: ${bps}, release: \"${release}\"};</script>")

string(REPLACE "<link rel=\"stylesheet\" href=\"style.css\">" "<style>\n${style}</style>" page "${page}")
string(REPLACE "<script src=\"nestris.js\"></script>" "<script>\n${module}</script>\n${embedded}" page "${page}")
string(REPLACE "<script src=\"app.js\"></script>" "<script>\n${app}</script>" page "${page}")
file(WRITE ${DIR}/nestris-ai.html.tmp "${page}")
file(RENAME ${DIR}/nestris-ai.html.tmp ${DIR}/nestris-ai.html)
