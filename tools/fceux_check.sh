#!/bin/sh
# The patched game in FCEUX, headless: a check on a real emulator (local only; needs your ROM).
#
#   tools/fceux_check.sh path/to/tetris.nes [build-dir] [frames] [level]
#   tools/fceux_check.sh --replay MOVIE path/to/tetris.nes [build-dir]
#
# Patches the ROM with the build's nestris-ai into a temporary directory, runs FCEUX under
# xvfb-run with tools/fceux_check.lua (watch the demo, then an AI game from `level`, default 19,
# for `frames`, default 3600), and prints the summary. The log and screenshots stay in the
# temporary directory it names (they are made from your ROM: keep them to yourself).
# --replay: plays MOVIE (pad bytes, one per line: build/bin/check-identity ROM --movie-out MOVIE)
# from power-on on the original and on the patched ROM, dumps the RAM after every frame, and
# compares the two (the AI's bytes and the stack page left out; frames where a game is not
# waiting for the NMI are skipped, as in tests/game).
# Needs the Debian packages fceux and xvfb.
set -eu
replay=
if [ "${1:-}" = --replay ]; then replay=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2; fi
rom=${1:?usage: tools/fceux_check.sh [--replay MOVIE] ROM [build-dir] [frames] [level]}
here=$(cd "$(dirname "$0")" && pwd)
build=${2:-$here/../build}
frames=${3:-3600}
level=${4:-19}
fceux=$(command -v fceux || echo /usr/games/fceux)
[ -x "$fceux" ] || { echo "fceux not found: sudo apt-get install fceux" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "xvfb-run not found: sudo apt-get install xvfb" >&2; exit 1; }
out=$(mktemp -d "${TMPDIR:-/tmp}/nestris-fceux.XXXXXX")
"$build/bin/nestris-ai" patch "$rom" -o "$out/tetris-nestris-ai.nes" >/dev/null
# ai_mode's address, from this build's labels
ai_mode=$(sed -n 's/^al 0000\([0-9A-F][0-9A-F]\) \.ai_mode$/0x\1/p' "$build/cart/cart.lbl" | head -1)
[ -n "$ai_mode" ] || { echo "no ai_mode in $build/cart/cart.lbl" >&2; exit 1; }
if [ -n "$replay" ]; then
  for which in original patched; do
    mkdir -p "$out/$which"
    if [ $which = original ]; then cp "$rom" "$out/$which/game.nes"; else cp "$out/tetris-nestris-ai.nes" "$out/$which/game.nes"; fi
    NESTRIS_FCEUX_OUT=$out/$which NESTRIS_FCEUX_INPUT=$replay \
      timeout 1800 xvfb-run -a "$fceux" --loadlua "$here/fceux_check.lua" "$out/$which/game.nes" \
      >"$out/$which/fceux.out" 2>&1 || true
  done
  python3 - "$out" "$ai_mode" "$build/cart/usage.txt" <<'PY'
import re, sys
out, ai = sys.argv[1], int(sys.argv[2], 16)
# the AI's RAM (the build's RAM areas, from its usage report) and the stack page
skip = set(range(0x100, 0x200))
for line in open(sys.argv[3]):
    m = re.match(r"\S+\s+\$([0-9A-F]{4})-\$([0-9A-F]{4}).*\(RAM\)", line)
    if m:
        skip |= set(range(int(m.group(1), 16), int(m.group(2), 16) + 1))
frames = compared = 0
first = None
with open(out + "/original/ram.txt") as a, open(out + "/patched/ram.txt") as b:
    for la, lb in zip(a, b):
        frames += 1
        ra, rb = bytes.fromhex(la.split()[1]), bytes.fromhex(lb.split()[1])
        if ra[0xC0] in (5, 6) or rb[0xC0] in (5, 6):
            print("frame %d: the title timed out into the demo (the movie's Start came late on FCEUX): "
                  "compared up to here" % frames)
            break
        if ra[0x33] or rb[0x33]:
            continue  # a game still busy at the frame's end: compared at the next idle frame
        compared += 1
        diff = [i for i in range(0x800) if i not in skip and ra[i] != rb[i]]
        if diff and first is None:
            first = "frame %d: RAM $%04X original %02X patched %02X" % (frames, diff[0], ra[diff[0]], rb[diff[0]])
print("FCEUX replay: %d frames, %d compared: %s" % (frames, compared, first or "identical"))
PY
  echo "dumps: $out"
  exit 0
fi
NESTRIS_FCEUX_OUT=$out NESTRIS_AI_MODE=$ai_mode NESTRIS_FCEUX_FRAMES=$frames NESTRIS_FCEUX_LEVEL=$level \
  timeout 900 xvfb-run -a "$fceux" --loadlua "$here/fceux_check.lua" "$out/tetris-nestris-ai.nes" \
  >"$out/fceux.out" 2>&1 || true
if [ -f "$out/fceux_check.txt" ]; then
  cat "$out/fceux_check.txt"
  echo "log and screenshots: $out"
else
  echo "FCEUX did not finish the script; its output: $out/fceux.out" >&2
  exit 1
fi
