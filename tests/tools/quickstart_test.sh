#!/bin/sh
# tools/scripts/quickstart.sh without a ROM, as a newcomer sees it: short, no build chatter or maintainers'
# tables, whole boards, and what it did. The install and the build are stubbed (every package
# present, cmake a no-op): nestris-ai is this build's. A copy of the scripts runs in a scratch
# "repository", so the patches it writes stay out of the source tree.
#   quickstart_test.sh SOURCE_DIR NESTRIS_AI
set -eu
src="$1"
nestris_ai="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/repo/tools/scripts" "$tmp/repo/build/bin" "$tmp/stubs" "$tmp/cwd"
cp "$src/tools/scripts/quickstart.sh" "$src/tools/scripts/install-deps.sh" "$tmp/repo/tools/scripts/"
ln -s "$nestris_ai" "$tmp/repo/build/bin/nestris-ai"
for stub in dpkg cmake; do printf '#!/bin/sh\nexit 0\n' >"$tmp/stubs/$stub"; chmod +x "$tmp/stubs/$stub"; done
cd "$tmp/cwd"
PATH="$tmp/stubs:$PATH" bash "$tmp/repo/tools/scripts/quickstart.sh" >"$tmp/out.txt" 2>&1 || { cat "$tmp/out.txt"; echo "FAIL: quickstart exited non-zero"; exit 1; }
cat "$tmp/out.txt"
fail=0
check() { if ! grep -q -- "$1" "$tmp/out.txt"; then echo "FAIL: no '$1' in the output"; fail=1; fi; }
lines=$(wc -l <"$tmp/out.txt")
[ "$lines" -le 45 ] || { echo "FAIL: $lines lines (at most 45)"; fail=1; }
check "no ROM found: the AI plays without the game instead"
check "20 games (cart, level 19, A-Type)"
check "tetris rate [0-9.]* %"
check "^game 0 ("
check "== quickstart: done"
# The board whole: its top and bottom border.
[ "$(grep -c '^+----------+$' "$tmp/out.txt")" -eq 2 ] || { echo "FAIL: not one whole board"; fail=1; }
if grep -q "cartridge usage\|state [0-9][0-9]*$" "$tmp/out.txt"; then echo "FAIL: maintainers' output"; fail=1; fi
[ -f "$tmp/repo/nestris-ai.ips" ] && [ -f "$tmp/repo/nestris-ai.bps" ] || { echo "FAIL: no patches written"; fail=1; }
exit $fail
