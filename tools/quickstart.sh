#!/usr/bin/env bash
# nestris-ai from a fresh clone, in one command: installs the Debian packages that are missing,
# builds nestris-ai, writes the patches (nestris-ai.ips, nestris-ai.bps) and, if you have Tetris (USA), patches it.
#
#   tools/quickstart.sh [path/to/tetris.nes]
#
# Without an argument it looks for tetris.nes in the current directory, then in the repository.
# Your ROM is never modified: the patched copy is written next to it (tetris-nestris-ai.nes).
# With no ROM at all, it shows the AI instead: the shipped 6502 code plays 20 games from level 19
# against the C++ model of the game, in the embedded emulator (nestris-ai simulate --player cart).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
build="$repo/build"
patch_file="$repo/nestris-ai.ips"

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

step() { echo; echo "== quickstart: $*"; }

step "installing missing Debian packages (tools/install-deps.sh)"
"$repo/tools/install-deps.sh" --build-only

step "configuring and building nestris-ai in $build"
cmake -S "$repo" -B "$build"
cmake --build "$build" -j"$(nproc)" --target nestris-ai

step "writing the patch"
"$build/bin/nestris-ai" build -o "$patch_file"

if [ -n "$rom" ]; then
  step "patching $rom"
  if ! "$build/bin/nestris-ai" patch "$rom"; then
    echo
    echo "quickstart: the patch was built ($patch_file), but $rom was not patched (see above)." >&2
    exit 1
  fi
else
  step "no ROM: the cartridge AI plays 20 games from level 19 on the game model (to 230 lines)"
  "$build/bin/nestris-ai" simulate --player cart --games 20 --level 19 --max-lines 230 --boards \
    | tail -n 30
fi

echo
echo "== quickstart: done"
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
  echo "    tools/quickstart.sh path/to/tetris.nes"
  echo "  more AI games: $build/bin/nestris-ai simulate --player cart --games 100  (options: simulate --help)"
fi
