#!/bin/sh
# Every program answers --version (exit 0, one line): the release's version, and for those built
# with the cartridge code inside, the build id nestris-ai --version gives; the two that make the
# cartridge code (nestris-asm, nestris-gen) say the version alone.
#   version_test.sh BIN_DIR VERSION
bin=$1
version=$2
fail=0
ours=$("$bin/nestris-ai" --version)
case "$ours" in "$version, build "????????) ;; *) echo "FAIL: nestris-ai --version: $ours"; fail=1 ;; esac
for tool in bench-ai bench-cart bench-coach bench-emu bench-model check-identity make-tetris-movie measure-idle \
            measure-lock nestris-tune nestris-asm nestris-gen; do
  out=$("$bin/$tool" --version 2>&1)
  code=$?
  case "$tool" in
    nestris-asm|nestris-gen) want="$version (the cartridge's" ;;
    *) want=$ours ;;
  esac
  if [ $code != 0 ] || [ "$(printf '%s\n' "$out" | wc -l)" != 1 ] || [ "${out#"$want"}" = "$out" ]; then
    echo "FAIL: $tool --version -> exit $code: $out (want $want...)"; fail=1
  else
    echo "ok   $tool --version: $out"
  fi
done
exit $fail
