#!/bin/sh
# The patched game in Mednafen, headless: a look on a third real emulator (local only; needs your
# ROM, and the Debian packages mednafen, xvfb, xdotool, x11-apps and imagemagick).
#
#   tools/scripts/mednafen_check.sh path/to/tetris.nes [build-dir]
#
# Patches the ROM with the build's nestris-ai into a temporary directory and runs Mednafen twice
# under xvfb-run (its own HOME there, sound off): once untouched, with screenshots 55 and 75
# seconds after power-on (the AI demo), and once with the menu walk pressed by xdotool (Start,
# Start, then Select held and Start: an AI game from level 0), with a screenshot 40 seconds later.
# Mednafen has no scripting to read the RAM: look at the screenshots (PNG, in the directory it
# names; they are made from your ROM: keep them to yourself). Exit status 1 when a run could not
# be made (a tool missing, no screenshot).
set -eu
case "${1:-}" in
  -h|--help) sed -n '2,/^set -eu$/p' "$0" | sed -e '/^set -eu$/d' -e 's/^# \{0,1\}//'; exit 0 ;;
esac
rom="${1:?usage: tools/scripts/mednafen_check.sh path/to/tetris.nes [build-dir]}"
build="${2:-build}"
for tool in /usr/games/mednafen xvfb-run xdotool xwd convert; do
  command -v "$tool" >/dev/null 2>&1 || { echo "mednafen_check: $tool is missing (apt-get install mednafen xvfb xdotool x11-apps imagemagick)" >&2; exit 1; }
done
dir="$(mktemp -d /tmp/nestris-mednafen.XXXXXX)"
"$build/bin/nestris-ai" patch "$rom" -o "$dir/patched.nes" >/dev/null
mkdir -p "$dir/home"
cat > "$dir/run.sh" <<EOF
#!/bin/sh
export HOME="$dir/home"
/usr/games/mednafen -sound 0 -video.fs 0 -nes.xscale 2 -nes.yscale 2 "$dir/patched.nes" > "$dir/mednafen-\$1.log" 2>&1 &
pid=\$!
if [ "\$1" = demo ]; then
  sleep 55; xwd -root -silent > "$dir/demo55.xwd"
  sleep 20; xwd -root -silent > "$dir/demo75.xwd"
else
  sleep 13
  w=\$(xdotool search --name . | head -1); xdotool windowactivate "\$w" 2>/dev/null || true
  xdotool key --delay 200 Return; sleep 2
  xdotool key --delay 200 Return; sleep 2
  xdotool keydown Tab; sleep 0.3; xdotool key Return; sleep 0.5; xdotool keyup Tab
  sleep 40; xwd -root -silent > "$dir/game40.xwd"
fi
kill \$pid
EOF
chmod +x "$dir/run.sh"
for run in demo game; do
  timeout 150 xvfb-run -a -s "-screen 0 640x480x24" "$dir/run.sh" "$run" || true
done
status=0
for shot in demo55 demo75 game40; do
  if [ -s "$dir/$shot.xwd" ] && convert "$dir/$shot.xwd" "$dir/$shot.png"; then
    echo "mednafen_check: $dir/$shot.png"
  else
    echo "mednafen_check: no screenshot $shot (see $dir/mednafen-*.log)" >&2
    status=1
  fi
done
grep -h -E "Mapper|Battery" "$dir"/mednafen-demo.log || true
exit $status
