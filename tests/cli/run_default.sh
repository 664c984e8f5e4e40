#!/usr/bin/env bash
# workloads/run-default.sh (the README's numerics demo): every row of its table carries the error
# that `mxsim compare` reports for that profile, G and accumulator (it printed SQNR 0.00 and errors 0
# for all 32 rows for a long time: it read a key-value output that compare no longer prints), the
# SQNR lies where 8-bit mantissas put it (20-60 dB on this data), and within a profile a larger
# group never raises it (one scale for more values, outlier channels included).
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
t=$MXSIM_TEST_TMP
rm -rf "$t" && mkdir -p "$t"
src=$MXSIM_SOURCE_DIR
"$src/workloads/run-default.sh" "$(dirname "$MXSIM")" "$t/out" > "$t/log" 2>&1 || { cat "$t/log"; echo "FAIL run-default.sh"; exit 1; }
md=$t/out/roundtrip.md
fails=0
rows=$(grep -c '^| [a-z-]* | [0-9]* | [a-z0-9]* |' "$md")
[ "$rows" = 32 ] && echo "ok   32 rows" || { echo "FAIL $rows rows, want 32"; fails=$((fails + 1)); }
awk -F'|' '/^\| [a-z-]+ \| [0-9]+ \|/ { s = $5 + 0; if (s < 20 || s > 60 || $6 + 0 <= 0 || $7 + 0 <= 0) { print "FAIL row:" $0; bad++ } }
           END { exit bad > 0 }' "$md" && echo "ok   every SQNR in 20..60 dB, errors > 0" || fails=$((fails + 1))
awk -F'|' '/^\| [a-z-]+ \| [0-9]+ \|/ { k = $2 $4; g = $3 + 0; s = $5 + 0
             if ((k in last) && s > last[k] + 1e-9) { print "FAIL SQNR rises with G:" $0; bad++ } last[k] = s }
           END { exit bad > 0 }' "$md" && echo "ok   SQNR never rises with G within a profile" || fails=$((fails + 1))
# one row against compare's CSV, by column name
"$MXSIM" quantize --profile mase --group-size 64 "$src/workloads/data/act_64x768.npy" -o "$t/a.npz" &&
  "$MXSIM" quantize --profile mase --group-size 64 "$src/workloads/data/weight_256x768.npy" -o "$t/b.npz" &&
  "$MXSIM" gemm --acc exact "$t/a.npz" "$t/b.npz" -o "$t/c.npy" &&
  "$MXSIM" compare --format csv "$src/workloads/data/ref_64x256.npy" "$t/c.npy" > "$t/c.csv" || { echo "FAIL compare"; exit 1; }
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } { printf "%.2f", $h["sqnr_db"] }' "$t/c.csv")
got=$(awk -F'|' '$2 == " mase " && $3 == " 64 " && $4 == " exact " { gsub(/ /, "", $5); print $5 }' "$md")
[ -n "$want" ] && [ "$got" = "$want" ] && echo "ok   mase G=64 exact: $got dB = compare" \
  || { echo "FAIL mase G=64 exact: table '$got', compare '$want'"; fails=$((fails + 1)); }
exit $((fails > 0))
