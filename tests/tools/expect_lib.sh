# Sourced by the shell tests of the error convention (README.md, "Commands"):
# expect CODE WORDS COMMAND... runs COMMAND and checks its exit code and that its stderr is one
# error line holding WORDS (CLI11's "Run with --help" pointer aside); sets fail=1 otherwise.
expect() {
  code=$1; words=$2; shift 2
  timeout 60 "$@" >out 2>err
  got=$?
  if [ "$got" != "$code" ] || ! grep -q -- "$words" err || [ "$(grep -vc '^Run with --help' err)" != 1 ]; then
    echo "FAIL: $* -> exit $got (want $code, '$words'):"; cat err; fail=1
  else
    echo "ok   $* -> exit $got: $(cat err)"
  fi
}
