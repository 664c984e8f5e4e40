#!/usr/bin/env bash
# pe_lint.sh - verilator --lint-only -Wall on the MX processing-element array (rtl/src: mx_array and
# every module under it, and mx_pe, mx_exp_unit, the Booth multiplier and dot product alone) for the parameter sets the harness and the
# synthesis use and every injected-bug variant.
# usage: pe_lint.sh VERILATOR RTL_SRC_DIR      exit 0 clean, 1 a warning or error, 77 no verilator
set -u
V=$1 SRC=$2
command -v "$V" >/dev/null 2>&1 || { echo "pe_lint: verilator not found ($V): skipped"; exit 77; }
FILES="$SRC/mx_fp32_round.v $SRC/mx_exp_term.v $SRC/mx_fp32_add.v $SRC/mx_exp_unit.v $SRC/mx_booth_lane.v $SRC/mx_dot_booth.v $SRC/mx_pe.v $SRC/mx_delay.v $SRC/mx_bf16_out.v $SRC/mx_array.v"
rc=0 n=0
lint() { # description, top, then verilator arguments
    local what=$1 top=$2; shift 2
    n=$((n + 1))
    if out=$("$V" --lint-only -Wall --top-module "$top" "$@" $FILES 2>&1); then
        echo "clean: $top $what"
    else
        echo "NOT CLEAN: $top $what"; echo "$out"; rc=1
    fi
}
for cfg in "2 2 1 0 0" "8 8 8 0 15" "8 8 8 1 15" "8 8 8 2 15" "4 4 4 1 0" "2 8 3 2 1" "8 2 5 1 2"; do
    set -- $cfg
    lint "R=$1 C=$2 L=$3 SHARE=$4 LAT_MAX=$5" mx_array -GR=$1 -GC=$2 -GL=$3 -GSHARE=$4 -GLAT_MAX=$5
done
for l in 1 2 4 8 16 32; do for dw in 22 32; do lint "L=$l DW=$dw" mx_pe -GL=$l -GDW=$dw; done; done
if "$V" --lint-only -Wall --top-module mx_pe -GL=8 -GDW=18 $FILES >/dev/null 2>&1; then
    echo "NOT REFUSED: mx_pe L=8 DW=18 (the tree sum needs 20 bits)"; rc=1
else
    echo "refused as it should be: mx_pe L=8 DW=18"
fi
BOOTH="$SRC/mx_booth_lane.v $SRC/mx_mul8_booth.v $SRC/mx_dot_booth.v"
for bug in "" -DMXSIM_RTL_BUG_BOOTH; do
    n=$((n + 1))
    if out=$("$V" --lint-only -Wall --top-module mx_mul8_booth $bug $BOOTH 2>&1); then echo "clean: mx_mul8_booth $bug"
    else echo "NOT CLEAN: mx_mul8_booth $bug"; echo "$out"; rc=1; fi
done
for l in 1 2 3 4 5 8 16 32; do
    n=$((n + 1))
    if out=$("$V" --lint-only -Wall --top-module mx_dot_booth -GL=$l $BOOTH 2>&1); then echo "clean: mx_dot_booth L=$l"
    else echo "NOT CLEAN: mx_dot_booth L=$l"; echo "$out"; rc=1; fi
done
for ns in 1 2 8; do for lm in 0 1 4; do lint "NSH=$ns LAT_MAX=$lm" mx_exp_unit -GNSH=$ns -GLAT_MAX=$lm; done; done
for dw in 18 21 32; do lint "DW=$dw" mx_exp_unit -GDW=$dw; done
for bug in RTZ FTZ NO_STALL LANE BF16_TRUNC; do
    lint "MXSIM_RTL_BUG_$bug" mx_array -DMXSIM_RTL_BUG_$bug -GR=4 -GC=4 -GL=4 -GSHARE=1
done
echo "pe_lint: $n configurations, $([ $rc -eq 0 ] && echo all clean || echo FAILED) ($("$V" --version))"
exit $rc
