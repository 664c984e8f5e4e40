#!/usr/bin/env bash
# Submits an mxsim sweep to Slurm as a job array (one shard per task) and a dependent merge job.
#
#   workloads/slurm/submit-sweep.sh [-p PARTITION] [-A ACCOUNT] [-n SHARDS] [--mxsim PATH]
#       [--job-dir DIR] [--format F] [--sbatch-arg ARG]... -o OUT -- --config CFG TRACE [sweep options...]
#
# OUT is what `mxsim sweep -o OUT` would write (OUT.csv also writes OUT.meta.json; .json, .md, .txt;
# --format F as merge's), byte-identical to the unsharded sweep.  The sweep options are the
# sweep's, less -j, -o, --format, --shard and -q, which the jobs set.  The job directory (default:
# OUT's directory/mxsim-sweep-PID) must be on a file system every node sees; it holds job.env, the
# part files and the Slurm logs.  Prints "ARRAY_JOB_ID MERGE_JOB_ID".  OUT, --mxsim and --job-dir
# are made absolute; the jobs run in the current directory (sbatch --chdir).
# Before anything is submitted, the arguments, trace, configuration, axes and --data directory are
# checked by the mxsim the jobs run (an empty shard, no point run) and OUT by `mxsim merge --check`:
# a bad argument exits 2 here with mxsim's message.  The merge runs after every shard has ended,
# whatever its exit (afterany): as the unsharded sweep, it writes OUT when some points failed and
# exits 2; when a shard wrote no part, it writes nothing, names the shards and quotes their logs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shards=8 out="" jobdir="" mxsim=${MXSIM:-} format=""
sb=()
usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "submit-sweep.sh: $*" >&2; exit 2; }
need() { [ $# -ge 2 ] || die "option '$1' needs a value (see --help)"; }
while [ $# -gt 0 ]; do
  case $1 in
    -p|--partition) need "$@"; sb+=("--partition=$2"); shift 2 ;;
    -A|--account) need "$@"; sb+=("--account=$2"); shift 2 ;;
    -n|--shards) need "$@"; shards=$2; shift 2 ;;
    -o|--out) need "$@"; out=$2; shift 2 ;;
    --mxsim) need "$@"; mxsim=$2; shift 2 ;;
    --job-dir) need "$@"; jobdir=$2; shift 2 ;;
    --format) need "$@"; format=$2; shift 2 ;;
    --sbatch-arg) need "$@"; sb+=("$2"); shift 2 ;;
    -h|--help) usage ;;
    --) shift; break ;;
    *) echo "submit-sweep.sh: unknown option '$1'" >&2; usage ;;
  esac
done
[ -n "$out" ] || die "missing -o OUT (see --help)"
[ $# -gt 0 ] || die "missing the sweep's arguments after -- (see --help)"
[[ $shards =~ ^[1-9][0-9]*$ ]] && [ ${#shards} -le 5 ] && [ "$shards" -le 65536 ] \
  || die "-n '$shards': expected a whole number of shards, 1..65536"
# options the jobs set themselves: given here they would fail every shard on the cluster
for a in "$@"; do
  case $a in
    -j|-j*|--jobs|--jobs=*) die "'$a' in the sweep arguments: each shard runs on its task's CPUs (--cpus-per-task: give --sbatch-arg --cpus-per-task=N)" ;;
    -o|-o*|--out|--out=*) die "'$a' in the sweep arguments: give the output as submit-sweep.sh's -o OUT" ;;
    --format|--format=*) die "'$a' in the sweep arguments: give the format as submit-sweep.sh's --format F (or by OUT's extension)" ;;
    --shard|--shard=*) die "'$a' in the sweep arguments: submit-sweep.sh shards the sweep (-n SHARDS)" ;;
  esac
done
command -v sbatch >/dev/null || die "sbatch not found (run on a Slurm login node)"
if [ -z "$mxsim" ]; then mxsim=$(command -v mxsim || true); fi
[ -n "$mxsim" ] && [ -x "$mxsim" ] && [ ! -d "$mxsim" ] || die "no mxsim CLI${mxsim:+ at '$mxsim'} (give --mxsim PATH)"
abs() { case $1 in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }
[ "$out" != - ] || die "-o -: the merge job writes a file (OUT.csv, .json, .md, .txt)"
out=$(abs "$out")
mxsim=$(abs "$mxsim")
# OUT as the merge job will check it (extension or --format, not a directory)
"$mxsim" merge --check -o "$out" ${format:+--format "$format"} || die "-o '$out'${format:+ --format $format}: refused by mxsim merge (above)"
jobdir=$(abs "${jobdir:-$(dirname "$out")/mxsim-sweep-$$}")
mkdir -p "$jobdir" || die "--job-dir '$jobdir': cannot create it"
# OUT's directory must exist and be writable now (merge --check checks the name only): with --job-dir
# elsewhere the whole array ran, then the merge job failed
od=$(dirname "$out")
[ -d "$od" ] && [ -w "$od" ] || die "-o '$out': its directory '$od' does not exist or is not writable (the merge job writes OUT there)"
# a part of an earlier submission would be merged in place of a shard that wrote none
stale=$(find "$jobdir" -maxdepth 1 -name 'part-*.part' 2>/dev/null | head -n 3)
[ -z "$stale" ] || die "--job-dir '$jobdir' holds part files of an earlier submission (${stale//$'\n'/, }): remove them or give another --job-dir"
# the sweep's arguments, verbatim: the jobs run in this directory (--chdir), so the outputs name
# the trace and configuration exactly as a local `mxsim sweep` here would
args=(sweep "$@")
# the shards' command line, run here on an empty slice (slice 0 of 65536 holds no point unless the
# sweep has 65536): every option, the trace, the configuration, the axes and --data are checked as
# each shard will check them, in seconds, before the cluster is asked for anything
check="$jobdir/check.part"
if ! msg=$("$mxsim" "${args[@]}" -j 1 --quiet --shard 0/65536 -o "$check" 2>&1); then
  rm -f "$check"
  printf '%s\n' "$msg" >&2
  die "the sweep arguments are refused (above): nothing submitted"
fi
rm -f "$check"
{
  printf 'MXSIM=%q\n' "$mxsim"
  printf 'MXSIM_SHARDS=%q\n' "$shards"
  printf 'MXSIM_OUT=%q\n' "$out"
  printf 'MXSIM_FORMAT=%q\n' "$format"
  printf 'MXSIM_ARGS=('; printf '%q ' "${args[@]}"; printf ')\n'
} > "$jobdir/job.env"
array=$(sbatch --parsable --array="0-$((shards - 1))" --output="$jobdir/shard-%a.log" --chdir="$PWD" \
  --export="ALL,MXSIM_JOB_DIR=$jobdir" "${sb[@]}" "$here/sweep-shard.sbatch")
array=${array%%;*}
# afterany: a shard that exits 2 because some of its points failed has written its part; the merge
# writes the outputs as the unsharded sweep does and fails itself (exit 2), naming what is missing
merge=$(sbatch --parsable --dependency="afterany:$array" --output="$jobdir/merge.log" --chdir="$PWD" \
  --export="ALL,MXSIM_JOB_DIR=$jobdir" "${sb[@]}" "$here/merge.sbatch")
merge=${merge%%;*}
echo "$array $merge"
