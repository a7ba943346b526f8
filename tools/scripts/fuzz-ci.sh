#!/usr/bin/env bash
# CI fuzzing (README.md, "Fuzzing"): every libFuzzer target runs for a short time on its corpus
# under ASan and UBSan (Debian's clang). A crash, a leak, a timeout or an out-of-memory fails the
# run, and libFuzzer leaves the input that did it beside the corpus (crash-*, leak-*, ...): each
# one found here becomes a regression test.
#
#   tools/scripts/fuzz-ci.sh                   configure build-fuzz, build the fuzz targets, run each 10 s
#   FUZZ_SECONDS=60 tools/scripts/fuzz-ci.sh   longer runs
#   FUZZ_BUILD=DIR FUZZ_JOBS=N                 another build directory; parallel compile jobs (default 2)
#
# The build directory is its own (every library instrumented, NESTRIS_FUZZ=ON) and only the fuzz
# targets are built, at -O1: fast enough to fuzz, quicker to compile than -O2. The corpora start
# from a few small seeds written here and grow in the build directory; none is committed.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
build="${FUZZ_BUILD:-$repo/build-fuzz}"
seconds="${FUZZ_SECONDS:-10}"
jobs="${FUZZ_JOBS:-2}"
start=$(date +%s)

CC=clang CXX=clang++ cmake -S "$repo" -B "$build" -DNESTRIS_FUZZ=ON -DCMAKE_BUILD_TYPE= \
  -DCMAKE_C_FLAGS=-O1 -DCMAKE_CXX_FLAGS=-O1 >/dev/null
# Every fuzz_* target the build defines (tests/fuzz): a new one is run with no change here.
mapfile -t targets < <(cmake --build "$build" --target help | sed -n 's/^\.\.\. \(fuzz_[a-z0-9_]*\).*/\1/p' | sort)
[ ${#targets[@]} -gt 0 ] || { echo "fuzz-ci: no fuzz targets in $build" >&2; exit 1; }
# The build's own output (the assembler's tables, every file compiled) goes to a log, shown on failure.
if ! cmake --build "$build" -j"$jobs" --target "${targets[@]}" >"$build/fuzz-build.log" 2>&1; then
  tail -n 40 "$build/fuzz-build.log" >&2
  echo "fuzz-ci: error: the fuzz targets did not build (log: $build/fuzz-build.log)" >&2
  exit 1
fi
echo "fuzz-ci: built ${#targets[@]} targets in $(( $(date +%s) - start )) s"

# A few valid inputs per format, so the short runs start past the first checks.
seed() {  # seed NAME FILE TEXT (printf format)
  mkdir -p "$build/fuzz-corpus/$1"
  # shellcheck disable=SC2059
  printf "$3" >"$build/fuzz-corpus/$1/$2"
}
seed ips_read one 'PATCH\x00\x00\x10\x00\x02ab\x00\x00\x20\x00\x00\x00\x04zEOF'
seed ips_read trunc 'PATCH\x00\x00\x10\x00\x01aEOF\x00\x10\x00'
seed ips_write pair 'abcdefghijklmnopabcdXXghijklmnopqrs'
seed bps_apply one 'BPS1\x84\x84\x80\x8dwxyz'
seed rom_identify ines 'NES\x1a\x02\x01\x10\x00\x00\x00\x00\x00\x00\x00\x00\x00'
seed ines nrom 'NES\x1a\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
seed input walk 'A*3 .*60 R+B S . L*2'
seed fm2 one 'version 3\nemuVersion 22020\nport0 1\nport1 0\nport2 0\n|0|........|........||\n|0|R......A|........||\n|1|........|........||\n'
seed movie one 'nestris-movie 1\nL*3\n.*10\nA\n'
seed state one 'nestris-state 1\n'
seed labels vice 'al 00C000 .reset\nal 00C010 .nmi\n'
seed number_list list '0-9,12,20-29'
# shellcheck disable=SC2016  # the $ are ld65's hex numbers, not the shell's
seed ld65_debug cfg 'MEMORY { ZP: start = $0, size = $100; }\nSEGMENTS { ZEROPAGE: load = ZP, type = zp; }\n'
seed tune_state empty ''

failed=()
for t in "${targets[@]}"; do
  name="${t#fuzz_}"
  bin="$(find "$build" -type f -name "$t" -perm -u+x | head -n 1)"
  corpus="$build/fuzz-corpus/$name"
  mkdir -p "$corpus" "$build/fuzz-artifacts"
  # -timeout: one input taking seconds is a bug (a hang); -rss_limit_mb: so is an input that needs GBs.
  if ! "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=0 \
       -artifact_prefix="$build/fuzz-artifacts/$name-" "$corpus" >"$build/fuzz-artifacts/$name.log" 2>&1; then
    echo "fuzz-ci: $t FAILED (log: $build/fuzz-artifacts/$name.log):" >&2
    grep -E "ERROR|SUMMARY|Test unit written" "$build/fuzz-artifacts/$name.log" | head -n 5 >&2 || true
    failed+=("$t")
  else
    echo "fuzz-ci: $t ok ($(find "$corpus" -type f | wc -l) inputs in its corpus)"
  fi
done
echo "fuzz-ci: done in $(( $(date +%s) - start )) s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz-ci: error: ${failed[*]} found a crash" >&2
  exit 1
fi
