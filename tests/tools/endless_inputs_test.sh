#!/bin/sh
# bench-emu and nestris-asm read their inputs through the one input reader: a device that never
# ends (/dev/zero) or a FIFO nobody writes is refused at once (exit 1, one error line naming it),
# never read without end or waited on; a bad address, or a count past its bound (2^64 among
# them) or a list that is not one (measure-idle --levels abc), is a usage error (exit 2) naming
# the option or the item, never a run without end; so is an option the
# mode would leave unused (check-identity's --title-wait, --level, --b-type without --ai-games).
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
  lines=$(grep -vc '^Run with --help' "$work/err")
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
printf 'not a ROM\n' >"$work/rom.nes"  # the counts are checked before the ROM is read
expect 2 "play: error: --frames: Value 18446744073709551616 not in range 0 to 100000000" \
  "$bin/nestris-ai" play "$work/rom.nes" --coach --frames 18446744073709551616
expect 2 "check-identity: error: --ai-games: Value 18446744073709551615 not in range 0 to 1000000" \
  "$bin/check-identity" "$work/rom.nes" --ai-games 18446744073709551615
expect 2 "check-identity: error: --movies: Value 1000001 not in range" "$bin/check-identity" "$work/rom.nes" --movies 1000001
expect 2 "check-identity: error: --title-wait goes with --ai-games" "$bin/check-identity" "$work/rom.nes" --movies 1 --title-wait 3
expect 2 "check-identity: error: --level goes with --ai-games" "$bin/check-identity" "$work/rom.nes" --level 9
expect 2 "check-identity: error: --b-type goes with --ai-games" "$bin/check-identity" "$work/rom.nes" --high-levels 1 --b-type
expect 2 "check-identity: error: --hate goes with --ai-games" "$bin/check-identity" "$work/rom.nes" --movies 1 --hate
expect 2 "check-identity: error: --hate goes with --ai-games" "$bin/check-identity" "$work/rom.nes" --ai-games 1 --hate --against-original
expect 2 "measure-idle: error: 'abc' is not a number (in 'abc')" "$bin/measure-idle" "$work/rom.nes" --levels abc
expect 2 "measure-idle: error: --levels are 0-255" "$bin/measure-idle" "$work/rom.nes" --levels 19,256
exit $fail
