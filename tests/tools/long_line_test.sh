#!/bin/sh
# Every text reader bounds its lines: a movie, a weights file, a label file, a state file or an
# FCEUX movie of one 64 MB line (under the 64 MiB file bound) is refused in well under a second
# (exit 1, one error line naming the line and the bound of 65536 bytes), not parsed for seconds
# and hundreds of megabytes (render --movie took 12 s and 505 MB). A line of 65536 bytes passes
# the reader (and is refused by the parser, in its own words).
#   long_line_test.sh BIN_DIR ROM   (ROM: any iNES image run-rom can run; the synthetic one)
set -u
bin=$1
rom=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/nestris-long-line.XXXXXX")
trap 'rm -rf "$work"' EXIT
head -c 64000000 /dev/zero | tr '\0' 'a' >"$work/line.txt"
fail=0
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
refused() {  # refused COMMAND...: exit 1 within 1000 ms, the bound named on one error line
  start=$(now_ms)
  timeout 20 "$@" >/dev/null 2>"$work/err"
  code=$?
  took=$(( $(now_ms) - start ))
  if [ $code != 1 ] || [ $took -ge 1000 ] || ! grep -q "line 1 is longer than 65536 bytes" "$work/err" ||
     [ "$(wc -l <"$work/err")" != 1 ]; then
    echo "FAIL: $* -> exit $code in $took ms:"; head -c 600 "$work/err"; echo; fail=1
  else
    echo "ok   $* -> exit 1 in $took ms: $(cat "$work/err")"
  fi
}
line=$work/line.txt
refused "$bin/nestris-ai" render --seed 1 --movie "$line"
refused "$bin/nestris-ai" simulate --player movie --movie "$line" --games 1 --quiet
head -c 500000 "$line" >"$work/state.txt"  # (a state file may hold 1 MiB)
refused "$bin/nestris-ai" render --state "$work/state.txt"
refused "$bin/nestris-ai" run-rom "$rom" --movie "$line"
refused "$bin/nestris-ai" run-rom "$rom" --labels "$line" --frames 1
refused "$bin/nestris-tune" --weights "$line" --state "$work/s.st" --out "$work/w.txt"
refused "$bin/bench-ai" --weights "$line" --games 1
# At the bound the reader lets the line through: the parser refuses it, saying why in its words.
head -c 65536 /dev/zero | tr '\0' 'a' >"$work/edge.txt"
"$bin/nestris-ai" render --seed 1 --movie "$work/edge.txt" >/dev/null 2>"$work/err"
if grep -q "longer than" "$work/err" || ! grep -q "nestris-ai render: error:" "$work/err"; then
  echo "FAIL: a line of 65536 bytes: $(head -c 300 "$work/err")"; fail=1
else
  echo "ok   a line of 65536 bytes reaches the parser: $(head -c 200 "$work/err")"
fi
exit $fail
