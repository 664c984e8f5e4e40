#!/usr/bin/env bash
# Timing CLI: bundled traces x bundled configs run; peer examples through the CLI; >= 15 bad
# traces/configs exit 2 with file:line (and field) messages; .gz round trip and truncation;
# whole, aligned table headers; --detail equal to the analytic engine; gzip access traces.
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
t=$MXSIM_TEST_TMP; rm -rf "$t" && mkdir -p "$t"
src=$MXSIM_SOURCE_DIR; fails=0
expect() {
  local code=$1 frag=$2; shift 3
  local out rc; out=$("$@" 2>&1); rc=$?
  if [ "$rc" -ne "$code" ]; then echo "FAIL: exit $rc, expected $code: $*"; echo "$out" | head -3; fails=$((fails+1)); return; fi
  if [ -n "$frag" ] && ! grep -qF -- "$frag" <<<"$out"; then echo "FAIL: lacks '$frag': $*"; echo "$out" | head -3; fails=$((fails+1)); return; fi
  echo "ok   [$code] $*"
}
cfg=$src/workloads/configs/small.ini
for c in small medium large; do for tr in "$src"/traces/*.trace; do
  expect 0 "TOTAL" -- "$MXSIM" run --config "$src/workloads/configs/$c.ini" "$tr"
done; done
for c in run trace config; do expect 0 "usage: mxsim $c" -- "$MXSIM" $c --help; done
expect 0 "array.rows" -- "$MXSIM" config --config "$cfg" --set array.rows=7 --dump
# peer example through the CLI: 8x8 OS, 64,32,100 -> 3647 (compute + fill/drain + exp stall)
printf 'mxsim-trace 1\ngemm name=a m=64 n=32 k=100\n' > "$t/p.trace"
out=$("$MXSIM" run --config "$cfg" --set mx.operand_format=int8 --set pe.lanes=1 --set pe.load_lanes=1 \
      --set sram.a_kib=65536 --set sram.b_kib=65536 --set sram.c_kib=65536 --array 8x8 --dataflow os \
      --scalesim-compat --format csv "$t/p.trace" | awk -F, '$1=="a"{print $9+$10+$11}')
[ "$out" = 3647 ] && echo "ok   peer 3647" || { echo "FAIL: peer got $out"; fails=$((fails+1)); }
# SCALE-Sim .cfg and topology csv
printf '[general]\nrun_name = x\n[architecture_presets]\nArrayHeight: 8\nArrayWidth: 8\nIfmapSramSzkB: 4096\nFilterSramSzkB: 4096\nOfmapSramSzkB: 4096\nIfmapOffset: 0\nFilterOffset: 10000000\nOfmapOffset: 20000000\nDataflow: ws\nBandwidth: 10\n[run_presets]\nInterfaceBandwidth: USER\n' > "$t/s.cfg"
printf 'Layer, M, N, K,\nl0, 64, 32, 100,\n' > "$t/g.csv"
expect 0 "TOTAL" -- "$MXSIM" run --config "$t/s.cfg" "$t/g.csv"
printf 'Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\nc1, 10, 10, 3, 3, 4, 8, 1,\n' > "$t/c.csv"
expect 0 "m=64 n=8 k=36" -- "$MXSIM" trace cat "$t/c.csv"
# gz round trip; truncated gz
expect 0 "" -- "$MXSIM" trace convert "$src/traces/bert-base.trace" "$t/b.trace.gz"
expect 0 "ok, 8 ops" -- "$MXSIM" trace check "$t/b.trace.gz"
head -c 40 "$t/b.trace.gz" > "$t/trunc.trace.gz"
expect 2 "truncated" -- "$MXSIM" trace check "$t/trunc.trace.gz"
# bad traces (exit 2, file:line, field)
bad() { printf "mxsim-trace 1\n$1\n" > "$t/bad.trace"; expect 2 "$2" -- "$MXSIM" run --config "$cfg" "$t/bad.trace"; }
bad 'conv name=x m=1 n=1 k=32' "bad.trace:2: unknown op 'conv'"
bad 'gemm name=x m=0 n=1 k=32' "bad.trace:2"
bad 'gemm name=x m=-4 n=1 k=32' "field 'm'"
bad 'quantize name=x m=4 n=32 group=70000' "field 'group'"
bad 'gemm name=x m=4 n=1 k=32 group=-3' "field 'group'"
# an MXINT8 GEMM's K is padded to whole groups: k=30, G=32 runs; n_macs = 4*1*30 = 120 (useful)
printf 'mxsim-trace 1\ngemm name=x m=4 n=1 k=30\n' > "$t/pad.trace"
out=$("$MXSIM" run --config "$cfg" --format csv "$t/pad.trace" | awk -F, 'NR==1{for(i=1;i<=NF;i++)if($i=="n_macs")c=i} $1=="x"{print $c}')
[ "$out" = 120 ] && echo "ok   padded k=30: n_macs 120" || { echo "FAIL: padded k=30: n_macs $out"; fails=$((fails+1)); }
bad 'gemm name=x m=99999999999 n=1 k=32' "field 'm'"
bad 'gemm name=x m=99999999999999999999999 n=1 k=32' "overflows"
bad 'gemm name=x m=4x n=1 k=32' "field 'm': '4x' is not an integer"
bad 'gemm name=x m=4 n=1' "field 'k': missing"
bad 'gemm name=x m=4 n=1 k=32 speed=3' "field 'speed': unknown key"
bad 'gemm name=x m=4 m=4 n=1 k=32' "given twice"
bad 'gemm name=x m=4 n=4 k=32 out=fp8' "field 'out'"
printf 'gemm name=x m=4 n=1 k=32\n' > "$t/nohdr.trace"
expect 2 "nohdr.trace:1: expected header" -- "$MXSIM" trace check "$t/nohdr.trace"
printf 'mxsim-trace 9\n' > "$t/ver.trace"
expect 2 "field 'version'" -- "$MXSIM" trace check "$t/ver.trace"
# bad configs
badc() { printf "$1\n" > "$t/bad.ini"; expect 2 "$2" -- "$MXSIM" run --config "$t/bad.ini" "$src/traces/bert-base.trace"; }
badc '[array]\nrowz = 4' "bad.ini:2: field 'array.rowz': unknown key"
badc '[array]\nrows = 0' "bad.ini:2: field 'array.rows'"
badc '[dram]\nbw_bytes_per_cycle = fast' "bad.ini:2: field 'dram.bw_bytes_per_cycle'"
badc '[array]\ndataflow = rs' "field 'array.dataflow'"
badc 'this is not ini' "bad.ini:1"
expect 2 "field 'array.rows'" -- "$MXSIM" run --config "$cfg" --set array.rows=99999 "$src/traces/bert-base.trace"
# (1 KiB of A holds a 1-row tile of one G=32 group since the search tries tiles narrower than the
# array; G = 512 needs 513 bytes a row, more than the 512-byte half)
expect 2 "no tiling fits" -- "$MXSIM" run --config "$cfg" --set sram.a_kib=1 --group-size 512 "$src/traces/bert-base.trace"
# SCALE-Sim rows: trailing comma required on request, value counts exact
printf 'Layer, M, N, K,\nl0, 64, 32, 100\n' > "$t/nc.csv"
expect 2 "nc.csv:2: missing trailing comma" -- "$MXSIM" trace check --require-comma "$t/nc.csv"
expect 0 "ok, 1 ops" -- "$MXSIM" trace check "$t/nc.csv"
printf 'Layer, M, N, K,\nl0, 64, 32,\n' > "$t/short.csv"
expect 2 "short.csv:2: 3 values" -- "$MXSIM" trace check "$t/short.csv"
printf 'Layer, M, N, K,\nl0, 64, 32, 1e3,\n' > "$t/num.csv"
expect 2 "num.csv:2: field 'K'" -- "$MXSIM" trace check "$t/num.csv"
# atomic output: a failing run leaves no file
expect 2 "" -- "$MXSIM" run --config "$t/bad.ini" "$src/traces/bert-base.trace" -o "$t/out.csv"
[ ! -e "$t/out.csv" ] || { echo "FAIL: partial output"; fails=$((fails+1)); }
expect 0 "" -- "$MXSIM" run --config "$cfg" --format json "$src/traces/bert-base.trace" -o "$t/out.json"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$t/out.json" 2>/dev/null && echo "ok   json parses" || { command -v python3 >/dev/null && { echo "FAIL: json"; fails=$((fails+1)); }; }
# table: every column name printed whole (the csv header is the reference list), rows aligned
"$MXSIM" run --config "$cfg" "$src/traces/bert-base.trace" > "$t/tab.txt"
"$MXSIM" run --config "$cfg" --format csv "$src/traces/bert-base.trace" | head -1 | tr ',' '\n' > "$t/names.txt"
hdr=$(head -1 "$t/tab.txt"); nbad=0; nh=0
for h in $hdr; do nh=$((nh+1)); grep -qx -- "$h" "$t/names.txt" || { echo "FAIL: table header '$h' is not a column name"; nbad=$((nbad+1)); }; done
# 6 op columns (op kind m n k repeat) + 16 statistics (n_macs among them since the sixteenth session)
[ "$nh" -eq 22 ] || { echo "FAIL: table has $nh headers, expected 22"; nbad=$((nbad+1)); }
grep -qw n_macs <<< "$hdr" || { echo "FAIL: the table lacks n_macs (the MACs: a headline count)"; nbad=$((nbad+1)); }
# the last column (bound, text) is left-aligned and not padded: widths up to its start
[ "$(sed 's/[^ ]*$//' "$t/tab.txt" | awk '{print length($0)}' | sort -u | wc -l)" -eq 1 ] || { echo "FAIL: table rows differ in width"; nbad=$((nbad+1)); }
[ "$nbad" -eq 0 ] && echo "ok   table headers whole and aligned" || fails=$((fails+nbad))
# detailed mode through the CLI: same numbers as the analytic engine, gzip access traces
printf 'mxsim-trace 1\ngemm name=a m=20 n=9 k=64\ngemm name=b m=7 n=33 k=96 group=16\ndequant name=d m=8 n=64\n' > "$t/small.trace"
for df in os ws is; do for sh in pe row col; do
  a=$("$MXSIM" run --config "$cfg" --dataflow $df --set exp.share=$sh --set exp.ii_cycles=3 --format csv "$t/small.trace")
  d=$("$MXSIM" run --config "$cfg" --dataflow $df --set exp.share=$sh --set exp.ii_cycles=3 --format csv --detail "$t/small.trace")
  [ -n "$a" ] && [ "$a" = "$d" ] && echo "ok   --detail equals analytic ($df, $sh)" || { echo "FAIL: --detail differs ($df, $sh)"; diff <(echo "$a") <(echo "$d") | head -4; fails=$((fails+1)); }
done; done
rm -f "$t"/acc*.gz
expect 0 "TOTAL" -- "$MXSIM" run --config "$cfg" --detail --access-trace "$t/acc.gz" "$t/small.trace"
for i in 0 1; do
  if gzip -t "$t/acc.$i.gz" 2>/dev/null && [ "$(gzip -dc "$t/acc.$i.gz" | head -1)" = "mxsim-access 1" ]; then echo "ok   access trace of op $i"
  else echo "FAIL: access trace $t/acc.$i.gz"; fails=$((fails+1)); fi
done
[ ! -e "$t/acc.2.gz" ] || { echo "FAIL: access trace for a dequant op"; fails=$((fails+1)); }
printf 'mxsim-trace 1\ngemm name=a m=20 n=9 k=64\n' > "$t/one.trace"
expect 0 "TOTAL" -- "$MXSIM" run --config "$cfg" --detail --access-trace "$t/one.gz" "$t/one.trace"
[ -s "$t/one.gz" ] || { echo "FAIL: one-op access trace missing"; fails=$((fails+1)); }
expect 2 "--access-trace needs --detail" -- "$MXSIM" run --config "$cfg" --access-trace "$t/x.gz" "$t/one.trace"
expect 2 "2^26 PE-cycles" -- "$MXSIM" run --config "$cfg" --detail --access-trace "$t/big.gz" "$src/traces/bert-base.trace"
[ ! -e "$t/big.gz" ] && [ -z "$(ls "$t" | grep 'big.gz')" ] || { echo "FAIL: refused run left a trace file"; fails=$((fails+1)); }
expect 0 "tile.m" -- "$MXSIM" config --dump
expect 0 "tile.m" -- "$MXSIM" config   # what the help says it does, without --dump too
expect 2 "field 'tile.k'" -- "$MXSIM" run --config "$cfg" --set tile.k=40 "$t/one.trace"
# TOTAL overflow: two legal ops of about 0.6 * 2^63 cycles each (repeats from the one-op cycles)
printf '[array]\nrows = 8\ncols = 8\n[sram]\na_kib = 1\nb_kib = 1\nc_kib = 1\n[dram]\nbw_bytes_per_cycle = 0.0009765625\n' > "$t/ovf.ini"
printf 'mxsim-trace 1\ngemm name=one m=1024 n=1024 k=1024\n' > "$t/ovf1.trace"
x=$("$MXSIM" run --config "$t/ovf.ini" --format csv "$t/ovf1.trace" | awk -F, '$1=="one"{print $7}')
r=$(( 5534023222112865484 / ${x:-1} ))
printf "mxsim-trace 1\ngemm name=first m=1024 n=1024 k=1024 repeat=$r\ngemm name=second m=1024 n=1024 k=1024 repeat=$r\n" > "$t/ovf2.trace"
head -2 "$t/ovf2.trace" > "$t/ovf3.trace"
expect 0 "TOTAL" -- "$MXSIM" run --config "$t/ovf.ini" "$t/ovf3.trace"
expect 2 "field 'cycles_total': adding op 'second' passes 2^63" -- "$MXSIM" run --config "$t/ovf.ini" "$t/ovf2.trace"
echo "$fails failures"; [ "$fails" -eq 0 ]
