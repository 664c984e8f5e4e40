#!/usr/bin/env bash
# The cross-card GPU model (sim/doc/gpu-model.md section 6) from the measurements listed in
# workloads/gpus/xcard-runs.txt, both directions (H100 -> H200 and H200 -> H100).
#
#   tests/gpumodel/xcard.sh            check (CTest xcard, gpu_xcard_target): re-derive the calibration
#                                      on each card and check that the OTHER card's file
#                                      (workloads/gpus/<card>-xcard.ini) holds exactly those fields
#                                      (--check); print the held-out MAPE per run, per median and per
#                                      kernel class; MXSIM_XCARD_MAX_MAPE (percent) gates the MAPE
#                                      against the median of the held-out card's runs, and of each
#                                      run listed as unseen (measured after the card files were fitted).
#   tests/gpumodel/xcard.sh --power-of CARD   the bench_ext file whose power compare-gpu uses for CARD
#   tests/gpumodel/xcard.sh --reports DIR     write the committed reports that --write writes
#                                      (DIR/compare-h*/xcard_from_*.txt, accel_vs_best_gpu.csv) into DIR
#                                      from the committed card files, nothing else (committed_compare.sh)
#   tests/gpumodel/xcard.sh --write    re-derive and WRITE: the calibrated sections of both card
#                                      files, reports/gpu/compare-h200/xcard_from_h100.txt,
#                                      reports/gpu/compare-h100/xcard_from_h200.txt and the
#                                      compare-gpu tables reports/gpu/compare-h*/accel_vs_best_gpu.csv
#                                      (power: the first listed folder's newest bench_ext file of each
#                                      card, bench_ext_runN.csv with the largest N, else bench_ext.csv:
#                                      the runs before final6's run 6 sampled a trailing 1 s power
#                                      average, see kernels/tools/mxsim_gpu.cu measure_power).
# MXSIM (the CLI; default build/mxsim) and MXSIM_SOURCE_DIR (default: this checkout).  Exit 77: no results.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
: "${MXSIM_SOURCE_DIR:=$here}"
cd "$MXSIM_SOURCE_DIR" || exit 1
: "${MXSIM:=$MXSIM_SOURCE_DIR/build/mxsim}"
write=0; [ "${1:-}" = --write ] && write=1
reports=; if [ "${1:-}" = --reports ]; then reports=${2:-}; [ -n "$reports" ] || { echo "xcard.sh --reports: DIR missing" >&2; exit 2; }; fi
list=${MXSIM_XCARD_RUNS:-workloads/gpus/xcard-runs.txt}
# a line: CARD FOLDER [BUILD]; BUILD (decode1: the kernels before decode2; prebf16: decode2 to final4;
# prerow: final5 to final7)
# goes to gpu-calibrate as BUILD:FOLDER
args() { awk -v c="$1" '$0 !~ /^[ \t]*(#|$)/ && $1 == c && $3 != "launch" && $3 != "unseen" { print ($3 != "" ? $3 ":" $2 : $2) }' "$list"; }
# the card's runs measured after its card file was fitted (BUILD unseen): never fitted on, scored
unseen() { awk -v c="$1" '$0 !~ /^[ \t]*(#|$)/ && $1 == c && $3 == "unseen" { print $2 }' "$list"; }
# the card's launch_probe folders (BUILD launch): its launch floor
launches() { awk -v c="$1" '$0 !~ /^[ \t]*(#|$)/ && $1 == c && $3 == "launch" { print $2 }' "$list"; }
# the list itself: CARD (h100, h200) FOLDER [BUILD (decode1, prebf16, prerow)], nothing more; a bad line stops here
awk '$0 ~ /^[ \t]*(#|$)/ { next }
     $1 != "h100" && $1 != "h200" { printf "%s:%d: field 1 (card): '\''%s'\'' is not h100 or h200\n", FILENAME, FNR, $1; bad = 1; exit }
     NF < 2 || NF > 3 { printf "%s:%d: expected CARD FOLDER [BUILD], got %d fields\n", FILENAME, FNR, NF; bad = 1; exit }
     NF == 3 && $3 != "decode1" && $3 != "prebf16" && $3 != "prerow" && $3 != "launch" && $3 != "unseen" { printf "%s:%d: field 3 (build): '\''%s'\'' is not decode1, prebf16, prerow, launch or unseen\n", FILENAME, FNR, $3; bad = 1; exit }
     END { exit bad }' "$list" >&2 || exit 2
first() { local f; f=$(args "$1" | head -1); echo "${f##*:}"; }
power_file() { ls "$1"/bench_ext*.csv | sort -V | tail -1; }
# --power-of CARD: print the file that gives CARD's measured power (for compare_best.sh), nothing else
if [ "${1:-}" = --power-of ]; then
  case "${2:-}" in h100 | h200) ;; *) echo "xcard.sh --power-of: card '${2:-}' is not h100 or h200" >&2; exit 2 ;; esac
  f=$(first "$2"); [ -n "$f" ] || { echo "$list: no folder for card $2" >&2; exit 2; }
  p=$(power_file "$f" 2>/dev/null); [ -n "$p" ] || { echo "$f: no bench_ext*.csv" >&2; exit 2; }
  echo "$p"; exit 0
fi
h100=(); h200=()
for f in $(args h100); do [ -e "${f##*:}" ] || { echo "skipped: $f missing"; exit 77; }; h100+=(--from "$f"); done
for f in $(args h200); do [ -e "${f##*:}" ] || { echo "skipped: $f missing"; exit 77; }; h200+=(--from "$f"); done
[ ${#h100[@]} -gt 0 ] && [ ${#h200[@]} -gt 0 ] || { echo "skipped: $list names no H100 or H200 runs"; exit 77; }
l100=(); l200=()
for f in $(launches h100); do [ -e "$f" ] || { echo "skipped: $f missing"; exit 77; }; l100+=(--from-launch "$f"); done
for f in $(launches h200); do [ -e "$f" ] || { echo "skipped: $f missing"; exit 77; }; l200+=(--from-launch "$f"); done
lto() { local a=("$@"); [ ${#a[@]} -gt 0 ] && printf '%s\n' "${a[@]}" | sed 's/^--from-launch$/--to-launch/'; }
mapfile -t l100to < <(lto "${l100[@]}"); mapfile -t l200to < <(lto "${l200[@]}")
to() { local a=("$@"); printf '%s\n' "${a[@]}" | sed 's/^--from$/--to/'; }
mapfile -t h100to < <(to "${h100[@]}"); mapfile -t h200to < <(to "${h200[@]}")
t=${MXSIM_TEST_TMP:-/tmp/mxsim_xcard_$$}; mkdir -p "$t"
mm=(); [ -n "${MXSIM_XCARD_MAX_MAPE:-}" ] && mm=(--max-mape "$MXSIM_XCARD_MAX_MAPE")
rc=0
# direction: SRC DST (card names); the calibration of SRC goes into DST's file
# (--write: the target's datasheet part only, so that a stale calibrated block cannot stop it)
run() {
  local s=$1 d=$2; shift 2
  local from=("${h100[@]}" "${l100[@]}") tov=("${h200to[@]}" "${l200to[@]}")
  [ "$s" = h200 ] && from=("${h200[@]}" "${l200[@]}") tov=("${h100to[@]}" "${l100to[@]}")
  local tc=workloads/gpus/$d-xcard.ini fc=workloads/gpus/$s-xcard.ini
  if [ $write = 1 ]; then
    awk '/^# Calibrated on the other card/ { exit } { print }' $tc > "$t/$d-datasheet.ini"; tc=$t/$d-datasheet.ini
    awk '/^# Calibrated on the other card/ { exit } { print }' $fc > "$t/$s-datasheet.ini"; fc=$t/$s-datasheet.ini
  fi
  "$MXSIM" gpu-calibrate "${from[@]}" --from-card "$fc" "${tov[@]}" --to-card "$tc" --rows "$@"
}
# the compare-gpu tables (accel_vs_best_gpu.csv) of both cards into DIR/compare-CARD
tables() {
  local d
  for d in h100 h200; do
    mkdir -p "$1/compare-$d"
    "$MXSIM" compare-gpu --trace traces/llama2-7b-decode-b16.trace --config workloads/configs/large.ini \
      --xcard workloads/gpus/$d-xcard.ini --power "$(power_file "$(first $d)")" -o "$1/compare-$d" > /dev/null \
      && echo "wrote $1/compare-$d/accel_vs_best_gpu.csv" || { echo "FAIL: compare-gpu $d"; return 1; }
  done
}
if [ -n "$reports" ]; then
  for dir in h100:h200 h200:h100; do
    s=${dir%%:*}; d=${dir#*:}; mkdir -p "$reports/compare-$d"
    run "$s" "$d" > "$reports/compare-$d/xcard_from_$s.txt" || { echo "FAIL: $s -> $d report"; exit 1; }
  done
  tables "$reports"; exit $?
fi
for dir in h100:h200 h200:h100; do
  s=${dir%%:*}; d=${dir#*:}
  if [ $write = 1 ]; then
    run "$s" "$d" -o "$t/cal_$d.ini" > "$t/report_$d.txt" || { echo "FAIL: $s -> $d calibration"; exit 1; }
    # the card file: everything above the calibrated block, then the fresh block
    awk '/^# Calibrated on the other card/ { exit } { print }' workloads/gpus/$d-xcard.ini > "$t/$d.ini"
    { echo "# Calibrated on the other card by tests/gpumodel/xcard.sh --write (checked by CTest xcard):"
      cat "$t/cal_$d.ini"; } >> "$t/$d.ini"
    cp "$t/$d.ini" workloads/gpus/$d-xcard.ini
    mkdir -p reports/gpu/compare-$d
    run "$s" "$d" > reports/gpu/compare-$d/xcard_from_$s.txt
    echo "wrote workloads/gpus/$d-xcard.ini, reports/gpu/compare-$d/xcard_from_$s.txt"
  else
    run "$s" "$d" --check "${mm[@]}" > "$t/report_$d.txt" 2> "$t/err_$d.txt" || rc=1
    cat "$t/err_$d.txt"
    awk '/^held-out rows/ { exit } { print }' "$t/report_$d.txt"
    grep -E '^(check|held-out MAPE)' "$t/report_$d.txt"
  fi
done
if [ $write = 1 ]; then
  tables reports/gpu || rc=1
  exit $rc
fi
# runs the card files never saw (BUILD unseen): each scored alone against the committed card file,
# calibrated on the other card's runs as above, under the same MAPE gate
for c in h100 h200; do
  for f in $(unseen $c); do
    [ -e "$f" ] || { echo "FAIL: $f (unseen) missing"; rc=1; continue; }
    s=h200; [ $c = h200 ] && s=h100
    from=("${h100[@]}" "${l100[@]}"); [ $s = h200 ] && from=("${h200[@]}" "${l200[@]}")
    if "$MXSIM" gpu-calibrate "${from[@]}" --from-card workloads/gpus/$s-xcard.ini --to "$f" \
         --to-card workloads/gpus/$c-xcard.ini --check "${mm[@]}" > "$t/unseen.txt" 2>&1; then
      echo "ok: unseen run $f: $(grep '^held-out card (median' "$t/unseen.txt")"
    else echo "FAIL: unseen run $f"; grep -E '^(held-out card|check|mxsim)' "$t/unseen.txt"; rc=1; fi
  done
done
# the kinds of rows in a bench: a run with a method the model has no class for and without any
# decode-kernel row is calibrated on what it has; the skipped rows are counted, and the fields of
# the missing class are neither written nor checked
h1=$(first h100); [ -d "$h1" ] && h1=$h1/bench.csv
mkdir -p "$t/kinds"
awk -F, 'NR == 1 || !($7 ~ /^mxk-gemm-mxint8-cfg(9|10)$/ || ($7 == "mxk-gemm-mxint8" && $3 <= 16))' "$h1" > "$t/kinds/bench.csv"
# (the same card as the run's other rows: a bench is of one card)
awk -F, 'NR == 2 { printf "%s,future,16,4096,4096,32,mxk-gemm-mxint8-cfg42,10.0,1,TOPS,1\n", $1 }' "$h1" >> "$t/kinds/bench.csv"
if "$MXSIM" gpu-calibrate --from "$t/kinds" --from-card workloads/gpus/h100-xcard.ini "${h200to[@]}" \
     --to-card workloads/gpus/h200-xcard.ini -o "$t/kinds/cal.ini" > "$t/kinds/log" 2>&1 \
   && grep -q "1 of unmodelled methods skipped" "$t/kinds/log" && ! grep -q "mxk-decode-cfg" "$t/kinds/cal.ini" \
   && grep -q "^mxk-gemv-cfg4.a32" "$t/kinds/cal.ini"; then echo "ok: a run with an unknown method and no decode rows calibrates on the rest"
else echo "FAIL: rows of other kinds"; cat "$t/kinds/log" | head -5; rc=1; fi
# negative control on the real runs: the H200 predicted with the H100's bandwidth and L2 (its
# datasheet difference ignored) must miss the 5% target, or the gate could not tell
sed 's/^hbm.bw_gbs = .*/hbm.bw_gbs = 3350/; s/^l2.mb = .*/l2.mb = 52.4288/' workloads/gpus/h200-xcard.ini > "$t/h200-as-h100.ini"
if "$MXSIM" gpu-calibrate "${h100[@]}" --from-card workloads/gpus/h100-xcard.ini "${h200to[@]}" --to-card "$t/h200-as-h100.ini" \
     --max-mape 5 > "$t/neg.log" 2>&1; then echo "FAIL: the H200 with the H100's datasheet met the 5% target"; rc=1
else echo "ok: negative control: $(grep '^held-out MAPE' "$t/neg.log")"; fi
# the check can fail: a card file with one calibrated field changed must be rejected
sed 's/^\(cublas-bf16.a32 = \)\(.*\)$/\1 9.99/' workloads/gpus/h200-xcard.ini > "$t/bad.ini"
if "$MXSIM" gpu-calibrate "${h100[@]}" --from-card workloads/gpus/h100-xcard.ini "${h200to[@]}" --to-card "$t/bad.ini" \
     --check > "$t/bad.log" 2>&1; then echo "FAIL: --check accepted a changed calibrated field"; rc=1
else grep -q "cublas-bf16.a32 = 9.99" "$t/bad.log" && echo "ok: --check rejects a changed field" || { echo "FAIL: no message"; rc=1; }; fi
# the launch floor is checked too: a changed launch.floor_us must be rejected
sed 's/^launch.floor_us = .*/launch.floor_us = 1.5/' workloads/gpus/h200-xcard.ini > "$t/badfloor.ini"
if "$MXSIM" gpu-calibrate "${h100[@]}" "${l100[@]}" --from-card workloads/gpus/h100-xcard.ini "${h200to[@]}" "${l200to[@]}" \
     --to-card "$t/badfloor.ini" --check > "$t/badfloor.log" 2>&1; then echo "FAIL: --check accepted a changed launch floor"; rc=1
else grep -q "launch.floor_us = 1.5, re-derived" "$t/badfloor.log" && echo "ok: --check rejects a changed launch floor" \
  || { echo "FAIL: no launch floor message"; cat "$t/badfloor.log" | tail -3; rc=1; }; fi
# a bad line of the list is refused with its file:line and field, exit 2, before anything runs
if [ -z "${MXSIM_XCARD_INNER:-}" ]; then
  { echo "# comment"; echo "h100 reports/gpu/x decode9"; } > "$t/badlist.txt"
  MXSIM_XCARD_INNER=1 MXSIM_XCARD_RUNS="$t/badlist.txt" bash "$0" > "$t/badlist.log" 2>&1; brc=$?
  if [ $brc = 2 ] && grep -q "badlist.txt:2: field 3 (build): 'decode9'" "$t/badlist.log"; then echo "ok: a bad list line is refused (file:line, exit 2)"
  else echo "FAIL: bad list line: exit $brc"; cat "$t/badlist.log"; rc=1; fi
fi
exit $rc
