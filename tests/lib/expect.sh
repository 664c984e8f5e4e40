# expect.sh - shared helpers of the CLI test scripts (sourced, not a test): ok/bad count results in
# $fails; `expect CODE FRAGMENT -- CMD...` requires CMD's exit code and, when FRAGMENT is not
# empty, that its output contains FRAGMENT.
fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL: $*"; fails=$((fails+1)); }
expect() {
  local code=$1 frag=$2; shift 3
  local out rc; out=$("$@" 2>&1); rc=$?
  if [ "$rc" -ne "$code" ]; then bad "exit $rc, expected $code: $*"; echo "$out" | head -3; return; fi
  if [ -n "$frag" ] && ! grep -qF -- "$frag" <<<"$out"; then bad "lacks '$frag': $*"; echo "$out" | head -3; return; fi
  ok "[$code] $*"
}
