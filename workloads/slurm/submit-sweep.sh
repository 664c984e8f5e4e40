#!/usr/bin/env bash
# Submits an mxsim sweep to Slurm as a job array (one shard per task) and a dependent merge job.
#
#   workloads/slurm/submit-sweep.sh [-p PARTITION] [-A ACCOUNT] [-n SHARDS] [--mxsim PATH]
#       [--job-dir DIR] [--sbatch-arg ARG]... -o OUT -- --config CFG TRACE [sweep options...]
#
# OUT is what `mxsim sweep -o OUT` would write (OUT.csv also writes OUT.meta.json; .json, .md),
# byte-identical to the unsharded sweep.  The job directory (default: OUT's directory/
# mxsim-sweep-PID) must be on a file system every node sees; it holds job.env, the part files
# and the Slurm logs.  Prints "ARRAY_JOB_ID MERGE_JOB_ID".  OUT, --mxsim and --job-dir are made absolute; the jobs
# run in the current directory (sbatch --chdir).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shards=8 out="" jobdir="" mxsim=${MXSIM:-}
sb=()
usage() { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    -p|--partition) sb+=("--partition=$2"); shift 2 ;;
    -A|--account) sb+=("--account=$2"); shift 2 ;;
    -n|--shards) shards=$2; shift 2 ;;
    -o|--out) out=$2; shift 2 ;;
    --mxsim) mxsim=$2; shift 2 ;;
    --job-dir) jobdir=$2; shift 2 ;;
    --sbatch-arg) sb+=("$2"); shift 2 ;;
    -h|--help) usage ;;
    --) shift; break ;;
    *) echo "submit-sweep.sh: unknown option '$1'" >&2; usage ;;
  esac
done
[ -n "$out" ] && [ $# -gt 0 ] || usage
[[ $shards =~ ^[1-9][0-9]*$ ]] || { echo "submit-sweep.sh: -n '$shards': expected a positive integer" >&2; exit 2; }
command -v sbatch >/dev/null || { echo "submit-sweep.sh: sbatch not found (run on a Slurm login node)" >&2; exit 2; }
if [ -z "$mxsim" ]; then mxsim=$(command -v mxsim || true); fi
[ -x "$mxsim" ] || { echo "submit-sweep.sh: no mxsim CLI (give --mxsim PATH)" >&2; exit 2; }
abs() { case $1 in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }
out=$(abs "$out")
jobdir=$(abs "${jobdir:-$(dirname "$out")/mxsim-sweep-$$}")
mkdir -p "$jobdir"
# the sweep's arguments, verbatim: the jobs run in this directory (--chdir), so the outputs name
# the trace and configuration exactly as a local `mxsim sweep` here would
args=(sweep "$@")
{
  printf 'MXSIM=%q\n' "$(abs "$mxsim")"
  printf 'MXSIM_SHARDS=%q\n' "$shards"
  printf 'MXSIM_OUT=%q\n' "$out"
  printf 'MXSIM_ARGS=('; printf '%q ' "${args[@]}"; printf ')\n'
} > "$jobdir/job.env"
array=$(sbatch --parsable --array="0-$((shards - 1))" --output="$jobdir/shard-%a.log" --chdir="$PWD" \
  --export="ALL,MXSIM_JOB_DIR=$jobdir" "${sb[@]}" "$here/sweep-shard.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes --output="$jobdir/merge.log" --chdir="$PWD" \
  --export="ALL,MXSIM_JOB_DIR=$jobdir" "${sb[@]}" "$here/merge.sbatch")
merge=${merge%%;*}
echo "$array $merge"
