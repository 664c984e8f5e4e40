#!/usr/bin/env bash
# The default job: an MXINT8 quantize -> GEMM round trip on bundled data (a 64x768 activation
# with outlier channels, a 256x768 weight), swept over numerics profile and group size, with the
# error of each against the float64 product.  Prints a table and writes it to $OUT/roundtrip.md.
# usage: workloads/run-default.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
out=${2:-$build/reports}
mxsim=$build/mxsim
data=$here/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

report=$tmp/roundtrip.md
{
  echo "# mxsim default job: MXINT8 GEMM round trip"
  echo
  echo "A = workloads/data/act_64x768.npy, B = workloads/data/weight_256x768.npy, C = A.B^T"
  echo "against the float64 product (workloads/data/ref_64x256.npy). mxsim $("$mxsim" --version | cut -d' ' -f2)."
  echo
  echo "| profile | group size | acc | SQNR (dB) | max abs err | mean abs err |"
  echo "|---|---|---|---|---|---|"
} > "$report"
for profile in ocp mase mase-cuda microxcaling; do
  for g in 16 32 64 128; do
    "$mxsim" quantize --profile "$profile" --group-size "$g" "$data/act_64x768.npy" -o "$tmp/a.npz"
    "$mxsim" quantize --profile "$profile" --group-size "$g" "$data/weight_256x768.npy" -o "$tmp/b.npz"
    for acc in fp32 exact; do
      "$mxsim" gemm --acc "$acc" "$tmp/a.npz" "$tmp/b.npz" -o "$tmp/c.npy"
      "$mxsim" compare --format csv "$data/ref_64x256.npy" "$tmp/c.npy" > "$tmp/cmp.csv"
      # by column name from the CSV header (the table's layout is for people)
      get() { awk -F, -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next }
                                 c { print $c } END { if (!c) exit 1 }' "$tmp/cmp.csv"; }
      printf '| %s | %s | %s | %.2f | %.4g | %.4g |\n' "$profile" "$g" "$acc" \
        "$(get sqnr_db)" "$(get max_abs_err)" "$(get mean_abs_err)" >> "$report"
    done
  done
done
cp "$report" "$out/roundtrip.md"
cat "$report"
echo
echo "report written to $out/roundtrip.md"
