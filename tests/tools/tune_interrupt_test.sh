#!/bin/sh
# nestris-tune interrupted (SIGINT, Ctrl-C) at any moment of its run leaves its state file the one
# it had or a complete new one, never a half-written file, and no temporary file beside it; the
# interrupted run exits 130. Ten runs are interrupted after 0.05-0.5 s, in iterations of a few
# milliseconds each (one game to one line from level 29), so that some signals land while the
# state is being written; at least one run must have replaced the state, or the test proved nothing.
#   tune_interrupt_test.sh BIN_DIR
set -u
bin=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/nestris-tune-int.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
tune() {
  "$bin/nestris-tune" --state s.st --out w.txt --protocol 29 --max-lines 1 --games 1 --particles 2 --threads 1 "$@"
}
if ! tune --iterations 1 >/dev/null 2>err; then
  echo "FAIL: the first iteration: $(cat err)"; exit 1
fi
cp s.st before.st
iteration() { sed -n '2s/ .*//p' "$1"; }
replaced=0
for delay in 0.05 0.1 0.15 0.2 0.25 0.3 0.35 0.4 0.45 0.5; do
  # (env --default-signal: a background job of a non-interactive shell would ignore SIGINT)
  env --default-signal=INT "$bin/nestris-tune" --state s.st --out w.txt --protocol 29 --max-lines 1 --games 1 \
    --particles 2 --threads 1 --iterations 100000 >/dev/null 2>err &
  pid=$!
  sleep $delay
  kill -INT $pid
  wait $pid
  code=$?
  if [ $code != 130 ]; then echo "FAIL: after $delay s: exit $code, not 130: $(cat err)"; fail=1; fi
  if ! cmp -s s.st before.st; then
    # Not the old file: it must be a whole state, one that a run resumes from, further on.
    if ! out=$(tune --iterations 0 2>&1); then
      echo "FAIL: after $delay s the state file is neither the old one nor a complete one: $out"; fail=1
    elif [ "$(iteration s.st)" -le "$(iteration before.st)" ]; then
      echo "FAIL: after $delay s the state went back: iteration $(iteration before.st) -> $(iteration s.st)"; fail=1
    else
      echo "ok   after $delay s: a complete new state ($out)"
    fi
    replaced=$((replaced + 1))
    cp s.st before.st
  else
    echo "ok   after $delay s: the old state"
  fi
  left=$(ls -A | grep -v -x -e s.st -e w.txt -e before.st -e err)
  if [ -n "$left" ]; then echo "FAIL: after $delay s, left behind: $left"; fail=1; fi
done
if [ $replaced = 0 ]; then echo "FAIL: no interrupted run replaced the state: the test proved nothing"; fail=1; fi
exit $fail
