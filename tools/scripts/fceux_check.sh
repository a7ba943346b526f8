#!/bin/sh
# The patched game in FCEUX, headless: a check on a real emulator (local only; needs your ROM).
#
#   tools/scripts/fceux_check.sh path/to/tetris.nes [build-dir] [frames] [level]
#   tools/scripts/fceux_check.sh --replay MOVIE path/to/tetris.nes [build-dir]
#   tools/scripts/fceux_check.sh --movie FILE.fm2 [--power-on hardware|fceux] ROM [build-dir]
#
# Patches the ROM with the build's nestris-ai into a temporary directory, runs FCEUX under
# xvfb-run with tools/scripts/fceux_check.lua (watch the demo, then an AI game from `level`, default 19,
# for `frames`, default 3600), and prints the summary. The log and screenshots stay in the
# temporary directory it names (they are made from your ROM: keep them to yourself).
# --replay: plays MOVIE (pad bytes, one per line: build/bin/check-identity ROM --movie-out MOVIE)
# from power-on on the original and on the patched ROM, dumps the RAM after every frame, and
# compares the two (the AI's bytes and the stack page left out; frames where a game is not
# waiting for the NMI are skipped, as in tests/game).
# --movie: plays the FCEUX movie FILE.fm2 from power-on in FCEUX (--playmov, the ROM as given,
# not patched) and in this build (run-rom --movie, --power-on fceux unless told otherwise), dumps
# the 2 KiB of RAM after every frame in both and compares them frame by frame; prints the frames
# compared and differing, the first difference, and the game's lines and score at the end.
# Exit status 0 only when every frame is identical.
# Needs the Debian packages fceux and xvfb.
# FCEUX runs with a home of its own, a directory in the temporary directory: it reads and rewrites
# its configuration there ($HOME/.fceux/fceux.cfg, where --playmov leaves SDL.Movie set), never
# the user's.
set -eu

# run_fceux SECONDS ARGS...: FCEUX headless under xvfb-run for at most SECONDS, its home (HOME,
# FCEUX_HOME and the XDG directories its Qt build uses) in $out/fceux-home.
run_fceux() {
  limit=$1; shift
  home=$out/fceux-home
  mkdir -p "$home/.config" "$home/.local/share" "$home/.cache"
  HOME=$home FCEUX_HOME=$home XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share \
    XDG_CACHE_HOME=$home/.cache timeout "$limit" xvfb-run -a "$fceux" "$@"
}
replay=
if [ "${1:-}" = --movie ]; then
  movie=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2
  power_on=fceux
  if [ "${1:-}" = --power-on ]; then power_on=$2; shift 2; fi
  rom=${1:?usage: tools/scripts/fceux_check.sh --movie FILE.fm2 [--power-on hardware|fceux] ROM [build-dir]}
  here=$(cd "$(dirname "$0")" && pwd)
  build=${2:-$here/../../build}
  fceux=$(command -v fceux || echo /usr/games/fceux)
  [ -x "$fceux" ] || { echo "fceux not found: sudo apt-get install fceux" >&2; exit 1; }
  command -v xvfb-run >/dev/null || { echo "xvfb-run not found: sudo apt-get install xvfb" >&2; exit 1; }
  out=$(mktemp -d "${TMPDIR:-/tmp}/nestris-fceux.XXXXXX")
  frames=$(grep -c '^|' "$movie")
  "$build/bin/nestris-ai" run-rom "$rom" --movie "$movie" --power-on "$power_on" --ram-trace "$out/ours.txt" >"$out/ours.out"
  NESTRIS_FCEUX_OUT=$out NESTRIS_FCEUX_MOVIE_FRAMES=$frames \
    run_fceux 1800 --playmov "$movie" --loadlua "$here/fceux_check.lua" "$rom" >"$out/fceux.out" 2>&1 || true
  [ -f "$out/ram.txt" ] || { echo "FCEUX wrote no RAM dump; its output: $out/fceux.out" >&2; exit 1; }
  status=0
  python3 - "$out/ram.txt" "$out/ours.txt" "$frames" "$power_on" <<'PY' || status=$?
import sys
def load(path):
    d = {}
    for line in open(path):
        n, ram = line.split()
        d[int(n)] = bytes.fromhex(ram)
    return d
fceux, ours, frames, power_on = load(sys.argv[1]), load(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
compared = differing = 0
first = None
for k in range(1, frames + 1):
    if k not in fceux or k not in ours:
        print("frame %d missing from %s" % (k, "FCEUX's dump" if k not in fceux else "ours"))
        sys.exit(1)
    compared += 1
    if fceux[k] != ours[k]:
        differing += 1
        if first is None:
            a = next(i for i in range(0x800) if fceux[k][i] != ours[k][i])
            first = "frame %d: RAM $%04X FCEUX %02X here %02X" % (k, a, fceux[k][a], ours[k][a])
def bcd(b): return (b >> 4) * 10 + (b & 15)
def game(ram): return bcd(ram[0x50]) + 100 * bcd(ram[0x51]), bcd(ram[0x53]) + 100 * bcd(ram[0x54]) + 10000 * bcd(ram[0x55])
lf, sf = game(fceux[frames]); lo, so = game(ours[frames])
print("FCEUX movie, power-on %s: %d frames compared, %d differing%s" % (power_on, compared, differing, ": first " + first if first else ""))
print("at the end: FCEUX %d lines, score %d; here %d lines, score %d" % (lf, sf, lo, so))
sys.exit(1 if differing else 0)
PY
  echo "dumps: $out"
  exit $status
fi
if [ "${1:-}" = --replay ]; then replay=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2; fi
rom=${1:?usage: tools/scripts/fceux_check.sh [--replay MOVIE] ROM [build-dir] [frames] [level]}
here=$(cd "$(dirname "$0")" && pwd)
build=${2:-$here/../../build}
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
      run_fceux 1800 --loadlua "$here/fceux_check.lua" "$out/$which/game.nes" >"$out/$which/fceux.out" 2>&1 || true
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
  run_fceux 900 --loadlua "$here/fceux_check.lua" "$out/tetris-nestris-ai.nes" >"$out/fceux.out" 2>&1 || true
if [ -f "$out/fceux_check.txt" ]; then
  cat "$out/fceux_check.txt"
  echo "log and screenshots: $out"
else
  echo "FCEUX did not finish the script; its output: $out/fceux.out" >&2
  exit 1
fi
