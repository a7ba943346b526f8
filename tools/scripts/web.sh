#!/usr/bin/env bash
# The web page, locally: installs what is missing, builds nestris-ai and the page (emscripten),
# serves build/web on http://127.0.0.1:8000/ and opens it in your browser when it can.
#
#   tools/scripts/web.sh [port]
#
# The page patches your ROM and plays it in the browser; nothing leaves your machine.
# Serving needs node alone (web/serve.mjs): the tests' browser and npm packages are not installed.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
port="${1:-8000}"
"$repo/tools/scripts/install-deps.sh" --web
cmake -S "$repo" -B "$repo/build" >/dev/null
cmake --build "$repo/build" -j2 --target nestris_web
url="http://127.0.0.1:$port/"
if command -v xdg-open >/dev/null 2>&1 && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  (sleep 1; xdg-open "$url" >/dev/null 2>&1 || true) &
fi
exec node "$repo/web/serve.mjs" "$repo/build/web" "$port"
