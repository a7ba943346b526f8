#!/usr/bin/env bash
# nestris-ai from a fresh clone, in one command: installs the Debian packages that are missing,
# builds nestris-ai, writes the patches (nestris-ai.ips, nestris-ai.bps) and, if you have Tetris (USA), patches it.
#
#   tools/scripts/quickstart.sh [path/to/tetris.nes]
#
# Without an argument it looks for tetris.nes in the current directory, then in the repository.
# Your ROM is never modified: the patched copy is written next to it (tetris-nestris-ai.nes).
# With no ROM at all, it shows the AI instead: the shipped 6502 code plays 20 games from level 19
# against the C++ model of the game, in the embedded emulator (nestris-ai simulate --player cart).
#
# It is for a newcomer: a few lines a step. What the installer and the build print goes to
# build/quickstart.log, shown only when a step fails.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
build="$repo/build"
patch_file="$repo/nestris-ai.ips"
log="$build/quickstart.log"

rom="${1:-}"
if [ -n "$rom" ] && [ ! -f "$rom" ]; then
  echo "quickstart: no such file: $rom" >&2
  exit 1
fi
if [ -z "$rom" ]; then
  for candidate in "$PWD/tetris.nes" "$repo/tetris.nes"; do
    if [ -f "$candidate" ]; then rom="$candidate"; break; fi
  done
fi

step() { echo "== quickstart: $*"; }

# Runs a step with its output in the log; on failure shows the log's end and stops.
logged() {
  if ! "$@" >>"$log" 2>&1; then
    echo "quickstart: failed: $*; the end of $log:" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
}

mkdir -p "$build"
: >"$log"
step "installing the Debian packages that are missing (sudo may ask for your password)"
logged "$repo/tools/scripts/install-deps.sh" --build-only
step "building nestris-ai in $build (a few minutes the first time; the output is in $log)"
logged cmake -S "$repo" -B "$build"
logged cmake --build "$build" -j"$(nproc)" --target nestris-ai

step "writing the patches"
"$build/bin/nestris-ai" build -o "$patch_file"

if [ -n "$rom" ]; then
  step "patching $rom"
  if ! "$build/bin/nestris-ai" patch "$rom"; then
    echo "quickstart: the patches were written ($patch_file), but $rom was not patched (see above)." >&2
    exit 1
  fi
else
  step "no ROM found: the AI plays without the game instead"
  echo "The cartridge's AI (the 6502 code the patch adds to the game) plays 20 games from level 19,"
  echo "each to 230 lines or a top-out, on a C++ model of the game in the embedded NES emulator:"
  games="$(mktemp)"
  trap 'rm -f "$games"' EXIT
  "$build/bin/nestris-ai" simulate --player cart --games 20 --level 19 --max-lines 230 --boards --quiet >"$games"
  # The summary's first lines (games, lines, score, level, rates), then game 0's last board, whole.
  awk '/^[0-9]+ games \(/ { on = 1 } on && n < 5 { print; n++ }' "$games"
  echo
  echo "The end of the first game (@ the piece in play, # the stack):"
  awk '/^game 0 \(/ { on = 1 } on && /^$/ { exit } on { print }' "$games"
fi

echo
step "done"
echo "  nestris-ai:  $build/bin/nestris-ai  (try: $build/bin/nestris-ai --help)"
echo "  the patches: $patch_file and ${patch_file%.ips}.bps  (any IPS or BPS tool; BPS checks your dump)"
if [ -n "$rom" ]; then
  rom_dir="$(dirname "$rom")"
  rom_name="$(basename "$rom")"
  stem="${rom_name%.*}"
  [ "$stem" = "$rom_name" ] && ext=".nes" || ext=".${rom_name##*.}"
  echo "  patched ROM: $rom_dir/$stem-nestris-ai$ext  (your $rom is unchanged)"
else
  echo "  no ROM patched: no tetris.nes given or found. Run again with your copy of Tetris (USA):"
  echo "    tools/scripts/quickstart.sh path/to/tetris.nes"
fi
