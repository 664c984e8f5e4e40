#!/usr/bin/env bash
# run-fuzz.sh - runs the libFuzzer targets one at a time, each for a fixed number of executions
# (or seconds), starting from the seed corpus.  Needs a build configured with
#   cmake -S . -B BUILD -DCMAKE_C_COMPILER=clang -DMXSIM_FUZZ=ON [-DMXSIM_SANITIZE=ON]
#
# usage: tests/fuzz/run-fuzz.sh BUILD [--runs N] [--seconds S] [--total-seconds S] [TARGET...]
#   --runs N           executions per target (default 10000000)
#   --seconds S        wall-clock cap per target (default none; libFuzzer's -max_total_time)
#   --total-seconds S  split S seconds evenly over the targets (the CI smoke: --total-seconds 30)
#   --fork N           N worker processes sharing one corpus (libFuzzer -fork=N; needs --seconds,
#                      executions are summed over the workers; stops at the first crash)
#   TARGET             npy npz trace trace_gz ini scalesim_cfg scalesim_csv model report
#                      gpu_card gpu_bench gpu_xbench api
#                      (default: every fuzz_* binary in BUILD/tests/fuzz)
#
# The seed corpus (tests/fuzz/corpus/TARGET) is copied to BUILD/fuzz-work/TARGET/corpus, which
# the run grows; the source tree is never written.  A crash leaves its input in
# BUILD/fuzz-work/TARGET/artifacts/ (save it as tests/fuzz/crashes/TARGET/NAME once fixed) and
# the log in BUILD/fuzz-work/TARGET/log.  Prints one line per target: executions, seconds,
# executions per second, result.  Exit status 1 if any target crashed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { sed -n '2,20p' "$0"; exit 2; }
build=$1; shift
runs=10000000; secs=0; total=0; fork=0; targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --seconds) secs=$2; shift 2 ;;
    --total-seconds) total=$2; shift 2 ;;
    --fork) fork=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  for b in "$build"/tests/fuzz/fuzz_*; do
    b=${b##*/fuzz_}
    case $b in replay_*|all|'*') ;; *) [ -x "$build/tests/fuzz/fuzz_$b" ] && targets+=("$b") ;; esac
  done
  [ ${#targets[@]} -gt 0 ] || { echo "run-fuzz: no fuzz_* binaries in $build/tests/fuzz (configure with -DMXSIM_FUZZ=ON, build target fuzz_all)" >&2; exit 2; }
fi
if [ "$total" -gt 0 ]; then secs=$(( total / ${#targets[@]} )); [ "$secs" -ge 1 ] || secs=1; runs=0; fi
if [ "$fork" -gt 0 ]; then
  [ "$secs" -gt 0 ] || { echo "run-fuzz: --fork needs --seconds (fork mode does not count -runs)" >&2; exit 2; }
  runs=0
fi

# Longest input per format: enough for every structure the parser knows (an .npz needs five
# members and a central directory), small enough to keep executions fast.
max_len() {
  case $1 in
    npz|report|gpu_bench|gpu_xbench) echo 8192 ;;
    npy|trace|trace_gz) echo 4096 ;;
    *) echo 2048 ;;
  esac
}

fail=0
printf '%-13s %12s %8s %9s  %s\n' target executions seconds exec/s result
for t in "${targets[@]}"; do
  bin=$build/tests/fuzz/fuzz_$t
  [ -x "$bin" ] || { echo "run-fuzz: $bin missing (configure with -DMXSIM_FUZZ=ON, build target fuzz_all)" >&2; exit 2; }
  work=$build/fuzz-work/$t
  mkdir -p "$work/corpus" "$work/artifacts"
  cp -n "$here/corpus/$t"/* "$work/corpus/" 2>/dev/null
  dict=()
  [ -f "$here/dict/$t.dict" ] && dict=(-dict="$here/dict/$t.dict")
  lim=()
  [ "$runs" -gt 0 ] && lim+=(-runs="$runs")
  [ "$secs" -gt 0 ] && lim+=(-max_total_time="$secs")
  [ "$fork" -gt 0 ] && lim+=(-fork="$fork")
  # The targets write each input to a file: keep those files in RAM when /dev/shm exists, in a
  # directory removed afterwards even if the target crashed (a crash skips its own clean-up).
  shm=/dev/shm; [ -d "$shm" ] && [ -w "$shm" ] || shm=$work
  tmp=$(mktemp -d "$shm/mxsim-fuzz-run.XXXXXX")
  start=$(date +%s)
  # -rss_limit_mb: an input that needs more than 2 GiB is a missing resource limit, i.e. a bug.
  MXSIM_FUZZ_TMP=$tmp "$bin" "$work/corpus" "${dict[@]}" "${lim[@]}" -max_len="$(max_len "$t")" -rss_limit_mb=2048 \
    -timeout=10 -print_final_stats=1 -artifact_prefix="$work/artifacts/" > "$work/log" 2>&1
  rc=$?
  end=$(date +%s)
  rm -rf "$tmp"
  n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
  # fork mode: the parent's progress lines ("#N: cov: ...") carry the total over the workers
  [ "$fork" -gt 0 ] && n=$(sed -n 's/^#\([0-9]*\): cov.*/\1/p' "$work/log" | tail -1)
  [ -n "$n" ] || n=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$work/log" | tail -1)
  [ -n "$n" ] || n=0
  el=$(( end - start )); [ "$el" -ge 1 ] || el=1
  res=ok
  if [ $rc -ne 0 ]; then
    res="CRASH (exit $rc): $(ls -t "$work/artifacts" | head -1), see $work/log"; fail=1
    grep -m3 -E 'ERROR|SUMMARY|invariant failed|runtime error' "$work/log" | sed 's/^/    /'
  fi
  printf '%-13s %12s %8s %9s  %s\n' "$t" "$n" "$el" $(( n / el )) "$res"
done
exit $fail
