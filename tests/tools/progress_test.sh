#!/bin/sh
# The stand-alone tools' long runs say how far they are on stderr: elsewhere than on a terminal
# (here, a file) a line at each tenth of the run with the time left, the last one "N/N unit, ...";
# stdout has their results as before, no progress in it. Tiny runs, with one thread: each item
# outlasts the pool's report interval (100 ms), so a tenth before the end is reported too.
#   progress_test.sh BIN_DIR bench-cart   (no game needed)
#   progress_test.sh BIN_DIR game         check-identity, measure-lock, measure-idle (TETRIS_ROM; SKIPPED without it)
set -eu
bin="$1"
part="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0

# check TOOL LAST LEFT FIRST_OUT ARGS...: TOOL ARGS exits 0; its stderr ends with the line
# "TOOL: LAST, ..."; with LEFT=left a line before says the time left; stdout starts with FIRST_OUT
# and holds no progress.
check() {
    tool="$1" last="$2" left="$3" first_out="$4"
    shift 4
    status=0
    "$bin/$tool" "$@" >"$tmp/out" 2>"$tmp/err" || status=$?
    if [ "$status" -ne 0 ]; then
        echo "FAIL: $tool $*: exit status $status"; cat "$tmp/err"; fail=1; return
    fi
    if ! tail -n 1 "$tmp/err" | grep -q "^$tool: $last, [0-9.]* s$"; then
        echo "FAIL: $tool $*: stderr does not end with '$tool: $last, ... s':"; cat "$tmp/err"; fail=1
    fi
    if [ "$left" = left ] && ! grep -q "^$tool: [0-9]*/[0-9]* .*, about .* left$" "$tmp/err"; then
        echo "FAIL: $tool $*: no line with the time left on stderr:"; cat "$tmp/err"; fail=1
    fi
    if ! head -n 1 "$tmp/out" | grep -q "^$first_out"; then
        echo "FAIL: $tool $*: stdout does not start with '$first_out':"; cat "$tmp/out"; fail=1
    fi
    if grep -q "^$tool: \| left$" "$tmp/out"; then
        echo "FAIL: $tool $*: progress on stdout:"; cat "$tmp/out"; fail=1
    fi
    echo "$tool $*: $(wc -l <"$tmp/err") lines on stderr, the last: $(tail -n 1 "$tmp/err")"
}

case "$part" in
bench-cart)
    check bench-cart "3/3 games" left "searches: [0-9]* (3 games from level 19, 0 random positions)" \
        --games 3 --frames 3000 --threads 1
    check bench-cart "2/2 games and positions" - "searches: " --games 1 --positions 1 --frames 300 --threads 1
    check bench-cart "2/2 loop games" - "cartridge in the loop: 2 games from level 19" \
        --loop-games 2 --frames 100 --threads 1
    ;;
game)
    rom="${TETRIS_ROM:-}"
    if [ -z "$rom" ] || [ ! -r "$rom" ]; then
        echo "SKIPPED: set TETRIS_ROM=/path/to/tetris.nes (Tetris (USA)) to run this test"
        exit 0
    fi
    check check-identity "3/3 movies" left "movie 1: 1500 frames" "$rom" --movies 3 --frames 1500 --threads 1
    check check-identity "2/2 games" - "AI game 0 (title wait 0): 300 frames" "$rom" --ai-games 2 --frames 300 --threads 1
    check check-identity "2/2 games" - "game 0 (level 100, seed 1): 100 frames" "$rom" --high-levels 2 --frames 100 --threads 1
    check measure-lock "2/2 cases" left "cycles from the scoring frame's NMI entry" "$rom" --levels 29 --clears 0-1
    check measure-lock "2/2 games" - "AI game (title wait 0): 300 frames" "$rom" --ai-game 300 --ai-games 2 --threads 1
    check measure-idle "600/600 frames" left "CPU cycles per frame" "$rom" --levels 0,19 --frames 300
    ;;
*)
    echo "usage: progress_test.sh BIN_DIR bench-cart|game" >&2
    exit 2
    ;;
esac
exit $fail
