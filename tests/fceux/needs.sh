# Sourced by the FCEUX tests (local only): each need prints SKIPPED and ends the test with status 0
# when it is missing, so that a machine without the ROM or FCEUX reports a skip, never a pass.
needs_rom() {
  [ -n "${TETRIS_ROM:-}" ] || { echo "SKIPPED: TETRIS_ROM is not set"; exit 0; }
  [ -f "$TETRIS_ROM" ] || { echo "SKIPPED: TETRIS_ROM=$TETRIS_ROM is not a file"; exit 0; }
}
needs_fceux() {
  { command -v fceux >/dev/null || [ -x /usr/games/fceux ]; } || { echo "SKIPPED: fceux is not installed"; exit 0; }
  command -v xvfb-run >/dev/null || { echo "SKIPPED: xvfb-run is not installed (Debian package xvfb)"; exit 0; }
}
