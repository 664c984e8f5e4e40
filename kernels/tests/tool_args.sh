#!/usr/bin/env bash
# Bad arguments to the GPU tools are refused before any device work (so this runs without a GPU):
# a message naming the argument or the switch, exit 2.  usage: tool_args.sh BUILD_DIR
set -u
b=$1; fails=0
expect() { # WANT_TEXT CMD...: exit 2 and WANT_TEXT on stderr
  local want=$1; shift
  local err rc
  err=$("$@" 2>&1 >/dev/null); rc=$?
  if [ $rc -eq 2 ] && grep -qF -- "$want" <<< "$err"; then echo "ok   $*"; else echo "FAIL $* (rc $rc): $err"; fails=$((fails+1)); fi
}
expect "argument 2 ('a')" "$b/mxsim-gpu" perf 1 a 4096 128
expect "K (100) is not a multiple of G (128)" "$b/mxsim-gpu" perf 1 4096 100 128
expect "argument 5 ('13')" "$b/mxsim-gpu" perf 1 4096 4096 128 13
expect "MXK_PERF_COLD='yes'" env MXK_PERF_COLD=yes "$b/mxsim-gpu" perf 1 4096 4096 128
expect "MXK_DS_TRACE='2'" env MXK_DS_TRACE=2 "$b/mxsim-gpu" perf 1 4096 4096 128 9
expect "MXK_DR_TRACE='2'" env MXK_DR_TRACE=2 "$b/mxsim-gpu" perf 1 4096 4096 128 12
# the environment switches' table (env_knobs_ok): a non-number, out of range, a bad list, a presence switch set to 0
expect "MXK_WG_DEBUG='abc'" env MXK_WG_DEBUG=abc "$b/mxsim-gpu" info
expect "MXK_WG_DEBUG='4096'" env MXK_WG_DEBUG=4096 "$b/mxsim-gpu" info
expect "MXK_DS_NS='3x'" env MXK_DS_NS=3x "$b/mxsim-gpu" perf 1 4096 4096 128 9
expect "MXK_PREFILL_VARIANTS='0,,1'" env MXK_PREFILL_VARIANTS=0,,1 "$b/mxsim-gpu" bench-prefill /tmp
expect "MXK_PREFILL_VARIANTS='0,1,'" env MXK_PREFILL_VARIANTS=0,1, "$b/mxsim-gpu" bench-prefill /tmp
expect "MXK_NO_WGMMA='0': expected 1 or unset" env MXK_NO_WGMMA=0 "$b/mxsim-gpu" info
expect "MXK_VERIFY_CFG=''" env MXK_VERIFY_CFG= "$b/mxsim-gpu" verify /tmp
expect "MXK_DS_CPW='-1'" env MXK_DS_CPW=-1 "$b/mxsim-gpu" info
expect "MXK_EMULATE='h100': expected a100, l40s, t4 or unset" env MXK_EMULATE=h100 "$b/mxsim-gpu" info
expect "usage: ncu_session.sh MXSIM_GPU DEST" bash "$(dirname "$0")/../tools/ncu_session.sh" "$b/mxsim-gpu"
# accepted values pass the check (then, without a GPU, the tool stops at the device with exit 1, not 2)
accepted() {
  local err rc
  err=$("$@" 2>&1 >/dev/null); rc=$?
  if [ $rc -ne 2 ]; then echo "ok   $* (rc $rc)"; else echo "FAIL $* refused: $err"; fails=$((fails+1)); fi
}
accepted env MXK_WG_DEBUG=2048 MXK_PREFILL_VARIANTS=0,1,2048 MXK_NO_WGMMA=1 MXK_DS_NS=4 "$b/mxsim-gpu" info
accepted env MXK_EMULATE=l40s "$b/mxsim-gpu" info
expect "argument 1 ('abc')" "$b/stream_probe" abc
expect "argument 2 ('12x')" "$b/stream_probe" 4096 12x
expect "argument 1 ('10')" "$b/stream_probe" 10
expect "usage: wgmma_probe [-g]" "$b/wgmma_probe" x
expect "usage: wgmma_probe [-g]" "$b/wgmma_probe" -g x
expect "argument 1 ('100')" "$b/launch_probe" 100
expect "argument 1 ('4096x')" "$b/launch_probe" 4096x
expect "argument 1 ('-16')" "$b/launch_probe" -16
expect "one argument at most" "$b/launch_probe" 4096 4096
expect "argument 2 ('x')" "$b/decode_wgmma_probe" 1 x 4096
expect "M N K triples" "$b/decode_wgmma_probe" -r 1 4096
expect "17x4096x4096: needs 1 <= M <= 16" "$b/decode_wgmma_probe" 17 4096 4096
[ $fails -eq 0 ] && echo "tool_args: all ok" || { echo "tool_args: $fails failures"; exit 1; }
