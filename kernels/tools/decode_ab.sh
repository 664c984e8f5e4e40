#!/usr/bin/env bash
# decode_ab.sh - one short device call for an A/B of the decode kernel's variants (cfg 9): build,
# register/spill facts, hang-guarded smoke of both variants, verify (full set with the variant under
# test as the default, cfg 9 cases under the other knobs), then decode-only benches alternating the
# variants (cuBLAS bf16 measured in each bench run: ratios are same-run).
#   usage: kernels/tools/decode_ab.sh OUTDIR "NAME:ENV=V,..." ...   (the bench variants, run in order)
#   env: MXK_AB_VERIFY="ENV=V,ENV=V ..." cfg-9 verify knob sets (default: V2 forced on / off, with BPS=1, CPW=2, NS=2)
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${MXK_BUILD:-/tmp/mxsim_decode_build}
DEST=$1; shift
. "$ROOT/kernels/tools/session_lib.sh"
session_start "$DEST" session.log
card_line
stamp "== build"
build_gpu "$ROOT" "$BUILD" "$DEST/build.log" mxsim-gpu || { tail -30 "$DEST/build.log"; exit 1; }
G=$BUILD/mxsim-gpu
lib=$(find "$BUILD" -name 'libmxk.a' | head -1)
cuobjdump -res-usage "$lib" 2>&1 | grep -A1 'gemm_decode_kernel' | grep -o 'REG:[0-9]* STACK:[0-9]* SHARED:[0-9]* LOCAL:[0-9]*' | sort | uniq -c > "$DEST/sass.txt"
cat "$DEST/sass.txt"
stamp "== smoke (cfg 9, both variants, timeout 20 s each)"
for v in 0 1; do
  for a in "1 4096 4096 32" "1 4096 4096 128" "16 4096 4096 128" "1 11008 4096 128" "5 1000 8192 32" "16 11008 4096 128"; do
    MXK_DS_V2=$v timeout -k 5 20 "$G" perf $a 9 || { stamp "smoke FAILED: V2=$v $a"; exit 1; }
  done
done
rc=0
stamp "== verify (full set, default knobs)"
timeout -k 5 100 "$G" verify "$DEST" > "$DEST/verify.log" 2>&1 || rc=1
tail -2 "$DEST/verify.log"
for e in ${MXK_AB_VERIFY:-MXK_DS_V2=0 MXK_DS_V2=1 MXK_DS_V2=1,MXK_DS_BPS=1 MXK_DS_V2=1,MXK_DS_CPW=2 MXK_DS_V2=1,MXK_DS_NS=2}; do
  d="$DEST/vf_$(echo "$e" | tr ',=' '__')"; mkdir -p "$d"
  env $(echo "$e" | tr ',' ' ') MXK_VERIFY_CFG=9 timeout -k 5 60 "$G" verify "$d" > "$d/log" 2>&1 || rc=1
  echo "verify cfg 9 [$e]: $(tail -1 "$d/log")"
done
stamp "== benches"
MXK_BUILD=$BUILD "$ROOT/kernels/tools/decode_sweep.sh" "$DEST" "$@"
stamp "session rc=$rc"
exit $rc
