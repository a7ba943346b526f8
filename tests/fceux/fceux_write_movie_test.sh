#!/bin/sh
# A movie `nestris-ai play --write-movie` writes of an AI game replays the game in FCEUX: played
# there on the patched ROM (--playmov) and here, the whole 2 KiB of RAM must be the same after
# every frame, the AI's own bytes and the stack page too: they hold where each NMI stopped the
# AI's search, so the NMI must stop it at the same instruction in FCEUX as here (the CPU's cycles,
# OAM DMA's among them, counted as FCEUX counts them). 5 000 frames from level 19. Local
# only: needs TETRIS_ROM and the Debian packages fceux and xvfb; prints SKIPPED otherwise.
#   fceux_write_movie_test.sh SOURCE_DIR BUILD_DIR
set -eu
src=$1
build=$2
. "$src/tests/fceux/needs.sh"
needs_rom
needs_fceux
# The patched ROM and the RAM dumps are made from the user's ROM: all in here, removed at the end.
work=$(mktemp -d "${TMPDIR:-/tmp}/nestris-write-movie-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp"
cp "$TETRIS_ROM" "$work/tetris.nes"
"$build/bin/nestris-ai" patch "$work/tetris.nes" >/dev/null
"$build/bin/nestris-ai" play "$work/tetris.nes" --title-wait 1 --power-on fceux --frames 5000 --write-movie "$work/ai.fm2" \
  >"$work/play.txt"
cat "$work/play.txt"
status=0
TMPDIR=$work/tmp sh "$src/tools/scripts/fceux_check.sh" --movie "$work/ai.fm2" "$work/tetris-nestris-ai.nes" "$build" \
  >"$work/check.txt" || status=$?
cat "$work/check.txt"
[ $status = 0 ] || exit $status
# What play printed at its end is what FCEUX shows at the movie's last frame.
ours=$(sed -n 's/.*at the end: .*, \(level [0-9]*, [0-9]* lines, score [0-9]*\).*/\1/p' "$work/play.txt")
theirs=$(sed -n 's/^at the end (frame [0-9]*): FCEUX \(level [0-9]*, [0-9]* lines, score [0-9]*\);.*/\1/p' "$work/check.txt")
[ -n "$ours" ] && [ "$ours" = "$theirs" ] || { echo "play printed '$ours', FCEUX shows '$theirs'"; exit 1; }
echo "play's end state is FCEUX's: $ours"
