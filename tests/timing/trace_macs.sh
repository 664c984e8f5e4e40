#!/usr/bin/env bash
# Bundled traces against their published models (issue 14, item 3): the useful MACs of every
# trace (sum of m*n*k*repeat over GEMMs) equal hand-derived formulas from the published
# hyper-parameters, and lie within 1% of the published totals (sim/doc/architecture.md section 7).
# The engine's n_macs (useful, not padded) must equal the same sum.
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}"
src=$MXSIM_SOURCE_DIR; fails=0
trace_macs() { awk '$1=="gemm"{m=n=k=0;r=1;for(i=2;i<=NF;i++){split($i,a,"=");if(a[1]=="m")m=a[2];if(a[1]=="n")n=a[2];if(a[1]=="k")k=a[2];if(a[1]=="repeat")r=a[2]}s+=m*n*k*r}END{printf "%.0f\n",s}' "$1"; }
engine_macs() { "$MXSIM" run --config "$src/workloads/configs/small.ini" --format csv "$1" |
  awk -F, 'NR==1{for(i=1;i<=NF;i++)if($i=="n_macs")c=i} $1=="TOTAL"{print $c}'; }
check() { # name want published_or_0
  local f=$src/traces/$1.trace got eng; got=$(trace_macs "$f"); eng=$(engine_macs "$f")
  if [ "$got" != "$2" ]; then echo "FAIL $1: trace MACs $got, formula $2"; fails=$((fails+1)); else echo "ok   $1: $got MACs = formula"; fi
  [ "$eng" = "$got" ] || { echo "FAIL $1: engine n_macs $eng != trace $got"; fails=$((fails+1)); }
  if [ "$3" != 0 ]; then
    awk -v g="$got" -v p="$3" 'BEGIN{d=(g-p)/p; if(d<0)d=-d; exit !(d<=0.01)}' &&
      echo "ok   $1: within 1% of published $3" || { echo "FAIL $1: $got vs published $3 (>1%)"; fails=$((fails+1)); }
  fi
}
# Transformer block, d = hidden, f = ffn, S query tokens, T keys: QKV + O = 4 S d^2 (kv heads =
# heads), FFN = 2 S d f (3 S d f gated), QK^T and PV = 2 S T d.
blk() { local S=$1 T=$2 d=$3 f=$4 gm=$5; echo $(( 4*S*d*d + gm*S*d*f + 2*S*T*d )); }
# BERT-base (bert_config.json: 12 layers, 768, 3072), sequence 128.  Published: 110M parameters.
check bert-base $(( 12 * $(blk 128 128 768 3072 2) )) 0
# LLaMA-2-7B (config.json: 32 layers, 4096, 11008 SwiGLU, vocab 32000).  The GEMM weights plus
# embedding, 65 RMSNorm vectors and LM head are the published 6,738,415,616 parameters:
L=32 d=4096 f=11008 V=32000
P=$(( L*(4*d*d + 3*d*f) + 2*V*d + (2*L+1)*d ))
[ "$P" = 6738415616 ] && echo "ok   llama2-7b parameters $P" || { echo "FAIL llama2-7b parameters $P"; fails=$((fails+1)); }
# prefill 2048 tokens (full S x S attention), LM head on the last token
check llama2-7b-prefill $(( L * $(blk 2048 2048 $d $f 3) + d*V )) 0
# decode one token per sequence over a 2048-token context: per token, the non-embedding weights
# (published 6,738,415,616 - embedding V*d - norms (2L+1)*d) plus QK^T and PV over the context
tok=$(( 6738415616 - V*d - (2*L+1)*d + 2*L*2048*d ))
check llama2-7b-decode-b1 $tok 0
check llama2-7b-decode-b16 $(( 16 * tok )) 0
# Mixtral-8x7B (config.json: 32 layers, 4096, 8 KV heads of 32 query heads, 8 experts of 14336
# SwiGLU, 2 per token, vocab 32000; published 46,702,792,704 parameters), decode of one token over
# 4096 keys: per token the published parameters less the embedding, the norms and the 6 idle
# experts of every layer (3 d f each), plus QK^T and PV over the context for all 32 query heads.
check mixtral-8x7b-decode-b1 $(( 46702792704 - V*d - (2*L+1)*d - L*6*3*d*14336 + 2*L*4096*d )) 0
# ViT-B/16 (config.json: 12 layers, 768, 3072, patch 16): 197 tokens, patch embedding 196 x 768
# x (16*16*3), head 768 -> 1000 on [CLS].  Published: torchvision vit_b_16, 17.56 GFLOPS (MACs).
check vit-b16 $(( 196*768*768 + 12 * $(blk 197 197 768 3072 2) + 768*1000 )) 17560000000
# ResNets (He et al. 2016 Table 1; torchvision v1.5 puts the stride on the 3x3): conv1 7x7x3 ->
# 64 at 112^2, stages at s^2 outputs, fc 512 (2048) -> 1000.  Published: torchvision resnet18 1.81
# and resnet50 4.09 GFLOPS (MACs of conv and fc).
conv1=$(( 112*112*64*7*7*3 ))
# BasicBlock stage: first 3x3 cin -> c (stride), three 3x3 c -> c, 1x1 down cin -> c if cin != c
basic() { local s=$1 c=$2 cin=$3; echo $(( s*s*c*9*cin + 3*s*s*c*9*c + (cin != c ? s*s*c*cin : 0) )); }
check resnet18 $(( conv1 + $(basic 56 64 64) + $(basic 28 128 64) + $(basic 14 256 128) + $(basic 7 512 256) + 512*1000 )) 1810000000
# Bottleneck stage of nb blocks, width w, output 4w: block 0 reads cin at si^2 (1x1), 3x3 with the
# stride, 1x1 up, 1x1 down cin -> 4w; later blocks 1x1 4w -> w, 3x3, 1x1 w -> 4w (17 s^2 w^2)
bott() { local s=$1 si=$2 w=$3 cin=$4 nb=$5
  echo $(( si*si*w*cin + s*s*w*9*w + s*s*4*w*w + s*s*4*w*cin + (nb-1)*17*s*s*w*w )); }
check resnet50 $(( conv1 + $(bott 56 56 64 64 3) + $(bott 28 56 128 256 4) + $(bott 14 28 256 512 6) + $(bott 7 14 512 1024 3) + 2048*1000 )) 4090000000
# conv1 keeps K = 7*7*3 = 147 (not padded in the trace): 112*112 x 64 x 147
grep -q "name=conv1 m=12544 n=64 k=147" "$src/traces/resnet50.trace" && echo "ok   conv1 k=147" ||
  { echo "FAIL conv1 not k=147"; fails=$((fails+1)); }
# Grouped-query attention: LLaMA-2-70B (Llama-2-70b-hf config.json: 80 layers, 8192, 64 heads, 8 KV
# heads, 28672 SwiGLU, vocab 32000; 68,976,648,192 parameters), decode of 4 sequences over 1024 keys.
# Per token: the non-embedding weights once, QK^T and PV over the context for all 64 query heads
# (GQA shares K and V, not the products).
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
printf 'hidden = 8192\nlayers = 80\nheads = 64\nkv_heads = 8\nhead_dim = 128\nffn = 28672\nffn_gated = 1\nbatch = 4\nmode = decode\nctx = 1024\nvocab = 32000\n' > "$t/l70.model"
if "$MXSIM" trace gen "$t/l70.model" -o "$t/l70.trace"; then
  want=$(( 4 * (68976648192 - 32000*8192 - 161*8192 + 2*80*1024*64*128) ))
  got=$(trace_macs "$t/l70.trace"); eng=$(engine_macs "$t/l70.trace")
  [ "$got" = "$want" ] && echo "ok   llama2-70b GQA decode: $got MACs = formula" || { echo "FAIL llama2-70b GQA: trace $got, formula $want"; fails=$((fails+1)); }
  [ "$eng" = "$want" ] || { echo "FAIL llama2-70b GQA: engine n_macs $eng != $want"; fails=$((fails+1)); }
  # one attention GEMM per (layer, KV head, sequence), its M the 8 query heads of the group
  grep -q "name=attn_scores m=8 n=1024 k=128 repeat=2560 b_role=kv" "$t/l70.trace" && echo "ok   GQA attention stacks the group's heads" ||
    { echo "FAIL GQA attention op: $(grep attn_scores "$t/l70.trace")"; fails=$((fails+1)); }
else echo "FAIL llama2-70b: trace gen"; fails=$((fails+1)); fi
[ "$fails" = 0 ] && echo "all ok" || { echo "$fails failures"; exit 1; }
