#!/usr/bin/env bash
# sta_osu018.sh - timing estimate of the dequantization unit (CTest rtl_dequant_osu018_sta): yosys maps it to the OSU 0.18 um
# library of Debian's qflow-tech-osu018 and OpenSTA (Debian's opensta) reports the critical path.
# .ci/install-deps installs both packages (opensta, qflow-tech-osu018); by hand elsewhere:
#   apt-get install opensta; apt-get download qflow-tech-osu018; dpkg -x qflow-tech-osu018_*.deb x
#   rtl/scripts/sta_osu018.sh x/usr/share/qflow/tech/osu018/osu018_stdcells.lib rtl/src /tmp/sta [LANES PROFILE DEPTH GB]
# Prints the OSU chip area (um2; / 24 = NAND2 equivalents, sim/doc/references.md#osu018) and the worst
# register-to-register / input-to-register path at a 10 ns clock.  OSU018 is a 1.8 V, lambda-rule
# library: use the delay for relative comparisons (sim/doc/references.md#osu018), not as a 45 nm figure.
set -eu
LIB=$1 SRC=$2 WORK=$3 L=${4:-1} P=${5:-2} D=${6:-4} GB=${7:-32}
command -v sta >/dev/null || { echo "sta_osu018: OpenSTA (sta) not found: skipped"; exit 77; }
[ -f "$LIB" ] || { echo "sta_osu018: $LIB not found: skipped"; exit 77; }
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd) LIB=$(cd "$(dirname "$LIB")" && pwd)/$(basename "$LIB") # sta runs in $WORK
NET=$WORK/mx_dequant_L${L}_P${P}_D${D}.osu018.v
yosys -q -p "read_verilog $SRC/mx_dequant.v $SRC/mx_dequant_lane.v $SRC/mx_bf16_norm.v; \
    chparam -set LANES $L -set PROFILE $P -set DEPTH $D -set GROUP_BEATS $GB mx_dequant; \
    synth -flatten -top mx_dequant; dfflegalize -cell \$_DFF_P_ 01; dfflibmap -liberty $LIB; \
    abc -liberty $LIB; opt_clean; tee -q -o $WORK/osu.stat stat -liberty $LIB; write_verilog -noattr $NET"
grep "Chip area" "$WORK/osu.stat"
(cd "$WORK" && sta -no_splash -exit) <<EOS 2>&1 | grep -E "data arrival time|slack|Startpoint|Endpoint" | head -6
read_liberty $LIB
read_verilog $NET
link_design mx_dequant
create_clock -name clk -period 10 [get_ports clk]
set_input_delay 0 -clock clk [delete_from_list [all_inputs] [get_ports clk]]
set_output_delay 0 -clock clk [all_outputs]
report_checks -path_delay max
EOS
