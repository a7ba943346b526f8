#!/bin/sh
# The sound is written as it is made: run-rom --wav of 6 000 frames at 192 kHz (a 38 MB WAV)
# runs in 80 MB of address space (it held every sample, then a copy of the file: std::bad_alloc),
# its WAV whole (the header's sizes those of the file, the sample count printed); interrupted, it
# leaves no WAV and no temporary file (exit 130). play counts every frame from power-on (your
# input's, the menu walk's) toward --wav's bound of 216 000, as run-rom does (a usage error, exit
# 2; --input '.*10000000' --frames 0 grew until std::bad_alloc).
#   wav_stream_test.sh BIN_DIR ROM   (ROM: any iNES image; the synthetic one)
set -u
. "$(dirname "$0")/expect_lib.sh"  # expect CODE WORDS COMMAND...
bin=$1
rom=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/nestris-wav.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
# 1. Small memory, a whole file.
(ulimit -v 80000; "$bin/nestris-ai" run-rom "$rom" --frames 6000 --wav "$work/o.wav" --sample-rate 192000) \
  >"$work/out" 2>"$work/err"
code=$?
size=$(stat -c %s "$work/o.wav" 2>/dev/null || echo 0)
le32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
samples=$(sed -n 's/^sound: .*, \([0-9]*\) samples at 192000 Hz.*/\1/p' "$work/out")
if [ $code != 0 ] || [ "$size" -lt 38000000 ] || [ "$(le32 "$work/o.wav" 4)" != $((size - 8)) ] ||
   [ "$(le32 "$work/o.wav" 40)" != $((size - 44)) ] || [ "${samples:-0}" != $(((size - 44) / 2)) ]; then
  echo "FAIL: run-rom --wav in 80 MB -> exit $code, $size bytes, $samples samples:"; cat "$work/out" "$work/err"; fail=1
else
  echo "ok   run-rom --wav of 6 000 frames at 192 kHz in 80 MB of address space: $size bytes, $samples samples"
fi
ls "$work" | grep -q '^\.' && { echo "FAIL: a temporary file left: $(ls -A "$work")"; fail=1; }
# 2. Interrupted: no WAV, no temporary file.
rm -f "$work/o.wav"
# (env --default-signal: a background job of a non-interactive shell would ignore SIGINT)
env --default-signal=INT "$bin/nestris-ai" run-rom "$rom" --frames 200000 --wav "$work/o.wav" --sample-rate 192000 \
  >/dev/null 2>&1 &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid
code=$?
left=$(ls -A "$work" | grep -v -x -e out -e err)
if [ $code != 130 ] || [ -n "$left" ]; then
  echo "FAIL: run-rom --wav interrupted -> exit $code, left: $left"; fail=1
else
  echo "ok   run-rom --wav interrupted: exit 130, nothing left"
fi
# 3. play's bound counts the frames before the run (checked before the ROM is looked at); at the
# bound the options pass and the ROM, not Tetris, is refused (exit 1).
cd "$work" || exit 1
printf 'not a ROM\n' >rom.nes
expect 2 "play: error: --wav: at most 216000 frames from power-on" \
  "$bin/nestris-ai" play rom.nes --input '.*10000000' --frames 0 --wav p.wav --sample-rate 192000
if [ -e p.wav ]; then echo "FAIL: play wrote p.wav"; fail=1; fi
expect 2 "not 216001 (200000 before the run, 16001 of --frames)" \
  "$bin/nestris-ai" play rom.nes --input '.*200000' --frames 16001 --wav p.wav
expect 1 "not the supported ROM" "$bin/nestris-ai" play rom.nes --input '.*200000' --frames 16000 --wav p.wav
exit $fail
