#!/usr/bin/env bash
# The bundled traces are what their model files generate: every traces/NAME.trace equals, byte for
# byte, `mxsim trace gen workloads/models/NAME.model` (a model file edited without regenerating its
# trace, or a generator change that moves a bundled trace, fails here), and every bundled trace has
# its model file.  Regenerate after a deliberate change with:
#   for m in workloads/models/*.model; do build/mxsim trace gen "$m" -o traces/$(basename "$m" .model).trace; done
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}"
src=$MXSIM_SOURCE_DIR; fails=0; n=0
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
for m in "$src"/workloads/models/*.model; do
  name=$(basename "$m" .model); n=$((n + 1))
  if ! "$MXSIM" trace gen "$m" -o "$t/$name.trace"; then
    echo "FAIL $name: trace gen"; fails=$((fails + 1))
  elif ! cmp -s "$t/$name.trace" "$src/traces/$name.trace"; then
    echo "FAIL $name: traces/$name.trace differs from what its model generates:"
    diff "$src/traces/$name.trace" "$t/$name.trace" | head -6; fails=$((fails + 1))
  else
    echo "ok   $name: traces/$name.trace = trace gen of its model"
  fi
done
for tr in "$src"/traces/*.trace; do
  name=$(basename "$tr" .trace)
  [ -f "$src/workloads/models/$name.model" ] || { echo "FAIL $name: bundled trace without workloads/models/$name.model"; fails=$((fails + 1)); }
done
[ "$n" -gt 0 ] || { echo "FAIL no model files"; fails=$((fails + 1)); }
echo "bundled traces: $n models, $fails failure(s)"
exit $((fails > 0))
