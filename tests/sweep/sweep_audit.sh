#!/usr/bin/env bash
# Regressions of the sweep CLI audit: an op padded to whole groups (K not a multiple of G) is timed as
# mxsim run times it, and an op at its own group= or padded says so (group_eff, ops_other_group,
# ops_padded, group_note; in the CSV, the table and Markdown); axes setting one
# field twice are refused naming both options; a point over a configuration limit is refused
# before anything is written; a --data directory whose files no op reads is refused.  Every
# refusal exits 2 and leaves no file.  Expected numbers are worked out by hand or by mxsim run.
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
t=$MXSIM_TEST_TMP; rm -rf "$t" && mkdir -p "$t/out"
. "$MXSIM_SOURCE_DIR/tests/lib/expect.sh"
cfg=$MXSIM_SOURCE_DIR/workloads/configs/small.ini # mx.group_size = 32
printf 'mxsim-trace 1\ngemm name=a m=64 n=64 k=97\n' > "$t/k97.trace"
printf 'mxsim-trace 1\ngemm name=a m=64 n=64 k=96\n' > "$t/k96.trace"
printf 'mxsim-trace 1\ngemm name=a m=64 n=64 k=96 group=8\n' > "$t/opg.trace"
# col FILE OP POINT COLUMN: one cell of a sweep CSV (python's csv module: independent of ours)
col() { python3 -c 'import csv,sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["op"] == sys.argv[2] and r["point"] == sys.argv[3]: print(r[sys.argv[4]])' "$@"; }
# cycles of op a in `mxsim run` CSV
run_cycles() { "$MXSIM" run --config "$cfg" "$@" --format csv | python3 -c 'import csv,sys
print([r for r in csv.DictReader(sys.stdin) if r["op"] == "a"][0]["cycles_total"])'; }
noout() { [ -z "$(ls -A "$t/out")" ] && ok "$1: nothing written" || bad "$1: left $(ls -A "$t/out")"; rm -rf "${t:?}/out"/*; }

# ---- 1. K = 97 (prime) at G = 32 is padded to 128, as mxsim run pads it, and says so ------------
"$MXSIM" sweep --config "$cfg" -q "$t/k97.trace" --group-size 32 --no-accuracy -o "$t/k97.csv" || bad "k97 sweep"
[ "$(col "$t/k97.csv" a 0 group_eff)" = 32 ] && ok "k97: group_eff 32" || bad "k97 group_eff $(col "$t/k97.csv" a 0 group_eff)"
[ "$(col "$t/k97.csv" a 0 ops_padded)" = 1 ] && [ "$(col "$t/k97.csv" TOTAL 0 ops_padded)" = 1 ] \
  && [ "$(col "$t/k97.csv" TOTAL 0 ops_other_group)" = 0 ] && ok "k97: ops_padded 1 (op and TOTAL)" || bad "k97 ops_padded"
col "$t/k97.csv" a 0 group_note | grep -qF "k=97 padded to 128 (4 whole groups of 32)" \
  && ok "k97: the op's note names k, its padded length and G" || bad "k97 note: $(col "$t/k97.csv" a 0 group_note)"
col "$t/k97.csv" TOTAL 0 group_note | grep -qF "1 of 1 ops padded to whole groups" && ok "k97: TOTAL note" || bad "k97 TOTAL note"
# the sweep times it as run does (G = 32, K padded), not as run at G = 1
s=$(col "$t/k97.csv" a 0 cycles_total); r1=$(run_cycles --set mx.group_size=1 "$t/k97.trace"); r32=$(run_cycles "$t/k97.trace")
[ "$s" = "$r32" ] && [ "$s" != "$r1" ] && ok "k97: sweep cycles $s = run at G=32 (run at G=1: $r1)" \
  || bad "k97: sweep $s, run G=1 $r1, run G=32 $r32"
# where G divides K both agree
s=$("$MXSIM" sweep --config "$cfg" -q "$t/k96.trace" --group-size 32 --no-accuracy --format csv > "$t/k96.csv" && col "$t/k96.csv" a 0 cycles_total)
[ "$s" = "$(run_cycles "$t/k96.trace")" ] && [ "$(col "$t/k96.csv" TOTAL 0 ops_other_group)" = 0 ] \
  && [ -z "$(col "$t/k96.csv" TOTAL 0 group_note)" ] && ok "k96: sweep = run, nothing at another G" || bad "k96: sweep $s"
# the terminal table and Markdown (totals) carry the count and the note
expect 0 "1 of 1 ops padded to whole groups" -- "$MXSIM" sweep --config "$cfg" -q "$t/k97.trace" --group-size 32 --no-accuracy
expect 0 "| 1 of 1 ops padded to whole groups" -- "$MXSIM" sweep --config "$cfg" -q "$t/k97.trace" --group-size 32 --no-accuracy --format md
# and stderr says it once when not quiet that an op's own group= won over the axis
expect 0 "in 1 of 2 points some ops ran at their own group=" -- "$MXSIM" sweep --config "$cfg" "$t/opg.trace" --group-size 8,32 --no-accuracy -o "$t/opgb.csv"
# the op's own group= overrides the axis: visible at the G = 32 point, not at G = 8
"$MXSIM" sweep --config "$cfg" -q "$t/opg.trace" --group-size 8,32 --no-accuracy -o "$t/opg.csv" || bad "opg sweep"
[ "$(col "$t/opg.csv" TOTAL 0 ops_other_group)" = 0 ] && [ "$(col "$t/opg.csv" TOTAL 1 ops_other_group)" = 1 ] \
  && col "$t/opg.csv" a 1 group_note | grep -qF "op's own group=8 (trace line 2) instead of G=32" \
  && ok "opg: own group counted at G=32 only, with its line" || bad "opg: $(col "$t/opg.csv" a 1 group_note)"
python3 - "$t/k97.meta.json" <<'PY' && ok "sidecar documents the new columns" || bad "sidecar columns"
import json, sys
c = {x["name"]: x for x in json.load(open(sys.argv[1]))["columns"]}
assert c["ops_other_group"]["type"] == "int" and c["ops_padded"]["type"] == "int" and c["group_note"]["type"] == "text"
assert c["acc_from_file"]["type"] == "int"
PY

# ---- 1b. a SCALE-Sim topology under a .cfg: the sweep reads it with SCALE-Sim's rules, as run does
# (AlexNet conv1: 224x224, 11x11, stride 4 -> SCALE-Sim's ceil((224 - 11 + 4) / 4) = 55 rows, 3025
# pixels, not floor((224 - 11) / 4) + 1 = 54, 2916; 32x32 OS: ceil(3025/32) ceil(96/32) (363 + 62) - 1
# = 95 * 3 * 425 - 1 = 121,124 cycles, SCALE-Sim's own number, architecture.md section 8 rule 4)
ss=$MXSIM_SOURCE_DIR/tests/timing/scalesim
"$MXSIM" sweep --config "$ss/configs/v2/scale.cfg" --sweep array.dataflow=os --no-accuracy -q \
  "$ss/topologies/shipped/alexnet.csv" -o "$t/ss.csv" || bad "sweep of a SCALE-Sim topology"
[ "$(col "$t/ss.csv" Conv1 0 m)" = 3025 ] && [ "$(col "$t/ss.csv" Conv1 0 cycles_total)" = 121124 ] \
  && ok "SCALE-Sim topology in a sweep: conv1 m 3025, 121124 cycles" \
  || bad "SCALE-Sim topology in a sweep: conv1 m $(col "$t/ss.csv" Conv1 0 m), $(col "$t/ss.csv" Conv1 0 cycles_total) cycles"

# ---- 1c. plain int8 operands: no MXINT8 accuracy (NaN, nothing measured) and no G in the area ----
"$MXSIM" sweep --config "$cfg" -q "$t/k96.trace" --group-size 8,256 --sweep mx.operand_format=mxint8,int8 -o "$t/i8.csv" \
  || bad "int8 sweep"
python3 - "$t/i8.csv" <<'PY' && ok "int8 points: SQNR nan, 0 outputs measured; area the same at G = 8 and 256 (MXINT8: grows)" || bad "int8 points"
import csv, math, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["op"] == "TOTAL"]
p = {(int(r["mx.group_size"]), r["mx.operand_format"]): r for r in rows}
for g in (8, 256):
    r = p[(g, "int8")]
    assert math.isnan(float(r["sqnr_db"])) and r["acc_rows"] == "0", r["sqnr_db"]
    assert not math.isnan(float(p[(g, "mxint8")]["sqnr_db"]))
# the int8 PE accumulates the whole K in 32 bits and holds no scale bytes: G changes nothing;
# MXINT8's group-sum register is 17 + log2 G bits wide (cost.c), so its area grows from G = 8 to 256
assert p[(8, "int8")]["area_mm2"] == p[(256, "int8")]["area_mm2"]
assert float(p[(256, "mxint8")]["area_mm2"]) > float(p[(8, "mxint8")]["area_mm2"])
assert float(p[(8, "int8")]["area_mm2"]) < float(p[(8, "mxint8")]["area_mm2"])
PY

# ---- 2. overlapping axes -------------------------------------------------------------------------
for a in "--sweep array.rows=32" "--sweep array.cols=32" "--sweep array.size=32"; do
  # shellcheck disable=SC2086
  expect 2 "--array-width 8,16 and $a both set" -- "$MXSIM" sweep --config "$cfg" -q "$t/k96.trace" --array-width 8,16 $a -o "$t/out/o.csv"
  noout "array-width + $a"
done
expect 2 "--group-size 8 and --sweep mx.group_size=32 both set mx.group_size" -- \
  "$MXSIM" sweep --config "$cfg" -q "$t/k96.trace" --group-size 8 --sweep mx.group_size=32 -o "$t/out/o.csv"
expect 2 "--profile mase and --sweep numerics.profile=ocp,mase both set the numerics profile" -- \
  "$MXSIM" sweep --config "$cfg" -q "$t/k96.trace" --profile mase --sweep numerics.profile=ocp,mase -o "$t/out/o.csv"
noout "overlaps"
# array.rows and array.cols are different fields: fine
expect 0 "" -- "$MXSIM" sweep --config "$cfg" -q "$t/k96.trace" --sweep array.rows=8,16 --sweep array.cols=8 --no-accuracy

# ---- 3. a point over the 2^22-PE limit: refused before any point runs, nothing written ----------
expect 2 "the point array.size=4096 is invalid" -- "$MXSIM" sweep --config "$cfg" -q "$t/k96.trace" --array-width 8,4096 -o "$t/out/fail.csv"
noout "array-width 4096"
expect 2 "the point array.rows=4096, array.cols=2048 is invalid" -- \
  "$MXSIM" sweep --config "$cfg" -q "$t/k96.trace" --sweep array.rows=16,4096 --sweep array.cols=16,2048 -o "$t/out/fail.csv"
noout "rows x cols"

# ---- 4. --data DIR -------------------------------------------------------------------------------
# npy writer (float32, C order) without numpy: magic, version 1.0, header padded to 64 bytes
npy() { python3 - "$@" <<'PY'
import struct, sys
path, rows, cols = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
h = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
h += " " * (63 - (10 + len(h)) % 64) + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode())
    f.write(struct.pack("<%df" % (rows * cols), *[((i * 7919) % 13) - 6.0 for i in range(rows * cols)]))
PY
}
mkdir -p "$t/misnamed" "$t/empty" "$t/right"
npy "$t/misnamed/A.a.npy" 8 96; npy "$t/misnamed/A.b.npy" 8 96
expect 2 "misnamed/A.a.npy: field 'name': no op of" -- "$MXSIM" sweep --config "$cfg" -q "$t/k96.trace" --data "$t/misnamed" -o "$t/out/d.csv"
expect 2 "did you mean 'a.a.npy'?" -- "$MXSIM" sweep --config "$cfg" -q "$t/k96.trace" --data "$t/misnamed" -o "$t/out/d.csv"
noout "misnamed data"
expect 2 "no op of $t/k96.trace has a file there" -- "$MXSIM" sweep --config "$cfg" -q "$t/k96.trace" --data "$t/empty" -o "$t/out/d.csv"
noout "empty data"
expect 2 "--data has no effect with --no-accuracy" -- "$MXSIM" sweep --config "$cfg" -q "$t/k96.trace" --data "$t/right" --no-accuracy -o "$t/out/d.csv"
noout "data without accuracy"
npy "$t/right/a.a.npy" 8 96; npy "$t/right/a.b.npy" 8 96
"$MXSIM" sweep --config "$cfg" -q "$t/k96.trace" --data "$t/right" -o "$t/right.csv" || bad "right data"
[ "$(col "$t/right.csv" a 0 acc_from_file)" = 1 ] && [ "$(col "$t/right.csv" TOTAL 0 acc_from_file)" = 1 ] \
  && [ "$(col "$t/right.csv" a 0 acc_rows)" = 8 ] && ok "data read: acc_from_file 1, 8 rows measured" || bad "right data: from_file"
# synthetic data (no --data) says 0
"$MXSIM" sweep --config "$cfg" -q "$t/k96.trace" -o "$t/synth.csv" && [ "$(col "$t/synth.csv" TOTAL 0 acc_from_file)" = 0 ] \
  && ok "synthetic: acc_from_file 0" || bad "synthetic acc_from_file"
expect 0 "accuracy data: 1 of 1 ops read files from" -- "$MXSIM" sweep --config "$cfg" "$t/k96.trace" --data "$t/right" -o "$t/right2.csv"

[ "$fails" -eq 0 ] && echo "all sweep audit checks passed" || echo "$fails failures"
exit $(( fails > 0 ))
