#!/bin/sh
# tools/scripts/fceux_check.sh gives FCEUX a home of its own: FCEUX rewrites $HOME/.fceux/fceux.cfg when
# it exits (--playmov leaves SDL.Movie set there), and the user's must be neither read nor
# changed. Plays a two-frame movie on the synthetic ROM (not the game) with HOME set to an empty
# directory, which must stay empty, while FCEUX's own home in the script's temporary directory
# gets its configuration. SKIPPED without the Debian packages fceux and xvfb.
#   fceux_home_test.sh SOURCE_DIR BUILD_DIR ROM
set -eu
src=$1
build=$2
rom=$3
. "$src/tests/fceux/needs.sh"
needs_fceux
work=$(mktemp -d "${TMPDIR:-/tmp}/nestris-fceux-home-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/home" "$work/tmp"
printf 'version 3\nport0 1\nport1 0\nport2 0\n|0|........|||\n|0|........|||\n' >"$work/m.fm2"
# The comparison itself is not what is tested here (any ROM will do): only where FCEUX wrote.
HOME=$work/home TMPDIR=$work/tmp sh "$src/tools/scripts/fceux_check.sh" --movie "$work/m.fm2" "$rom" "$build" || true
if [ -n "$(ls -A "$work/home")" ]; then
  echo "FCEUX wrote into the user's home:"; find "$work/home"; exit 1
fi
ls "$work"/tmp/nestris-fceux.*/fceux-home/.fceux/fceux.cfg >/dev/null 2>&1 ||
  { echo "FCEUX wrote no configuration into its own home: did it run?"; exit 1; }
echo "the user's home untouched; FCEUX's configuration in its own"
