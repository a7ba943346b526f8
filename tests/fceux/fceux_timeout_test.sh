#!/bin/sh
# tools/scripts/fceux_check.sh --movie stops FCEUX at its time limit and says so, comparing
# nothing, rather than comparing a dump cut short (a 330 000-frame movie on a busy machine ran
# past the limit once, and the comparison died on the last line's hex). A movie far longer than
# FCEUX can play in the limit set by NESTRIS_FCEUX_TIMEOUT, on the synthetic ROM (not the game).
# SKIPPED without the Debian packages fceux and xvfb.
#   fceux_timeout_test.sh SOURCE_DIR BUILD_DIR ROM
set -eu
src=$1
build=$2
rom=$3
. "$src/tests/fceux/needs.sh"
needs_fceux
work=$(mktemp -d "${TMPDIR:-/tmp}/nestris-fceux-timeout-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp"
{ printf 'version 3\nport0 1\nport1 0\nport2 0\n'; yes '|0|........|||' | head -n 60000; } >"$work/m.fm2"
status=0
NESTRIS_FCEUX_TIMEOUT=3 TMPDIR=$work/tmp sh "$src/tools/scripts/fceux_check.sh" --movie "$work/m.fm2" "$rom" "$build" \
  >"$work/out" 2>&1 || status=$?
cat "$work/out"
[ "$status" = 1 ] || { echo "exit status $status, not 1"; exit 1; }
if grep -q "Traceback" "$work/out"; then echo "the comparison died"; exit 1; fi
grep -q "FCEUX was stopped after 3 s, the time limit" "$work/out" || grep -q "FCEUX wrote no RAM dump" "$work/out" ||
  { echo "no word of the limit"; exit 1; }
if grep -q "frames compared" "$work/out"; then echo "a comparison was reported"; exit 1; fi
echo "stopped at the limit, said so, nothing compared"
