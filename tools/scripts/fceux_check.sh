#!/bin/sh
# The patched game in FCEUX, headless: a check on a real emulator (local only; needs your ROM).
#
#   tools/scripts/fceux_check.sh path/to/tetris.nes [build-dir] [frames] [level]
#   tools/scripts/fceux_check.sh --replay MOVIE [--coach] path/to/tetris.nes [build-dir]
#   tools/scripts/fceux_check.sh --movie FILE.fm2 [--power-on hardware|fceux] [--game-ram] ROM [build-dir]
#
# Patches the ROM with the build's nestris-ai into a temporary directory, runs FCEUX under
# xvfb-run with tools/scripts/fceux_check.lua (watch the demo, then an AI game from `level`, default 19,
# for `frames`, default 3600), and prints the summary. The log and screenshots stay in the
# temporary directory it names (they are made from your ROM: keep them to yourself).
# --replay: plays MOVIE (pad bytes, one per line: build/bin/check-identity ROM --movie-out MOVIE)
# from power-on on the original and on the patched ROM, dumps the RAM after every frame, and
# compares the two (the AI's bytes and the stack page left out; frames where a game is not
# waiting for the NMI are skipped, as in tests/game).
# --coach: MOVIE's games are coach games (check-identity --coach --movie-out MOVIE): the original
# plays MOVIE.original (without B at a +10 coach game's Start), the controller's bytes are
# compared without the B bit where the two movies differ and in the frame after, and the coach's
# sprites (the box's slots, CLASS_OAM to the ones' slot GRADE_ONES_X, and the ghost's, GHOST_OAM
# to the page's end) are left out where the original has none there.
# --movie: plays the FCEUX movie FILE.fm2 from power-on in FCEUX (--playmov, the ROM as given,
# not patched) and in this build (run-rom --movie, --power-on fceux unless told otherwise), dumps
# the 2 KiB of RAM after every frame in both and compares them frame by frame; prints the frames
# compared and differing, the first difference, the game's level, lines and score at the end, and
# each rebirth (levelNumber from 255 to 0) seen in FCEUX and here, with its frame. FCEUX may take
# a movie's frames / 45 seconds, at least 1800 (NESTRIS_FCEUX_TIMEOUT=SECONDS sets it); stopped
# there, it says so and compares nothing.
# --game-ram: the game's RAM only, for a movie of an AI game (nestris-ai play --write-movie, the
# patched ROM as ROM): the AI's own RAM (the build's RAM areas, from its cart/usage.txt) and the
# stack page are left out. The AI searches in the time the game leaves it in each frame, so those
# bytes hold where each NMI stopped it: they are the first to part when the two emulators count
# a cycle differently. Without --game-ram they are compared too (they must agree: the FCEUX test
# of play --write-movie compares them); with it, whether the game itself parted.
# Exit status 0 only when every frame is identical.
# Needs the Debian packages fceux and xvfb.
# FCEUX runs with a home of its own, a directory in the temporary directory: it reads and rewrites
# its configuration there ($HOME/.fceux/fceux.cfg, where --playmov leaves SDL.Movie set), never
# the user's.
set -eu
case "${1:-}" in
  -h|--help) sed -n '2,/^set -eu$/p' "$0" | sed -e '/^set -eu$/d' -e 's/^# \{0,1\}//'; exit 0 ;;
esac

# run_fceux SECONDS ARGS...: FCEUX headless under xvfb-run for at most SECONDS, its home (HOME,
# FCEUX_HOME and the XDG directories its Qt build uses) in $out/fceux-home.
run_fceux() {
  limit=$1; shift
  home=$out/fceux-home
  mkdir -p "$home/.config" "$home/.local/share" "$home/.cache"
  HOME=$home FCEUX_HOME=$home XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share \
    XDG_CACHE_HOME=$home/.cache timeout "$limit" xvfb-run -a "$fceux" "$@"
}
here=$(cd "$(dirname "$0")" && pwd)
# NAME's value in an include of game/, $hex (as 0x...) or decimal: the includes are the one source of
# the game's addresses and constants, and the Python and Lua parts below get them from here.
inc_value() {
  sed -n -e "s/^$2[ \t]*= \$\([0-9A-F]*\).*/0x\1/p" -e "s/^$2[ \t]*= \([0-9][0-9]*\).*/\1/p" "$here/../../game/$1" | head -1
}
# What of the game the checks read, as NESTRIS_TETRIS_<name> in the environment of FCEUX's Lua
# script and of the comparisons.
for name in gameMode levelNumber player1_levelNumber lines score player1_playState verticalBlankingInterval \
            GAME_MODE_TITLE GAME_MODE_PLAY GAME_MODE_DEMO GAME_MODE_START_DEMO PLAY_STATE_CURTAIN; do
  value=$(inc_value tetris.inc "$name")
  [ -n "$value" ] || { echo "game/tetris.inc: no $name" >&2; exit 1; }
  export "NESTRIS_TETRIS_$name=$value"
done
replay=
if [ "${1:-}" = --movie ]; then
  movie=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2
  power_on=fceux
  if [ "${1:-}" = --power-on ]; then power_on=$2; shift 2; fi
  game_ram=
  if [ "${1:-}" = --game-ram ]; then game_ram=1; shift; fi
  rom=${1:?usage: tools/scripts/fceux_check.sh --movie FILE.fm2 [--power-on hardware|fceux] [--game-ram] ROM [build-dir]}
  build=${2:-$here/../../build}
  usage_txt=
  if [ -n "$game_ram" ]; then
    usage_txt=$build/cart/usage.txt
    [ -f "$usage_txt" ] || { echo "no $usage_txt: build the project first" >&2; exit 1; }
  fi
  fceux=$(command -v fceux || echo /usr/games/fceux)
  [ -x "$fceux" ] || { echo "fceux not found: sudo apt-get install fceux" >&2; exit 1; }
  command -v xvfb-run >/dev/null || { echo "xvfb-run not found: sudo apt-get install xvfb" >&2; exit 1; }
  out=$(mktemp -d "${TMPDIR:-/tmp}/nestris-fceux.XXXXXX")
  frames=$(grep -c '^|' "$movie")
  "$build/bin/nestris-ai" run-rom "$rom" --movie "$movie" --power-on "$power_on" --ram-trace "$out/ours.txt" >"$out/ours.out"
  # FCEUX dumps about 180 frames a second here with nothing else running: the limit leaves it
  # four times that, at least 30 minutes (a busy machine plays slower; NESTRIS_FCEUX_TIMEOUT sets it).
  limit=${NESTRIS_FCEUX_TIMEOUT:-$(( frames / 45 > 1800 ? frames / 45 : 1800 ))}
  fceux_status=0
  NESTRIS_FCEUX_OUT=$out NESTRIS_FCEUX_MOVIE_FRAMES=$frames \
    run_fceux "$limit" --playmov "$movie" --loadlua "$here/fceux_check.lua" "$rom" >"$out/fceux.out" 2>&1 || fceux_status=$?
  [ -f "$out/ram.txt" ] || { echo "FCEUX wrote no RAM dump; its output: $out/fceux.out" >&2; exit 1; }
  if [ "$fceux_status" = 124 ]; then
    echo "FCEUX was stopped after $limit s, the time limit (NESTRIS_FCEUX_TIMEOUT sets it), with $(wc -l <"$out/ram.txt") of the movie's $frames frames dumped: nothing compared; dumps: $out" >&2
    exit 1
  fi
  status=0
  python3 - "$out/ram.txt" "$out/ours.txt" "$frames" "$power_on" "$usage_txt" <<'PY' || status=$?
import os, re, sys
def tetris(name):  # game/tetris.inc's value (the shell part above exports them)
    return int(os.environ["NESTRIS_TETRIS_" + name], 0)
LEVEL, LINES, SCORE = tetris("levelNumber"), tetris("lines"), tetris("score")
GAME_MODE, PLAY, BUSY = tetris("gameMode"), tetris("GAME_MODE_PLAY"), tetris("verticalBlankingInterval")
frames, power_on, usage = int(sys.argv[3]), sys.argv[4], sys.argv[5]
skip = set()
if usage:
    skip = set(range(0x100, 0x200))
    for line in open(usage):
        m = re.match(r"\S+\s+\$([0-9A-F]{4})-\$([0-9A-F]{4}).*\(RAM\)", line)
        if m:
            skip |= set(range(int(m.group(1), 16), int(m.group(2), 16) + 1))
kept = [i for i in range(0x800) if i not in skip]
def bcd(b): return (b >> 4) * 10 + (b & 15)
def game(ram):  # the hundreds of lines count in binary past 9 (lines_made)
    return (ram[LEVEL], bcd(ram[LINES]) + 100 * ram[LINES + 1],
            bcd(ram[SCORE]) + 100 * bcd(ram[SCORE + 1]) + 10000 * bcd(ram[SCORE + 2]))
# A frame at a time from both dumps (a whole game's dump is gigabytes): what is compared of each
# frame, the game's figures at the last, the rebirths.
compared = differing = busy = figures_apart = 0
first = None
last = {}
idle_bytes = {}
rebirths = {"FCEUX": [], "here": []}
level_before = {"FCEUX": None, "here": None}
with open(sys.argv[1]) as fa, open(sys.argv[2]) as fo:
    def frame_of(f):
        for line in f:
            try:
                n, ram = line.split()
                n, ram = int(n), bytes.fromhex(ram)
            except ValueError:  # a line cut short: the dump's writer stopped there
                return None, None
            if len(ram) != 0x800:
                return None, None
            if 1 <= n <= frames:
                return n, ram
        return None, None
    for k in range(1, frames + 1):
        ka, ra = frame_of(fa)
        ko, ro = frame_of(fo)
        if ka != k or ko != k:
            print("frame %d missing from %s (the dump ends there, or a line of it is cut short): nothing compared from there"
                  % (k, "FCEUX's dump" if ka != k else "ours"))
            sys.exit(1)
        for who, ram in (("FCEUX", ra), ("here", ro)):
            if level_before[who] == 255 and ram[LEVEL] == 0 and ram[GAME_MODE] == PLAY:  # in a game (not the power-on bytes)
                rebirths[who].append(k)
            level_before[who] = ram[LEVEL]
        compared += 1
        if game(ra)[:2] != game(ro)[:2]:
            figures_apart += 1
        if ra != ro and (not skip or any(ra[i] != ro[i] for i in kept)):
            differing += 1
            if first is None:
                a = next(i for i in kept if ra[i] != ro[i])
                first = "frame %d: RAM $%04X FCEUX %02X here %02X" % (k, a, ra[a], ro[a])
            # verticalBlankingInterval set: the game's frame work still under way where the frame
            # ends, caught at another point of it in each (--replay skips such frames).
            if ra[BUSY] or ro[BUSY]:
                busy += 1
            else:
                for i in kept:
                    if ra[i] != ro[i]:
                        idle_bytes.setdefault(i, []).append(k)
        last = {"FCEUX": ra, "here": ro}
what = "the game's RAM (%d bytes: the AI's and the stack page left out)" % len(kept) if skip else "RAM"
print("FCEUX movie, power-on %s, %s: %d frames compared, %d differing%s" % (power_on, what, compared, differing, ": first " + first if first else ""))
if differing:
    print("  %d of them end with the game's frame work under way ($%04X not 0)%s" % (busy, BUSY, "; in the others:" if idle_bytes else ""))
    for i, ks in sorted(idle_bytes.items()):
        print("  $%04X in %d frames, %d to %d" % (i, len(ks), ks[0], ks[-1]))
print("levelNumber ($%04X) or the lines ($%04X-$%04X) apart in %d frames" % (LEVEL, LINES, LINES + 1, figures_apart))
lf = game(last["FCEUX"]); lo = game(last["here"])
print("at the end (frame %d): FCEUX level %d, %d lines, score %d; here level %d, %d lines, score %d" % ((frames,) + lf + lo))
for who in ("FCEUX", "here"):
    if rebirths[who]:
        print("%s: the rebirth (levelNumber $%04X from 255 to 0) in frame %s" % (who, LEVEL, ", ".join(str(k) for k in rebirths[who])))
sys.exit(1 if differing else 0)
PY
  echo "dumps: $out"
  exit $status
fi
coach=
if [ "${1:-}" = --replay ]; then
  replay=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2
  if [ "${1:-}" = --coach ]; then coach=1; shift; fi
fi
rom=${1:?usage: tools/scripts/fceux_check.sh [--replay MOVIE [--coach]] ROM [build-dir] [frames] [level]}
original_replay=$replay
if [ -n "$coach" ]; then
  original_replay=$replay.original
  [ -f "$original_replay" ] || { echo "no $original_replay: write the movie with check-identity --coach --movie-out" >&2; exit 1; }
fi
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
    input=$replay
    if [ $which = original ]; then cp "$rom" "$out/$which/game.nes"; input=$original_replay; else cp "$out/tetris-nestris-ai.nes" "$out/$which/game.nes"; fi
    NESTRIS_FCEUX_OUT=$out/$which NESTRIS_FCEUX_INPUT=$input \
      run_fceux 1800 --loadlua "$here/fceux_check.lua" "$out/$which/game.nes" >"$out/$which/fceux.out" 2>&1 || true
  done
  coach_oam="$(inc_value hooks.inc CLASS_OAM) $(inc_value hooks.inc GRADE_ONES_X) $(inc_value hooks.inc GHOST_OAM)"
  oam_staging=$(inc_value tetris.inc oamStaging)
  b_bit=$(inc_value tetris.inc BUTTON_B)
  button_bytes="$(inc_value tetris.inc newlyPressedButtons_player1) $(inc_value tetris.inc heldButtons_player1) $(inc_value tetris.inc newlyPressedButtons) $(inc_value tetris.inc generalCounter2)"
  python3 - "$out" "$ai_mode" "$build/cart/usage.txt" "$coach" "$replay" "$original_replay" "$coach_oam" "$b_bit" "$button_bytes" "$oam_staging" <<'PY' || status=$?
import os, re, sys
def tetris(name):  # game/tetris.inc's value (the shell part above exports them)
    return int(os.environ["NESTRIS_TETRIS_" + name], 0)
GAME_MODE, BUSY = tetris("gameMode"), tetris("verticalBlankingInterval")
TO_DEMO = (tetris("GAME_MODE_DEMO"), tetris("GAME_MODE_START_DEMO"))
out, ai = sys.argv[1], int(sys.argv[2], 16)
coach, oam = sys.argv[4] == "1", int(sys.argv[10], 16)
grade_first, grade_ones, ghost_first = (int(a, 16) for a in sys.argv[7].split())
# the coach's sprites: the box's slots (the class's label, then the grade, to the ones' slot's end) and the ghost's (to the page's end)
coach_sprites = set(range(oam + grade_first, oam + grade_ones + 4)) | set(range(oam + ghost_first, oam + 0x100))
pads = [l.strip() for l in open(sys.argv[5])]
original_pads = [l.strip() for l in open(sys.argv[6])]
B_BIT = int(sys.argv[8], 16)  # the game's B, in the controller poll's bytes (game/tetris.inc):
# newlyPressedButtons_player1, heldButtons_player1, newlyPressedButtons, generalCounter2
button_bytes = tuple(int(a, 16) for a in sys.argv[9].split())
assert len(button_bytes) == 4, "game/tetris.inc: the controller's bytes not found"
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
        if ra[GAME_MODE] in TO_DEMO or rb[GAME_MODE] in TO_DEMO:
            print("frame %d: the title timed out into the demo (the movie's Start came late on FCEUX): "
                  "compared up to here" % frames)
            break
        if ra[BUSY] or rb[BUSY]:
            continue  # a game still busy at the frame's end: compared at the next idle frame
        compared += 1
        leave = set()
        if coach:
            if all(ra[a] == 0xFF for a in coach_sprites):
                leave |= coach_sprites
            k = frames - 1  # this frame's pads, and the frame before's
            apart = any(0 <= j < len(pads) and pads[j] != original_pads[j] for j in (k, k - 1))
        else:
            apart = False
        def byte(r, i):
            return r[i] & ~B_BIT if apart and i in button_bytes else r[i]
        diff = [i for i in range(0x800) if i not in skip and i not in leave and byte(ra, i) != byte(rb, i)]
        if diff and first is None:
            first = "frame %d: RAM $%04X original %02X patched %02X" % (frames, diff[0], ra[diff[0]], rb[diff[0]])
print("FCEUX replay: %d frames, %d compared: %s" % (frames, compared, first or "identical"))
sys.exit(1 if first else 0)
PY
  echo "dumps: $out"
  exit ${status:-0}
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
