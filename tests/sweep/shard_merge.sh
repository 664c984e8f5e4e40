#!/usr/bin/env bash
# Sharded sweeps: `sweep --shard I/N` + `merge` give the unsharded sweep's bytes for N in
# {1, 2, 3, 7} (N = 7 > some slices' size, 7 does not divide the 12 points) in every format
# (csv + sidecar, json, md, table), whatever the order of the parts and the -j of each shard;
# the slices are balanced (sizes differ by at most one) and cover the points in order; merge
# refuses duplicate, missing, foreign and truncated parts and bad --shard values, naming the file;
# --shard takes plain decimals only and -o PART must be NAME.part; merge --help lists its options.
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
t=$MXSIM_TEST_TMP; rm -rf "$t" && mkdir -p "$t"
src=$MXSIM_SOURCE_DIR
. "$src/tests/lib/expect.sh"
args=(sweep --config "$src/workloads/configs/small.ini" "$src/traces/bert-base.trace" --group-size 16,32
      --array-width 8,32 --sweep numerics.profile=ocp,mase,microxcaling --sample-rows 8 --sample-cols 8)
for f in csv json md txt; do
  "$MXSIM" "${args[@]}" -q -j2 -o "$t/full.$f" || bad "unsharded sweep ($f)"
done
for n in 1 2 3 7; do
  sizes=()
  for ((i = 0; i < n; i++)); do
    msg=$("$MXSIM" "${args[@]}" -j$((1 + i % 2)) --shard "$i/$n" -o "$t/part$n-$i.part" 2>&1) || bad "shard $i/$n: $msg"
    # "points A..B of 12": slice i of n is [floor(i*12/n), floor((i+1)*12/n))
    want="points $((i * 12 / n))..$(((i + 1) * 12 / n - 1)) of 12"
    grep -qF "$want" <<<"$msg" && sizes+=($(((i + 1) * 12 / n - i * 12 / n))) || bad "shard $i/$n: expected '$want', got: $msg"
  done
  min=$(printf '%s\n' "${sizes[@]}" | sort -n | head -1); max=$(printf '%s\n' "${sizes[@]}" | sort -n | tail -1)
  [ $((max - min)) -le 1 ] && ok "N=$n slices balanced ($min..$max points)" || bad "N=$n slices unbalanced"
  parts=(); for ((i = n - 1; i >= 0; i--)); do parts+=("$t/part$n-$i.part"); done # reverse order
  for f in csv json md txt; do
    "$MXSIM" merge -q "${parts[@]}" -o "$t/merged$n.$f" || bad "merge N=$n ($f)"
    cmp -s "$t/full.$f" "$t/merged$n.$f" && ok "N=$n merged == unsharded ($f)" || bad "N=$n merged differs ($f)"
  done
  cmp -s "$t/full.meta.json" "$t/merged$n.meta.json" && ok "N=$n sidecar identical" || bad "N=$n sidecar differs"
done
# more shards than points: empty slices are valid parts
one=(sweep --config "$src/workloads/configs/small.ini" "$src/traces/bert-base.trace" --group-size 16,32 --no-accuracy)
"$MXSIM" "${one[@]}" -q -o "$t/one.json" || bad "2-point sweep"
for i in 0 1 2 3 4; do "$MXSIM" "${one[@]}" -q --shard "$i/5" -o "$t/one$i.part" || bad "2-point shard $i/5"; done
"$MXSIM" merge -q "$t"/one{4,2,0,3,1}.part -o "$t/one-merged.json" && cmp -s "$t/one.json" "$t/one-merged.json" \
  && ok "N=5 > 2 points (empty slices) == unsharded" || bad "N=5 > 2 points differs"
expect 2 "are both shard 0/3" -- "$MXSIM" merge "$t/part3-0.part" "$t/part3-0.part" "$t/part3-1.part" -o "$t/x.csv"
expect 2 "1 of 3 shards missing (index 1)" -- "$MXSIM" merge "$t/part3-0.part" "$t/part3-2.part" -o "$t/x.csv"
expect 2 "different shard counts" -- "$MXSIM" merge "$t/part3-0.part" "$t/part2-1.part" -o "$t/x.csv"
# a part whose last op's group size is not the one its trace and point give (CRC redone, so only
# the record check can see it): 2^63-1 overflowed a signed sum in the output (UBSan), 7 was merged
"$MXSIM" "${one[@]}" -q --shard 0/1 -o "$t/all.part" || bad "2-point sweep as one shard"
python3 - "$t/all.part" "$t/badgroup.part" <<'PY' || bad "could not write badgroup.part"
import struct, sys, zlib
body = bytearray(open(sys.argv[1], "rb").read()[:-4])
struct.pack_into("<q", body, len(body) - 8, 7)  # op_group of the last op of the last point
open(sys.argv[2], "wb").write(bytes(body) + struct.pack("<I", zlib.crc32(bytes(body))))
PY
expect 2 "group 7, expected 32)" -- "$MXSIM" merge "$t/badgroup.part" -o "$t/x.csv"
[ ! -e "$t/x.csv" ] && ok "the refused merge wrote nothing" || bad "refused merge wrote $t/x.csv"
"$MXSIM" "${args[@]}" --seed 7 -q --shard 1/3 -o "$t/foreign.part" || bad "foreign shard"
expect 2 "foreign.part: not a part of the same sweep as $t/part3-0.part: --seed differs:" -- "$MXSIM" merge "$t/part3-0.part" "$t/foreign.part" "$t/part3-2.part" -o "$t/x.csv"
expect 2 ", 7 here" -- "$MXSIM" merge "$t/part3-0.part" "$t/foreign.part" "$t/part3-2.part" -o "$t/x.csv"
# a refusal names the first item that differs, with both values (the item as the user gave it)
"$MXSIM" "${args[@]}" --set dram.bw_bytes_per_cycle=7 -q --shard 1/3 -o "$t/base.part" || bad "base shard"
expect 2 "base.part: not a part of the same sweep as $t/part3-0.part: the base configuration's dram.bw_bytes_per_cycle differs: 8 in $t/part3-0.part, 7 here" \
  -- "$MXSIM" merge "$t/part3-0.part" "$t/base.part" "$t/part3-2.part" -o "$t/x.csv"
"$MXSIM" "${args[@]}" --strict-group -q --shard 1/3 -o "$t/strict.part" || bad "strict shard"
expect 2 "strict.part: not a part of the same sweep as $t/part3-0.part: --strict-group differs: not given in $t/part3-0.part, given here" \
  -- "$MXSIM" merge "$t/part3-0.part" "$t/strict.part" -o "$t/x.csv"
sed '0,/ m=128 /s/ m=128 / m=129 /' "$src/traces/bert-base.trace" > "$t/edited.trace"
cp "$src/traces/bert-base.trace" "$t/orig.trace"
targs=(sweep --config "$src/workloads/configs/small.ini" --group-size 16,32 --no-accuracy -q)
"$MXSIM" "${targs[@]}" "$t/orig.trace" --shard 0/2 -o "$t/orig.part" && cp "$t/edited.trace" "$t/orig.trace" &&
  "$MXSIM" "${targs[@]}" "$t/orig.trace" --shard 1/2 -o "$t/edited.part" || bad "edited-trace shards"
expect 2 "edited.part: not a part of the same sweep as $t/orig.part: op 1 ('qkv_proj') field m differs: 128 in $t/orig.part, 129 here" \
  -- "$MXSIM" merge "$t/orig.part" "$t/edited.part" -o "$t/x.csv"
"$MXSIM" sweep --config "$src/workloads/configs/small.ini" "$src/traces/bert-base.trace" --group-size 16,32 \
  --array-width 8,64 --sweep numerics.profile=ocp,mase,microxcaling --sample-rows 8 --sample-cols 8 -q --shard 1/3 -o "$t/axes.part" || bad "axes shard"
expect 2 "axes.part: not a part of the same sweep as $t/part3-0.part: value 2 of axis array.size differs: '32' in $t/part3-0.part, '64' here" \
  -- "$MXSIM" merge "$t/part3-0.part" "$t/axes.part" "$t/part3-2.part" -o "$t/x.csv"
head -c 100 "$t/part3-1.part" > "$t/trunc.part"
expect 2 "trunc.part: corrupt part file (CRC-32 mismatch" -- "$MXSIM" merge "$t/part3-0.part" "$t/trunc.part" "$t/part3-2.part" -o "$t/x.csv"
expect 2 "not an mxsim sweep part file" -- "$MXSIM" merge "$t/full.csv" -o "$t/x.csv"
[ ! -e "$t/x.csv" ] && ok "a refused merge writes nothing" || bad "a refused merge left x.csv"
expect 2 "expected I/N with 0 <= I < N" -- "$MXSIM" "${args[@]}" --shard 3/3 -o "$t/y.part"
expect 2 "expected I/N with 0 <= I < N" -- "$MXSIM" "${args[@]}" --shard 1/0 -o "$t/y.part"
expect 2 "give -o PART" -- "$MXSIM" "${args[@]}" --shard 0/2
expect 2 "missing -o OUT" -- "$MXSIM" merge "$t/part1-0.part"
# --shard is two plain decimal numbers: no sign, space or leading zero; out of range is reported as given
for s in ' 1/5' '+1/5' '-0/5' '1/ 5' '01/5' '1/05' '1/5 ' '1//5' '/5' '1/' '0x1/5' '1/5/7'; do
  expect 2 "--shard '$s': expected I/N, two decimal numbers with 0 <= I < N <= 65536" -- "$MXSIM" "${args[@]}" --shard "$s" -o "$t/y.part"
done
expect 2 "--shard '0/99999999999999999999': expected I/N with 0 <= I < N <= 65536" -- "$MXSIM" "${args[@]}" --shard 0/99999999999999999999 -o "$t/y.part"
expect 2 "--shard '99999999999999999999/5': expected I/N with 0 <= I < N <= 65536" -- "$MXSIM" "${args[@]}" --shard 99999999999999999999/5 -o "$t/y.part"
expect 2 "--shard '0/65537': expected I/N with 0 <= I < N <= 65536" -- "$MXSIM" "${args[@]}" --shard 0/65537 -o "$t/y.part"
# a part is named NAME.part: a binary part under a .csv name would pass for the merged output
for o in d.csv d.json d.part.csv .part d; do
  expect 2 "-o '$t/$o': --shard writes a binary part file: name it NAME.part" -- "$MXSIM" "${args[@]}" --shard 0/5 -o "$t/$o"
  [ ! -e "$t/$o" ] || bad "refused --shard -o $o left a file"
done
expect 2 "name it NAME.part" -- "$MXSIM" "${args[@]}" --shard 0/5 -o -
"$MXSIM" "${one[@]}" -q --shard 0/65536 -o "$t/big.part" && ok "--shard 0/65536 (the largest N) accepted" || bad "--shard 0/65536 refused"
# merge --help names every option merge.sbatch and submit-sweep.sh use
help=$("$MXSIM" merge --help)
for o in "-q, --quiet" "-o, --out OUT" "--format F" "--check"; do
  grep -qF -- "$o" <<<"$help" && ok "merge --help lists $o" || bad "merge --help lacks $o"
done
expect 2 "option '-o' given twice" -- "$MXSIM" merge "$t/part1-0.part" -o "$t/x.csv" -o "$t/y.csv"
expect 0 "" -- "$MXSIM" merge --check -o "$t/x.csv"
expect 2 "cannot tell the format from the extension" -- "$MXSIM" merge --check -o "$t/x.dat"
expect 0 "" -- "$MXSIM" merge --check -o "$t/x.dat" --format csv
expect 2 "--check checks -o and --format only" -- "$MXSIM" merge --check "$t/part1-0.part" -o "$t/x.csv"
[ ! -e "$t/x.csv" ] && [ ! -e "$t/x.dat" ] && ok "merge --check writes nothing" || bad "merge --check wrote a file"
[ "$fails" -eq 0 ] && echo "all passed" || { echo "$fails failed"; exit 1; }
