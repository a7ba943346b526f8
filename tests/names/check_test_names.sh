#!/bin/sh
# Every Catch test case runs under ctest: catch_discover_tests registers each case by its name,
# and ctest cuts a name at a ';' (a CMake list separator), so a case whose name holds one is
# asked for by a name Catch does not know and "passes" having run nothing. Fails listing them.
#   check_test_names.sh SOURCE_DIR
cd "$1" || exit 2
bad=$(grep -rn --include='*.cpp' 'TEST_CASE("[^"]*;' tests)
if [ -n "$bad" ]; then
  echo "test case names with a ';' never run under ctest (it cuts the name there):"
  echo "$bad"
  exit 1
fi
echo "$(grep -rl --include='*.cpp' 'TEST_CASE(' tests | wc -l) test sources: no test case name holds a ';'"
