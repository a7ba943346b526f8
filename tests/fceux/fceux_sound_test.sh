#!/bin/sh
# The game's sound here against FCEUX's: the movie tests/fixtures/fceux/tetris_game.fm2 (the title
# music, the menus' sounds, a game's music and effects, 4 133 frames) in FCEUX and in run-rom
# --power-on fceux (the RAM is identical after every frame: fceux_movie_test.sh). After every frame
# both write what each channel plays: FCEUX from its Lua sound.get() (tests/fceux/fceux_sound.lua),
# this build from run-rom --sound-trace. Compared per channel, over the frames in which either side
# has the channel sounding:
#   pulse 1, pulse 2, noise: the volume (the envelope's output, 0-15: its decay is this build's own
#     model of the envelope, clocked by the frame counter) equal, and the pitch (the period the
#     timer runs at: pulses' sweeps included) equal where both sound;
#   triangle: running or not (its linear and length counters), and the period where both run.
# Passes when, for every channel, at least 99 % of those frames agree on the volume (or running)
# and 99 % on the period. Prints the figures. Local only: needs TETRIS_ROM and the Debian packages
# fceux and xvfb; prints SKIPPED otherwise.
#   fceux_sound_test.sh SOURCE_DIR BUILD_DIR
set -eu
src=$1
build=$2
. "$src/tests/fceux/needs.sh"
needs_rom
fceux=$(command -v fceux || echo /usr/games/fceux)
[ -x "$fceux" ] || { echo "SKIPPED: fceux is not installed"; exit 0; }
command -v xvfb-run >/dev/null || { echo "SKIPPED: xvfb-run is not installed (Debian package xvfb)"; exit 0; }
movie=$src/tests/fixtures/fceux/tetris_game.fm2
frames=$(grep -c '^|' "$movie")
out=$(mktemp -d "${TMPDIR:-/tmp}/nestris-fceux-sound.XXXXXX")
trap 'rm -rf "$out"' EXIT
"$build/bin/nestris-ai" run-rom "$TETRIS_ROM" --movie "$movie" --power-on fceux --sound-trace "$out/ours.txt" >"$out/ours.out"
# FCEUX with a home of its own (as tools/scripts/fceux_check.sh), its sound on a dummy SDL driver.
home=$out/fceux-home
mkdir -p "$home/.config" "$home/.local/share" "$home/.cache"
HOME=$home FCEUX_HOME=$home XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share XDG_CACHE_HOME=$home/.cache \
  SDL_AUDIODRIVER=dummy NESTRIS_FCEUX_OUT=$out NESTRIS_FCEUX_FRAMES=$frames \
  timeout 600 xvfb-run -a "$fceux" --sound 1 --playmov "$movie" --loadlua "$src/tests/fceux/fceux_sound.lua" "$TETRIS_ROM" \
  >"$out/fceux.out" 2>&1 || true
[ -f "$out/done.txt" ] || { echo "FCEUX did not finish the movie; its output:"; cat "$out/fceux.out"; exit 1; }
python3 - "$out/sound.txt" "$out/ours.txt" "$frames" <<'PY'
import sys
def load(path):
    d = {}
    for line in open(path):
        v = [int(x) for x in line.split()]
        d[v[0]] = v[1:]
    return d
fceux, ours, frames = load(sys.argv[1]), load(sys.argv[2]), int(sys.argv[3])
# columns: p1 vol, p1 period, p2 vol, p2 period, tri running, tri period, noise vol, noise period index, noise mode, dmc
channels = [("pulse 1", 0, 1), ("pulse 2", 2, 3), ("triangle", 4, 5), ("noise", 6, 7)]
ok = True
for name, vol, per in channels:
    sounding = level = level1 = both = pitch = 0
    first = None
    for k in range(1, frames + 1):
        if k not in fceux or k not in ours:
            print("frame %d missing from %s" % (k, "FCEUX's trace" if k not in fceux else "ours")); sys.exit(1)
        f, o = fceux[k], ours[k]
        if f[vol] == 0 and o[vol] == 0: continue
        sounding += 1
        level += f[vol] == o[vol]
        level1 += abs(f[vol] - o[vol]) <= 1
        if f[vol] and o[vol]:
            both += 1
            same = f[per] == o[per] and (name != "noise" or f[8] == o[8])
            pitch += same
        if (f[vol] != o[vol] or (f[vol] and o[vol] and f[per] != o[per])) and first is None:
            first = "frame %d: FCEUX %s %d period %d, here %d period %d" % (k, "running" if name == "triangle" else "volume", f[vol], f[per], o[vol], o[per])
    lv = 100.0 * level / sounding if sounding else 100.0
    pt = 100.0 * pitch / both if both else 100.0
    what = "running" if name == "triangle" else "volume"
    print("%-8s: %4d frames sounding; %s equal in %5.1f %% (within 1: %5.1f %%); period equal in %5.1f %% of the %d frames both sound%s"
          % (name, sounding, what, lv, 100.0 * level1 / sounding if sounding else 100.0, pt, both, "; first difference " + first if first else ""))
    if sounding < 50 or lv < 99.0 or pt < 99.0: ok = False
dmc = sum(1 for k in range(1, frames + 1) if fceux[k][9] or ours[k][9])
print("DMC: output level non-zero in %d frames (FCEUX or here)" % dmc)
print("FCEUX's sound and this build's agree" if ok else "FCEUX's sound and this build's DIFFER")
sys.exit(0 if ok else 1)
PY
