#!/usr/bin/env bash
# compare-gpu on the committed H200 measurements: the model must keep MAPE <= 10% on the held-out
# half and over all scored points (>= 20 of them); the outputs exist and the SVG is well formed;
# the committed report matches a fresh run; trace mode runs; bad input exits 2 naming the field.
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
t=$MXSIM_TEST_TMP; rm -rf "$t" && mkdir -p "$t"
src=$MXSIM_SOURCE_DIR; fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL: $*"; fails=$((fails+1)); }
bench=reports/gpu/NVIDIA-H200-2026-11-26/bench.csv
cd "$src" || exit 1

out=$("$MXSIM" compare-gpu --card h200 --measured $bench --max-mape 10 -o "$t/cmp" 2>&1); rc=$?
[ $rc -eq 0 ] && ok "MAPE within 10%" || { bad "compare-gpu --max-mape 10 exit $rc"; echo "$out" | tail -4; }
echo "$out" | tail -3
n=$(echo "$out" | sed -n 's/^h200: held-out \([0-9]*\) points.*/\1/p')
[ "${n:-0}" -ge 20 ] && ok "held-out points: $n" || bad "held-out points: ${n:-none} < 20"
for f in comparison.csv comparison.md scatter.svg; do [ -s "$t/cmp/$f" ] && ok "$f written" || bad "$f missing"; done
if command -v xmllint >/dev/null; then xmllint --noout "$t/cmp/scatter.svg" && ok "svg well formed" || bad "svg malformed"; fi
grep -q '<line' "$t/cmp/scatter.svg" && grep -q '</svg>' "$t/cmp/scatter.svg" && ok "svg has axes" || bad "svg lacks lines"
for f in comparison.csv comparison.md scatter.svg; do
  cmp -s "$t/cmp/$f" reports/gpu/compare-h200/$f && ok "committed $f is current" || bad "reports/gpu/compare-h200/$f differs from a fresh run"
done
# the other way round: train on the held-out half, test on the training half
out=$("$MXSIM" compare-gpu --card h200 --measured $bench --calibrate --swap-split --quiet --max-mape 10 -o "$t/swap" 2>&1) \
  && ok "swapped halves within 10%" || { bad "swapped halves"; echo "$out"; }
# comparison.md's Reproduce line is the command that gives its numbers (the options that change them,
# a card given by path as that path), and it claims a fit only when this run fitted (audit F7)
grep -qF "Reproduce: \`mxsim compare-gpu --card h200 --measured $bench --calibrate --swap-split -o DIR\`" "$t/swap/comparison.md" \
  && grep -q "fitted by this run on the training half only" "$t/swap/comparison.md" && ok "swap report: Reproduce line and claim" \
  || bad "swap report: $(grep -o 'Reproduce: [^.]*' "$t/swap/comparison.md")"
held=$(sed -n 's/^| held-out | \([0-9]*\) | \([0-9.]*%\) .*/\1 \2/p' "$t/swap/comparison.md")
"$MXSIM" compare-gpu --card h200 --measured $bench --calibrate --swap-split --quiet | grep -q "held-out ${held% *} points, MAPE ${held#* }" \
  && ok "the Reproduce command gives held-out $held" || bad "the Reproduce command does not give held-out '$held'"
grep -q "as read from the card file; not refitted by this run" "$t/cmp/comparison.md" && ok "no fit claimed without --calibrate" \
  || bad "comparison.md claims a fit without --calibrate"
cp workloads/gpus/h200.ini "$t/mycard.ini"
"$MXSIM" compare-gpu --card "$t/mycard.ini" --measured $bench --quiet -o "$t/my" > /dev/null 2>&1 \
  && grep -qF "Reproduce: \`mxsim compare-gpu --card $t/mycard.ini --measured" "$t/my/comparison.md" \
  && ok "a card given by path is reproduced by that path" || bad "card by path: $(grep -o 'Reproduce: [^.]*' "$t/my/comparison.md")"
# a tighter limit must fail (the check is live)
"$MXSIM" compare-gpu --card h200 --measured $bench --quiet --max-mape 1 >/dev/null 2>&1; [ $? -eq 1 ] && ok "--max-mape 1 fails" || bad "--max-mape 1 did not fail"
# trace mode
if "$MXSIM" help run >/dev/null 2>&1; then
  "$MXSIM" compare-gpu --card h200 --trace traces/llama2-7b-decode-b16.trace --config workloads/configs/large.ini \
     --measured $bench -o "$t/tr" > "$t/tr.out" 2>&1 && grep -q '^TOTAL' "$t/tr.out" && ok "trace mode" || { bad "trace mode"; head -5 "$t/tr.out"; }
  # K not a multiple of G (ResNet conv1 K = 147, ViT attention over 197 keys): both sides pad
  for tr in resnet50 vit-b16; do
    "$MXSIM" compare-gpu --card h200 --trace traces/$tr.trace --config workloads/configs/medium.ini \
       -o "$t/$tr" > "$t/$tr.out" 2>&1 && grep -q '^TOTAL' "$t/$tr.out" && ok "trace mode $tr" || { bad "trace mode $tr"; tail -2 "$t/$tr.out"; }
  done
fi
# bad input
printf 'name = x\nsm.count = 0\n' > "$t/bad.ini"
o=$("$MXSIM" compare-gpu --card "$t/bad.ini" --measured $bench 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q 'sm.count' <<<"$o" && ok "bad card names the field" || bad "bad card: exit $rc: $o"
printf 'card,shape,M,N,K,G,method,median_us,rate,unit,ratio\nX,s,1,2,3,0,warp-drive,1,1,u,1\n' > "$t/bad.csv"
o=$("$MXSIM" compare-gpu --card h200 --measured "$t/bad.csv" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q 'method' <<<"$o" && ok "bad bench names the field" || bad "bad bench: exit $rc: $o"
[ $fails -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "all ok"
