#!/usr/bin/env bash
# Memory footprint (issue 19): `mxsim memory`'s TOTAL rows for every bundled trace equal an
# independent count from the published model configurations, for fp32, bf16 and MXINT8 at
# G in {8, 16, 32, 64, 128}.  The shapes and formulas below are written from the papers/model
# cards (sim/doc/memory.md cites them), not from the simulator: a weight of k x n elements is
# 4kn bytes fp32, 2kn bf16, and n * ceil(k/G) * (G + 1) MXINT8 (G mantissa bytes + 1 scale byte
# per group along k, the last group zero-padded); non-GEMM parameters stay bf16 (2 bytes).
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}"
src=$MXSIM_SOURCE_DIR; fails=0
cfg=$src/workloads/configs/medium.ini
# accumulators: W (gemm weight elems), MX (their MXINT8 bytes), KV, KVMX, P (param elems)
W=0 MX=0 KV=0 KVMX=0 P=0 G=32
w() { W=$(( W + $3*$1*$2 )); MX=$(( MX + $3*$2*(($1+G-1)/G)*(G+1) )); }   # k n count
kv() { KV=$(( KV + $3*$1*$2 )); KVMX=$(( KVMX + $3*$2*(($1+G-1)/G)*(G+1) )); }
reset() { W=0 MX=0 KV=0 KVMX=0 P=0; }
# transformer: d L heads hd ffn gated T(keys) B(batch) [KVH (KV heads; default heads) [cache 0|1]]
# The KV cache holds one K (T x hd) and one V per layer, KV head and sequence; an encoder (cache 0)
# keeps none: its K and V are transient activations.
blk() { local d=$1 L=$2 H=$3 hd=$4 f=$5 gm=$6 T=$7 B=$8 KVH=${9:-$3} cache=${10:-1}
  w "$d" $(( (H + 2*KVH)*hd )) "$L"; w $(( H*hd )) "$d" "$L"; w "$d" $(( f*(1+gm) )) "$L"; w "$f" "$d" "$L"
  if [ "$cache" = 1 ]; then kv "$hd" "$T" $(( L*KVH*B )); kv "$T" "$hd" $(( L*KVH*B )); fi; }
# BERT-base, bert_config.json: hidden 768, 12 layers, 12 heads, ffn 3072, vocab 30522, 512
# positions, 2 token types; biases everywhere, LayerNorm gamma+beta.  Sequence 128.
bert() { reset; blk 768 12 12 64 3072 0 128 1 12 0
  P=$(( 30522*768 + 512*768 + 2*768 + 2*768 + 12*(3*768 + 768 + 2*768 + 3072 + 768 + 2*768) )); }
# LLaMA-2-7B, config.json: hidden 4096, 32 layers, 32 heads (= kv heads), ffn 11008 SwiGLU,
# vocab 32000, untied LM head, RMSNorm (weight only), no biases.
llama() { reset; blk 4096 32 32 128 11008 1 "$1" "$2"; w 4096 32000 1; P=$(( 32000*4096 + (2*32+1)*4096 )); }
# ViT-B/16, google/vit-base-patch16-224: hidden 768, 12 layers, 12 heads, ffn 3072, patch 16x16x3,
# 197 tokens, 1000 classes; cls token, position embedding, LayerNorms, biases.
vit() { reset; blk 768 12 12 64 3072 0 197 1 12 0; w $(( 16*16*3 )) 768 1; w 768 1000 1
  P=$(( 768 + 768 + 197*768 + 12*(2*768 + 3*768 + 768 + 2*768 + 3072 + 768) + 2*768 + 1000 )); }
# ResNet (He et al. 2016; torchvision): conv1 7x7x3 -> 64, stages of widths 64..512; BasicBlock
# (two 3x3) or Bottleneck (1x1, 3x3, 1x1 to 4w); a 1x1 downsample on each stage's first block
# where shape changes; BatchNorm gamma+beta after every conv; fc 1000 with bias.
resnet() { reset; local kind=$1; shift; local cin=64 bn=64 wd=64
  w 147 64 1
  for nb in "$@"; do
    for ((b = 0; b < nb; b++)); do
      if [ "$kind" = basic ]; then
        w $(( 9*cin )) "$wd" 1; w $(( 9*wd )) "$wd" 1; bn=$(( bn + 2*wd ))
        if [ "$cin" != "$wd" ]; then w "$cin" "$wd" 1; bn=$(( bn + wd )); fi; cin=$wd
      else
        w "$cin" "$wd" 1; w $(( 9*wd )) "$wd" 1; w "$wd" $(( 4*wd )) 1; bn=$(( bn + 6*wd ))
        if [ "$cin" != $(( 4*wd )) ]; then w "$cin" $(( 4*wd )) 1; bn=$(( bn + 4*wd )); fi; cin=$(( 4*wd ))
      fi
    done; wd=$(( wd*2 ))
  done
  w "$cin" 1000 1; P=$(( 2*bn + 1000 )); }
# Mixtral-8x7B (mistralai/Mixtral-8x7B-v0.1 config.json): hidden 4096, 32 layers, 32 heads, 8 KV
# heads, 8 experts of 14336 SwiGLU (every expert stored, 2 run per token), a router 4096 x 8, vocab
# 32000 untied, RMSNorm; decode over 4096 keys.
mixtral() { reset; local L=32
  w 4096 $(( (32 + 2*8)*128 )) $L; w 4096 4096 $L; w 4096 8 $L; w 4096 $(( 2*14336 )) $(( 8*L )); w 14336 4096 $(( 8*L ))
  kv 128 4096 $(( L*8 )); kv 4096 128 $(( L*8 )); w 4096 32000 1; P=$(( 32000*4096 + (2*L+1)*4096 )); }
# published totals: parameters of each model
declare -A pub=([bert-base]=108891648 [llama2-7b-prefill]=6738415616 [llama2-7b-decode-b1]=6738415616
  [llama2-7b-decode-b16]=6738415616 [vit-b16]=86567656 [resnet18]=11689512 [resnet50]=25557032
  [mixtral-8x7b-decode-b1]=46702792704)
got() { # csv item column
  awk -F, -v it="$2" -v col="$3" 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} $c["item"]==it{print $c[col]}' "$1"; }
eq() { if [ "$1" = "$2" ]; then :; else echo "FAIL $3: mxsim $1, formula $2"; fails=$((fails+1)); fi; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
for name in bert-base llama2-7b-prefill llama2-7b-decode-b1 llama2-7b-decode-b16 vit-b16 resnet18 resnet50 \
            mixtral-8x7b-decode-b1; do
  "$MXSIM" memory --config "$cfg" --group-size 8 --group-size 16 --group-size 32 --group-size 64 \
    --group-size 128 --format csv "$src/traces/$name.trace" > "$t/all.csv" || { echo "FAIL $name: mxsim memory"; fails=$((fails+1)); continue; }
  for G in 8 16 32 64 128; do
    case $name in
      bert-base) bert ;; llama2-7b-prefill) llama 2048 1 ;; llama2-7b-decode-b1) llama 2048 1 ;;
      llama2-7b-decode-b16) llama 2048 16 ;; vit-b16) vit ;; resnet18) resnet basic 2 2 2 2 ;;
      resnet50) resnet bottleneck 3 4 6 3 ;; mixtral-8x7b-decode-b1) mixtral ;;
    esac
    awk -F, -v g="$G" 'NR==1||$1==g' "$t/all.csv" > "$t/g.csv"
    eq "$(got "$t/g.csv" "TOTAL weights" elems)" $(( W + P )) "$name G=$G weights elems"
    eq "$(got "$t/g.csv" "TOTAL gemm weights" fp32_bytes)" $(( 4*W )) "$name G=$G gemm fp32"
    eq "$(got "$t/g.csv" "TOTAL gemm weights" bf16_bytes)" $(( 2*W )) "$name G=$G gemm bf16"
    eq "$(got "$t/g.csv" "TOTAL gemm weights" mxint8_bytes)" "$MX" "$name G=$G gemm mxint8"
    eq "$(got "$t/g.csv" "TOTAL params" bf16_bytes)" $(( 2*P )) "$name G=$G params bf16"
    eq "$(got "$t/g.csv" "TOTAL weights" fp32_bytes)" $(( 4*(W+P) )) "$name G=$G weights fp32"
    eq "$(got "$t/g.csv" "TOTAL weights" bf16_bytes)" $(( 2*(W+P) )) "$name G=$G weights bf16"
    eq "$(got "$t/g.csv" "TOTAL weights" mxint8_bytes)" $(( MX + 2*P )) "$name G=$G weights mxint8"
    eq "$(got "$t/g.csv" "TOTAL kv" bf16_bytes)" $(( 2*KV )) "$name G=$G kv bf16"
    eq "$(got "$t/g.csv" "TOTAL kv" mxint8_bytes)" "$KVMX" "$name G=$G kv mxint8"
  done
  eq $(( W + P )) "${pub[$name]}" "$name formula parameters vs published"
  echo "ok   $name: $(( W + P )) parameters; G=128 weights $(( MX + 2*P )) B MXINT8"
done
# grouped-query attention: LLaMA-2-70B (meta-llama/Llama-2-70b-hf config.json: hidden 8192, 80 layers,
# 64 heads, 8 KV heads, head_dim 128, intermediate 11008 -> 28672 SwiGLU, vocab 32000; 68,976,648,192
# parameters), decode of 4 sequences over 1024 keys: K and V are 80 x 8 x 4 tensors each, not 80 x 64 x 4
cat > "$t/l70.model" <<'M'
hidden = 8192
layers = 80
heads = 64
kv_heads = 8
head_dim = 128
ffn = 28672
ffn_gated = 1
batch = 4
mode = decode
ctx = 1024
vocab = 32000
param = tok_embeddings 262144000 1 embedding
param = norms 8192 161 norm
M
if "$MXSIM" trace gen "$t/l70.model" -o "$t/l70.trace"; then
  "$MXSIM" memory --config "$cfg" --group-size 32 --format csv "$t/l70.trace" > "$t/l70.csv"
  G=32; reset; blk 8192 80 64 128 28672 1 1024 4 8 1; w 8192 32000 1; P=$(( 262144000 + 161*8192 ))
  eq $(( W + P )) 68976648192 "llama2-70b formula parameters vs published"
  eq "$(got "$t/l70.csv" "TOTAL weights" elems)" 68976648192 "llama2-70b weights elems"
  eq "$(got "$t/l70.csv" "TOTAL kv" bf16_bytes)" $(( 2*KV )) "llama2-70b kv bf16 (8 KV heads)"
  eq "$(got "$t/l70.csv" "TOTAL kv" bf16_bytes)" $(( 2 * 2*80*8*4*1024*128 )) "llama2-70b kv bf16 by hand"
  eq "$(got "$t/l70.csv" "TOTAL kv" mxint8_bytes)" "$KVMX" "llama2-70b kv mxint8"
else echo "FAIL llama2-70b model: trace gen"; fails=$((fails+1)); fi
# version 1 traces still read (no roles: every B is an activation, no weights)
printf 'mxsim-trace 1\ngemm name=a m=4 n=8 k=64\n' > "$t/v1.trace"
eq "$("$MXSIM" memory --config "$cfg" --format csv "$t/v1.trace" | awk -F, '$2=="TOTAL weights"{print $7}')" 0 "v1 trace weights"
# a SCALE-Sim topology's filter is a weight: 3x3x16 -> 32 = 4608 elements
printf 'Layer,IFMAP Height,IFMAP Width,Filter Height,Filter Width,Channels,Num Filter,Strides,\nc,8,8,3,3,16,32,1,\n' > "$t/s.csv"
eq "$("$MXSIM" memory --config "$cfg" --format csv "$t/s.csv" | awk -F, '$2=="TOTAL weights"{print $7}')" 4608 "scalesim filter weights"
# version 2 round trip: cat writes what it read
"$MXSIM" trace cat "$src/traces/bert-base.trace" > "$t/rt.trace" && cmp -s "$t/rt.trace" "$src/traces/bert-base.trace" ||
  { echo "FAIL v2 round trip"; fails=$((fails+1)); }
# b_role is a version-2 key
printf 'mxsim-trace 1\ngemm name=a m=4 n=8 k=64 b_role=weight\n' > "$t/bad.trace"
"$MXSIM" trace check "$t/bad.trace" 2>/dev/null && { echo "FAIL b_role accepted in version 1"; fails=$((fails+1)); }
# the sweep's weight_bytes column (when the sweep is built) counts as mxsim memory does
if "$MXSIM" sweep --help >/dev/null 2>&1; then
  "$MXSIM" sweep --config "$cfg" --group-size 16,128 --quiet -o "$t/sw.csv" "$src/traces/bert-base.trace" >/dev/null 2>&1
  for G in 16 128; do
    sw=$(awk -F, -v g=$G 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} $c["op"]=="TOTAL" && $c["mx.group_size"]==g{print $c["weight_bytes"]}' "$t/sw.csv")
    mm=$("$MXSIM" memory --config "$cfg" --group-size $G --format csv "$src/traces/bert-base.trace" | awk -F, '$2=="TOTAL weights"{print $10}')
    eq "$sw" "$mm" "sweep weight_bytes G=$G"
  done
fi
# bad input exits 2 naming the field: overflowing byte counts, bad roles and param lines
bad() { printf "$1" > "$t/bad.trace"; out=$("$MXSIM" memory --config "$cfg" "$t/bad.trace" 2>&1); rc=$?
  if [ $rc = 2 ] && echo "$out" | grep -q "$2"; then :; else echo "FAIL bad input ($2): exit $rc: $out"; fails=$((fails+1)); fi; }
bad 'mxsim-trace 2\ngemm name=a m=2147483648 n=2147483648 k=2147483648 repeat=1099511627776 b_role=weight\n' "bad.trace:2: memory: 'a.B': its byte count overflows int64 (field 'repeat' x n x k)"
bad 'mxsim-trace 2\ngemm name=a m=1 n=65536 k=65536 b_role=weight b_tensors=1099511627776\n' "bad.trace:2: memory: 'a.B': its byte count overflows int64 (field 'b_tensors' x n x k)"
bad 'mxsim-trace 2\ngemm name=a m=1 n=1 k=1 b_role=foo\n' "field 'b_role'"
bad 'mxsim-trace 2\nparam name=p elems=0 why=x\n' "bad.trace:2: param 'p': field 'elems'"
bad 'mxsim-trace 2\nparam name=p elems=4\n' "field 'why': missing"
# a trace of KV operands only: no weights, so no saving to state (it printed "(...)/0 = 0 bits/elem:
# saves 100.00%")
printf 'mxsim-trace 2\ngemm name=a m=1 n=16 k=16 b_role=kv b_tensors=16\n' > "$t/kv.trace"
[ "$("$MXSIM" memory --config "$cfg" --format csv "$t/kv.trace" | awk -F, '$2 == "TOTAL weights" { print $NF }')" = "no elements" ] ||
  { echo "FAIL TOTAL weights of a KV-only trace: formula not 'no elements'"; fails=$((fails+1)); }
"$MXSIM" memory --config "$cfg" --group-size 0 "$src/traces/bert-base.trace" >/dev/null 2>&1; [ $? = 2 ] ||
  { echo "FAIL --group-size 0 accepted"; fails=$((fails+1)); }
[ "$fails" = 0 ] && echo "memory_footprint: all ok" || { echo "memory_footprint: $fails failures"; exit 1; }
