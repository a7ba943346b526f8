#!/usr/bin/env bash
# Maintainers: refresh the release in dist/ after the code changed. Needs your Tetris (USA): the
# BPS and the release record carry the patched ROM's checksums.
#
#   tools/scripts/update-dist.sh path/to/tetris.nes
#
# Writes dist/nestris-ai.ips, dist/nestris-ai.bps, dist/release.txt (nestris-ai release), then
# rebuilds so that the build reads the new record, and copies the one-file web page
# (build/web/nestris-ai.html) to dist/. README quotes the checksums release prints: update them.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
rom="${1:?usage: tools/scripts/update-dist.sh path/to/tetris.nes}"
cmake -S "$repo" -B "$repo/build" >/dev/null
cmake --build "$repo/build" -j2 --target nestris-ai
"$repo/build/bin/nestris-ai" release --rom "$rom" --dir "$repo/dist"
cmake -S "$repo" -B "$repo/build" >/dev/null
cmake --build "$repo/build" -j2   # everything: the tests compile the record in too
cp "$repo/build/web/nestris-ai.html" "$repo/dist/nestris-ai.html"
# README's checksum table (section "Checksums"), from the record.
value() { sed -n "s/^$1 = //p" "$repo/dist/release.txt"; }
sed -i -e "s/^| \`dist\/nestris-ai.bps\` | \`[0-9A-F]*\` |/| \`dist\/nestris-ai.bps\` | \`$(value bps_sha1)\` |/" \
       -e "s/^| \`dist\/nestris-ai.ips\` | \`[0-9A-F]*\` |/| \`dist\/nestris-ai.ips\` | \`$(value ips_sha1)\` |/" \
       -e "s/^| \*\*the patched ROM\*\* (nestris-ai [^,]*, build [0-9A-F]*) | \`[0-9A-F]*\` | \`[0-9A-F]*\` |/| **the patched ROM** (nestris-ai $(value version), build $(value build)) | \`$(value patched_sha1)\` | \`$(value patched_crc32)\` |/" \
       "$repo/README.md"
echo "update-dist: dist/ and README's checksums refreshed (dist/release.txt)"
