#!/usr/bin/env bash
# Maintainers: refresh the release in dist/ after the code changed. Needs your Tetris (USA): the
# BPS and the release record carry the patched ROM's checksums.
#
#   tools/scripts/update-dist.sh path/to/tetris.nes
#
# Writes dist/nestris-ai.ips, dist/nestris-ai.bps, dist/release.txt (nestris-ai release), then
# rebuilds so that the build reads the new record, and copies the one-file web page
# (build/web/nestris-ai.html) to dist/. README links the record rather than copying its
# checksums, so nothing else needs the new figures.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
rom="${1:?usage: tools/scripts/update-dist.sh path/to/tetris.nes}"
cmake -S "$repo" -B "$repo/build" >/dev/null
cmake --build "$repo/build" -j2 --target nestris-ai
"$repo/build/bin/nestris-ai" release --rom "$rom" --dir "$repo/dist"
cmake -S "$repo" -B "$repo/build" >/dev/null
cmake --build "$repo/build" -j2   # everything: the tests compile the record in too
cp "$repo/build/web/nestris-ai.html" "$repo/dist/nestris-ai.html"
echo "update-dist: dist/ refreshed (dist/release.txt)"
