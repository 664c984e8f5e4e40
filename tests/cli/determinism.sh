#!/usr/bin/env bash
# Determinism: the same inputs give byte-identical outputs across runs, thread counts
# and SIMD paths, for every file mxsim writes: .npz (stored and deflated), .npy (f32, bf16, both
# accumulators), timing reports (csv, json, md, table), traces (text, .gz, generated from a model,
# imported from SCALE-Sim), gzip access traces, sweep results and report directories.  Each
# output is produced under several settings and compared with cmp; a differing byte fails.
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
t=$MXSIM_TEST_TMP
rm -rf "$t" && mkdir -p "$t"
src=$MXSIM_SOURCE_DIR
data=$src/workloads/data
cfg=$src/workloads/configs/small.ini
fails=0
checks=0

# same REF OTHER WHAT: OTHER must be byte-identical to REF (files or directories).
same() {
  checks=$((checks + 1))
  if [ ! -e "$1" ] || [ ! -e "$2" ]; then echo "FAIL: $3: output missing ($1, $2)"; fails=$((fails + 1))
  elif diff -r -q "$1" "$2" >/dev/null 2>&1; then echo "ok   $3"
  else echo "FAIL: $3: $1 and $2 differ"; fails=$((fails + 1)); fi
}
run() { "$@" >/dev/null 2>&1 || { echo "FAIL: command failed: $*"; fails=$((fails + 1)); }; }

# ---- numerics: quantize, GEMM, dequantize ----------------------------------------------------
for i in 1 2; do
  run "$MXSIM" quantize --group-size 32 "$data/act_64x768.npy" -o "$t/a$i.npz"
  run "$MXSIM" quantize --group-size 32 --compress "$data/weight_256x768.npy" -o "$t/w$i.npz"
  run "$MXSIM" quantize --profile mase --group-size 16 --axis 0 "$data/weight_256x768.npy" -o "$t/m$i.npz"
done
same "$t/a1.npz" "$t/a2.npz" "quantize .npz (stored), two runs"
same "$t/w1.npz" "$t/w2.npz" "quantize .npz (deflated), two runs"
same "$t/m1.npz" "$t/m2.npz" "quantize .npz (mase, axis 0), two runs"
for acc in fp32 exact; do
  for od in f32 bf16; do
    ref=$t/c_${acc}_$od.npy
    run "$MXSIM" gemm --acc $acc --out-dtype $od --threads 1 --simd scalar "$t/a1.npz" "$t/w1.npz" -o "$ref"
    for args in "--threads 1" "--threads 2" "--threads 4" "--threads 0" "--threads 3 --simd scalar" "--threads 2 --simd auto"; do
      # shellcheck disable=SC2086
      run "$MXSIM" gemm --acc $acc --out-dtype $od $args "$t/a1.npz" "$t/w1.npz" -o "$t/c.npy"
      same "$ref" "$t/c.npy" "gemm --acc $acc --out-dtype $od $args == --threads 1 --simd scalar"
    done
  done
done
run "$MXSIM" dequantize --dtype bf16 "$t/w1.npz" -o "$t/d1.npy"
run "$MXSIM" dequantize --dtype bf16 "$t/w2.npz" -o "$t/d2.npy"
same "$t/d1.npy" "$t/d2.npy" "dequantize bf16, two runs"

# ---- timing: reports, traces, access traces ----------------------------------------------------
for f in csv json md table; do
  # a failed run writes nothing: two empty files would compare equal, so the exit status counts
  run_to() { "$MXSIM" run --config "$cfg" --format $f "$src/traces/llama2-7b-prefill.trace" > "$1" 2>/dev/null && [ -s "$1" ] \
    || { echo "FAIL: run --format $f failed or wrote nothing"; fails=$((fails + 1)); }; }
  run_to "$t/r1.$f"
  run_to "$t/r2.$f"
  same "$t/r1.$f" "$t/r2.$f" "run --format $f, two runs"
done
run "$MXSIM" run --config "$cfg" --format csv "$src/traces/resnet18.trace" -o "$t/o1.csv"
"$MXSIM" run --config "$cfg" --format csv "$src/traces/resnet18.trace" > "$t/o2.csv" 2>/dev/null && [ -s "$t/o2.csv" ] \
  || { echo "FAIL: run to stdout failed or wrote nothing"; fails=$((fails + 1)); }
same "$t/o1.csv" "$t/o2.csv" "run -o FILE == stdout"
for i in 1 2; do
  run "$MXSIM" trace convert "$src/traces/bert-base.trace" "$t/b$i.trace.gz"
  run "$MXSIM" trace gen "$src/workloads/models/resnet50.model" -o "$t/g$i.trace"
  printf 'mxsim-trace 1\ngemm name=a m=20 n=9 k=64\n' > "$t/one.trace"
  run "$MXSIM" run --config "$cfg" --detail --access-trace "$t/acc$i.gz" "$t/one.trace"
done
same "$t/b1.trace.gz" "$t/b2.trace.gz" "trace convert to .gz, two runs"
same "$t/g1.trace" "$t/g2.trace" "trace gen, two runs"
same "$t/acc1.gz" "$t/acc2.gz" "detailed-mode access trace (.gz), two runs"
printf 'Layer, M, N, K,\nl0, 64, 32, 100,\nl1, 7, 9, 33,\n' > "$t/g.csv"
run "$MXSIM" trace convert "$t/g.csv" "$t/s1.trace"
run "$MXSIM" trace convert "$t/g.csv" "$t/s2.trace"
same "$t/s1.trace" "$t/s2.trace" "SCALE-Sim CSV import, two runs"

# ---- sweeps and reports across thread counts ---------------------------------------------------
args=(sweep --config "$cfg" "$src/traces/bert-base.trace" --group-size 16,32 --array-width 8,16 --quiet)
for j in 1 2 4; do run "$MXSIM" "${args[@]}" -j $j -o "$t/sw$j.csv"; done
same "$t/sw1.csv" "$t/sw2.csv" "sweep -j 2 == -j 1"
same "$t/sw1.csv" "$t/sw4.csv" "sweep -j 4 == -j 1"
# the report names its input files: give both the same paths.  It reads the CSV with its sidecar
# NAME.meta.json, which the sweep writes beside its CSV.
pair() { cp "$1" "$2" && cp "${1%.csv}.meta.json" "${2%.csv}.meta.json"; }
pair "$t/sw1.csv" "$t/sw.csv" && run "$MXSIM" report "$t/sw.csv" -o "$t/rep1"
pair "$t/sw4.csv" "$t/sw.csv" && run "$MXSIM" report "$t/sw.csv" -o "$t/rep2"
same "$t/rep1" "$t/rep2" "report directory from -j 1 and -j 4 sweeps"

echo "$checks checks, $fails failures"
[ "$fails" -eq 0 ]
