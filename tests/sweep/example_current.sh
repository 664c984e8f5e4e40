#!/usr/bin/env bash
# tests/sweep/example_current.sh - the committed reports/example/ is what the main job writes now:
# runs workloads/run-sweep.sh (the README's main job) into a temporary directory and compares every
# file with the committed copy byte for byte (the report names its input directory: that path is
# read as reports/example), and no file is missing or extra.  A change to the model, the report or
# the sweep that alters the example fails here until reports/example/ is regenerated
# (workloads/run-sweep.sh build).
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
t=$MXSIM_TEST_TMP
rm -rf "$t" && mkdir -p "$t"
unset MXSIM_SWEEP_ARGS # the main job as the README runs it
# run-sweep.sh names its output directory relative to the repository when it lies inside it (an
# in-tree build's test directory): both spellings read as reports/example
src=$(cd "$MXSIM_SOURCE_DIR" && pwd)
t=$(cd "$t" && pwd)
rel=${t#"$src"/}
norm() { sed -e "s#$t/ex#reports/example#g" -e "s#$rel/ex#reports/example#g" "$1"; }
ex=$MXSIM_SOURCE_DIR/reports/example
if ! bash "$MXSIM_SOURCE_DIR/workloads/run-sweep.sh" "$(dirname "$MXSIM")" "$t/ex" > "$t/log" 2>&1; then
  echo "FAIL: workloads/run-sweep.sh"; tail -5 "$t/log"; exit 1
fi
fails=0
for f in "$ex"/* "$t"/ex/*; do
  b=$(basename "$f")
  if [ ! -f "$ex/$b" ] || [ ! -f "$t/ex/$b" ]; then
    echo "FAIL $b: in only one of reports/example/ and the fresh run"; fails=$((fails + 1)); continue
  fi
  [ "$f" = "$ex/$b" ] || continue
  if norm "$t/ex/$b" | cmp -s - "$ex/$b"; then echo "ok   $b"
  else
    echo "FAIL $b differs from a fresh run (regenerate: workloads/run-sweep.sh build)"
    norm "$t/ex/$b" | diff "$ex/$b" - | head -6
    fails=$((fails + 1))
  fi
done
[ "$fails" -eq 0 ] && echo "reports/example/ is current" || echo "$fails failures"
exit $(( fails > 0 ))
