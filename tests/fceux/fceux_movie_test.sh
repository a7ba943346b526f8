#!/bin/sh
# An FCEUX movie of tests/fixtures/fceux (tetris_game.fm2: a whole game of Tetris from power-on to
# top-out; tetris_reset_power.fm2: a soft reset and a power cycle; button presses only) in FCEUX and here with --power-on fceux: the 2 KiB of RAM after
# every frame must be identical (tools/scripts/fceux_check.sh --movie). Local only: needs TETRIS_ROM and
# the Debian packages fceux and xvfb; prints SKIPPED otherwise.
#   fceux_movie_test.sh SOURCE_DIR BUILD_DIR MOVIE (a file in tests/fixtures/fceux)
set -eu
src=$1
build=$2
. "$src/tests/fceux/needs.sh"
needs_rom
needs_fceux
"$src/tools/scripts/fceux_check.sh" --movie "$src/tests/fixtures/fceux/$3" "$TETRIS_ROM" "$build"
