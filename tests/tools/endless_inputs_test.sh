#!/bin/sh
# bench-emu and nestris-asm read their inputs through the one input reader: a device that never
# ends (/dev/zero) or a FIFO nobody writes is refused at once (exit 1, one error line naming it),
# never read without end or waited on; a bad address is a usage error (exit 2).
#   endless_inputs_test.sh BIN_DIR
set -u
bin=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/nestris-endless.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkfifo "$work/fifo"
fail=0
expect() {  # expect CODE WORDS COMMAND...: the exit code, and WORDS in its one error line
  code=$1; words=$2; shift 2
  timeout 10 "$@" >"$work/out" 2>"$work/err"
  got=$?
  lines=$(wc -l <"$work/err")
  if [ "$got" != "$code" ] || ! grep -q "$words" "$work/err" || [ "$lines" != 1 ]; then
    echo "FAIL: $* -> exit $got (want $code), stderr:"; cat "$work/err"; fail=1
  else
    echo "ok   $* -> exit $got: $(cat "$work/err")"
  fi
}
expect 1 "bench-emu: error: cannot read '/dev/zero': not a regular file" "$bin/bench-emu" --rom /dev/zero --seconds 1
expect 1 "bench-emu: error: cannot read '$work/fifo': not a regular file" "$bin/bench-emu" --bin "$work/fifo" --seconds 1
expect 2 "bench-emu: error: --pc: 'zz' is not an address" "$bin/bench-emu" --pc zz --seconds 1
expect 1 "nestris-asm: error: cannot read '/dev/zero'" "$bin/nestris-asm" --ca65 ca65 --ld65 ld65 --config /dev/zero \
  --work-dir "$work/w" --cpp-out "$work/c.cpp" "$work/fifo"
expect 1 "nestris-asm: error: cannot read '$work/fifo'" "$bin/nestris-asm" --ca65 ca65 --ld65 ld65 --config "$work/fifo" \
  --work-dir "$work/w" --cpp-out "$work/c.cpp" /dev/null
exit $fail
