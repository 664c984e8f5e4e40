#!/usr/bin/env bash
# workloads/slurm without a cluster: a stand-in sbatch (written here) runs each job at once, in
# order, honouring --array, --output (%a), --chdir, --export and --dependency=afterok|afterany:ID
# as Slurm does (afterok: only if every task exited 0; afterany: whatever their exits).
#  1. A sweep with a failing point (--strict-group, G = 128 does not divide bert's K = 64): the
#     unsharded sweep writes out.csv + sidecar and exits 2; through submit-sweep.sh the shard that
#     holds the point exits 2, the merge still runs, writes the same bytes and exits 2.
#  2. A shard that writes no part: the merge writes nothing, names the shard and quotes its log.
#  3. submit-sweep.sh refuses, exit 2 and before any sbatch, what would fail on the cluster:
#     -j/-o/--format/--shard in the sweep's arguments, a typo, a missing trace, an OUT merge cannot
#     write, an option without its value, a job directory holding parts of an earlier submission.
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
src=$MXSIM_SOURCE_DIR
t=$MXSIM_TEST_TMP; rm -rf "$t" && mkdir -p "$t/bin" "$t/state"
t=$(cd "$t" && pwd)
. "$src/tests/lib/expect.sh"
submit=$src/workloads/slurm/submit-sweep.sh
cat > "$t/bin/sbatch" <<'SB'
#!/usr/bin/env bash
state=${FAKE_SLURM_STATE:?}
arr="" out="" dir=$PWD exp="" dep="" script=""
for a in "$@"; do
  case $a in
    --array=*) arr=${a#--array=} ;; --output=*) out=${a#--output=} ;; --chdir=*) dir=${a#--chdir=} ;;
    --export=*) exp=${a#--export=} ;; --dependency=*) dep=${a#--dependency=} ;; --*) ;; *) script=$a ;;
  esac
done
id=$(( $(cat "$state/next" 2>/dev/null || echo 100) + 1 )); echo $id > "$state/next"
echo "$id $(basename "$script") dep=$dep" >> "$state/log"
e=${exp#ALL,}; k=${e%%=*}; v=${e#*=}
if [ -n "$dep" ]; then
  kind=${dep%%:*} d=${dep#*:}
  case $kind in
    afterok) [ "$(cat "$state/$d.rc")" = 0 ] || { echo "$id never runs: $d did not succeed" >> "$state/log"; echo 1 > "$state/$id.rc"; echo $id; exit 0; } ;;
    afterany) ;;
    *) echo "fake sbatch: dependency '$dep' not supported" >&2; exit 1 ;;
  esac
fi
rc=0
if [ -n "$arr" ] && [ "${arr#*-}" -gt 1000 ]; then echo "sbatch: error: Invalid job array specification" >&2; exit 1; fi
if [ -n "$arr" ]; then
  for ((i = ${arr%-*}; i <= ${arr#*-}; i++)); do
    (cd "$dir" && env "$k=$v" SLURM_ARRAY_TASK_ID=$i SLURM_CPUS_PER_TASK=1 bash "$script" > "${out//%a/$i}" 2>&1)
    r=$?; echo "$id task $i rc=$r" >> "$state/log"; [ $r -ne 0 ] && rc=$r
  done
else
  (cd "$dir" && env "$k=$v" bash "$script" > "$out" 2>&1); rc=$?; echo "$id rc=$rc" >> "$state/log"
fi
echo $rc > "$state/$id.rc"
echo $id
SB
chmod +x "$t/bin/sbatch"
export PATH=$t/bin:$PATH FAKE_SLURM_STATE=$t/state
cd "$t" && cp "$src/workloads/configs/small.ini" cfg.ini && cp "$src/traces/bert-base.trace" bert.trace
# bert-base's attention GEMMs have K = 64: G = 128 fails them under --strict-group (1 of 2 points)
sweep=(--config cfg.ini bert.trace --group-size 32,128 --no-accuracy --strict-group)
"$MXSIM" sweep "${sweep[@]}" -q -o local.csv 2>/dev/null; rc=$?
[ $rc = 2 ] && [ -s local.csv ] && [ -s local.meta.json ] && grep -q ',error: ' local.csv \
  && ok "unsharded sweep with a failed point: writes out.csv + sidecar, exit 2" || bad "unsharded sweep: exit $rc"
# 1. through the scripts
ids=$(bash "$submit" --mxsim "$MXSIM" -n 2 --job-dir job1 -o cluster.csv -- "${sweep[@]}" 2>submit1.err) \
  && ok "submitted: $ids" || bad "submit-sweep.sh: $(cat submit1.err)"
read -r array merge <<<"$ids"
grep -q "rc=2" "$t/state/log" && ok "the shard with the failed point exits 2" || bad "no shard exited 2: $(cat "$t/state/log")"
[ "$(cat "$t/state/$merge.rc" 2>/dev/null)" = 2 ] && ok "the merge job ran and exits 2, as the unsharded sweep" \
  || bad "merge job exit '$(cat "$t/state/$merge.rc" 2>/dev/null)', expected 2: $(cat "$t/state/log")"
cmp -s local.csv cluster.csv && ok "merged CSV == unsharded sweep's, failed point included" || bad "cluster.csv differs or is missing"
cmp -s local.meta.json cluster.meta.json && ok "merged sidecar == unsharded sweep's" || bad "cluster.meta.json differs or is missing"
grep -q "points failed" job1/merge.log && ok "merge.log says points failed" || bad "merge.log: $(cat job1/merge.log)"
# 2. a shard that writes no part (its mxsim dies): the merge names it and writes nothing
cat > mxsim-dies.sh <<W
#!/usr/bin/env bash
for a in "\$@"; do [ "\$a" = 1/2 ] && { echo "killed: out of memory (stand-in)" >&2; exit 137; }; done
exec "$MXSIM" "\$@"
W
chmod +x mxsim-dies.sh
ok_sweep=(--config cfg.ini bert.trace --group-size 32,64 --no-accuracy)
ids=$(bash "$submit" --mxsim ./mxsim-dies.sh -n 2 --job-dir job2 -o lost.csv -- "${ok_sweep[@]}" 2>submit2.err) || bad "submit 2: $(cat submit2.err)"
read -r array merge <<<"$ids"
[ "$(cat "$t/state/$merge.rc" 2>/dev/null)" = 2 ] && ok "a shard without its part: merge exits 2" || bad "merge exit '$(cat "$t/state/$merge.rc" 2>/dev/null)'"
[ ! -e lost.csv ] && [ ! -e lost.meta.json ] && ok "... and writes nothing" || bad "lost.csv written from an incomplete set of parts"
grep -q "1 of 2 shards wrote no part (index 1)" job2/merge.log && grep -q "killed: out of memory (stand-in)" job2/merge.log \
  && ok "... naming the shard and quoting its log" || bad "merge.log: $(cat job2/merge.log)"
# 3. refused before submitting: exit 2, a message, no sbatch
n0=$(wc -l < "$t/state/log")
refuse() { # FRAGMENT -- submit-sweep.sh ARGS...
  local frag=$1; shift 2
  expect 2 "$frag" -- bash "$submit" --mxsim "$MXSIM" "$@"
}
refuse "'-j' in the sweep arguments" -- -n 2 -o r.csv -- "${ok_sweep[@]}" -j 4
refuse "'-j4' in the sweep arguments" -- -n 2 -o r.csv -- "${ok_sweep[@]}" -j4
refuse "'-o' in the sweep arguments" -- -n 2 -o r.csv -- "${ok_sweep[@]}" -o other.csv
refuse "'--format' in the sweep arguments" -- -n 2 -o r.csv -- "${ok_sweep[@]}" --format md
refuse "'--shard' in the sweep arguments" -- -n 2 -o r.csv -- "${ok_sweep[@]}" --shard 0/2
refuse "unknown option '--bogus'" -- -n 2 -o r.csv -- "${ok_sweep[@]}" --bogus
refuse "nothing submitted" -- -n 2 -o r.csv -- --config cfg.ini missing.trace --group-size 32
refuse "nothing submitted" -- -n 2 -o r.csv -- "${ok_sweep[@]}" --sweep array.rows=8,abc
refuse "cannot tell the format from the extension" -- -n 2 -o results.dat -- "${ok_sweep[@]}"
expect 2 "option '-p' needs a value" -- bash "$submit" --mxsim "$MXSIM" -o r.csv -p
refuse "-n '0'" -- -n 0 -o r.csv -- "${ok_sweep[@]}"
refuse "-n '99999999999999999999'" -- -n 99999999999999999999 -o r.csv -- "${ok_sweep[@]}"
refuse "missing -o OUT" -- -n 2 -- "${ok_sweep[@]}"
refuse "holds part files of an earlier submission" -- -n 2 --job-dir job1 -o again.csv -- "${ok_sweep[@]}"
refuse "its directory '$PWD/nodir' does not exist or is not writable" -- -n 2 --job-dir job9 -o nodir/r.csv -- "${ok_sweep[@]}"
expect 2 "no mxsim CLI" -- bash "$submit" --mxsim "$t/nonexistent" -n 2 -o r.csv -- "${ok_sweep[@]}"
[ "$(wc -l < "$t/state/log")" = "$n0" ] && ok "no refused submission called sbatch" || bad "sbatch was called: $(tail -n 3 "$t/state/log")"
[ ! -e r.csv ] && [ ! -e results.dat ] && ok "no refused submission wrote an output" || bad "an output was written"
# --format reaches the merge: OUT without an extension
ids=$(bash "$submit" --mxsim "$MXSIM" -n 2 --job-dir job3 --format json -o fmt.out -- "${ok_sweep[@]}" 2>submit3.err) || bad "submit 3: $(cat submit3.err)"
"$MXSIM" sweep "${ok_sweep[@]}" -q -o local.json || bad "local json"
cmp -s local.json fmt.out && ok "--format json: merged == unsharded JSON" || bad "--format json: fmt.out differs"
[ "$fails" -eq 0 ] && echo "all passed" || { echo "$fails failed"; exit 1; }
