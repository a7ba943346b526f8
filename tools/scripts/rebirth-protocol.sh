#!/usr/bin/env bash
# The rebirth protocol (docs/measurements/lag-and-crashes.md, "The rebirth on the unmodified
# game"): AI games from level 19 on the embedded NES, one per title wait, each played to its end
# (the curtain) or to --frames, then summed up. Resumable and shareable: each game is claimed, and
# its output kept once it is whole, so workers can run side by side (one a core), be killed and be
# started again; a claim whose worker is gone is taken over.
#
#   tools/scripts/rebirth-protocol.sh run DIR ROM FIRST LAST [--identity] [--frames N] [--build BUILD]
#   tools/scripts/rebirth-protocol.sh summary DIR
#
# run: plays the title waits FIRST..LAST (0-225) not yet done in DIR, with `nestris-ai play
#   --to-the-end`, or with --identity `check-identity --ai-games 1`: the cartridge in the loop and
#   the model's lag and crash forecast against the real game every frame. The first run copies
#   BUILD's (default build/) nestris-ai and check-identity into DIR/bin and every later run uses
#   those, so all of DIR's games are one build's; the build's id is in DIR/build.txt. A DIR made
#   from a kept record (its tw-*.txt and build.txt, no bin/) goes on only with a BUILD of that id.
# summary: one row a game (with the RNG's seed at its start where the tool printed it), then the
#   totals the issue asks for (past the rebirth, a second rebirth, crashes, mean lines, the longest
#   run of lag frames, the forecast), the same over distinct games (a title wait that replays an
#   earlier one's game counted once) and the deaths by level band. A game whose output cannot be
#   read is named, never counted as an outcome.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
usage() {
  sed -n '8,9p' "$0" | sed 's/^#   //' >&2
  exit 2
}
die() { echo "rebirth-protocol: $*" >&2; exit 1; }
# A claim names its worker by the machine's boot and the process: a pid alone outlives a reboot.
boot_id() { cat /proc/sys/kernel/random/boot_id 2>/dev/null || hostname; }

run() {
  [ $# -ge 4 ] || usage
  local dir="$1" rom="$2" first="$3" last="$4"
  shift 4
  local identity=false frames=2000000 build="$repo/build"
  while [ $# -gt 0 ]; do
    case "$1" in
      --identity) identity=true ;;
      --frames) [ $# -ge 2 ] || usage; frames="$2"; shift ;;
      --build) [ $# -ge 2 ] || usage; build="$2"; shift ;;
      *) usage ;;
    esac
    shift
  done
  [[ "$first" =~ ^[0-9]+$ && "$last" =~ ^[0-9]+$ && "$frames" =~ ^[0-9]+$ ]] || die "FIRST, LAST and --frames are numbers"
  [ "$first" -le "$last" ] && [ "$last" -le 225 ] || die "title waits are 0-225, FIRST no more than LAST"
  [ -r "$rom" ] || die "cannot read the ROM $rom"
  mkdir -p "$dir/bin"
  if [ ! -x "$dir/bin/nestris-ai" ] || [ ! -x "$dir/bin/check-identity" ]; then
    [ -x "$build/bin/nestris-ai" ] && [ -x "$build/bin/check-identity" ] || die "no nestris-ai and check-identity in $build/bin (build first)"
    # Games copied in from elsewhere (a kept record of them) go on with their own build only.
    if [ -s "$dir/build.txt" ] && [ "$("$build/bin/nestris-ai" --version)" != "$(cat "$dir/build.txt")" ]; then
      die "$dir's games are $(cat "$dir/build.txt"); $build is $("$build/bin/nestris-ai" --version)"
    fi
    cp "$build/bin/check-identity" "$dir/bin/check-identity.part" && mv "$dir/bin/check-identity.part" "$dir/bin/check-identity"
    cp "$build/bin/nestris-ai" "$dir/bin/nestris-ai.part" && mv "$dir/bin/nestris-ai.part" "$dir/bin/nestris-ai"
    "$dir/bin/nestris-ai" --version > "$dir/build.txt"
  fi
  local tw out claim failed=0
  for ((tw = first; tw <= last; tw++)); do
    out="$dir/tw-$tw.txt"
    claim="$dir/tw-$tw.claim"
    [ -e "$out" ] && continue
    if ! mkdir "$claim" 2>/dev/null; then
      # Taken: over, unless its worker is gone (a session that ended).
      local pid boot
      pid="$(cat "$claim/pid" 2>/dev/null || true)"
      boot="$(cat "$claim/boot" 2>/dev/null || true)"
      if [ -n "$pid" ] && [ "$boot" = "$(boot_id)" ] && kill -0 "$pid" 2>/dev/null; then continue; fi
      rm -rf "$claim"
      mkdir "$claim" 2>/dev/null || continue
    fi
    boot_id > "$claim/boot"
    echo $$ > "$claim/pid"
    local tool status=0
    if $identity; then
      tool="check-identity"
      "$dir/bin/check-identity" "$rom" --ai-games 1 --level 19 --title-wait "$tw" --frames "$frames" --threads 1 \
        > "$out.part" 2> "$claim/stderr" || status=$?
    else
      tool="play"
      "$dir/bin/nestris-ai" play "$rom" --level 19 --title-wait "$tw" --frames "$frames" --to-the-end \
        > "$out.part" 2> "$claim/stderr" || status=$?
    fi
    # check-identity's status 1 is a finding (a mismatch, a crash not forecast), kept; anything
    # else leaves no output, and the title wait is tried again by the next run.
    if [ "$status" -le 1 ] && [ -s "$out.part" ]; then
      { echo "# $tool, title wait $tw, --frames $frames, exit status $status, $(cat "$dir/build.txt")"; cat "$out.part"; } > "$out.tmp"
      mv "$out.tmp" "$out"
      rm -f "$out.part"
    else
      echo "rebirth-protocol: title wait $tw: $tool exited with status $status; see $claim/stderr" >&2
      rm -f "$out.part"
      failed=$((failed + 1))
      continue
    fi
    rm -rf "$claim"
  done
  [ "$failed" -eq 0 ] || die "$failed title waits not played (each one's claim holds its stderr; a later run tries them again)"
}

summary() {
  [ $# -eq 1 ] || usage
  local dir="$1"
  [ -d "$dir" ] || die "no directory $dir"
  shopt -s nullglob
  local files=("$dir"/tw-*.txt)
  [ ${#files[@]} -gt 0 ] || die "no games in $dir yet"
  echo "build: $(cat "$dir/build.txt" 2>/dev/null || echo unknown)"
  awk -f /dev/stdin "${files[@]}" <<'AWK'
function band(level) {
  if (level < 150) return "before 150"
  if (level < 165) return "150-164"
  if (level < 180) return "165-179"
  if (level < 230) return "180-229"
  if (level < 240) return "230-239"
  return "240-255"
}
function flush_game() {
  if (file == "") return
  if (tool == "" || lines == "" || ended == "") {
    unreadable = unreadable " " file
  } else {
    games++
    total_lines += lines
    if (rebirths >= 1) past++
    if (rebirths >= 2) second++
    if (ended == "crash") crashes++
    if (ended == "frames ran out") playing++
    if (ended == "curtain" && rebirths == 0) deaths[band(level)]++
    if (ended == "curtain" && rebirths > 0) later_deaths++
    if (most_lag > worst_lag) worst_lag = most_lag
    if (most_lag > 60) stalls++
    if (tool == "check-identity") { identity++; if (identical != "yes") different++ }
    # Some title waits replay another's game (the same pieces from the same RNG state): the same
    # frames, pieces, lines, level, rebirths and first rebirth's frame. (Games still playing at the
    # last frame often share frames, lines and level.) The shares are said over the distinct games too.
    key = frames "|" pieces "|" lines "|" level "|" rebirths "|" first_rebirth "|" ended
    if (!(key in seen)) {
      seen[key] = tw
      distinct++
      d_lines += lines
      if (rebirths >= 1) d_past++
      if (rebirths >= 2) d_second++
      if (ended == "crash") d_crashes++
    } else {
      same_as = same_as " " tw "=" seen[key]
    }
    if (seed != "") { with_seed++; if (!(seed in seeds)) { seeds[seed] = 1; distinct_seeds++ } }
    printf "%-6s %-15s %9s %7s %5s %8s %-13s %4s %-9s %s\n", tw, tool, frames, lines, level, rebirths, ended, most_lag,
           tool == "check-identity" ? (identical == "yes" ? "identical" : "DIFFERENT") : "-", seed == "" ? "-" : seed
  }
  file = ""
}
BEGIN {
  printf "%-6s %-15s %9s %7s %5s %8s %-13s %4s %-9s %s\n", "title", "tool", "frames", "lines", "level", "rebirths", "end",
         "lag", "loop", "seed"
}
FNR == 1 {
  flush_game()
  file = FILENAME; tool = ""; lines = ""; level = ""; ended = ""; rebirths = 0; most_lag = 0; identical = ""; frames = ""; seed = ""; pieces = ""; first_rebirth = ""
  if (match($0, /^# (play|check-identity), title wait [0-9]+/)) {
    tool = $2; sub(/,$/, "", tool); tw = $5; sub(/,$/, "", tw)
  }
}
tool == "play" && /^played / {
  if (match($0, /for [0-9]+ frames/)) { frames = substr($0, RSTART + 4, RLENGTH - 11) }
  if (match($0, /level [0-9]+, [0-9]+ lines/)) { split(substr($0, RSTART, RLENGTH), p, /[ ,]+/); level = p[2]; lines = p[3] }
  if (match($0, /, [0-9]+ pieces?, /)) { split(substr($0, RSTART, RLENGTH), p, /[ ,]+/); pieces = p[2] }
  ended = "frames ran out"
  if ($0 ~ /[1-9][0-9]* top-outs?$/) ended = "curtain"
}
tool == "play" && /^AI play: / {
  if (match($0, /at most [0-9]+ in a row/)) { split(substr($0, RSTART, RLENGTH), p, " "); most_lag = p[3] }
}
tool == "play" && /^the rebirth / { if (match($0, /: [0-9]+ time/)) { split(substr($0, RSTART, RLENGTH), p, " "); rebirths = p[2] } }
# (play's rebirth line and check-identity's game line say it alike)
tool != "" && match($0, /the first in frame [0-9]+/) { split(substr($0, RSTART, RLENGTH), p, " "); first_rebirth = p[5] }
tool == "play" && /^CRASH/ { ended = "crash" }
tool == "play" && /^the RNG's seed at the run's start: / { seed = $8 }
tool == "check-identity" && /^AI game [0-9]+ / {
  if (match($0, /: [0-9]+ frames/)) { split(substr($0, RSTART, RLENGTH), p, " "); frames = p[2] }
  if (match($0, /[0-9]+ lines, level [0-9]+ at the end/)) { split(substr($0, RSTART, RLENGTH), p, /[ ,]+/); lines = p[1]; level = p[4] }
  if (match($0, /255 to 0\) [0-9]+ time/)) { split(substr($0, RSTART, RLENGTH), p, " "); rebirths = p[4] }
  if (match($0, /frames, [0-9]+ pieces,/)) { split(substr($0, RSTART, RLENGTH), p, /[ ,]+/); pieces = p[2] }
  if (match($0, /seed \$[0-9A-F]+ at the start/)) { split(substr($0, RSTART, RLENGTH), p, " "); seed = p[2] }
  if (match($0, /\(most [0-9]+\)/)) { most_lag = substr($0, RSTART + 6, RLENGTH - 7) }
  ended = $0 ~ /game over \(the curtain\)/ ? "curtain" : $0 ~ /frames ran out/ ? "frames ran out" : $0 ~ /CRASH/ ? "crash" : ""
  identical = $0 ~ /: identical$/ ? "yes" : "no"
}
tool == "check-identity" && /^crashes the model did not forecast: / {
  if (match($0, /forecast: [0-9]+;/)) { split(substr($0, RSTART, RLENGTH), p, /[ ;]+/); unforecast += p[2] }
  if (match($0, /yes [0-9]+ \(lagged [0-9]+\), may [0-9]+ \(lagged [0-9]+\), no [0-9]+ \(lagged [0-9]+\); wrong [0-9]+/)) {
    split(substr($0, RSTART, RLENGTH), p, /[^0-9]+/)
    for (i = 1; i <= 7; i++) tally[i] += p[i + 1]
    forecast_seen++
  }
}
END {
  flush_game()
  if (!games) { printf "no game could be read; outputs that could not be read:%s\n", unreadable; exit 1 }
  printf "\n%d games: %d past the rebirth (%.1f %%), %d past a second (%.1f %%), %d crashes, mean lines %.1f; %d still playing at their last frame\n",
         games, past, 100 * past / games, second, 100 * second / games, crashes, total_lines / games, playing + 0
  printf "%d distinct games (title waits that replay another's game counted once): %d past the rebirth (%.1f %%), %d past a second (%.1f %%), %d crashes, mean lines %.1f\n",
         distinct, d_past, 100 * d_past / distinct, d_second, 100 * d_second / distinct, d_crashes, d_lines / distinct
  if (same_as != "") printf "the same game as an earlier title wait's:%s\n", same_as
  # Runs of 3-9 neighbouring title waits start from one seed (55 seeds in 0-225), and such games
  # part only where a frame's timing differs: the seeds say how many deals the games have.
  if (with_seed) printf "the RNG's seed at the run's start: %d distinct in the %d games whose output says it\n", distinct_seeds, with_seed
  printf "the longest run of lag frames in AI play: %d frames; games with a run over 60 frames (a stall): %d\n", worst_lag, stalls
  printf "deaths before the rebirth by level band:"
  n = split("before 150,150-164,165-179,180-229,230-239,240-255", names, ",")
  for (i = 1; i <= n; i++) printf " %s %d;", names[i], deaths[names[i]] + 0
  printf " after a rebirth: %d\n", later_deaths + 0
  printf "with the cartridge in the loop and the model's forecast (check-identity): %d games, %d differing from the loop",
         identity, different
  if (forecast_seen)
    printf "; lag forecast: yes %d (lagged %d), may %d (lagged %d), no %d (lagged %d), wrong %d; crashes not forecast %d",
           tally[1], tally[2], tally[3], tally[4], tally[5], tally[6], tally[7], unforecast
  printf "\n"
  if (unreadable != "") { printf "outputs that could not be read (not counted):%s\n", unreadable; exit 1 }
}
AWK
}

[ $# -ge 1 ] || usage
if [ "$1" = --help ] || [ "$1" = -h ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
  exit 0
fi
command="$1"
shift
case "$command" in
  run) run "$@" ;;
  summary) summary "$@" ;;
  *) usage ;;
esac
