#!/usr/bin/env bash
# workloads/slurm against a real single-node Slurm cluster started here: a private munged (own
# key, own socket) and slurmctld + slurmd on 127.0.0.1 from a generated slurm.conf in a temporary
# directory (free ports, no cgroups, no accounting), torn down afterwards.  submit-sweep.sh runs a
# 4-shard job array and a dependent merge job; the merged CSV, its sidecar and a JSON merge equal
# the local unsharded sweep byte for byte.  A sweep with a failing point gives, as unsharded, its
# outputs and exit 2 (the merge job runs after a failed shard: afterany).  Skips (77) when Slurm or munge is not installed,
# unless MXSIM_REQUIRE_SLURM=1 (CI: .ci/install-deps installs them), which makes that a failure.
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
src=$MXSIM_SOURCE_DIR
export PATH=$PATH:/usr/sbin:/sbin
for b in munged mungekey slurmctld slurmd sbatch squeue scontrol sinfo; do
  if ! command -v "$b" >/dev/null; then
    if [ "${MXSIM_REQUIRE_SLURM:-0}" = 1 ]; then echo "FAIL: $b not installed (.ci/install-deps installs Slurm and munge)"; exit 1; fi
    echo "skip: $b not installed (apt-get install slurmctld slurmd slurm-client munge)"; exit 77
  fi
done
t=$MXSIM_TEST_TMP; rm -rf "$t" && mkdir -p "$t" && chmod 0755 "$t"  # munged: its socket path must be searchable
t=$(cd "$t" && pwd)
for v in $(env | grep -o '^\(SLURM\|SBATCH\|SALLOC\|SRUN\)_[A-Za-z0-9_]*'); do unset "$v"; done
pids=()
cleanup() {
  [ -n "${SLURM_CONF:-}" ] && scancel --quiet --user="$(id -un)" 2>/dev/null
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
  [ -n "${sockdir:-}" ] && rm -rf "$sockdir"
}
trap cleanup EXIT
die() { echo "FAIL: $*"; for f in "$t"/*.log "$t"/job/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }; done; exit 1; }
# munge: own key and socket (socket directory 0755)
# the socket lives in a short directory of its own: a UNIX socket path is limited to 107 bytes
sockdir=$(mktemp -d /tmp/mxsim-munge.XXXXXX) || die "mktemp"
mkdir -p "$t/munge" && chmod 0700 "$t/munge" && chmod 0755 "$sockdir"
mungekey --create --keyfile="$t/munge/munge.key" >/dev/null 2>&1 || die "mungekey"
sock=$sockdir/munge.socket
munged --socket="$sock" --key-file="$t/munge/munge.key" --pid-file="$t/munge/munged.pid" \
  --log-file="$t/munged.log" --seed-file="$t/munge/munged.seed" --foreground --force 2>"$t/munged.out" &
pids+=($!)
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.05; done
[ -S "$sock" ] || die "munged did not start"
# two free TCP ports on 127.0.0.1
read -r p1 p2 < <(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1",0)) for x in s]
print(*[x.getsockname()[1] for x in s])')
host=$(hostname -s)
user=$(id -un)
node=$(slurmd -C 2>/dev/null | head -n 1)
[[ $node == NodeName=* ]] || die "slurmd -C: $node"
mkdir -p "$t/state" "$t/spool"
cat > "$t/slurm.conf" <<CONF
ClusterName=mxsimtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$p1
SlurmdPort=$p2
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$t/state
SlurmdSpoolDir=$t/spool
SlurmctldPidFile=$t/slurmctld.pid
SlurmdPidFile=$t/slurmd.pid
SlurmctldLogFile=$t/slurmctld.log
SlurmdLogFile=$t/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
ReturnToService=2
MpiDefault=none
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$t/slurm.conf
slurmctld -D -f "$SLURM_CONF" >"$t/slurmctld.out" 2>&1 &
pids+=($!)
for _ in $(seq 200); do scontrol ping 2>/dev/null | grep -q UP && break; sleep 0.05; done
scontrol ping 2>/dev/null | grep -q UP || die "slurmctld did not come up"
slurmd -D -f "$SLURM_CONF" >"$t/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 200); do [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break; sleep 0.05; done
[ "$(sinfo -h -o %T 2>/dev/null)" = idle ] || die "node not idle: $(sinfo -h -o '%T %E' 2>&1)"
echo "ok   cluster up: $(sinfo -h -o '%P %D %T %C')"
# the sweep: locally, then as a job array + merge through the helper (relative paths, run in $t)
cd "$t" && cp "$src/workloads/configs/small.ini" cfg.ini && cp "$src/traces/bert-base.trace" bert.trace
sweep=(--config cfg.ini bert.trace --group-size 16,32,64 --array-width 8,16,32 --sample-rows 8 --sample-cols 8)
"$MXSIM" sweep "${sweep[@]}" -q -o local.csv || die "local sweep"
"$MXSIM" sweep "${sweep[@]}" -q -o local.json || die "local sweep (json)"
start=$(date +%s.%N)
ids=$(bash "$src/workloads/slurm/submit-sweep.sh" --mxsim "$MXSIM" -n 4 --job-dir job -o cluster.csv -- "${sweep[@]}") \
  || die "submit-sweep.sh"
read -r array merge <<<"$ids"
echo "ok   submitted array $array, merge $merge"
for _ in $(seq 1200); do [ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] && break; sleep 0.1; done
[ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] || die "jobs still queued: $(squeue -h -j "$array,$merge")"
echo "ok   jobs done in $(python3 -c "import time; print(f'{time.time() - $start:.1f}')") s"
state=$(scontrol show job "$merge" 2>/dev/null | grep -o 'JobState=[A-Z]*')
[ "$state" = JobState=COMPLETED ] || die "merge job: $state"
n=$(scontrol show job "$array" 2>/dev/null | grep -c 'JobState=COMPLETED')
[ "$n" = 4 ] || die "$n of 4 array tasks COMPLETED"
ls job/part-{0,1,2,3}.part >/dev/null || die "part files missing"
cmp local.csv cluster.csv || die "cluster CSV differs from the local sweep"
cmp local.meta.json cluster.meta.json || die "cluster sidecar differs from the local sweep"
echo "ok   merged CSV + sidecar == local sweep, byte for byte"
"$MXSIM" merge -q job/part-*.part -o cluster.json && cmp local.json cluster.json || die "JSON merge differs"
echo "ok   JSON merge == local sweep"
# a point that fails (--strict-group: G = 128 does not divide bert's attention K = 64): the
# unsharded sweep writes its outputs and exits 2; so does the cluster: the shard holding the point
# fails, the merge still runs (afterany), writes the same bytes and fails with exit 2
strict=(--config cfg.ini bert.trace --group-size 32,128 --no-accuracy --strict-group)
"$MXSIM" sweep "${strict[@]}" -q -o strict-local.csv 2>/dev/null; rc=$?
[ $rc = 2 ] && [ -s strict-local.csv ] || die "local sweep with a failed point: exit $rc"
ids=$(bash "$src/workloads/slurm/submit-sweep.sh" --mxsim "$MXSIM" -n 2 --job-dir job2 -o strict.csv -- "${strict[@]}") \
  || die "submit-sweep.sh (failed point)"
read -r array merge <<<"$ids"
for _ in $(seq 1200); do [ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] && break; sleep 0.1; done
[ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] || die "jobs still queued: $(squeue -h -j "$array,$merge")"
info=$(scontrol show job "$merge" 2>/dev/null)
grep -q 'JobState=FAILED' <<<"$info" && grep -q 'ExitCode=2:0' <<<"$info" \
  || die "merge job after a failed point: $(grep -o 'JobState=[A-Z]*\|ExitCode=[0-9:]*' <<<"$info" | tr '\n' ' ')"
cmp strict-local.csv strict.csv && cmp strict-local.meta.json strict.meta.json \
  || die "cluster outputs with a failed point differ from the local sweep's"
echo "ok   a failed point: merge ran (afterany), wrote the unsharded sweep's bytes, exit 2"
echo "all passed"
