#!/usr/bin/env bash
# Sweep CLI: byte-identical results with -j 1 and -j 2 (CSV, JSON, Markdown); progress on stderr
# (plain lines when not a terminal, none with --quiet); the report's files exist, the SVGs are
# well-formed (xmllint, when installed), the HTML has no scripts or remote resources, the Pareto
# front matches an O(n^2) reference; cost
# prints sourced constants; bad input exits 2 naming the field.
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
t=$MXSIM_TEST_TMP; rm -rf "$t" && mkdir -p "$t"
src=$MXSIM_SOURCE_DIR
. "$src/tests/lib/expect.sh"
cfg=$src/workloads/configs/medium.ini
tr=$src/traces/bert-base.trace
args=(sweep --config "$cfg" "$tr" --group-size 8,32,128 --array-width 16,64 --sweep exp.acc_mode=fp32,exact)

for f in csv json md; do
  "$MXSIM" "${args[@]}" -j 1 --quiet -o "$t/j1.$f" || bad "sweep -j1 $f"
  "$MXSIM" "${args[@]}" -j 2 --quiet -o "$t/j2.$f" || bad "sweep -j2 $f"
  cmp -s "$t/j1.$f" "$t/j2.$f" && ok "-j1 == -j2 ($f)" || bad "-j1 and -j2 differ ($f)"
done
"$MXSIM" "${args[@]}" -j2 --quiet -o "$t/again.csv" && cmp -s "$t/j1.csv" "$t/again.csv" && ok "rerun identical" || bad "rerun differs"
# 12 points x (8 ops + TOTAL) rows, units in the header
n=$(grep -vc '^#' "$t/j1.csv"); [ "$n" = $((1 + 12 * 9)) ] && ok "row count $n" || bad "row count $n"
head -n 200 "$t/j1.csv" | grep -v '^#' | head -1 | grep -q 'cycles_total,.*time_us,.*area_mm2,.*energy_mj,.*pj_per_mac,.*tops_per_w,.*sqnr_db' \
  && ok "units in header" || bad "header lacks unit-named columns"
# energy per MAC: nan for the ops without MACs (quantize, dequantize: they cost energy_mj > 0, with no
# MAC to divide it by), and for the others the row's energy / its MACs (pJ) and 2 MACs / energy (TOPS/W)
python3 - "$t/j1.csv" <<'PY' && ok "pJ/MAC and TOPS/W: nan without MACs, energy/MACs otherwise" || bad "pJ/MAC or TOPS/W of an op"
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
seen = set()
for r in rows:
    macs, e = int(r["n_macs"]), float(r["energy_mj"])
    pm, tw = float(r["pj_per_mac"]), float(r["tops_per_w"])
    assert e > 0, r["op"]
    if r["kind"] in ("quantize", "dequant"):
        assert macs == 0 and math.isnan(pm) and math.isnan(tw), (r["op"], r["pj_per_mac"], r["tops_per_w"])
        assert math.isnan(float(r["pj_per_mac_low"])) and math.isnan(float(r["tops_per_w_high"])), r["op"]
        seen.add(r["kind"])
    else:
        assert macs > 0, r["op"]
        assert abs(pm - e * 1e9 / macs) <= 1e-4 * pm, (r["op"], pm, e * 1e9 / macs)
        assert abs(tw - 2 * macs / (e * 1e-3) / 1e12) <= 1e-4 * tw, (r["op"], tw)
assert seen == {"quantize", "dequant"}, seen
PY
# the breakdowns add up (mutation audit R2: only the example snapshot saw them): per row the 11
# e_*_mj columns sum to energy_mj and the 11 a_*_mm2 to area_mm2; low <= nominal <= high; each
# point's TOTAL is the sum of its ops' energies; every op row carries the machine's one area
python3 - "$t/j1.json" <<'PY' && ok "energy and area breakdowns sum to their totals" || bad "a breakdown does not sum to its total"
import json, sys, collections
d = json.load(open(sys.argv[1]))
rows = d["rows"]
ecols = [c for c in rows[0] if c.startswith("e_") and c.endswith("_mj")]
acols = [c for c in rows[0] if c.startswith("a_") and c.endswith("_mm2")]
assert len(ecols) == 11 and len(acols) == 11, (ecols, acols)
ops = collections.defaultdict(list); tot = {}
for r in rows:
    e, a = r["energy_mj"], r["area_mm2"]
    se, sa = sum(r[c] for c in ecols), sum(r[c] for c in acols)
    assert abs(se - e) <= 1e-9 * e, (r["point"], r["op"], se, e)
    assert abs(sa - a) <= 1e-9 * a, (r["point"], r["op"], sa, a)
    assert r["energy_mj_low"] <= e <= r["energy_mj_high"] and 0 <= r["leakage_mj"] <= e, r["op"]
    assert r["area_mm2_low"] <= a <= r["area_mm2_high"], r["op"]
    (tot.__setitem__(r["point"], r) if r["kind"] == "total" else ops[r["point"]].append(r))
for p, t in tot.items():
    for c in ecols + ["energy_mj", "leakage_mj"]:
        s = sum(o[c] for o in ops[p])
        assert abs(s - t[c]) <= 1e-9 * max(t[c], 1e-300), (p, c, s, t[c])
    for o in ops[p]:  # one machine: every op row carries its area
        assert all(o[c] == t[c] for c in acols), (p, o["op"])
PY
# plain CSV (no comment lines); the settings travel in the typed sidecar j1.meta.json
grep -q '^#' "$t/j1.csv" && bad "comment line in the CSV" || ok "CSV has no comment lines"
cmp -s "$t/j1.meta.json" "$t/j2.meta.json" && ok "-j1 == -j2 (sidecar)" || bad "-j1 and -j2 differ (sidecar)"
python3 - "$t/j1.meta.json" "$t/j1.csv" <<'PY' && ok "sidecar: sampling, typed axes, columns" || bad "sidecar"
import csv, json, sys
m = json.load(open(sys.argv[1]))
assert m["format"] == "mxsim-sweep" and m["version"] == 2 and m["points"] == 12 and m["n_ops"] == 8
assert m["accuracy"] == {"data": "synthetic", "seed": 1, "sample_rows": 64, "sample_cols": 64, "reference": "float64"}
ax = {a["key"]: a for a in m["axes"]}
assert ax["mx.group_size"]["values"] == [8, 32, 128] and ax["mx.group_size"]["type"] == "int"
assert ax["array.size"]["values"] == [16, 64] and ax["exp.acc_mode"]["values"] == ["fp32", "exact"]
assert isinstance(m["base"]["array.rows"], int) and m["base"]["array.dataflow"] in ("os", "ws", "is")
rows = list(csv.reader(open(sys.argv[2])))
assert [c["name"] for c in m["columns"]] == rows[0]
assert all(len(r) == len(rows[0]) for r in rows)
PY
# G = 128 on attn_scores (K = 64) runs at G = 128 with K padded to one group, said per op
awk -F, '/^#/{next} !h{for(i=1;i<=NF;i++)c[$i]=i;h=1;next} $c["op"]=="attn_scores" && $c["mx.group_size"]==128 {print $c["group_eff"] "/" $c["ops_padded"]}' \
  "$t/j1.csv" | sort -u | grep -qx 128/1 && ok "group_eff 128, padded, for K=64" || bad "group_eff"
# SQNR rises as G shrinks (outlier-heavy synthetic activations), exact >= fp32
awk -F, '/^#/{next} !h{for(i=1;i<=NF;i++)c[$i]=i;h=1;next}
  $c["op"]=="TOTAL" && $c["array.size"]==16 && $c["exp.acc_mode"]=="fp32" {print $c["sqnr_db"]}' "$t/j1.csv" > "$t/sq"
sort -g -r -c "$t/sq" 2>/dev/null && [ "$(wc -l < "$t/sq")" = 3 ] && ok "SQNR decreasing in G" || { bad "SQNR not monotone"; cat "$t/sq"; }
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["rows"]) == 108' "$t/j1.json" 2>/dev/null \
  && ok "json parses" || { command -v python3 >/dev/null && bad "json"; }
# the JSON form carries what produced it: meta.settings is the CSV's sidecar object (same sweep)
python3 - "$t/j1.json" "$t/j1.meta.json" <<'PY' && ok "json meta.settings == the sidecar" || bad "json meta.settings"
import json, sys
s = json.load(open(sys.argv[1]))["meta"]["settings"]
m = json.load(open(sys.argv[2]))
m.pop("csv_fnv1a64")
assert s == m, sorted(set(s) ^ set(m))
assert s["cost"]["node_nm"] == 45 and sorted(a["key"] for a in s["axes"]) == ["array.size", "exp.acc_mode", "mx.group_size"]
PY

# progress: plain lines when stderr is not a terminal; nothing with --quiet
"$MXSIM" "${args[@]}" -j 2 -o "$t/p.csv" 2> "$t/err" >/dev/null
grep -q '^sweep: .* jobs (100%)' "$t/err" && ok "plain progress lines" || bad "no progress lines"
"$MXSIM" "${args[@]}" -j 2 --quiet -o "$t/q.csv" 2> "$t/err2" >/dev/null
[ ! -s "$t/err2" ] && ok "--quiet is quiet" || bad "--quiet printed: $(head -1 "$t/err2")"
expect 0 "array.size" -- "$MXSIM" "${args[@]}" --quiet

# report: it reads the CSV and the sidecar NAME.meta.json that `mxsim sweep -o` writes beside it
rep_in=$t/j1.csv
[ -s "$t/j1.meta.json" ] || bad "sweep -o j1.csv wrote no j1.meta.json"
expect 0 "index.html" -- "$MXSIM" report "$rep_in" -o "$t/rep"
for f in index.html README.md; do [ -s "$t/rep/$f" ] || bad "report lacks $f"; done
for c in cycles energy sqnr pareto cycle_breakdown energy_breakdown area_breakdown; do
  [ -s "$t/rep/$c.svg" ] && [ -s "$t/rep/$c.csv" ] || bad "report lacks $c.svg or $c.csv"
done
if command -v xmllint >/dev/null; then
  xmllint --noout "$t"/rep/*.svg && ok "SVGs well-formed" || bad "xmllint"
else echo "skip xmllint (not installed)"; fi
grep -qi '<script' "$t/rep/index.html" && bad "HTML has a script"
grep -o 'https\?://[^"]*' "$t/rep/index.html" | grep -v '^http://www.w3.org/2000/svg$' | grep -q . && bad "HTML references the network"
grep -q 'HOR14' "$t/rep/README.md" && grep -q 'Pareto' "$t/rep/index.html" && ok "report content" || bad "report content"
# an op named like HTML is shown in both files, passed to neither renderer as markup
printf 'mxsim-trace 1\ngemm name=<b>x</b>&y m=8 n=8 k=32\n' > "$t/html.trace"
"$MXSIM" sweep --config "$cfg" "$t/html.trace" --group-size 32 --no-accuracy -q -o "$t/html.csv" &&
  "$MXSIM" report "$t/html.csv" -o "$t/hrep" 2>/dev/null &&
  grep -qF '&lt;b&gt;x&lt;/b&gt;&amp;y' "$t/hrep/README.md" && grep -qF '&lt;b&gt;x&lt;/b&gt;&amp;y' "$t/hrep/index.html" &&
  ! grep -qF '<b>x' "$t/hrep/README.md" && ! grep -qF '<b>x' "$t/hrep/index.html" &&
  ok "an op named <b>x</b>&y is escaped in README.md and index.html" || bad "op name markup in the report"
# edited results are refused, naming the line (they changed the per-op tables and the breakdowns
# without a word): an op row deleted, one given twice, an op of a point without a TOTAL row, and a
# column the sidecar lists deleted
mkdir -p "$t/edit"
cp "$t/j1.meta.json" "$t/edit/del.meta.json"; cp "$t/j1.meta.json" "$t/edit/dup.meta.json"
cp "$t/j1.meta.json" "$t/edit/orphan.meta.json"; cp "$t/j1.meta.json" "$t/edit/nocol.meta.json"
awk -F, 'NR == 2 && $0 !~ /,TOTAL,/ { next } { print }' "$rep_in" > "$t/edit/del.csv"
awk -F, '{ print } NR == 2 { print }' "$rep_in" > "$t/edit/dup.csv"
awk -F, -v OFS=, 'NR == 2 { $1 = 9999 } { print }' "$rep_in" > "$t/edit/orphan.csv"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "e_sram_mj") k = i } { $k = ""; print }' "$rep_in" \
  | sed 's/,,/,/' > "$t/edit/nocol.csv"
expect 2 "del.csv:9: field 'point': point 0 has 7 op rows" -- "$MXSIM" report "$t/edit/del.csv" -o "$t/edit/r1"
expect 2 "field 'point': point 0 has 9 op rows" -- "$MXSIM" report "$t/edit/dup.csv" -o "$t/edit/r2"
expect 2 "orphan.csv:2: field 'point': op" -- "$MXSIM" report "$t/edit/orphan.csv" -o "$t/edit/r3"
expect 2 "nocol.csv:1: field 'header': column 'e_sram_mj' missing" -- "$MXSIM" report "$t/edit/nocol.csv" -o "$t/edit/r4"
[ ! -e "$t/edit/r1" ] && [ ! -e "$t/edit/r4" ] && ok "refused edits write no report" || bad "a refused edit wrote a report"
# two ops of one name (a trace or topology may repeat a layer name): mxsim report reads mxsim's own
# sweep, and its per-op SQNR table pairs the ops by their place in each point, not by name
printf 'mxsim-trace 2\ngemm name=l m=16 n=32 k=64\ngemm name=l m=8 n=16 k=256\n' > "$t/dup.trace"
"$MXSIM" sweep --config "$src/workloads/configs/small.ini" "$t/dup.trace" --group-size 16,32 -q -o "$t/dupname.csv" \
  && "$MXSIM" report "$t/dupname.csv" -o "$t/duprep" > /dev/null && python3 - "$t/dupname.csv" "$t/duprep/README.md" <<'PY' \
  && ok "a repeated op name: report reads the sweep, SQNR table by place" || bad "report of a sweep with a repeated op name"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["op"] == "l"]
want = [[r["sqnr_db"] for r in rows if r["m"] == m] for m in ("16", "8")]  # per op: G = 16, 32
md = open(sys.argv[2]).read().splitlines()
i = md.index("| op | mx.group_size=16 | mx.group_size=32 |")
got = [[c.strip() for c in md[i + 2 + j].strip("|").split("|")][1:] for j in range(2)]
assert all(abs(float(g) - float(w)) <= 1e-4 * abs(float(w)) for gr, wr in zip(got, want) for g, w in zip(gr, wr)), (got, want)
assert got[0] != got[1], got
PY
# an edit that keeps the structure (one energy value) or another sweep's sidecar: the CSV's digest
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "energy_mj") k = i } NR == 2 { $k = $k * 2 } { print }' "$rep_in" > "$t/edit/val.csv"
cp "$t/j1.meta.json" "$t/edit/val.meta.json"
expect 2 "val.csv: field 'csv_fnv1a64': the CSV is not the one" -- "$MXSIM" report "$t/edit/val.csv" -o "$t/edit/r5"
# enum axis exp.acc_mode: one series per (array.size, exp.acc_mode), 4 of them, in the cycles chart's CSV
n=$(tail -n +2 "$t/rep/cycles.csv" | sed 's/^"\([^"]*\)",.*/\1/' | sort -u | wc -l) # the label is quoted: "16, fp32"
[ "$n" = 4 ] && ok "4 series (array.size x exp.acc_mode)" || bad "cycles.csv has $n series"
# Pareto front (pareto_front = 1 in pareto.csv, over time and energy): against an O(n^2) reference in
# awk on the sweep above, and on a hand-made sweep whose front is known: (time, e) = (1,10) (2,5) (2,5) (3,5)
# (4,1) (4,2) (0.5,20) (5,20); (3,5), (4,2) and (5,20) are dominated, the equal (2,5) both stay on.
ref=$(awk -F, '!h{for(i=1;i<=NF;i++)c[$i]=i;h=1;next}
  $c["op"]=="TOTAL" && $c["status"]=="ok" {n++; T[n]=$c["time_us"]+0; E[n]=$c["energy_mj"]+0}
  END{for(i=1;i<=n;i++){d=0; for(j=1;j<=n;j++) if(j!=i && T[j]<=T[i] && E[j]<=E[i] && (T[j]<T[i] || E[j]<E[i])) d=1; f+=!d} print f}' "$rep_in")
got=$(grep -c ',1.$' "$t/rep/pareto.csv")
[ "$got" = "$ref" ] && ok "Pareto front: $got points, as the O(n^2) reference" || bad "Pareto front: $got points, reference $ref"
# hand_sweep OUT POINTS COLS: the sweep's first TOTAL row once per point of POINTS ("a b|c d|..."), point
# k with mx.group_size k and, for each NAME:I of COLS, its I-th value in column NAME
hand_sweep() {
  awk -F, -v OFS=, -v pts="$2" -v cols="$3" '!h{print; for(i=1;i<=NF;i++)c[$i]=i; h=1; next}
    $c["op"]=="TOTAL" && row=="" {row=$0}
    END{n=split(pts, P, "|"); nc=split(cols, C, " ")
        for(k=1;k<=n;k++){$0=row; split(P[k], v, " "); $c["point"]=k-1; $c["mx.group_size"]=k
          for(j=1;j<=nc;j++){split(C[j], kv, ":"); $c[kv[1]]=v[kv[2]]}; print}}' "$rep_in" > "$1"
}
hand_sweep "$t/hand.csv" "1 10|2 5|2 5|3 5|4 1|4 2|0.5 20|5 20" "cycles_total:1 time_us:1 energy_mj:2"
python3 - "${rep_in%.csv}.meta.json" "$t/hand.meta.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["points"] = 8
m.pop("csv_fnv1a64", None)  # a hand-made CSV: not the one the sweep wrote
m["n_ops"] = 0  # TOTAL rows only: a point with op rows must have the trace's n_ops of them
for a in m["axes"]:
    if a["key"] == "mx.group_size":
        a["values"] = list(range(1, 9))
json.dump(m, open(sys.argv[2], "w"))
PY
"$MXSIM" report "$t/hand.csv" -o "$t/rep_hand" 2>/dev/null
[ "$(grep -c ',1.$' "$t/rep_hand/pareto.csv")" = 5 ] && [ "$(grep -c ',0.$' "$t/rep_hand/pareto.csv")" = 3 ] \
  && ok "hand-made Pareto front: 5 on, 3 dominated" || bad "hand-made Pareto front: $(grep -c ',1.$' "$t/rep_hand/pareto.csv") on"
# the front is over time, not cycles (a clock axis changes one without the other): (cycles, time, energy)
# = (1, 10, 5) and (2, 1, 6) are both on it (over cycles the first would dominate the second)
hand_sweep "$t/handt.csv" "1 10 5|2 1 6" "cycles_total:1 time_us:2 energy_mj:3"
python3 - "$t/hand.meta.json" "$t/handt.meta.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["points"] = 2
for a in m["axes"]:
    if a["key"] == "mx.group_size":
        a["values"] = [1, 2]
json.dump(m, open(sys.argv[2], "w"))
PY
"$MXSIM" report "$t/handt.csv" -o "$t/rep_handt" 2>/dev/null
[ "$(grep -c ',1.$' "$t/rep_handt/pareto.csv")" = 2 ] && ok "Pareto front over time: both points (the slower-clock one is not dominated)" \
  || bad "Pareto front over time: $(grep -c ',1.$' "$t/rep_handt/pareto.csv") of 2 on"
# the front with accuracy (README section): (cycles, energy, SQNR) = (1,10,30) (2,5,20) (3,5,25) (4,1,10)
# (5,20,5): the plain front is points 1, 2, 4 ((3,5) and (5,20) dominated); with SQNR (3,5,25) is no
# longer beaten (its SQNR is the higher), (5,20,5) still is: points 1, 2, 3, 4 (mx.group_size = k)
hand_sweep "$t/hand3.csv" "1 10 30|2 5 20|3 5 25|4 1 10|5 20 5" "cycles_total:1 time_us:1 energy_mj:2 sqnr_db:3"
python3 - "${rep_in%.csv}.meta.json" "$t/hand3.meta.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["points"] = 5
m.pop("csv_fnv1a64", None)
m["n_ops"] = 0
m["axes"] = [a for a in m["axes"] if a["key"] == "mx.group_size"]
m["axes"][0]["values"] = list(range(1, 6))
json.dump(m, open(sys.argv[2], "w"))
PY
"$MXSIM" report "$t/hand3.csv" -o "$t/rep_hand3" 2>/dev/null
front2=$(grep -c ',1.$' "$t/rep_hand3/pareto.csv")
front3=$(awk '/^## Points on the Pareto front with accuracy/{s=1; next} /^## /{s=0} s && /^\| [0-9]/{split($0, f, "|"); gsub(/ /, "", f[2]); printf "%s ", f[2]}' "$t/rep_hand3/README.md")
[ "$front2" = 3 ] && [ "$front3" = "1 2 3 4 " ] && ok "front with accuracy: groups 1 2 3 4 (plain front: 3 points)" \
  || bad "front with accuracy: '$front3', plain front $front2 points"
# no sidecar: exit 2 naming it, nothing written
cp "$rep_in" "$t/alone.csv"
expect 2 "alone.meta.json: field 'sidecar': missing" -- "$MXSIM" report "$t/alone.csv" -o "$t/rep_alone"
[ ! -e "$t/rep_alone" ] && ok "nothing written without a sidecar" || bad "rep_alone exists"

# cost
expect 0 "multipliers" -- "$MXSIM" cost --config "$cfg"
expect 0 "HOR14" -- "$MXSIM" cost --constants
expect 0 "| \`mult8.energy\`" -- "$MXSIM" cost --constants --format md
# the human forms of cost (table, md) carry the full citations after the table, not only the keys
expect 0 "sim/doc/references.md#hor14" -- "$MXSIM" cost --config "$cfg"
expect 0 "doi:10.1016/j.vlsi.2017.02.002" -- "$MXSIM" cost --constants
expect 0 "| sim/doc/references.md#aladdin40 |" -- "$MXSIM" cost --format md
expect 0 "SB17,sim/doc/references.md#sb17," -- "$MXSIM" cost --references --format csv
expect 2 "28 nm" -- "$MXSIM" cost --config "$cfg" --node 28

# lanes past G: a beat holds one group (architecture.md section 1), so at 64 lanes and G = 32 half
# the lanes idle; cycles equal those of 32 lanes, utilisation halves, and the TOTAL note says why
"$MXSIM" sweep -q --no-accuracy --config "$src/workloads/configs/large.ini" --sweep pe.lanes=32,64 --sweep pe.load_lanes=64 \
  --group-size 32 "$tr" -o "$t/lanes.csv" && awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
  $h["op"] == "TOTAL" { c[$h["pe.lanes"]] = $h["cycles_total"]; u[$h["pe.lanes"]] = $h["util_compute_pct"]; n[$h["pe.lanes"]] = $h["group_note"] }
  END { exit !(c[32] == c[64] && u[64] * 2 > u[32] * 0.999 && u[64] * 2 < u[32] * 1.001 && n[32] == "" &&
               n[64] == "beats of 64 lanes hold one group of G=32: 32 lanes idle in each beat") }' "$t/lanes.csv" \
  && ok "lanes past G: equal cycles, half the utilisation, the TOTAL note" || bad "lanes past G: $(grep TOTAL "$t/lanes.csv" | cut -c1-300)"

# errors
expect 2 "array.colz" -- "$MXSIM" sweep --config "$cfg" "$tr" --sweep array.colz=8,16
expect 2 "repeated" -- "$MXSIM" sweep --config "$cfg" "$tr" --group-size 8,8
expect 2 "missing --config" -- "$MXSIM" sweep "$tr"
expect 2 "-j" -- "$MXSIM" sweep --config "$cfg" "$tr" -j 0
expect 2 "'group'" -- "$MXSIM" sweep --config "$cfg" "$tr" --group-size 128 --strict-group --quiet
expect 2 "field 'sidecar': missing" -- "$MXSIM" report "$tr" -o "$t/rep2"
expect 0 "usage: mxsim sweep" -- "$MXSIM" sweep --help
mkdir -p "$t/data" && printf 'x' > "$t/data/qkv_proj.a.npy"
expect 2 "qkv_proj" -- "$MXSIM" sweep --config "$cfg" "$tr" --data "$t/data" --quiet

# the line charts' x axis: a named axis of three values, not a numeric axis of one value
"$MXSIM" sweep --config "$cfg" "$tr" --sweep array.rows=16 --sweep array.dataflow=ws,os,is --no-accuracy -q -o "$t/df.csv" &&
  "$MXSIM" report "$t/df.csv" -o "$t/dfrep" > /dev/null && grep -q "array.dataflow (named setting)" "$t/dfrep/cycles.svg" &&
  grep -q '>os<' "$t/dfrep/cycles.svg" && ok "enum axis as x beside a one-value numeric axis" || bad "x axis of a dataflow sweep"

[ "$fails" -eq 0 ] && echo "all sweep CLI checks passed" || echo "$fails failures"
exit $(( fails > 0 ))
