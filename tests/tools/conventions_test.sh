#!/bin/sh
# One error convention for every command and tool (README.md, "Commands"): a bad input file (not
# there, a directory) is a refusal, exit 1, with one line "<command>: error: ..." naming it (CLI11's
# file check made it a usage error, exit 2, in words of its own); an option the mode would leave
# unused is a usage error naming it (exit 2), never ignored; a damaged patched ROM says why on
# stderr (it said nothing, exit 1); a refused allocation is "out of memory" on that line.
#   conventions_test.sh BIN_DIR
set -u
. "$(dirname "$0")/expect_lib.sh"  # expect CODE WORDS COMMAND...
bin=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/nestris-conventions.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
mkdir adir
printf 'not a ROM\n' >rom.nes
# 1. A missing file or a directory as input: exit 1, the command's error line.
for input in none.nes adir; do
  expect 1 "measure-lock: error: cannot read '$input'" "$bin/measure-lock" $input --levels 29
  expect 1 "check-identity: error: cannot read '$input'" "$bin/check-identity" $input --movies 1
  expect 1 "measure-idle: error: cannot read '$input'" "$bin/measure-idle" $input
  expect 1 "bench-coach: error: cannot read '$input'" "$bin/bench-coach" $input
  expect 1 "bench-ai: error: cannot read '$input'" "$bin/bench-ai" --weights $input --games 1
  expect 1 "nestris-tune: error: cannot read '$input'" "$bin/nestris-tune" --weights $input --state s.st --out w.txt
  expect 1 "nestris-ai run-rom: error: cannot read '$input'" "$bin/nestris-ai" run-rom $input
  expect 1 "nestris-ai trace: error: cannot read '$input'" "$bin/nestris-ai" trace $input
  expect 1 "nestris-ai run-bin: error: cannot read '$input'" "$bin/nestris-ai" run-bin $input
  expect 1 "nestris-asm: error: cannot read '$input'" "$bin/nestris-asm" --ca65 ca65 --ld65 ld65 --config $input \
    --work-dir w --cpp-out c.cpp rom.nes
done
# run-rom --movie: the ROM is good (an iNES image of NOPs), the movie missing.
printf 'NES\032\001\001\000\000\000\000\000\000\000\000\000\000' >nop.nes
head -c 16384 /dev/zero | tr '\0' '\352' >>nop.nes
head -c 8192 /dev/zero >>nop.nes
expect 1 "nestris-ai run-rom: error: cannot read 'none.fm2': no such file" "$bin/nestris-ai" run-rom nop.nes --movie none.fm2
# 2. Options the mode would leave unused: refused, named.
expect 2 "measure-lock: error: --title-wait goes with --ai-game" "$bin/measure-lock" rom.nes --levels 29 --title-wait 5
expect 2 "measure-lock: error: --margins is for the lock table" "$bin/measure-lock" rom.nes --ai-game 10 --margins 5
expect 2 "measure-lock: error: --windows is for the lock table" "$bin/measure-lock" rom.nes --ai-game 10 --windows
expect 2 "measure-lock: error: --levels is for the lock table" "$bin/measure-lock" rom.nes --ai-game 10 --levels 29
expect 2 "measure-lock: error: --threads goes with --ai-games" "$bin/measure-lock" rom.nes --ai-game 10 --threads 2
expect 2 "measure-lock: error: --threads goes with --ai-games" "$bin/measure-lock" rom.nes --levels 29 --threads 2
expect 2 "measure-lock: error: --ai-game is not for --ai-rule" "$bin/measure-lock" --ai-rule 3 --ai-game 10
expect 2 "measure-lock: error: --levels is not for --ai-rule" "$bin/measure-lock" --ai-rule 3 --levels 5
expect 2 "measure-lock: error: rom is not for --ai-rule: it reads no ROM" "$bin/measure-lock" rom.nes --ai-rule 3
expect 2 "measure-lock: error: --ai-games needs --ai-game" "$bin/measure-lock" rom.nes --ai-games 2
expect 2 "measure-idle: error: The following argument was not expected: --level\|measure-idle: error: The following arguments were not expected" \
  "$bin/measure-idle" rom.nes --level 5
# (the mode's own options pass those checks: the ROM, not Tetris, is what is refused)
expect 1 "not the supported ROM" "$bin/measure-lock" rom.nes --ai-game 10 --ai-games 2 --threads 2 --title-wait 3
expect 1 "not the supported ROM" "$bin/measure-lock" rom.nes --levels 29 --margins 5 --windows --phases 2
"$bin/measure-lock" --ai-rule 3 >out 2>err || { echo "FAIL: measure-lock --ai-rule 3 alone: $(cat err)"; fail=1; }
# 3. A damaged patched ROM: why, on the error line. This build's patch on a file of the game's
# size and header (no byte of the game needed), then one byte of the patch's first record changed.
"$bin/nestris-ai" build -o p.ips --no-bps >/dev/null || { echo "FAIL: build"; fail=1; }
printf 'NES\032\002\002\020\000\000\000\000\000\000\000\000\000' >game.nes
head -c 49152 /dev/zero >>game.nes
"$bin/nestris-ai" apply-ips game.nes p.ips -o patched.nes >/dev/null 2>err || { echo "FAIL: apply-ips: $(cat err)"; fail=1; }
"$bin/nestris-ai" identify patched.nes >/dev/null 2>err || { echo "FAIL: identify of the whole patch: $(cat err)"; fail=1; }
first=$(od -An -tu1 -j5 -N3 p.ips | awk '{ print $1 * 65536 + $2 * 256 + $3 }')
byte=$(od -An -tu1 -j"$first" -N1 patched.nes | tr -d ' ')
printf "\\$(printf %o $((255 - byte)))" | dd of=patched.nes bs=1 seek="$first" conv=notrunc 2>/dev/null
expect 1 "nestris-ai identify: error: patched.nes: a damaged nestris-ai patch" "$bin/nestris-ai" identify patched.nes
# 4. A refused allocation: "out of memory" on the command's error line (it read "std::bad_alloc").
expect 1 "nestris-ai run-rom: error: out of memory" sh -c "ulimit -v 20000; exec \"$bin/nestris-ai\" run-rom nop.nes --input '.*10000000' --frames 1"
exit $fail
