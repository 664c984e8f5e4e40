#!/usr/bin/env bash
# Model files of published models as a user writes them (traces/FORMAT.md), against numbers that do
# not come from mxsim: each model's PUBLISHED parameter count (the Hugging Face repositories'
# safetensors totals: meta-llama/Meta-Llama-3-8B 8,030,261,248; tiiuae/falcon-7b 6,921,720,704;
# google/gemma-7b 8,537,680,896; openai-community/gpt2 124,439,808; mistralai/Mistral-7B-v0.1
# 7,241,732,096; Qwen/Qwen2-7B 7,615,616,512)
# and hand formulas from their config.json values.  Covered: grouped-query (Llama-3, Qwen2) and
# multi-query attention (Falcon: 71 query heads on 1 KV head), head_dim independent of hidden
# (Gemma: 16 x 256 over 3072), tied embeddings (Falcon, Gemma, GPT-2: the LM head is the GEMM, the
# embedding is not a param), a non-gated FFN with biases (GPT-2), sliding-window attention (Mistral:
# 8192 tokens of context, 4096 attended and cached), prefill and decode.  Checked:
#   mxsim memory: TOTAL weights elems = the published count; TOTAL kv bf16 bytes = 2 (K, V) x 2
#     bytes x layers x kv_heads x head_dim x batch x keys (prefill with kv_cache = 1: seq keys)
#   mxsim run:    n_macs = tokens x (published - params - V d) + B V d (LM head on each sequence's
#     last token) + 2 L B S_q T heads head_dim (QK^T and PV over every query head)
# (session 14: an audit wrote seven published models this way; every shape and total matched.)
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
t=$MXSIM_TEST_TMP; rm -rf "$t" && mkdir -p "$t"
cfg=$MXSIM_SOURCE_DIR/workloads/configs/medium.ini
fails=0
run_and_memory() { # NAME...: NAME.run.csv and NAME.mem.csv of each generated trace
  for m; do
    [ -f "$t/$m.trace" ] || continue
    "$MXSIM" run --config "$cfg" --format csv "$t/$m.trace" > "$t/$m.run.csv" 2> /dev/null || { echo "FAIL $m: run"; fails=$((fails+1)); }
    "$MXSIM" memory --config "$cfg" --format csv "$t/$m.trace" > "$t/$m.mem.csv" 2> /dev/null || { echo "FAIL $m: memory"; fails=$((fails+1)); }
  done
}
model() { # NAME, then the file's lines on stdin
  cat > "$t/$1.model"
  "$MXSIM" trace gen "$t/$1.model" -o "$t/$1.trace" > /dev/null || { echo "FAIL $1: trace gen"; fails=$((fails+1)); }
}
model llama3-8b-decode <<'EOF'
name = llama3-8b-decode   # config.json: 4096 hidden, 32 layers, 32 heads, 8 KV heads, 14336 SwiGLU, vocab 128256
hidden = 4096
layers = 32
heads = 32
kv_heads = 8
head_dim = 128
ffn = 14336
ffn_gated = 1
mode = decode
ctx = 8192
batch = 8
vocab = 128256
param = tok_embeddings 525336576 1 embedding
param = attn_norm 4096 32 norm
param = ffn_norm 4096 32 norm
param = final_norm 4096 1 norm
EOF
model falcon-7b-prefill <<'EOF'
name = falcon-7b-prefill  # config.json: 4544 hidden, 32 layers, 71 heads, multi-query (1 KV head), 4 x 4544 FFN, vocab 65024, tied
hidden = 4544
layers = 32
heads = 71
kv_heads = 1
head_dim = 64
ffn = 18176
ffn_gated = 0
mode = prefill
seq = 2048
kv_cache = 1
vocab = 65024
param = input_layernorm 4544 64 norm   # weight and bias of 32 layers
param = ln_f 4544 2 norm
EOF
model gemma-7b-decode <<'EOF'
name = gemma-7b-decode    # config.json: 3072 hidden, 28 layers, 16 heads of 256, 24576 GeGLU, vocab 256000, tied
hidden = 3072
layers = 28
heads = 16
head_dim = 256
ffn = 24576
ffn_gated = 1
mode = decode
ctx = 8192
batch = 2
vocab = 256000
param = input_layernorm 3072 28 norm
param = post_attention_layernorm 3072 28 norm
param = final_norm 3072 1 norm
EOF
model gpt2-prefill <<'EOF'
name = gpt2-prefill       # config.json: 768, 12 layers, 12 heads, FFN 3072 (GELU), vocab 50257, 1024 positions, tied
hidden = 768
layers = 12
heads = 12
head_dim = 64
ffn = 3072
ffn_gated = 0
seq = 1024
batch = 2
kv_cache = 1
vocab = 50257
param = wpe 786432 1 embedding
param = ln 768 50 norm         # ln_1, ln_2 of 12 layers and ln_f: weight and bias
param = c_attn_bias 2304 12 bias
param = attn_proj_bias 768 12 bias
param = c_fc_bias 3072 12 bias
param = mlp_proj_bias 768 12 bias
EOF
model mistral-7b-decode <<'EOF'
name = mistral-7b-decode  # config.json (v0.1): 4096 hidden, 32 layers, 32 heads, 8 KV heads, 14336 SwiGLU, vocab 32000, sliding window 4096
hidden = 4096
layers = 32
heads = 32
kv_heads = 8
head_dim = 128
ffn = 14336
ffn_gated = 1
mode = decode
ctx = 8192
window = 4096
vocab = 32000
param = tok_embeddings 131072000 1 embedding
param = norms 4096 65 norm
EOF
model qwen2-7b-prefill <<'EOF'
name = qwen2-7b-prefill   # config.json: 3584 hidden, 28 layers, 28 heads, 4 KV heads, 18944 SwiGLU, vocab 152064, QKV bias
hidden = 3584
layers = 28
heads = 28
kv_heads = 4
head_dim = 128
ffn = 18944
ffn_gated = 1
seq = 1000
batch = 2
kv_cache = 1
vocab = 152064
param = embed_tokens 544997376 1 embedding
param = qkv_bias 4608 28 bias
param = norms 3584 57 norm
EOF
# Mixture of experts (FORMAT.md `experts`): Mixtral-8x7B (mistralai/Mixtral-8x7B-v0.1 config.json:
# 4096 hidden, 32 layers, 32 heads, 8 KV heads, 8 experts of 14336 SwiGLU, top 2, vocab 32000 untied;
# published 46,702,792,704 parameters) in decode at batch 1 (2 of 8 experts run per layer: the idle
# six must still be counted, b_tensors) and batch 5 (10 token-expert pairs over 8 experts: 2 experts
# take 2 tokens, 6 take 1); Qwen2-57B-A14B (Qwen/Qwen2-57B-A14B config.json: 3584 hidden, 28 layers,
# 28 heads, 4 KV heads, 64 experts of 2560, top 8, a shared expert of 20480 with a sigmoid gate (3584 x 1
# per layer, given as a param), QKV bias, vocab 151936 untied; 57,408,658,944 by hand from those values,
# published as 57.4B) in prefill.  Routed expert MACs: every token runs k experts of 3 d f each.
# the bundled model file (its values are the ones listed above), as a user would copy it
model mixtral-8x7b-decode < "$MXSIM_SOURCE_DIR/workloads/models/mixtral-8x7b-decode-b1.model"
sed 's/^name = .*/name = mixtral-8x7b-decode-b5/; s/^batch = 1$/batch = 5/' "$t/mixtral-8x7b-decode.model" |
  model mixtral-8x7b-decode-b5
model qwen2-57b-a14b-prefill <<'EOF'
name = qwen2-57b-a14b-prefill
hidden = 3584
layers = 28
heads = 28
kv_heads = 4
head_dim = 128
ffn = 2560
ffn_gated = 1
experts = 64
experts_per_token = 8
shared_ffn = 20480
seq = 512
kv_cache = 1
vocab = 151936
param = embed_tokens 544538624 1 embedding
param = qkv_bias 4608 28 bias
param = norms 3584 57 norm
param = shared_expert_gate 3584 28 gate
EOF
run_and_memory llama3-8b-decode falcon-7b-prefill gemma-7b-decode gpt2-prefill mistral-7b-decode qwen2-7b-prefill \
  mixtral-8x7b-decode mixtral-8x7b-decode-b5 qwen2-57b-a14b-prefill
python3 - "$t" <<'PY' || fails=$((fails+1))
import csv, sys
t = sys.argv[1]
# name: published parameters, (d, L, H, Hkv, hd, V), (batch, query tokens per sequence, keys), param elems
M = {
    "llama3-8b-decode": (8030261248, (4096, 32, 32, 8, 128, 128256), (8, 1, 8192), 525336576 + 4096 * 65),
    "falcon-7b-prefill": (6921720704, (4544, 32, 71, 1, 64, 65024), (1, 2048, 2048), 4544 * 66),
    "gemma-7b-decode": (8537680896, (3072, 28, 16, 16, 256, 256000), (2, 1, 8192), 3072 * 57),
    "gpt2-prefill": (124439808, (768, 12, 12, 12, 64, 50257), (2, 1024, 1024), 786432 + 768 * 50 + 12 * (2304 + 768 + 3072 + 768)),
    "mistral-7b-decode": (7241732096, (4096, 32, 32, 8, 128, 32000), (1, 1, 4096), 131072000 + 4096 * 65),  # 8192 cached, window 4096
    "qwen2-7b-prefill": (7615616512, (3584, 28, 28, 4, 128, 152064), (2, 1000, 1000), 544997376 + 4608 * 28 + 3584 * 57),
    "mixtral-8x7b-decode": (46702792704, (4096, 32, 32, 8, 128, 32000), (1, 1, 4096), 131072000 + 4096 * 65),
    "mixtral-8x7b-decode-b5": (46702792704, (4096, 32, 32, 8, 128, 32000), (5, 1, 4096), 131072000 + 4096 * 65),
    "qwen2-57b-a14b-prefill": (57408658944, (3584, 28, 28, 4, 128, 151936), (1, 512, 512),
                               544538624 + 4608 * 28 + 3584 * 57 + 3584 * 28),
}
# mixture of experts: (experts, experts per token, parameters of one routed expert = 3 d f)
MOE = {"mixtral-8x7b-decode": (8, 2, 3 * 4096 * 14336), "mixtral-8x7b-decode-b5": (8, 2, 3 * 4096 * 14336),
       "qwen2-57b-a14b-prefill": (64, 8, 3 * 3584 * 2560)}
bad = 0
for name, (P, (d, L, H, Hkv, hd, V), (B, S, T), p) in M.items():
    try:
        mem = {r["item"]: r for r in csv.DictReader(open(f"{t}/{name}.mem.csv"))}
        run = [r for r in csv.DictReader(open(f"{t}/{name}.run.csv")) if r["op"] == "TOTAL"][0]
    except (OSError, IndexError, KeyError) as e:
        print(f"FAIL {name}: no output ({e})"); bad += 1; continue
    E, k, Pe = MOE.get(name, (1, 1, 0))
    idle = L * (E - k) * Pe  # the routed experts a token does not run
    want = {
        "parameters (memory TOTAL weights elems)": (int(mem["TOTAL weights"]["elems"]), P),
        "KV cache bf16 bytes (memory TOTAL kv)": (int(mem["TOTAL kv"]["bf16_bytes"]), 2 * 2 * L * Hkv * hd * B * T),
        "MACs (run TOTAL n_macs)": (int(run["n_macs"]), B * S * (P - p - V * d - idle) + B * V * d + 2 * L * B * S * T * H * hd),
    }
    for what, (got, exp) in want.items():
        if got == exp: print(f"ok   {name}: {what} {got}")
        else: print(f"FAIL {name}: {what} {got}, published / hand formula {exp}"); bad += 1
sys.exit(1 if bad else 0)
PY
# Layers that differ, as `layer` lines (FORMAT.md): Gemma-2-9B (google/gemma-2-9b config.json: 3584
# hidden, 42 layers, 16 heads, 8 KV heads, head_dim 256, 14336 GeGLU, vocab 256000 tied; HF's
# Gemma2DecoderLayer alternates a 4096-key sliding window and global attention: 21 layers each).  The
# sliding layers' attention GEMMs read the KV cache: b_role=kv (before, a layer line's B was always a
# weight and the cache counted as parameters).  Published parameters 9,241,705,984; KV elements
# 21 x 8 x 2 x 256 x (8192 + 4096) = 1,056,964,608 (bf16: 2 bytes each).
model gemma2-9b-decode <<'EOF'
name = gemma2-9b-decode
hidden = 3584
layers = 21
heads = 16
kv_heads = 8
head_dim = 256
ffn = 14336
ffn_gated = 1
mode = decode
ctx = 8192
vocab = 256000
layer = gemm local_qkv_proj 1 8192 3584 21
layer = gemm local_attn_scores 2 4096 256 168 b_role=kv
layer = gemm local_attn_v 2 256 4096 168 b_role=kv
layer = gemm local_o_proj 1 3584 4096 21
layer = gemm local_ffn_gate_up 1 28672 3584 21
layer = gemm local_ffn_down 1 3584 14336 21
param = norms 3584 169 norm
EOF
if "$MXSIM" memory --config "$cfg" --format csv "$t/gemma2-9b-decode.trace" > "$t/g2.csv" 2> /dev/null; then
  got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
                 $h["item"] == "TOTAL weights" { w = $h["elems"] } $h["item"] == "TOTAL kv" { k = $h["bf16_bytes"] }
                 END { print w, k }' "$t/g2.csv")
  [ "$got" = "9241705984 $((2 * 1056964608))" ] && echo "ok   gemma2-9b-decode (layer lines, b_role=kv): $got" \
    || { echo "FAIL gemma2-9b-decode: weights elems, kv bf16 bytes = $got, want 9241705984 $((2 * 1056964608))"; fails=$((fails+1)); }
else
  echo "FAIL gemma2-9b-decode: memory"; fails=$((fails+1))
fi
# The same Gemma-2-9B with `window_layers` (FORMAT.md): 42 layers, 21 of them windowed.  Expected:
# the published parameters and the same KV cache as the layer lines above, and MACs by hand: B (W -
# V d) + B V d + 2 B H hd (21 ctx + 21 window), W the GEMM weights (tied: the LM head holds the
# embedding), H = 16 query heads of hd = 256.
# (the layer-lines file above without its layer lines, 42 layers, the window on 21 of them)
grep -v '^layer = ' "$t/gemma2-9b-decode.model" |
  sed 's/^name = .*/name = gemma2-9b-window/; s/^layers = 21$/layers = 42/; s/^vocab = /window = 4096\nwindow_layers = 21\nvocab = /' |
  model gemma2-9b-window
# Multi-head latent attention and leading dense layers (FORMAT.md `kv_lora_rank`, `dense_layers`):
# DeepSeek-V3 (deepseek-ai/DeepSeek-V3 config.json: 7168 hidden, 61 layers, 128 heads, q_lora_rank
# 1536, kv_lora_rank 512, qk_nope_head_dim 128, qk_rope_head_dim 64, v_head_dim 128, 3 dense layers
# of 18432 then 256 routed experts of 2048 (top 8) and one shared expert of 2048, vocab 129280
# untied; per MoE layer a 256-element e_score_correction_bias; norms: 2 per layer, q_a_layernorm
# 1536, kv_a_layernorm 512, final) in decode at batch 4 over 4096 keys; DeepSeek-V2-Lite
# (deepseek-ai/DeepSeek-V2-Lite config.json: 2048 hidden, 27 layers, 16 heads, no q_lora_rank,
# kv_lora_rank 512, 128 + 64 / 128, 1 dense layer of 10944 then 64 experts of 1408 (top 6) and 2
# shared (2816), vocab 102400 untied) in prefill of 1024 tokens.  Published: DeepSeek-V3 671B
# without its multi-token-prediction module (hand count from the config: 671,026,419,200),
# DeepSeek-V2-Lite 15.7B (hand count 15,706,484,224).
model deepseek-v3-decode <<'EOF'
name = deepseek-v3-decode
hidden = 7168
layers = 61
heads = 128
head_dim = 128
rope_head_dim = 64
v_head_dim = 128
q_lora_rank = 1536
kv_lora_rank = 512
ffn = 2048
ffn_gated = 1
experts = 256
experts_per_token = 8
shared_ffn = 2048
dense_layers = 3
dense_ffn = 18432
mode = decode
ctx = 4096
batch = 4
vocab = 129280
param = embed_tokens 926679040 1 embedding
param = norms 7168 123 norm
param = q_a_layernorm 1536 61 norm
param = kv_a_layernorm 512 61 norm
param = e_score_correction_bias 256 58 bias
EOF
model deepseek-v2-lite-prefill <<'EOF'
name = deepseek-v2-lite-prefill
hidden = 2048
layers = 27
heads = 16
head_dim = 128
rope_head_dim = 64
v_head_dim = 128
kv_lora_rank = 512
ffn = 1408
ffn_gated = 1
experts = 64
experts_per_token = 6
shared_ffn = 2816
dense_layers = 1
dense_ffn = 10944
seq = 1024
vocab = 102400
param = embed_tokens 209715200 1 embedding
param = norms 2048 55 norm
param = kv_a_layernorm 512 27 norm
EOF
run_and_memory gemma2-9b-window deepseek-v3-decode deepseek-v2-lite-prefill
python3 - "$t" <<'PY' || fails=$((fails+1))
import csv, sys
t = sys.argv[1]
bad = 0
def check(name, P, kv_elems, macs):
    global bad
    try:
        mem = {r["item"]: r for r in csv.DictReader(open(f"{t}/{name}.mem.csv"))}
        run = [r for r in csv.DictReader(open(f"{t}/{name}.run.csv")) if r["op"] == "TOTAL"][0]
        got = {"parameters": (int(mem["TOTAL weights"]["elems"]), P), "MACs": (int(run["n_macs"]), macs),
               "KV cache elements": (int(mem["TOTAL kv"]["elems"]) if "TOTAL kv" in mem else 0, kv_elems)}
    except (OSError, IndexError, KeyError, ValueError) as e:
        print(f"FAIL {name}: no output ({e})"); bad += 1; return
    for what, (g, e) in got.items():
        if g == e: print(f"ok   {name}: {what} {g}")
        else: print(f"FAIL {name}: {what} {g}, published / hand formula {e}"); bad += 1
# Gemma-2-9B: tied, so the GEMM weights are the published count less the norms
d, L, H, hd, V, B, ctx, win = 3584, 42, 16, 256, 256000, 1, 8192, 4096
W = 9241705984 - 3584 * 169
check("gemma2-9b-window", 9241705984, 21 * 8 * 2 * 256 * (ctx + win), B * (W - V * d) + B * V * d + 2 * B * H * hd * 21 * (ctx + win))
# DeepSeek: every GEMM weight runs once per token (the latent attention's absorbed halves of kv_b_proj
# in decode, kv_b_proj itself in prefill) but the LM head (once per sequence) and the idle experts;
# attention per layer and sequence: decode H x ctx x (C + R) scores + H x ctx x C attention x V over
# the latent cache; prefill H x S x S x (hd + R) + H x S x S x dv per head.  Cache: C + R per token.
d, L, H, V, B, ctx, C, R, Dn, E, k, f = 7168, 61, 128, 129280, 4, 4096, 512, 64, 3, 256, 8, 2048
P = 671026419200
W = P - (V * d + 7168 * 123 + 1536 * 61 + 512 * 61 + 256 * 58)
idle = (L - Dn) * (E - k) * 3 * d * f
check("deepseek-v3-decode", P, L * B * ctx * (C + R), B * (W - V * d - idle) + B * V * d + L * B * H * ctx * (2 * C + R))
d, L, H, V, S, C, R, hd, dv, Dn, E, k, f = 2048, 27, 16, 102400, 1024, 512, 64, 128, 128, 1, 64, 6, 1408
P = 15706484224
W = P - (V * d + 2048 * 55 + 512 * 27)
idle = (L - Dn) * (E - k) * 3 * d * f
check("deepseek-v2-lite-prefill", P, 0, S * (W - V * d - idle) + V * d + L * H * S * S * (hd + R + dv))
sys.exit(1 if bad else 0)
PY
# `pad` rounds a conv layer's K wherever it is given (it reached only the layers after it): ResNet's
# conv1, 7 x 7 x 3 = 147, to 160
model pad-after <<'EOF'
layer = conv conv1 224 224 7 7 3 64 2 3
pad = 32
EOF
grep -q "name=conv1 m=12544 n=64 k=160 " "$t/pad-after.trace" && echo "ok   pad after the conv layer: k = 160" \
  || { echo "FAIL pad after the conv layer: $(grep conv1 "$t/pad-after.trace")"; fails=$((fails+1)); }
# `pad` rounds the window like seq and ctx: 8192 cached keys, a 4000-key window, pad 128 -> 4096 keys
model pad-window <<'EOF'
hidden = 256
layers = 1
heads = 2
head_dim = 128
ffn = 512
ffn_gated = 1
mode = decode
ctx = 8192
window = 4000
pad = 128
EOF
grep -q "name=attn_scores m=1 n=4096 k=128 " "$t/pad-window.trace" && echo "ok   pad rounds the window: 4096 keys" \
  || { echo "FAIL pad rounds the window: $(grep attn_scores "$t/pad-window.trace")"; fails=$((fails+1)); }
[ $fails -eq 0 ] && echo "published models: all equal" || echo "published models: $fails failure(s)"
exit $((fails > 0))
