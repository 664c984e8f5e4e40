#!/usr/bin/env bash
# The SystemC testbench's per-op cycles (elapsed simulated time / clock period, checked inside the
# testbench) equal the cycles_total that `mxsim run --format csv` prints, op by op, on every bundled
# configuration and on an overridden one.  Environment: MXSIM (CLI), MXSIM_SC_TB (testbench),
# MXSIM_SOURCE_DIR, MXSIM_TEST_TMP.
set -euo pipefail
: "${MXSIM:?}" "${MXSIM_SC_TB:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
mkdir -p "$MXSIM_TEST_TMP"
trace="$MXSIM_SOURCE_DIR/traces/bert-base.trace"
fail=0
check() {  # check NAME CONFIG [--set k=v ...]
    local name=$1 cfg=$2
    shift 2
    local sets=("$@")
    "$MXSIM_SC_TB" --config "$cfg" --trace "$trace" "${sets[@]}" --csv "$MXSIM_TEST_TMP/$name.sc.csv" \
        > "$MXSIM_TEST_TMP/$name.sc.log"
    "$MXSIM" run --config "$cfg" "${sets[@]}" --format csv -o "$MXSIM_TEST_TMP/$name.run.csv" "$trace"
    # op name and cycles_total: columns 1,3 of the testbench's CSV, 1,7 of mxsim run's (no TOTAL row)
    local hdr
    hdr=$(head -1 "$MXSIM_TEST_TMP/$name.run.csv" | cut -d, -f7)
    [ "$hdr" = cycles_total ] || { echo "FAIL $name: mxsim run column 7 is '$hdr', not cycles_total"; fail=1; return; }
    tail -n +2 "$MXSIM_TEST_TMP/$name.sc.csv" | cut -d, -f1,3 > "$MXSIM_TEST_TMP/$name.sc.cyc"
    tail -n +2 "$MXSIM_TEST_TMP/$name.run.csv" | grep -v '^TOTAL,' | cut -d, -f1,7 > "$MXSIM_TEST_TMP/$name.run.cyc"
    if diff "$MXSIM_TEST_TMP/$name.run.cyc" "$MXSIM_TEST_TMP/$name.sc.cyc" > /dev/null; then
        echo "ok   $name: $(wc -l < "$MXSIM_TEST_TMP/$name.sc.cyc") ops, cycles equal to mxsim run"
    else
        echo "FAIL $name: cycles differ (mxsim run < > SystemC)"
        diff "$MXSIM_TEST_TMP/$name.run.cyc" "$MXSIM_TEST_TMP/$name.sc.cyc" || true
        fail=1
    fi
}
check small "$MXSIM_SOURCE_DIR/workloads/configs/small.ini"
check medium "$MXSIM_SOURCE_DIR/workloads/configs/medium.ini"
check large "$MXSIM_SOURCE_DIR/workloads/configs/large.ini"
check small_ws32 "$MXSIM_SOURCE_DIR/workloads/configs/small.ini" --set array.dataflow=ws --set array.rows=32 \
    --set array.cols=32 --set mx.group_size=16 --set dram.bw_bytes_per_cycle=16
if [ $fail -eq 0 ]; then echo "*-* MXSIM SYSTEMC PASS *-*"; fi
exit $fail
