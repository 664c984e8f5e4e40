#!/usr/bin/env bash
# tests/sweep/report_text.sh - the report's text derived from the rows, re-derived here from the CSV
# and the cited constant with awk: the numerics profile, the SRAM access energy as applied at the
# bank size (0.15625 pJ/bit for 8 KiB, x sqrt(C / 8): sim/doc/energy-area.md), the points per bound
# and the range of the energy shares, the TOTAL group note naming the padded op, and the breakdown
# charts' colours (one per component, the same in the energy and the area chart).
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
"$MXSIM" sweep --help > /dev/null 2>&1 || { echo "skip: built without the sweep command"; exit 77; }
t=$MXSIM_TEST_TMP
rm -rf "$t" && mkdir -p "$t"
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }
src=$MXSIM_SOURCE_DIR
for kib in 32 8; do
  "$MXSIM" sweep -q --no-accuracy --config "$src/workloads/configs/medium.ini" "$src/traces/bert-base.trace" \
    --group-size 32,128 --array-width 8,64 --sram-bank-kib $kib -o "$t/r$kib.csv" || { bad "sweep ($kib KiB)"; continue; }
  "$MXSIM" report "$t/r$kib.csv" -o "$t/rep$kib" > /dev/null 2>&1 || { bad "report ($kib KiB)"; continue; }
  md=$t/rep$kib/README.md
  grep -qF "Numerics profile: ocp at every point" "$md" && ok "$kib KiB: profile named" || bad "$kib KiB: profile line"
  want=$(awk -v c=$kib 'BEGIN { printf "%.6g", 0.15625 * sqrt(c / 8) }')
  grep -qF "x sqrt($kib / 8) = $want pJ/bit" "$md" && ok "$kib KiB: SRAM energy as applied $want pJ/bit" \
    || bad "$kib KiB: SRAM line lacks $want pJ/bit: $(grep -F 'SRAM access energy as applied' "$md")"
  # per bound: the number of TOTAL rows and the memory-stall share range, from the CSV ("a%" where both
  # ends round alike, not "45-45%")
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
           $h["op"] == "TOTAL" { b = $h["bound"]; n[b]++; s = 100 * $h["cycles_mem_stall"] / $h["cycles_total"];
                                 if (!(b in lo) || s < lo[b]) lo[b] = s; if (!(b in hi) || s > hi[b]) hi[b] = s }
           END { for (b in n) { l = sprintf("%.0f", lo[b]); u = sprintf("%.0f", hi[b])
                                printf "%s at %d point%s\t%s%%\n", b, n[b], n[b] == 1 ? "" : "s", l == u ? l : l "-" u } }' \
    "$t/r$kib.csv" > "$t/bounds$kib"
  [ -s "$t/bounds$kib" ] || bad "$kib KiB: no TOTAL rows"
  while IFS=$'\t' read -r head share; do
    line=$(grep -F "Bounds (" "$md")
    grep -qF "$head" <<< "$line" && grep -qF "$share" <<< "$line" && ok "$kib KiB: '$head', stalls $share" \
      || bad "$kib KiB: bounds sentence lacks '$head' / '$share': $line"
  done < "$t/bounds$kib"
  share=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
                   $h["op"] == "TOTAL" { s = 100 * $h["e_dram_mj"] / $h["energy_mj"]; if (!n++ || s < lo) lo = s; if (n == 1 || s > hi) hi = s }
                   END { l = sprintf("%.0f", lo); u = sprintf("%.0f", hi); printf "DRAM %s%%", l == u ? l : l "-" u }' "$t/r$kib.csv")
  grep -qF "$share" "$md" && ok "$kib KiB: energy shares ($share)" || bad "$kib KiB: energy shares lack '$share'"
done
# a part that is 0 at every point (lane limit here: every G fills the lanes) is named, not drawn
zl=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } $h["op"] == "TOTAL" { s += $h["cycles_lane_limit"] } END { print s + 0 }' "$t/r32.csv")
if [ "$zl" = 0 ]; then
  ! grep -q ',lane limit,' "$t/rep32/cycle_breakdown.csv" && grep -qF "Zero at every point, not drawn: lane limit." "$t/rep32/cycle_breakdown.svg" \
    && ok "zero part named, not drawn" || bad "cycle breakdown: lane limit (0 everywhere) drawn or not named"
else
  bad "lane limit is $zl here: the zero-part check needs a sweep where it is 0"
fi
# G = 128: attn_scores (K = 64) is the one op padded, named in the TOTAL note
note=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } $h["op"] == "TOTAL" && $h["mx.group_size"] == 128 { print; exit }' \
  "$t/r32.csv")
grep -qF "1 of 8 ops padded to whole groups (K, or n, not a multiple of G): attn_scores (k=64 to 128)" <<< "$note" \
  && ok "G=128: the TOTAL note names attn_scores" || bad "G=128 TOTAL note: $note"
# a component keeps one colour in the energy and the area breakdown; within a chart the parts' colours
# differ, and every bar segment is a legend colour
legend() { awk '/width="14" height="12" fill=/ { match($0, /fill="#[0-9A-Fa-f]+"/); c = substr($0, RSTART + 6, 7); next }
                c != "" && /<text/ { sub(/.*">/, ""); sub(/<\/text>.*/, ""); print $0 "\t" c; c = "" }' "$1"; }
legend "$t/rep32/energy_breakdown.svg" > "$t/leg_e"
legend "$t/rep32/area_breakdown.svg" > "$t/leg_a"
for f in leg_e leg_a; do
  [ "$(wc -l < "$t/$f")" -ge 5 ] || bad "$f: fewer than 5 legend entries"
  [ "$(cut -f2 "$t/$f" | sort | uniq -d)" = "" ] && ok "$f: one colour per part" || bad "$f: a colour shared by two parts: $(cat "$t/$f")"
done
diffc=$(awk -F'\t' 'NR == FNR { c[$1] = $2; next } ($1 in c) && c[$1] != $2 { print $1 ": " c[$1] " / " $2 }' "$t/leg_e" "$t/leg_a")
common=$(awk -F'\t' 'NR == FNR { c[$1] = 1; next } ($1 in c) && $1 != "other"' "$t/leg_e" "$t/leg_a" | wc -l)
[ -z "$diffc" ] && [ "$common" -ge 5 ] && ok "energy / area breakdowns: $common shared parts, the same colours" \
  || bad "energy / area colours differ ($common shared): $diffc"
stray=$(grep -o '<rect x="[0-9.]*" y="[0-9.]*" width="[0-9.]*" height="[0-9.]*" fill="#[0-9A-Fa-f]*"' "$t/rep32/energy_breakdown.svg" \
  | sed 's/.*fill="//; s/"$//' | sort -u | grep -vxF -f <(cut -f2 "$t/leg_e") | tr '\n' ' ')
[ -z "$stray" ] && ok "energy breakdown: every segment colour is in the legend" || bad "segment colours not in the legend: $stray"
[ "$fails" -eq 0 ] && echo "all report text checks ok" || echo "$fails failures"
exit $(( fails > 0 ))
