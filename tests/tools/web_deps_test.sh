#!/bin/sh
# tools/scripts/web.sh only serves the page: it asks install-deps.sh for what the page needs (--web),
# which installs no npm package (web/serve.mjs needs node alone); the full install still does.
# dpkg, node and npm are stubs: every Debian package present, npm's calls logged.
#   web_deps_test.sh SOURCE_DIR
set -eu
src="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/repo/tools/scripts" "$tmp/stubs"
cp "$src/tools/scripts/install-deps.sh" "$tmp/repo/tools/scripts/"
printf '#!/bin/sh\nexit 0\n' >"$tmp/stubs/dpkg"
printf '#!/bin/sh\nexit 0\n' >"$tmp/stubs/node"
printf '#!/bin/sh\necho "npm $*" >>"%s/npm.log"\n' "$tmp" >"$tmp/stubs/npm"
chmod +x "$tmp/stubs/dpkg" "$tmp/stubs/node" "$tmp/stubs/npm"
fail=0
grep -q '^"$repo/tools/scripts/install-deps.sh" --web$' "$src/tools/scripts/web.sh" || { echo "FAIL: web.sh does not use install-deps.sh --web"; fail=1; }
if grep -q 'node_modules\|npm' "$src/web/serve.mjs"; then echo "FAIL: serve.mjs uses npm packages"; fail=1; fi
PATH="$tmp/stubs:$PATH" bash "$tmp/repo/tools/scripts/install-deps.sh" --web
[ ! -f "$tmp/npm.log" ] || { echo "FAIL: install-deps.sh --web ran npm: $(cat "$tmp/npm.log")"; fail=1; }
PATH="$tmp/stubs:$PATH" bash "$tmp/repo/tools/scripts/install-deps.sh"
grep -q "npm ci" "$tmp/npm.log" 2>/dev/null || { echo "FAIL: the full install did not install the tests' npm packages"; fail=1; }
[ $fail -eq 0 ] && echo "ok"
exit $fail
