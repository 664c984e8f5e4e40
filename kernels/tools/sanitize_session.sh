#!/usr/bin/env bash
# sanitize_session.sh DEST - the kernels under NVIDIA compute-sanitizer on a lent GPU (a device
# run; CI has no GPU).  Bit-exact results do not show an out-of-bounds read whose value went unused,
# a shared-memory race that happened to resolve the right way, or a barrier some threads skip; the
# sanitizer's four tools do:
#   memcheck, synccheck, initcheck over test_gpu_kernels (every GEMM cfg asked for by number on
#     ragged shapes, dequantize of all 65,536 (E, m) pairs in both profiles, quantize), racecheck
#     over it built with -DMXK_WG_ARRIVE_ALL=2 (see gemm_wgmma.cu: the default G = 64 GEMM keeps the
#     one-arrive release form racecheck reports);
#   memcheck over test_gpu_kernels with MXK_EMULATE=l40s and t4 (the fallback kernels those cards run);
#   memcheck over the full `mxsim-gpu verify` (every verify case: 188 checks, 0 mismatches
#     expected), racecheck over it built with -DMXK_WG_ARRIVE_ALL=2;
#   racecheck over race_probe's four hand-offs (tools/race_probe.cu): the every-lane and __syncthreads
#     forms must be clean, the unsynchronised control and the one-arrive form report hazards.
# Writes DEST/session.log, DEST/build.log, DEST/<tool>_<what>.txt (the sanitizer's output) and
# DEST/summary.csv: what, tool, emulate, exit (the program's; 99: the sanitizer found errors; 124:
# the step's time limit), sanitizer_errors (its ERROR SUMMARY count, or racecheck's hazard count),
# expected (clean, or hazards for the unsynchronised control), seconds.  compute-sanitizer: $MXK_SANITIZER, else on PATH, else /usr/local/cuda/bin.  Exit 0
# only if every step ran to its end with no error reported.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
. "$here/session_lib.sh"
dest=${1:?usage: sanitize_session.sh DEST}
session_start "$dest" session.log
san=${MXK_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
[ -x "$san" ] || { echo "sanitize_session.sh: no compute-sanitizer (set MXK_SANITIZER)"; exit 2; }
"$san" --version | grep -i version
card_line
build=${MXK_BUILD:-/tmp/mxk-sanitize}
stamp "build test_gpu_kernels mxsim-gpu (Release, as the bench builds them)"
build_gpu "$src" "$build" "$dest/build.log" test_gpu_kernels mxsim-gpu race_probe || { tail -30 "$dest/build.log"; exit 1; }
# racecheck's build: every consumer lane releases every ring stage (MXK_WG_ARRIVE_ALL=2; the default
# keeps one arrive per warp in the G = 64 GEMM, the form racecheck does not follow: gemm_wgmma.cu)
stamp "build the same with -DMXK_WG_ARRIVE_ALL=2 (racecheck's)"
cmake -S "$src" -B "$build-all" -DMXSIM_WITH_CUDA=ON -DMXSIM_BUILD_BENCH=OFF -DMXSIM_WITH_RTL=OFF -DMXSIM_WITH_SYSTEMC=OFF \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_FLAGS=-DMXK_WG_ARRIVE_ALL=2 > "$dest/build_all.log" 2>&1 &&
  cmake --build "$build-all" -j"$(nproc)" --target test_gpu_kernels mxsim-gpu >> "$dest/build_all.log" 2>&1 ||
  { tail -30 "$dest/build_all.log"; exit 1; }
echo "what,tool,emulate,exit,sanitizer_errors,expected,seconds" > "$dest/summary.csv"
fails=0
# step NAME TOOL EMULATE LIMIT_S PROGRAM ARGS...   (expects a clean run; EXPECT=hazards: a control
# that must report some)
step() {
  local name=$1 tool=$2 emu=$3 lim=$4 expect=${EXPECT:-clean}
  shift 4
  local log="$dest/${tool}_${name}.txt" t0 rc n
  t0=$(date +%s)
  stamp "$tool: $name${emu:+ (MXK_EMULATE=$emu)}"
  env ${emu:+MXK_EMULATE=$emu} timeout "$lim" "$san" --tool "$tool" --error-exitcode 99 "$@" > "$log" 2>&1
  rc=$?
  if [ "$tool" = racecheck ]; then
    n=$(grep -Eo 'RACECHECK SUMMARY: [0-9]+ hazard' "$log" | awk '{s += $3} END {print s + 0}')
  else
    n=$(grep -Eo 'ERROR SUMMARY: [0-9]+ error' "$log" | awk '{s += $3} END {print s + 0}')
  fi
  grep -E 'SUMMARY|^ok|FAIL|verify:' "$log" | tail -4
  echo "$name,$tool,${emu:-none},$rc,$n,$expect,$(( $(date +%s) - t0 ))" >> "$dest/summary.csv"
  if [ "$expect" = hazards ]; then [ "$n" -gt 0 ] || fails=$((fails + 1))
  else [ "$rc" -eq 0 ] && [ "$n" -eq 0 ] || fails=$((fails + 1)); fi
}
t=$build/kernels/test_gpu_kernels
[ -x "$t" ] || t=$(find "$build" -name test_gpu_kernels -type f -perm -u+x | head -1)
g=$(find "$build" -name mxsim-gpu -type f -perm -u+x | head -1)
ta=$(find "$build-all" -name test_gpu_kernels -type f -perm -u+x | head -1)
ga=$(find "$build-all" -name mxsim-gpu -type f -perm -u+x | head -1)
p=$(find "$build" -name race_probe -type f -perm -u+x | head -1)
# racecheck's view of the decode kernel's mbarrier hand-off, against two controls (race_probe.cu)
step race_probe_sync racecheck "" 60 "$p" sync
EXPECT=hazards step race_probe_none racecheck "" 60 "$p" none
step race_probe_mbar racecheck "" 60 "$p" mbar
EXPECT=hazards step race_probe_mbar1 racecheck "" 60 "$p" mbar1
step test_gpu_kernels memcheck "" 120 "$t"
step test_gpu_kernels_all racecheck "" 150 "$ta"
step test_gpu_kernels synccheck "" 90 "$t"
step test_gpu_kernels initcheck "" 90 "$t"
step test_gpu_kernels_l40s memcheck l40s 90 "$t"
step test_gpu_kernels_t4 memcheck t4 90 "$t"
mkdir -p "$dest/verify" "$dest/verify_race"
step verify memcheck "" "${MXK_VERIFY_LIMIT_S:-240}" "$g" verify "$dest/verify"
step verify_all racecheck "" "${MXK_VERIFY_LIMIT_S:-240}" "$ga" verify "$dest/verify_race"
cat "$dest/summary.csv"
stamp "done: $fails step(s) with errors or not finished"
[ "$fails" -eq 0 ]
