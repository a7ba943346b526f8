#!/usr/bin/env bash
# Installs what nestris-ai builds and tests with, if any of it is missing. Safe to run again.
#  - Debian packages: the C++ toolchain and libraries, cc65, and for the web page emscripten,
#    chromium (its test's browser), node and npm; for CI's fuzzing (tools/scripts/fuzz-ci.sh) clang and
#    its runtime libraries (libclang-rt-dev: libFuzzer and the sanitizers, not pulled in
#    without recommends);
#  - the tests' npm packages (web/test/package.json, pinned by its package-lock.json): puppeteer-core
#    for the web page's test, bps (an independent BPS implementation) for the release's.
#
#   tools/scripts/install-deps.sh               everything (what the tests need)
#   tools/scripts/install-deps.sh --build-only  what building nestris-ai needs (tools/scripts/quickstart.sh)
#   tools/scripts/install-deps.sh --web         what building and serving the web page needs (tools/scripts/web.sh):
#                                       emscripten and node, not the tests' browser or npm packages
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
build_only=false web=false
case "${1:-}" in
  "") ;;
  --build-only) build_only=true ;;
  --web) web=true ;;
  *) echo "usage: tools/scripts/install-deps.sh [--build-only | --web]" >&2; exit 2 ;;
esac
packages=(g++ cmake make cc65 catch2 libcli11-dev libstb-dev libssl-dev zlib1g-dev)
if $web; then
  packages+=(emscripten)
elif ! $build_only; then
  packages+=(emscripten chromium clang libclang-rt-dev)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# web/serve.mjs needs node alone; npm only installs the tests' packages.
if $web; then
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
elif ! $build_only; then
  # node and npm: any install will do (Debian's packages, or NodeSource's node, which brings npm).
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if ! $build_only && ! $web && { [ ! -d "$repo/web/test/node_modules/puppeteer-core" ] || [ ! -d "$repo/web/test/node_modules/bps" ]; }; then
  echo "install-deps: installing the web page test's npm packages (web/test)"
  npm ci --prefix "$repo/web/test" --no-audit --no-fund --loglevel=error
fi
