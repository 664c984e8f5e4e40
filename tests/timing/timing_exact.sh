#!/usr/bin/env bash
# The audit's CLI repros: a count past 2^63 (n_lane_slots), a bandwidth the model cannot hold, a
# ';' or '#' inside an INI value, and --access-trace '-' or a name without .gz are refused with
# exit 2, a message naming file:line (or flag) and field, and no output; the bundled INI and .cfg
# files still load (comments after a blank).  The library side: test_timing_exact.c.
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
t=$MXSIM_TEST_TMP; rm -rf "$t" && mkdir -p "$t"
src=$MXSIM_SOURCE_DIR; cfg=$src/workloads/configs/small.ini; fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# refuse LABEL FRAGMENT -- cmd...: exit 2, FRAGMENT on stderr, nothing on stdout
refuse() {
  local label=$1 frag=$2; shift 3
  "$@" > "$t/stdout" 2> "$t/stderr" < /dev/null; local rc=$?
  if [ $rc -ne 2 ]; then fail "$label: exit $rc, expected 2: $(head -c 300 "$t/stderr")"; return; fi
  grep -qF -- "$frag" "$t/stderr" || { fail "$label: stderr lacks '$frag': $(cat "$t/stderr")"; return; }
  [ -s "$t/stdout" ] && { fail "$label: wrote $(wc -c < "$t/stdout") bytes to stdout"; return; }
  echo "ok   $label"
}

# 1. n_lane_slots: 16x16 PEs x 1024 lanes fed 4 elements a cycle (small.ini) on a 2^19-cube GEMM:
#    at least 2^57 / (256 * 4) = 2^47 array cycles x 2^18 slots = 2^65 (was printed as -2^63)
printf 'mxsim-trace 1\ngemm name=big m=524288 n=524288 k=524288\n' > "$t/big.trace"
refuse "n_lane_slots past 2^63" "big.trace:2: op 'big': field 'n_lane_slots'" -- \
  "$MXSIM" run --config "$cfg" --set pe.lanes=1024 "$t/big.trace" --format csv

# 2. bandwidth: refused, never floored, clamped or rounded
refuse "compat 1.9 bytes/cycle" "--set: field 'dram.bw_bytes_per_cycle': 1.9 is not a whole number" -- \
  "$MXSIM" run --config "$cfg" --scalesim-compat --set dram.bw_bytes_per_cycle=1.9 "$src/traces/bert-base.trace"
refuse "compat 0.5 bytes/cycle" "0.5 is not a whole number" -- \
  "$MXSIM" run --config "$cfg" --scalesim-compat --set dram.bw_bytes_per_cycle=0.5 "$src/traces/bert-base.trace"
printf '[dram]\nbw_bytes_per_cycle = 1.5\n' > "$t/frac.ini"
refuse "compat flag on a fractional file value" "field 'dram.bw_bytes_per_cycle': 1.5 is not a whole number" -- \
  "$MXSIM" run --config "$t/frac.ini" --scalesim-compat "$src/traces/bert-base.trace"
refuse "0.0014 bytes/cycle (not a 1/1024 step)" "0.0014 is not within 0.1% of a multiple of the model's step of 1/1024" -- \
  "$MXSIM" run --config "$cfg" --set dram.bw_bytes_per_cycle=0.0014 "$src/traces/bert-base.trace"
for bw in 1e9 65537; do
  printf '[architecture_presets]\nArrayHeight: 8\nArrayWidth: 8\nDataflow: os\nBandwidth: %s\nIfmapSramSzkB: 64\nFilterSramSzkB: 64\nOfmapSramSzkB: 64\nIfmapOffset: 0\nFilterOffset: 0\nOfmapOffset: 0\n[run_presets]\nInterfaceBandwidth: USER\n[general]\nrun_name = t\n' "$bw" > "$t/bw.cfg"
  refuse ".cfg Bandwidth $bw" "bw.cfg:5: field 'Bandwidth': '$bw' words/cycle out of range 1..65536" -- \
    "$MXSIM" config --config "$t/bw.cfg" --dump
done
printf '[architecture_presets]\nBandwidth: 1.9\n' > "$t/bwf.cfg"
refuse ".cfg Bandwidth 1.9" "bwf.cfg:2: field 'Bandwidth': '1.9' is not a whole number" -- "$MXSIM" config --config "$t/bwf.cfg" --dump
# whole values run as given: 1 and 2 words/cycle differ (1.9 once ran as 1)
b1=$("$MXSIM" run --config "$cfg" --scalesim-compat --set dram.bw_bytes_per_cycle=1 --format csv "$src/traces/bert-base.trace" | awk -F, '$1=="TOTAL"{print $7}')
b2=$("$MXSIM" run --config "$cfg" --scalesim-compat --set dram.bw_bytes_per_cycle=2 --format csv "$src/traces/bert-base.trace" | awk -F, '$1=="TOTAL"{print $7}')
[ -n "$b1" ] && [ -n "$b2" ] && [ "$b1" -gt "$b2" ] && echo "ok   compat 1 and 2 bytes/cycle: $b1 > $b2 cycles" || fail "compat bandwidth 1: '$b1', 2: '$b2'"
v=$("$MXSIM" config --config "$cfg" --set dram.bw_bytes_per_cycle=0.0009765625 --dump | awk '$1=="dram.bw_bytes_per_cycle"{print $2}')
[ "$v" = 0.0009765625 ] && echo "ok   1/1024 kept" || fail "1/1024 read as '$v'"

# 3. INI comments: only at the start of a line or after a blank
printf '[array]\nrows = 16;32\n' > "$t/semicolon.ini"
refuse "rows = 16;32" "semicolon.ini:2: field 'array.rows': '16;32' is not an integer" -- "$MXSIM" config --config "$t/semicolon.ini" --dump
printf '[array]\ndataflow = os#ws\n' > "$t/hash.ini"
refuse "dataflow = os#ws" "hash.ini:2: field 'array.dataflow': 'os#ws' is not one of os|ws|is" -- "$MXSIM" config --config "$t/hash.ini" --dump
printf '; c\n  # c\n[array] # c\nrows = 12 ; c\ncols = 24\t# c\n' > "$t/ok.ini"
v=$("$MXSIM" config --config "$t/ok.ini" --dump | awk '$1=="array.rows"||$1=="array.cols"{printf "%s ", $2}')
[ "$v" = "12 24 " ] && echo "ok   comments after a blank" || fail "comments: rows/cols '$v'"
n=0
for f in "$src"/workloads/configs/*.ini "$src"/tests/timing/scalesim/configs/*/*.cfg; do
  # v3 configs that switch on a v3-only timing model are refused (timing_scalesim.sh checks how)
  grep -qiE '^(SparsitySupport|IfmapCustomLayout|FilterCustomLayout|UseRamulatorTrace) *[:=] *true' "$f" && continue
  case $f in */v3/scale_layout.cfg) continue;; esac   # its FilterSRAMBankBandwidth 640 != Bandwidth 64
  "$MXSIM" config --config "$f" --dump > /dev/null 2> "$t/stderr" && n=$((n + 1)) || fail "bundled $f: $(cat "$t/stderr")"
done
echo "ok   $n bundled configurations load"
if "$MXSIM" compare-gpu --help > /dev/null 2>&1; then   # GPU cards (built with the GPU model)
  bench=$src/reports/gpu/NVIDIA-H200-2026-11-26/bench.csv
  for c in h100 h200; do  # each card with a bench of its own card (another card's bench is refused)
    cb=$bench; [ $c = h100 ] && cb=$src/reports/gpu/NVIDIA-H100-80GB-HBM3-2026-11-26/bench.csv
    "$MXSIM" compare-gpu --card "$src/workloads/gpus/$c.ini" --measured "$cb" -o "$t/cg-$c" > /dev/null 2> "$t/stderr" \
      && echo "ok   card $c.ini loads" || fail "card $c.ini: $(cat "$t/stderr")"
  done
  sed 's/^sm.count = 132 /sm.count = 132;5 /' "$src/workloads/gpus/h200.ini" > "$t/card.ini"
  refuse "card sm.count = 132;5" "card.ini:9: sm.count: '132;5'" -- "$MXSIM" compare-gpu --card "$t/card.ini" --measured "$bench" -o "$t/cg-bad"
  [ -e "$t/cg-bad" ] && fail "card refused but $t/cg-bad written"
fi

# 4. --access-trace: '-' and names without .gz refused before any work, nothing written
mkdir -p "$t/cwd"
printf 'mxsim-trace 1\ngemm name=a m=8 n=8 k=32\n' > "$t/one.trace"
printf 'mxsim-trace 1\ngemm name=a m=8 n=8 k=32\ngemm name=b m=16 n=16 k=64\n' > "$t/two.trace"
cd "$t/cwd" || exit 1   # relative names: a './-.0' would land here
for tr in one two; do
  refuse "--access-trace - ($tr op(s))" "--access-trace: '-' (standard output) is refused" -- \
    "$MXSIM" run --config "$cfg" --detail --access-trace - "$t/$tr.trace"
  refuse "--access-trace acc.txt ($tr op(s))" "--access-trace 'acc.txt': the access trace is gzip-compressed" -- \
    "$MXSIM" run --config "$cfg" --detail --access-trace acc.txt "$t/$tr.trace"
done
[ -z "$(ls -A "$t/cwd")" ] && echo "ok   no access-trace file written" || fail "written: $(ls -A "$t/cwd")"
"$MXSIM" run --config "$cfg" --detail --access-trace acc.gz "$t/two.trace" > /dev/null \
  && [ "$(ls "$t/cwd" | tr '\n' ' ')" = "acc.0.gz acc.1.gz " ] && gzip -t "$t/cwd/acc.0.gz" "$t/cwd/acc.1.gz" \
  && echo "ok   acc.gz: acc.0.gz acc.1.gz" || fail "acc.gz: $(ls "$t/cwd")"
cd "$t" || exit 1

echo "timing_exact: $fails failures"
[ "$fails" -eq 0 ]
