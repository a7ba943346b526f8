#!/bin/sh
# A command's outputs, all or nothing: every output path is checked before the work, none may be
# another's file, and an output that fails removes the ones written before it.
#   check-identity --coach --movie-out m.txt writes m.txt.original too: a directory, a FIFO or the
#     ROM there is refused before the run (exit 1), and m.txt is not written;
#   simulate --png-dir: onto --json's file, or a directory whose game-1.png is a directory, is
#     refused before the games, no --json written and no picture left (pictures written by a run
#     that then fails are removed again: tests/base, PublishedFiles);
#   play --png-every's screenshots (OUT-000010.png ...) are outputs too: --wav or --write-movie on
#     one of them is two outputs on one file (exit 2), one the run does not write is not.
#   outputs_together_test.sh BIN_DIR
set -u
. "$(dirname "$0")/expect_lib.sh"  # expect CODE WORDS COMMAND...
bin=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/nestris-outputs.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
gone() {  # gone FILE...: none of them there
  for f in "$@"; do
    if [ -e "$f" ]; then echo "FAIL: $f was left behind"; fail=1; fi
  done
}
# check-identity: its ROM read after the outputs are checked (a ROM that is not Tetris would
# otherwise be refused first): the refusal names the output.
printf 'not a ROM\n' >rom.nes
mkdir m.txt.original
expect 1 "cannot write 'm.txt.original': it is a directory" "$bin/check-identity" rom.nes --coach --movie-out m.txt --frames 500
gone m.txt
rmdir m.txt.original
mkfifo m.txt.original
expect 1 "cannot write 'm.txt.original': it is not a regular file" "$bin/check-identity" rom.nes --coach --movie-out m.txt --frames 500
gone m.txt
rm m.txt.original
cp rom.nes m.txt.original
expect 1 "cannot write 'm.txt.original': it is an input of this command" \
  "$bin/check-identity" m.txt.original --coach --movie-out m.txt --frames 500
gone m.txt
cmp -s rom.nes m.txt.original || { echo "FAIL: the ROM was changed"; fail=1; }
rm m.txt.original
# simulate: --png-dir onto --json, and a picture's file that is a directory.

expect 2 "it is --png-dir too" "$bin/nestris-ai" simulate --games 3 --max-lines 2 --quiet --json j.json --png-dir j.json
gone j.json
mkdir -p D/game-1.png
expect 1 "cannot write 'D/game-1.png': it is a directory" "$bin/nestris-ai" simulate --games 3 --max-lines 2 --quiet --json j.json --png-dir D
gone j.json D/game-0.png D/game-2.png
expect 2 "it is the picture of game 2 too" "$bin/nestris-ai" simulate --games 3 --max-lines 2 --quiet --json D/game-2.png --png-dir D
gone D/game-2.png
# play: --png-every's files against the other outputs (checked before the ROM is looked at).
for other in "--wav p-000010.png" "--wav ./p-000020.png" "--write-movie p-000030.png --power-on fceux"; do
  # shellcheck disable=SC2086
  expect 2 "it is the screenshot of frame" "$bin/nestris-ai" play rom.nes --png p.png --png-every 10 --frames 40 $other
done
gone p.png p-000010.png
# Not in the series: frame 50 is past --frames, 15 no multiple of 10, p-10.png another spelling.
for other in "--wav p-000050.png" "--wav p-000015.png" "--wav p-10.png"; do
  # shellcheck disable=SC2086
  expect 1 "not the supported ROM" "$bin/nestris-ai" play rom.nes --png p.png --png-every 10 --frames 40 $other
done
exit $fail
