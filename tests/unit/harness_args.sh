#!/usr/bin/env bash
# The RTL and SystemC harnesses refuse a malformed option value with exit 2 and a message naming the
# option (they read "abc" as 0, "64abc" as 64 and "-5" as a default, dropped an odd last argument,
# and passed a run over no case: --array abc checked 0 configurations; an empty trace, 0 ops).
# Each harness is found in the build next to the CLI; one not built is skipped.
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
b=$(dirname "$MXSIM"); t=$MXSIM_TEST_TMP; mkdir -p "$t"; fails=0; n=0
pe=$b/rtl/rtl_pe_tb; dq=$b/rtl/rtl_dequant_tb; tb=$b/sim/systemc/mxsim_sc_tb; co=$b/sim/systemc/mxsim_sc_cosim
cfg=$MXSIM_SOURCE_DIR/workloads/configs/small.ini; tr=$MXSIM_SOURCE_DIR/traces/bert-base.trace
# bad NAME TEXT -- CMD...: exit 2, the output contains TEXT
bad() {
  local name=$1 text=$2; shift 3; n=$((n + 1))
  "$@" > "$t/$name.log" 2>&1; local rc=$?
  if [ $rc -ne 2 ]; then echo "FAIL $name: exit $rc, expected 2"; fails=$((fails + 1))
  elif ! grep -qF -- "$text" "$t/$name.log"; then echo "FAIL $name: output lacks '$text': $(tail -2 "$t/$name.log")"; fails=$((fails + 1))
  else echo "ok   $name"; fi
}
if [ -x "$pe" ]; then
  bad pe-array-text "--array: 'abc' is not a whole number" -- "$pe" --array abc --model arr_pe
  bad pe-array-zero "--array: '0' is not a whole number in 1.." -- "$pe" --array 0 --model arr_pe
  bad pe-exp-zero "--exp: '0' is not a whole number in 1.." -- "$pe" --exp 0 --model exp
  bad pe-seed-text "--seed: 'abc' is not a whole number" -- "$pe" --array 2 --model arr_pe --seed abc
else echo "skipped: $pe not built"; fi
if [ -x "$dq" ]; then
  bad dq-seed-text "--seed: 'abc' is not a whole number" -- "$dq" --model ocp_L1 --seed abc
  bad dq-seed-negative "--seed: '-1' is not a whole number" -- "$dq" --model ocp_L1 --seed -1
else echo "skipped: $dq not built"; fi
if [ -x "$tb" ]; then
  bad tb-period-text "--period-ps: 'abc' is not a number" -- "$tb" --config "$cfg" --trace "$tr" --period-ps abc
  bad tb-period-negative "--period-ps: '-5' is not a number" -- "$tb" --config "$cfg" --trace "$tr" --period-ps -5
  bad tb-quantum-negative "--quantum-ns: '-1' is not a number" -- "$tb" --config "$cfg" --trace "$tr" --quantum-ns -1
  bad tb-seed-text "--seed: 'x1' is not a whole number" -- "$tb" --config "$cfg" --trace "$tr" --seed x1
  printf 'mxsim-trace 1\n' > "$t/empty.trace"
  bad tb-empty-trace "empty.trace: the trace has no ops" -- "$tb" --config "$cfg" --trace "$t/empty.trace"
else echo "skipped: $tb not built"; fi
if [ -x "$co" ]; then
  bad cosim-groups-suffix "--groups: '64abc' is not a whole number" -- "$co" --config "$cfg" --groups 64abc
  bad cosim-odd-argument "--bogus: missing value" -- "$co" --config "$cfg" --groups 64 --bogus
else echo "skipped: $co not built"; fi
[ $n -gt 0 ] || { echo "skipped: no harness built"; exit 77; }
echo "$n checks, $fails failed"
[ $fails -eq 0 ]
