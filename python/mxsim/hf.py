"""Model files (traces/FORMAT.md) from Hugging Face `config.json` files.

    text = mxsim.hf.model_from_hf("config.json", mode="decode", ctx=4096, batch=1)
    python -m mxsim.hf config.json --mode decode --ctx 4096 -o model.model
    mxsim trace gen model.model -o model.trace

One table (FAMILIES) says, per `model_type`, which config keys give the transformer keys and which
non-GEMM parameters (embedding, norms, biases) the architecture has; the parameters follow the
Hugging Face modelling code of each family, so that `mxsim memory`'s TOTAL weights is the
published parameter count (python/tests/test_hf.py checks nine models).  A config this table
cannot describe exactly (another model_type, layers that differ, biases of a kind the family
does not have) raises ValueError naming the key, rather than giving a trace of another model.
"""
import argparse
import json
import os
import sys

# Per model_type: the attributes the modelling code adds beyond the GEMM weights.
#   tied:     tie_word_embeddings' default in that config class
#   qkv_bias: Q, K and V projections always have biases (Qwen2)
#   qk_norm:  an RMSNorm of head_dim over Q and one over K in every layer (Qwen3)
#   moe:      the config keys of the experts: (count, per token, expert width, shared width)
#   window:   where a sliding window comes from: "sliding_window" (used whenever not null), or
#             "use_sliding_window" (Qwen: off unless that flag is set)
FAMILIES = {
    "llama": dict(tied=False, window=None),
    "mistral": dict(tied=False, window="sliding_window"),
    "mixtral": dict(tied=False, window="sliding_window",
                    moe=("num_local_experts", "num_experts_per_tok", "intermediate_size", None)),
    "qwen2": dict(tied=False, qkv_bias=True, window="use_sliding_window"),
    "qwen2_moe": dict(tied=False, qkv_bias=True, window="use_sliding_window",
                      moe=("num_experts", "num_experts_per_tok", "moe_intermediate_size",
                           "shared_expert_intermediate_size")),
    "qwen3": dict(tied=False, qk_norm=True, window="use_sliding_window"),
    "qwen3_moe": dict(tied=False, qk_norm=True, window="use_sliding_window",
                      moe=("num_experts", "num_experts_per_tok", "moe_intermediate_size", None)),
    "gemma": dict(tied=True, window=None),
    "phi3": dict(tied=False, window="sliding_window"),
}


def _load(config):
    if isinstance(config, dict):
        return dict(config), "config"
    path = os.fspath(config)
    with open(path, encoding="utf-8") as f:
        try:
            return json.load(f), path
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}: not JSON: {e}") from None


def _int(cfg, src, key, default=None, lo=1):
    v = cfg.get(key)
    if v is None:  # absent or null: the config class's default
        v = default
    if v is None:
        raise ValueError(f"{src}: key '{key}': missing")
    if isinstance(v, bool) or not isinstance(v, int) or v < lo:
        raise ValueError(f"{src}: key '{key}': {v!r} is not an integer >= {lo}")
    return v


def model_from_hf(config, mode="decode", ctx=None, seq=None, batch=1, kv_cache=None, name=None):
    """The text of a model file for a Hugging Face config (a dict or a config.json path).
    mode "decode" needs ctx (cached keys per sequence); "prefill" needs seq (query tokens),
    kv_cache (default 1 for a decoder: the prefill fills the cache)."""
    cfg, src = _load(config)
    mt = cfg.get("model_type")
    if mt not in FAMILIES:
        raise ValueError(f"{src}: key 'model_type': {mt!r} is not one this converter describes exactly "
                         f"({', '.join(sorted(FAMILIES))}); write the model file by hand (traces/FORMAT.md)")
    fam = FAMILIES[mt]
    if mode not in ("decode", "prefill"):
        raise ValueError(f"mode: {mode!r} is not decode or prefill")
    if mode == "decode" and (ctx is None or seq is not None):
        raise ValueError("decode: give ctx (the cached keys per sequence) and no seq")
    if mode == "prefill" and (seq is None or ctx is not None):
        raise ValueError("prefill: give seq (the query tokens per sequence) and no ctx")
    d = _int(cfg, src, "hidden_size")
    L = _int(cfg, src, "num_hidden_layers")
    H = _int(cfg, src, "num_attention_heads")
    kvh = _int(cfg, src, "num_key_value_heads", H)
    hd = cfg.get("head_dim")
    hd = _int(cfg, src, "head_dim") if hd is not None else d // H
    if cfg.get("head_dim") is None and d % H:
        raise ValueError(f"{src}: key 'head_dim': missing, and hidden_size {d} is not a multiple of "
                         f"num_attention_heads {H}")
    V = _int(cfg, src, "vocab_size")
    tied = cfg.get("tie_word_embeddings", fam["tied"])
    if not isinstance(tied, bool):
        raise ValueError(f"{src}: key 'tie_word_embeddings': {tied!r} is not true or false")
    # the features that make layers differ, or add parameters this table does not know
    for key in ("attention_bias", "mlp_bias"):
        if cfg.get(key):
            raise ValueError(f"{src}: key '{key}': biases of this kind are not described here: "
                             "add them as param lines by hand")
    window = None
    if fam["window"] == "sliding_window" and cfg.get("sliding_window") is not None:
        window = _int(cfg, src, "sliding_window")
    if fam["window"] == "use_sliding_window" and cfg.get("use_sliding_window"):
        raise ValueError(f"{src}: key 'use_sliding_window': true makes the layers from max_window_layers "
                         "on differ from the others: write them as layer lines (traces/FORMAT.md)")
    lines = [f"# {mt} from {os.path.basename(src)} (mxsim.hf.model_from_hf): hidden_size {d}, "
             f"num_hidden_layers {L}, num_attention_heads {H}, num_key_value_heads {kvh}, head_dim {hd}, "
             f"vocab_size {V}, tie_word_embeddings {str(tied).lower()}",
             f"name = {name or cfg.get('_name_or_path') or mt}".replace("\n", " "),
             f"hidden = {d}", f"layers = {L}", f"heads = {H}", f"kv_heads = {kvh}", f"head_dim = {hd}",
             "ffn_gated = 1"]
    moe = fam.get("moe")
    if moe:
        nkey, kkey, fkey, skey = moe
        E, k, f = _int(cfg, src, nkey), _int(cfg, src, kkey), _int(cfg, src, fkey)
        if cfg.get("decoder_sparse_step", 1) != 1 or cfg.get("mlp_only_layers"):
            raise ValueError(f"{src}: keys 'decoder_sparse_step' / 'mlp_only_layers': some layers are dense: "
                             "write them as layer lines (traces/FORMAT.md)")
        lines += [f"ffn = {f}", f"experts = {E}", f"experts_per_token = {k}"]
        shf = _int(cfg, src, skey, 0, lo=0) if skey else 0
        if shf:
            lines.append(f"shared_ffn = {shf}")
    else:
        lines.append(f"ffn = {_int(cfg, src, 'intermediate_size')}")
        shf = 0
    lines.append(f"batch = {_int({'batch': batch}, 'batch', 'batch')}")
    if mode == "decode":
        lines += ["mode = decode", f"ctx = {_int({'ctx': ctx}, 'ctx', 'ctx')}"]
    else:
        kv = 1 if kv_cache is None else int(bool(kv_cache))
        lines += ["mode = prefill", f"seq = {_int({'seq': seq}, 'seq', 'seq')}", f"kv_cache = {kv}"]
    if window is not None:
        lines.append(f"window = {window}")
    lines.append(f"vocab = {V}")
    # non-GEMM parameters, bf16 in an MXINT8 model
    if not tied:  # else the LM head's GEMM holds the shared matrix (FORMAT.md: tied embeddings)
        lines.append(f"param = embed_tokens {V * d} 1 embedding")
    lines.append(f"param = norms {d} {2 * L + 1} norm   # input and post-attention RMSNorm per layer, final norm")
    if fam.get("qkv_bias"):
        lines.append(f"param = qkv_bias {(H + 2 * kvh) * hd} {L} bias")
    if fam.get("qk_norm"):
        lines.append(f"param = qk_norm {hd} {2 * L} norm   # q_norm and k_norm per layer")
    if shf:
        lines.append(f"param = shared_expert_gate {d} {L} gate   # d x 1 per layer: its MACs are not timed")
    return "\n".join(lines) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m mxsim.hf",
                                description="Writes an mxsim model file from a Hugging Face config.json.")
    p.add_argument("config")
    p.add_argument("--mode", choices=("decode", "prefill"), default="decode")
    p.add_argument("--ctx", type=int)
    p.add_argument("--seq", type=int)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--kv-cache", type=int, choices=(0, 1))
    p.add_argument("--name")
    p.add_argument("-o", "--out", required=True, help="the model file to write")
    a = p.parse_args(argv)
    try:
        text = model_from_hf(a.config, a.mode, a.ctx, a.seq, a.batch, a.kv_cache, a.name)
    except (OSError, ValueError) as e:
        print(f"python -m mxsim.hf: error: {e}", file=sys.stderr)
        return 2
    tmp = a.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
