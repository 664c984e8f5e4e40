#!/usr/bin/env bash
# lint.sh - verilator --lint-only -Wall on the dequantization unit (rtl/src), for the parameter sets
# the harness runs, the synthesized ones and every injected-bug variant; and a check that an
# unimplemented PROFILE is refused at elaboration.
# usage: lint.sh VERILATOR RTL_SRC_DIR      exit 0 clean, 1 a warning or error, 77 no verilator
set -u
V=$1 SRC=$2
command -v "$V" >/dev/null 2>&1 || { echo "lint: verilator not found ($V): skipped"; exit 77; }
FILES="$SRC/mx_dequant.v $SRC/mx_dequant_lane.v $SRC/mx_bf16_norm.v"
rc=0 n=0
lint() { # description, then verilator arguments
    local what=$1; shift
    n=$((n + 1))
    if out=$("$V" --lint-only -Wall --top-module mx_dequant "$@" $FILES 2>&1); then
        echo "clean: $what"
    else
        echo "NOT CLEAN: $what"; echo "$out"; rc=1
    fi
}
for p in 0 2; do
    for cfg in "1 0 32" "1 1 256" "4 4 8" "4 4 16" "32 3 2" "32 4 1" "1 4 32" "32 0 1" "8 8 4"; do
        set -- $cfg
        lint "PROFILE=$p LANES=$1 DEPTH=$2 GROUP_BEATS=$3" -GPROFILE=$p -GLANES=$1 -GDEPTH=$2 -GGROUP_BEATS=$3
    done
done
for bug in BIAS_ADD ZERO_SIGN BUBBLE; do
    for d in 1 4; do lint "MXSIM_RTL_BUG_$bug DEPTH=$d" -DMXSIM_RTL_BUG_$bug -GPROFILE=2 -GDEPTH=$d; done
done
if "$V" --lint-only -Wall --top-module mx_dequant -GPROFILE=1 $FILES >/dev/null 2>&1; then
    echo "NOT REFUSED: PROFILE=1 (mase) elaborated although only 0 and 2 are implemented"; rc=1
else
    echo "refused as it should be: PROFILE=1"
fi
echo "lint: $n configurations, $([ $rc -eq 0 ] && echo all clean || echo FAILED) ($("$V" --version))"
exit $rc
