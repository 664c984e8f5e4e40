#!/usr/bin/env bash
# Bundled configurations are balanced designs (issue 14 item 4): on every bundled trace, each
# bundled config leaves < 50% of its cycles on exponent-unit stalls; and the table of their
# utilisation and bound in sim/doc/architecture.md section 10.2 is the current one.
# `tests/timing/bundled_balance.sh --print` prints that table (paste it into the doc).
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}"
src=$MXSIM_SOURCE_DIR; fails=0
table=$(
  echo "| config | trace | cycles | util_compute_pct | bound | compute | fill/drain | exp stall | lane limit | DRAM bw | DRAM latency |"
  echo "|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|"
  for c in small medium large; do for tr in "$src"/traces/*.trace; do
    "$MXSIM" run --config "$src/workloads/configs/$c.ini" --format csv "$tr" | awk -F, -v c="$c" -v t="$(basename "$tr" .trace)" '
      NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
      $col["op"] == "TOTAL" {
        T = $col["cycles_total"]
        printf "| %s | %s | %s | %.2f | %s", c, t, T, $col["util_compute_pct"], $col["bound"]
        n = split("cycles_compute cycles_fill_drain cycles_exp_stall cycles_lane_limit cycles_dram_bw cycles_dram_latency", k, " ")
        for (i = 1; i <= n; i++) printf " | %.1f%%", 100 * $col[k[i]] / T
        printf " |\n"
      }'
  done; done)
if [ "${1:-}" = "--print" ]; then echo "$table"; exit 0; fi
# exp stall column (8th cell) below 50% on every row
bad=$(echo "$table" | tail -n +3 | awk -F'|' '{ v = $9; gsub(/[ %]/, "", v); if (v + 0 >= 50) print }')
[ -z "$bad" ] && echo "ok   no bundled config has >= 50% exponent stalls" || { echo "FAIL: exponent-stall-bound bundled configs:"; echo "$bad"; fails=$((fails+1)); }
ntr=$(ls "$src"/traces/*.trace | wc -l)
[ "$(echo "$table" | wc -l)" -eq $(( 3 * ntr + 2 )) ] || { echo "FAIL: expected $(( 3 * ntr )) config x trace rows"; fails=$((fails+1)); }
# the whole table, line for line (grep -F with a multi-line pattern matched any one line: the header)
doc=$(grep -A $(( 3 * ntr + 1 )) -F -- "$(echo "$table" | head -1)" "$src/sim/doc/architecture.md")
[ "$doc" = "$table" ] && echo "ok   architecture.md carries the current bundled-config table" \
  || { echo "FAIL: architecture.md section 10.2 table is stale: paste 'tests/timing/bundled_balance.sh --print'"; fails=$((fails+1)); }
echo "$fails failures"
[ "$fails" -eq 0 ]
