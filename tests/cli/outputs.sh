#!/usr/bin/env bash
# Every writing command through the one table writer and the one file writer: hostile names give
# valid JSON (json.loads), rectangular CSV (csv.reader) and well-formed Markdown tables; a full
# stdout exits 1; a failed multi-file output leaves nothing of itself; the format rule (--format,
# else -o's extension, else a table; unknown extension = exit 2) holds for every command; every
# file a command writes is read back by the command that reads that kind.  Expectations are
# written here by hand, independent of the writer's code.
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
t=$MXSIM_TEST_TMP
rm -rf "$t" && mkdir -p "$t"
src=$MXSIM_SOURCE_DIR
cfg=$src/workloads/configs/small.ini
data=$src/workloads/data
fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL: $*"; fails=$((fails+1)); }
command -v python3 >/dev/null || { echo "python3 missing: skipped"; exit 77; }

# validate FORMAT FILE [NEEDLE]: the file parses in FORMAT; NEEDLE (if given) is a cell/value in it
cat > "$t/validate.py" <<'PY'
import csv, json, sys
fmt, path = sys.argv[1], sys.argv[2]
needle = sys.argv[3] if len(sys.argv) > 3 else None
text = open(path, encoding="utf-8").read()
if fmt == "json":
    d = json.loads(text)
    cells = [str(v) for r in d.get("rows", []) for v in r.values()]
    assert not d.get("rows") or all(list(r) == [c["name"] for c in d["columns"]] for r in d["rows"]), "row keys != columns"
elif fmt == "csv":
    rows = list(csv.reader(open(path, encoding="utf-8", newline="")))
    assert rows and all(len(r) == len(rows[0]) for r in rows), "CSV rows of unequal width"
    assert not rows[0][0].startswith("#"), "comment line"
    cells = [c for r in rows for c in r]
elif fmt == "md":
    # every table (blocks of | lines) is rectangular; a document may hold several
    blocks, cur = [], []
    for l in text.split("\n"):
        if l.startswith("|"): cur.append(l)
        elif cur: blocks.append(cur); cur = []
    if cur: blocks.append(cur)
    assert blocks, "no Markdown table"
    def cells_of(l):  # split on | not preceded by an escaping backslash
        out, cur, i = [], "", 1
        while i < len(l):
            if l[i] == "\\" and i + 1 < len(l): cur += l[i + 1]; i += 2; continue
            if l[i] == "|": out.append(cur.strip()); cur = ""
            else: cur += l[i]
            i += 1
        return out
    cells = []
    for lines in blocks:
        w = len(cells_of(lines[0]))
        assert len(lines) >= 2 and all(len(cells_of(l)) == w for l in lines), "Markdown rows of unequal width"
        assert set(lines[1].replace("|", "").replace(":", "")) <= {"-"}, "no separator row"
        cells += [c.strip("`") for l in lines for c in cells_of(l)]
else:
    raise SystemExit("unknown format " + fmt)
if needle is not None:
    assert needle in cells, "%r not among the cells" % needle
PY
v() { python3 "$t/validate.py" "$@" 2>&1; }

# ---- hostile names: , " \ | and UTF-8 in op names; # , " | é in file names ------------------------
hn='a,b"c\|dé'
printf 'mxsim-trace 1\ngemm name=%s m=64 n=32 k=64\ndequant name=x|y m=8 n=64\nquantize name=q"1 m=8 n=64\n' "$hn" > "$t/h.trace"
"$MXSIM" trace check "$t/h.trace" >/dev/null && ok "trace check accepts the hostile names" || bad "trace check"
for f in json csv md; do
  "$MXSIM" run --config "$cfg" --format $f "$t/h.trace" > "$t/run.$f" && r=$(v $f "$t/run.$f" "$hn") \
    && ok "run --format $f: valid, name intact" || bad "run --format $f: $r"
  "$MXSIM" sweep --config "$cfg" --group-size 16,32 --no-accuracy --quiet --format $f "$t/h.trace" > "$t/sw.$f" \
    && r=$(v $f "$t/sw.$f") && ok "sweep --format $f valid" || bad "sweep --format $f: $r"
  "$MXSIM" config --config "$cfg" --dump --format $f > "$t/cfg.$f" && r=$(v $f "$t/cfg.$f" "array.rows") \
    && ok "config --dump --format $f valid" || bad "config --dump --format $f: $r"
  "$MXSIM" cost --config "$cfg" --format $f > "$t/cost.$f" && r=$(v $f "$t/cost.$f" "multipliers") \
    && ok "cost --format $f valid" || bad "cost --format $f: $r"
  "$MXSIM" cost --constants --format $f > "$t/const.$f" && r=$(v $f "$t/const.$f" "mult8.energy") \
    && ok "cost --constants --format $f valid" || bad "cost --constants --format $f: $r"
done
# compare-gpu --trace: the accelerator-vs-GPU table is CSV on stdout and in DIR/accel_vs_gpu.csv
if "$MXSIM" help compare-gpu >/dev/null 2>&1 && [ -f "$src/workloads/gpus/h200.ini" ]; then
  "$MXSIM" compare-gpu --card "$src/workloads/gpus/h200.ini" --trace "$t/h.trace" --config "$cfg" -o "$t/gpu" > "$t/gpu.csv" \
    && r=$(v csv "$t/gpu.csv" "$hn") && cmp -s "$t/gpu.csv" "$t/gpu/accel_vs_gpu.csv" \
    && ok "compare-gpu --trace: CSV valid, name intact, file = stdout" || bad "compare-gpu --trace: $r"
fi
# sweep rows carry the hostile op name intact, every row (json and csv)
r=$(v csv "$t/sw.csv" "$hn") && ok "sweep csv keeps the op name" || bad "sweep csv name: $r"
"$MXSIM" sweep --config "$cfg" --group-size 16,32 --no-accuracy --quiet -o "$t/swr.json" "$t/h.trace" \
  && r=$(v json "$t/swr.json" "$hn") && ok "sweep -o .json keeps the op name" || bad "sweep json name: $r"
# files with hostile names: info and compare
hf="$t/w#1,\"q|é.npy"
cp "$data/act_64x768.npy" "$hf"
"$MXSIM" quantize --group-size 32 "$hf" -o "$t/h#,\"|é.npz" && ok "quantize a hostile file name" || bad "quantize hostile"
for f in json csv md; do
  "$MXSIM" info --format $f "$t/h#,\"|é.npz" > "$t/info.$f" && r=$(v $f "$t/info.$f" "$t/h#,\"|é.npz") \
    && ok "info --format $f: valid, file name intact" || bad "info --format $f: $r"
  # the file names are csv/json columns (md shows the numbers only)
  if [ $f = md ]; then nd=(); else nd=("$hf"); fi
  "$MXSIM" compare --format $f "$hf" "$hf" > "$t/cmp.$f" && r=$(v $f "$t/cmp.$f" "${nd[@]}") \
    && ok "compare --format $f: valid, file name intact" || bad "compare --format $f: $r"
done
# trace cat/convert: the text format with hostile names reads back identically
"$MXSIM" trace cat "$t/h.trace" > "$t/cat.trace" && "$MXSIM" trace check "$t/cat.trace" >/dev/null \
  && cmp -s <(grep -v '^mxsim-trace' "$t/h.trace") <(grep -v '^mxsim-trace' "$t/cat.trace") && ok "trace cat round trip" || bad "trace cat round trip"
"$MXSIM" trace convert "$t/h.trace" "$t/conv.trace.gz" && "$MXSIM" trace cat "$t/conv.trace.gz" | cmp -s - "$t/cat.trace" \
  && ok "trace convert .gz round trip" || bad "trace convert .gz"

# ---- JSON stays valid JSON when a file name is not UTF-8 (a byte written as U+FFFD) -----------
latin=$t/h$(printf '\xe9').trace
cp "$t/h.trace" "$latin"
"$MXSIM" run --config "$cfg" --format json "$latin" > "$t/latin.json" && python3 - "$t/latin.json" <<'PY' \
  && ok "a non-UTF-8 trace name gives valid JSON (U+FFFD in meta.trace)" || bad "JSON with a non-UTF-8 file name"
import json, sys
m = json.load(open(sys.argv[1], encoding="utf-8"))["meta"]
assert m["trace"].endswith("h\ufffd.trace"), m["trace"]
PY

# ---- full stdout: exit 1 ---------------------------------------------------------------------
if [ -w /dev/full ]; then
  full() {
    local rc
    "$@" > /dev/full 2>"$t/full.err"; rc=$?
    [ $rc -eq 1 ] && ok "[1] $* > /dev/full" || { bad "exit $rc, expected 1: $* > /dev/full"; head -2 "$t/full.err"; }
  }
  full "$MXSIM" run --config "$cfg" "$t/h.trace"
  full "$MXSIM" run --config "$cfg" --format json "$t/h.trace"
  full "$MXSIM" info "$data/act_64x768.npy"
  full "$MXSIM" compare "$data/act_64x768.npy" "$data/act_64x768.npy"
  full "$MXSIM" config --dump
  full "$MXSIM" trace cat "$t/h.trace"
  full "$MXSIM" trace check "$t/h.trace"
  full "$MXSIM" sweep --config "$cfg" --group-size 16,32 --no-accuracy --quiet "$t/h.trace"
  full "$MXSIM" cost
  full "$MXSIM" cost --constants
  full "$MXSIM" --help
  full "$MXSIM" run --help
  full "$MXSIM" --version
  if [ -f "$src/workloads/gpus/h200.ini" ] && "$MXSIM" help compare-gpu >/dev/null 2>&1; then
    (cd "$src" && full "$MXSIM" compare-gpu --card h200 --measured reports/gpu/NVIDIA-H200-2026-11-26/bench.csv --quiet)
  fi
else echo "skip /dev/full (not writable here)"; fi

# ---- format rule: --format, else -o's extension, else a table; unknown extension = exit 2 ------
"$MXSIM" run --config "$cfg" "$t/h.trace" -o "$t/r.csv" && r=$(v csv "$t/r.csv" "cycles_total") && ok "run -o .csv is CSV" || bad "run -o .csv: $r"
"$MXSIM" run --config "$cfg" "$t/h.trace" -o "$t/r.json" && r=$(v json "$t/r.json") && ok "run -o .json is JSON" || bad "run -o .json: $r"
"$MXSIM" run --config "$cfg" "$t/h.trace" -o "$t/r.md" && r=$(v md "$t/r.md") && ok "run -o .md is Markdown" || bad "run -o .md: $r"
"$MXSIM" run --config "$cfg" --format json "$t/h.trace" -o "$t/r2.csv" && r=$(v json "$t/r2.csv") && ok "--format wins over the extension" || bad "--format json -o .csv: $r"
"$MXSIM" run --config "$cfg" "$t/h.trace" -o "$t/r.txt" && head -1 "$t/r.txt" | grep -q '^op  *kind' && ok "run -o .txt is a table" || bad "run -o .txt"
for c in "run --config $cfg $t/h.trace" "sweep --config $cfg --no-accuracy --quiet $t/h.trace" "info $data/act_64x768.npy" \
         "compare $data/act_64x768.npy $data/act_64x768.npy" "config --dump" "cost"; do
  # shellcheck disable=SC2086
  "$MXSIM" $c -o "$t/x.xyz" > /dev/null 2> "$t/err"; rc=$?
  [ $rc -eq 2 ] && [ ! -e "$t/x.xyz" ] && grep -q "extension" "$t/err" && ok "[2] ${c%% *} -o x.xyz" || bad "${c%% *} -o x.xyz: exit $rc"
  # shellcheck disable=SC2086
  "$MXSIM" $c --format csv -o "$t/x.xyz" > /dev/null 2>&1 && r=$(v csv "$t/x.xyz") && ok "${c%% *} --format csv -o x.xyz" || bad "${c%% *} --format csv -o x.xyz: $r"
  rm -f "$t/x.xyz" "$t/x.meta.json"
done
# sweep -o NAME.csv: plain CSV + NAME.meta.json whose columns name the CSV's header
"$MXSIM" sweep --config "$cfg" --group-size 16,32 --no-accuracy --quiet -o "$t/s.csv" "$t/h.trace" && python3 - "$t/s.csv" "$t/s.meta.json" <<'PY' \
  && ok "sweep -o s.csv + s.meta.json" || bad "sweep sidecar"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
m = json.load(open(sys.argv[2]))
assert [c["name"] for c in m["columns"]] == rows[0]
assert m["axes"] == [{"key": "mx.group_size", "type": "int", "unit": "elements", "values": [16, 32]}], m["axes"]
assert m["accuracy"] is None and m["config"].endswith("small.ini") and m["points"] == 2
g = rows[0].index("mx.group_size")
assert sorted({r[g] for r in rows[1:]}) == ["16", "32"]  # axis cells are the typed ints
PY

# ---- all or nothing: a sweep whose sidecar cannot be written leaves no CSV, and keeps an old one --
mkdir -p "$t/aon/res.meta.json"
"$MXSIM" sweep --config "$cfg" --no-accuracy --quiet -o "$t/aon/res.csv" "$t/h.trace" 2>/dev/null; rc=$?
[ $rc -eq 1 ] && [ ! -e "$t/aon/res.csv" ] && [ -z "$(ls "$t/aon" | grep -v '^res.meta.json$')" ] \
  && ok "[1] failed sidecar: no CSV, no temporary file" || bad "failed sidecar: exit $rc, left $(ls "$t/aon")"
echo old > "$t/aon/res.csv"
"$MXSIM" sweep --config "$cfg" --no-accuracy --quiet -o "$t/aon/res.csv" "$t/h.trace" 2>/dev/null
[ "$(cat "$t/aon/res.csv")" = old ] && ok "failed sidecar: the old CSV untouched" || bad "old CSV replaced"
# a failed run leaves no -o file
"$MXSIM" run --config "$cfg" --set array.rows=0 "$t/h.trace" -o "$t/fail.csv" 2>/dev/null; [ $? -eq 2 ] && [ ! -e "$t/fail.csv" ] \
  && ok "[2] failed run: no file" || bad "failed run left a file"

# ---- every file a command writes is read by the command that reads that kind -------------------
"$MXSIM" trace convert "$t/h.trace" "$t/out.csv" 2>"$t/err"; rc=$?
[ $rc -eq 2 ] && [ ! -e "$t/out.csv" ] && grep -q "SCALE-Sim" "$t/err" && ok "[2] trace convert to .csv refused" || bad "trace convert .csv: exit $rc"
"$MXSIM" trace convert "$t/h.trace" "$t/out.trace" && "$MXSIM" trace check "$t/out.trace" >/dev/null && ok "trace convert -> trace check" || bad "convert/check"
"$MXSIM" quantize "$data/act_64x768.npy" -o "$t/w.npy" 2>"$t/err"; rc=$?
[ $rc -eq 2 ] && [ ! -e "$t/w.npy" ] && grep -q ".npz" "$t/err" && ok "[2] quantize -o w.npy refused" || bad "quantize -o .npy: exit $rc"
"$MXSIM" quantize "$data/act_64x768.npy" -o "$t/w.npz" && "$MXSIM" info "$t/w.npz" >/dev/null && ok "quantize -> info" || bad "quantize/info"
"$MXSIM" dequantize --dtype bf16 "$t/w.npz" -o "$t/wb.npy" && "$MXSIM" dequantize --dtype f32 "$t/w.npz" -o "$t/wf.npy" || bad "dequantize"
"$MXSIM" compare --format csv "$t/wb.npy" "$t/wb.npy" > "$t/c.csv" && python3 - "$t/c.csv" <<'PY' && ok "dequantize --dtype bf16 -> compare (bf16)" || bad "compare bf16"
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))[0]
assert r["elements"] == str(64 * 768) and r["bit_mismatches"] == "0" and r["sqnr_db"] == "inf", r
PY
"$MXSIM" dequantize "$t/w.npz" -o "$t/w.npz.bad" 2>/dev/null; [ $? -eq 2 ] && ok "[2] dequantize -o without .npy refused" || bad "dequantize -o ext"

# ---- the docs carry the statistics list generated from the one field table ---------------------
"$MXSIM" run --columns --format md > "$t/columns.md" && python3 - "$t/columns.md" "$src/sim/doc/architecture.md" <<'PY' \
  && ok "architecture.md carries the current statistics list" \
  || bad "architecture.md statistics list is stale: paste 'mxsim run --columns --format md' into section 4"
import sys
gen, doc = open(sys.argv[1]).read(), open(sys.argv[2]).read()
assert gen.count("\n") > 30 and gen in doc
PY

# ---- did you mean ------------------------------------------------------------------------------
out=$("$MXSIM" rn 2>&1); [ $? -eq 2 ] && grep -q "did you mean 'run'" <<<"$out" && ok "[2] unknown command suggests run" || bad "command suggestion: $out"
out=$("$MXSIM" run --config "$cfg" --formt json "$t/h.trace" 2>&1); [ $? -eq 2 ] && grep -q "did you mean '--format'" <<<"$out" \
  && ok "[2] unknown option suggests --format" || bad "option suggestion: $out"
out=$("$MXSIM" run --config "$cfg" --set array.rowz=8 "$t/h.trace" 2>&1); [ $? -eq 2 ] && grep -q "did you mean 'array.rows'" <<<"$out" \
  && ok "[2] unknown config key suggests array.rows" || bad "key suggestion: $out"
out=$("$MXSIM" trace chek "$t/h.trace" 2>&1); [ $? -eq 2 ] && grep -q "did you mean 'check'" <<<"$out" && ok "[2] trace subcommand suggestion" || bad "trace sub: $out"

[ "$fails" -eq 0 ] && echo "all output checks passed" || echo "$fails failures"
exit $(( fails > 0 ))
