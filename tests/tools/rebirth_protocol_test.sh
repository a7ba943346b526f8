#!/bin/sh
# tools/scripts/rebirth-protocol.sh: its usage, a claim a live worker holds left alone and one whose
# worker is gone taken over, a failed game kept out of the results (and said), an output it cannot
# read named and not counted; with the game (TETRIS_ROM), two short games, one with each tool, in
# its summary.
#   rebirth_protocol_test.sh SOURCE_DIR BIN_DIR
set -eu
src="$1"
bin="$2"
script="$src/tools/scripts/rebirth-protocol.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
synthetic="$tmp/zeros.nes"  # no Tetris: every game on it fails
head -c 49168 /dev/zero > "$synthetic"
fail=0
no() { echo "FAIL: $*"; fail=1; }

status=0
bash "$script" >/dev/null 2>"$tmp/err" || status=$?
[ "$status" -eq 2 ] && grep -q "rebirth-protocol.sh run DIR ROM FIRST LAST" "$tmp/err" || no "no command: exit $status, not the usage"
status=0
bash "$script" --help >"$tmp/out" 2>&1 || status=$?
[ "$status" -eq 0 ] && grep -q "^  tools/scripts/rebirth-protocol.sh summary DIR" "$tmp/out" && grep -q "^summary: " "$tmp/out" ||
    no "--help: exit $status: $(cat "$tmp/out")"
status=0
bash "$script" run "$tmp/d" "$synthetic" 10 300 >/dev/null 2>"$tmp/err" || status=$?
[ "$status" -eq 1 ] && grep -q "title waits are 0-225" "$tmp/err" || no "title wait 300: exit $status: $(cat "$tmp/err")"
[ ! -e "$tmp/d" ] || no "a refused run made its directory"

# A claim held by a live worker (this shell) is left alone; one from another boot is taken over.
# On the file of zeros each game fails, leaves no output and is said.
mkdir -p "$tmp/d/tw-3.claim" "$tmp/d/tw-4.claim"
echo $$ > "$tmp/d/tw-3.claim/pid"
cat /proc/sys/kernel/random/boot_id > "$tmp/d/tw-3.claim/boot" 2>/dev/null || hostname > "$tmp/d/tw-3.claim/boot"
echo $$ > "$tmp/d/tw-4.claim/pid"
echo "another boot" > "$tmp/d/tw-4.claim/boot"
status=0
bash "$script" run "$tmp/d" "$synthetic" 3 4 --frames 10 --build "$bin/.." >"$tmp/out" 2>"$tmp/err" || status=$?
[ "$status" -eq 1 ] || no "a run whose games fail: exit $status"
grep -q "title wait 4: play exited with status 1" "$tmp/err" || no "the failed game not said: $(cat "$tmp/err")"
grep -q "1 title waits not played" "$tmp/err" || no "the failures not counted: $(cat "$tmp/err")"
grep -q "not the supported ROM" "$tmp/d/tw-4.claim/stderr" 2>/dev/null || no "the stale claim was not taken over"
[ ! -e "$tmp/d/tw-3.claim/stderr" ] || no "a live worker's claim was taken"
[ ! -e "$tmp/d/tw-4.txt" ] || no "a failed game left an output"
grep -q "build [0-9A-F]\{8\}" "$tmp/d/build.txt" || no "no build id in build.txt"
# A record of another build's games goes on with that build only.
mkdir -p "$tmp/other"
echo "0.1.0, build 00000000" > "$tmp/other/build.txt"
status=0
bash "$script" run "$tmp/other" "$synthetic" 3 3 --build "$bin/.." >/dev/null 2>"$tmp/err" || status=$?
[ "$status" -eq 1 ] && grep -q "games are 0.1.0, build 00000000" "$tmp/err" || no "another build's record: exit $status: $(cat "$tmp/err")"
[ ! -e "$tmp/other/tw-3.claim" ] || no "another build's record: a game was claimed"
status=0
bash "$script" summary "$tmp/d" >"$tmp/out" 2>"$tmp/err" || status=$?
[ "$status" -eq 1 ] && grep -q "no games" "$tmp/err" || no "summary without games: exit $status"
echo "junk" > "$tmp/d/tw-9.txt"
status=0
bash "$script" summary "$tmp/d" >"$tmp/out" 2>&1 || status=$?
[ "$status" -eq 1 ] && grep -q "could not be read" "$tmp/out" && grep -q "tw-9.txt" "$tmp/out" ||
    no "an unreadable output: exit $status: $(cat "$tmp/out")"
! grep -q "^[0-9]* games:" "$tmp/out" || no "an unreadable output counted as a game"
# Three play outputs still playing at their last frame, dealt from one seed: 5 and 7 one game, 6
# another (its pieces differ, its frames, lines and level the same).
rm -f "$tmp/d/tw-9.txt"
for tw in 5 6 7; do
    {
        echo "# play, title wait $tw, --frames 2000000, exit status 0, 0.1.0, build 00000000"
        echo "played an AI A-Type game from level 19 (title wait $tw) for 2000000 frames (33278.5 s); at the end: a game, the AI playing, level 28, 21188 lines, score 999999, 5298$((tw % 2)) pieces, 0 top-outs"
        echo "the RNG's seed at the run's start: \$68A6 (the pieces follow from it and the frames they spawn in)"
        echo "AI play: 1999990 frames, 9 lag frames in them (frames whose main loop never ran), at most 1 in a row; worst frame margin 0 cycles"
        echo "the rebirth (level 255 to 0): 6 times, the first in frame 30400$((tw % 2))"
    } > "$tmp/d/tw-$tw.txt"
done
status=0
bash "$script" summary "$tmp/d" >"$tmp/out" 2>&1 || status=$?
[ "$status" -eq 0 ] && grep -q "^5 *play *2000000 *21188 *28 *6 frames ran out *1 - *\$68A6$" "$tmp/out" &&
    grep -q "^3 games: 3 past the rebirth (100.0 %), 3 past a second" "$tmp/out" && grep -q "^2 distinct games" "$tmp/out" &&
    grep -q "earlier title wait's: 7=5$" "$tmp/out" && grep -q "seed at the run's start: 1 distinct in the 3 games" "$tmp/out" ||
    no "three games from one seed: exit $status: $(cat "$tmp/out")"

if [ -z "${TETRIS_ROM:-}" ] || [ ! -r "${TETRIS_ROM:-}" ]; then
    [ "$fail" -eq 0 ] || exit 1
    echo "SKIPPED: the two games need TETRIS_ROM (the ROM-free checks passed)"
    exit 0
fi
# Two games that top out within 30 000 frames (title waits 150 and 151 from level 19, build
# 48FB120A: 190 and 161 lines): one with play, one with check-identity.
rm -rf "$tmp/d"
bash "$script" run "$tmp/d" "$TETRIS_ROM" 150 150 --frames 30000 --build "$bin/.." || no "the play game did not run"
bash "$script" run "$tmp/d" "$TETRIS_ROM" 151 151 --frames 30000 --identity --build "$bin/.." || no "the check-identity game did not run"
bash "$script" run "$tmp/d" "$TETRIS_ROM" 150 151 --frames 30000 --build "$bin/.." || no "a run with all its games done"
bash "$script" summary "$tmp/d" >"$tmp/out" 2>&1 || no "summary: exit status $?"
cat "$tmp/out"
grep -q "^150 *play .* curtain " "$tmp/out" || no "title wait 150's row"
grep -q "^151 *check-identity .* curtain .* identical *\$ED14$" "$tmp/out" || no "title wait 151's row (its seed \$ED14)"
grep -q "^150 *play .* curtain .* \$68A6$" "$tmp/out" || no "title wait 150's seed (\$68A6 in play --title-wait 150 --frames 0)"
grep -q "^2 games: 0 past the rebirth (0.0 %)" "$tmp/out" || no "the totals"
grep -q "before 150 2;" "$tmp/out" || no "the deaths by band"
grep -q "check-identity): 1 games, 0 differing from the loop; lag forecast: .* wrong 0; crashes not forecast 0" "$tmp/out" ||
    no "the forecast's totals"
[ "$fail" -eq 0 ]
