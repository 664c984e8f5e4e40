#!/usr/bin/env bash
# tests/cli/kill.sh - the kill harness: runs writing commands and kills each at a random point
# with SIGINT, SIGTERM or SIGHUP, then checks that
#   - the exit status is 0 (finished before the signal) or 128 + the signal's number,
#   - the output directory holds nothing but complete outputs: every file present is
#     byte-identical to the reference output of that name, there is no temporary file
#     (.NAME.tmp.*, .mxsim-acc.*), and the per-op access traces of `run --detail --access-trace`
#     are all there or none is.
# MXSIM_KILLS trials (default 200), each with a delay drawn from 0 .. 70% of the command's
# reference run time; the count of runs the signal interrupted (exit 128 + signal) is reported and
# must be at least a quarter of the trials (a loaded machine makes runs slower or faster than the
# reference), so the harness cannot pass by killing finished processes only.
#   MXSIM=build/mxsim MXSIM_SOURCE_DIR=. MXSIM_TEST_TMP=/tmp/kill bash tests/cli/kill.sh
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
N=${MXSIM_KILLS:-200}
"$MXSIM" run --help > /dev/null 2>&1 || { echo "skip: built without the timing commands"; exit 77; }
command -v python3 > /dev/null || { echo "skip: no python3 to make the input"; exit 77; }
t=$MXSIM_TEST_TMP
rm -rf "$t" && mkdir -p "$t/in" "$t/ref" "$t/out"
cfg=$MXSIM_SOURCE_DIR/workloads/configs/small.ini

# inputs: a 1024 x 2048 float32 .npy (8 MiB), its .npz, a 3-op trace for the detailed engine
python3 - "$t/in/big.npy" <<'EOF' || { echo "FAIL: cannot make the input"; exit 1; }
import array, random, sys
rows, cols = 1024, 2048
hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
hdr += " " * (63 - (10 + len(hdr)) % 64) + "\n"
random.seed(7)
a = array.array('f', (random.uniform(-4, 4) for _ in range(rows * cols)))
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + len(hdr).to_bytes(2, "little") + hdr.encode())
    f.write(a.tobytes())
EOF
printf 'mxsim-trace 1\ngemm name=a m=128 n=128 k=128\ngemm name=b m=64 n=128 k=256\ngemm name=c m=128 n=64 k=128\n' > "$t/in/k3.trace"
"$MXSIM" quantize "$t/in/big.npy" -o "$t/in/big.npz" || { echo "FAIL: quantize"; exit 1; }

# command NAME: the command line writing into directory $1
cmdline() {
  case $1 in
    quantize) echo "$MXSIM quantize $t/in/big.npy -o $2/q.npz" ;;
    dequantize) echo "$MXSIM dequantize $t/in/big.npz -o $2/d.npy" ;;
    detail) echo "$MXSIM run $t/in/k3.trace --config $cfg --detail --access-trace $2/F.gz -o $2/r.csv" ;;
  esac
}
names=(quantize dequantize detail)
declare -A ms
for c in "${names[@]}"; do
  s=$(date +%s%N)
  $(cmdline "$c" "$t/ref") > /dev/null || { echo "FAIL: reference run of $c"; exit 1; }
  ms[$c]=$(( ($(date +%s%N) - s) / 1000000 + 20 ))
  echo "reference $c: ${ms[$c]} ms"
done

fails=0 interrupted=0 complete=0
sigs=(INT TERM HUP)
declare -A signum=([INT]=2 [TERM]=15 [HUP]=1)
RANDOM=${MXSIM_KILL_SEED:-12345}
for ((i = 0; i < N; i++)); do
  c=${names[RANDOM % 3]}
  sig=${sigs[RANDOM % 3]}
  d=$(( (RANDOM * 32768 + RANDOM) % (${ms[$c]} * 7 / 10) ))
  rm -rf "${t:?}/out" && mkdir "$t/out"
  $(cmdline "$c" "$t/out") > /dev/null 2>"$t/err" &
  pid=$!
  sleep "$(printf '%d.%03d' $((d / 1000)) $((d % 1000)))"
  kill -s "$sig" "$pid" 2>/dev/null
  wait "$pid"; rc=$?
  bad=""
  if [ "$rc" -ne 0 ] && [ "$rc" -ne $((128 + ${signum[$sig]})) ]; then bad="exit $rc after SIG$sig at $d ms"; fi
  n_acc=0
  for f in "$t/out"/* "$t/out"/.[!.]*; do
    [ -e "$f" ] || continue
    b=$(basename "$f")
    if [ ! -f "$t/ref/$b" ]; then bad="$bad; stray file $b"
    elif ! cmp -s "$f" "$t/ref/$b"; then bad="$bad; incomplete or wrong $b"
    fi
    case $b in F.*.gz) n_acc=$((n_acc + 1)) ;; esac
  done
  if [ "$n_acc" -ne 0 ] && [ "$n_acc" -ne 3 ]; then bad="$bad; $n_acc of 3 access traces"; fi
  [ "$rc" -eq 0 ] && complete=$((complete + 1))
  [ "$rc" -eq $((128 + ${signum[$sig]})) ] && interrupted=$((interrupted + 1))
  if [ -n "$bad" ]; then
    fails=$((fails + 1))
    echo "FAIL [trial $i: $c, SIG$sig at $d ms] $bad"; head -2 "$t/err" | sed 's/^/       /'
  fi
done
# Promptness: one long op (2^26 cycles on a 1 x 1 array) in the detailed engine, which polls the
# cancellation hook every 2^14 cycles: SIGINT at a fifth of its reference time must end it well
# before the op would have finished (within a third of the reference time after the signal;
# polling only between ops, it ran the remaining four fifths), exit 130, and leave nothing.
printf 'mxsim-trace 1\ngemm name=long m=256 n=256 k=2048\n' > "$t/in/long.trace"
long=("$MXSIM" run "$t/in/long.trace" --config "$cfg" --set array.rows=1 --set array.cols=1 --detail)
rm -rf "${t:?}/out" && mkdir "$t/out"
s=$(date +%s%N); "${long[@]}" -o "$t/out/l.csv" > /dev/null || { echo "FAIL: reference run of the long op"; fails=$((fails + 1)); }
ref=$(( ($(date +%s%N) - s) / 1000000 ))
rm -rf "${t:?}/out" && mkdir "$t/out"
"${long[@]}" -o "$t/out/l.csv" > /dev/null 2>"$t/err" &
pid=$!
d=$((ref / 5))
sleep "$(printf '%d.%03d' $((d / 1000)) $((d % 1000)))"
s=$(date +%s%N); kill -s INT "$pid"; wait "$pid"; rc=$?
after=$(( ($(date +%s%N) - s) / 1000000 ))
left=$(find "$t/out" -mindepth 1 | wc -l)
echo "long detailed op: reference $ref ms; SIGINT at $d ms, exit $rc $after ms later, $left files left"
if [ "$rc" -ne 130 ] || [ "$left" -ne 0 ] || [ "$after" -gt $((ref / 3)) ]; then
  echo "FAIL: a long --detail op was not cancelled promptly and cleanly"; head -2 "$t/err"; fails=$((fails + 1))
fi

echo "kill harness: $N kills, $interrupted runs interrupted (exit 128 + signal), $complete finished" \
  "before the signal, $fails failed"
[ "$interrupted" -ge $((N / 4)) ] || { echo "FAIL: too few runs interrupted ($interrupted of $N)"; fails=$((fails + 1)); }
[ "$fails" -eq 0 ]
