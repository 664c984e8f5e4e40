"""Model files (traces/FORMAT.md) from Hugging Face `config.json` files.

    text = mxsim.hf.model_from_hf("config.json", mode="decode", ctx=4096, batch=1)
    python -m mxsim.hf config.json --mode decode --ctx 4096 -o model.model
    mxsim trace gen model.model -o model.trace

One table (FAMILIES) says, per `model_type`, which config keys give the transformer keys and which
non-GEMM parameters (embedding, norms, biases) the architecture has; the parameters follow the
Hugging Face modelling code of each family, so that `mxsim memory`'s TOTAL weights is the
published parameter count (python/tests/test_hf.py checks thirty-one models).  A config this table
cannot describe exactly (another model_type, layers that differ in ways the model keys cannot say,
biases of a kind the family does not have) raises ValueError naming the key, rather than giving a
trace of another model.
"""
import argparse
import json
import operator
import os
import sys
import tempfile

# Per model_type: the attributes the modelling code adds beyond the GEMM weights.
#   tied:     tie_word_embeddings' default in that config class
#   qkv_bias: Q, K and V projections always have biases (Qwen2)
#   qk_norm:  an RMSNorm of head_dim over Q and one over K in every layer (Qwen3, Gemma-3)
#   norms:    norms of hidden_size per layer (default 2; Gemma-2/3: 4, before and after attention
#             and FFN; Phi-2: 1, attention and FFN in parallel)
#   moe:      the config keys of the experts: (count, per token, expert width, shared width); the
#             shared width of DeepSeek is n_shared_experts x moe_intermediate_size
#   window:   where a sliding window comes from: "sliding_window" (every layer, whenever not null),
#             "use_sliding_window" (Qwen: off unless that flag is set, then the layers from
#             max_window_layers on), "alternate" (Gemma-2/3: one global layer in every `pattern`)
#   mla:      multi-head latent attention (DeepSeek): the kv_lora_rank keys; topk: topk_method's
#             class default (the router has an e_score_correction_bias per MoE layer with "noaux_tc")
#   defaults: class defaults copied from the config class, for keys a config leaves out (Gemma-3's
#             text_config in a multimodal config.json gives only a few keys)
#   names:    the config keys of a family that does not use Llama's names (GPT-2's n_embd, ...)
#   ffn_mult: the FFN width when the config leaves it null (GPT-2's n_inner: 4 x n_embd)
#   gated:    the FFN is gated (SwiGLU, GeGLU: default) or plain (GPT-2, OPT, Pythia, Phi-2: fc1, fc2)
#   ln_bias:  the norms are LayerNorms with a bias (2 x hidden_size values each), not RMSNorms
#   bias:     the bias keys the family's modelling code reads, with their class defaults and the
#             projections they bias: Llama's attention_bias (q, k, v and o) and mlp_bias (the FFN's),
#             gpt-oss's and GPT-NeoX's attention_bias (default true), OPT's enable_bias (all);
#             any other family's attention_bias or mlp_bias is refused when true
#   biased:   projections biased whatever the config says ("attn", "mlp"; "head": the LM head, Phi)
#   mha:      multi-head attention of hidden / heads per head: head_dim and num_key_value_heads,
#             which the code does not read, are refused unless they say the same
#   fixed:    keys whose other values change the architecture in a way not described, with the value
#             this table describes ("hidden_size": equal to it): absent or that value is accepted
#   pos:      learned position embeddings: (the config key of their count, rows added: OPT's offset 2,
#             rows reserved: RoBERTa's first two, below padding_idx + 1)
#   encoder:  a bidirectional encoder (BERT, RoBERTa, DistilBERT): prefill only, no KV cache, no LM
#             head; types: the config key of its token-type embeddings; pooler: BertModel's pooler
#             (a d x d GEMM with a bias on each sequence's first token), as AutoModel loads it
#   image:    a vision transformer (ViT): the tokens are the image's patches and a [CLS] token, so
#             seq follows from image_size and patch_size; a patch embedding (a GEMM of K = channels x
#             patch^2), the [CLS] token and a final LayerNorm
#   sinks:    one attention-sink logit per head and layer (gpt-oss)
#   moe_bias: the router and every expert's projections have biases (gpt-oss)
#   require:  keys whose absence would take a class default this table does not copy (Mistral's
#             8 KV heads and 4096-key window, Gemma's head_dim 256, ...): absent is refused
_DEEPSEEK_MOE = ("n_routed_experts", "num_experts_per_tok", "moe_intermediate_size", "n_shared_experts")
_DEEPSEEK_REQ = ("kv_lora_rank", "q_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim",
                 "n_routed_experts", "n_shared_experts", "num_experts_per_tok", "first_k_dense_replace",
                 "moe_intermediate_size", "intermediate_size")
_ENCODER_FIXED = (("position_embedding_type", "absolute", "relative position embeddings"),
                  ("is_decoder", False, "decoder layers (a causal LM built on an encoder)"),
                  ("add_cross_attention", False, "cross-attention blocks (an encoder-decoder)"))
FAMILIES = {
    "llama": dict(tied=False, window=None, bias=dict(attention_bias=(False, ("attn",)), mlp_bias=(False, ("mlp",))),
                  require=()),
    "mistral": dict(tied=False, window="sliding_window", require=("num_key_value_heads", "sliding_window")),
    "mixtral": dict(tied=False, window="sliding_window", require=("num_key_value_heads", "sliding_window"),
                    moe=("num_local_experts", "num_experts_per_tok", "intermediate_size", None)),
    "qwen2": dict(tied=False, qkv_bias=True, window="use_sliding_window", require=("num_key_value_heads",)),
    "qwen2_moe": dict(tied=False, qkv_bias=True, window="use_sliding_window",
                      require=("num_key_value_heads", "shared_expert_intermediate_size"),
                      moe=("num_experts", "num_experts_per_tok", "moe_intermediate_size",
                           "shared_expert_intermediate_size")),
    "qwen3": dict(tied=False, qk_norm=True, window="use_sliding_window", require=("num_key_value_heads", "head_dim")),
    "qwen3_moe": dict(tied=False, qk_norm=True, window="use_sliding_window", require=("num_key_value_heads", "head_dim"),
                      moe=("num_experts", "num_experts_per_tok", "moe_intermediate_size", None)),
    "gemma": dict(tied=True, window=None, require=("num_key_value_heads", "head_dim")),
    "gemma2": dict(tied=True, norms=4, window="alternate", pattern=2,
                   require=("num_key_value_heads", "head_dim", "sliding_window")),
    # transformers' Gemma3TextConfig defaults (models/gemma3/configuration_gemma3.py)
    "gemma3_text": dict(tied=True, norms=4, qk_norm=True, window="alternate", pattern=("sliding_window_pattern", 6),
                        require=(), defaults=dict(num_attention_heads=8, num_key_value_heads=4, head_dim=256,
                                                  vocab_size=262208, sliding_window=4096)),
    "phi3": dict(tied=False, window="sliding_window", require=()),
    # OpenAI gpt-oss (transformers' models/gpt_oss): sliding and full attention layers alternate, the
    # first sliding, as GptOssConfig's default layer_types says
    "gpt_oss": dict(tied=False, window="alternate", pattern=2, bias=dict(attention_bias=(True, ("attn",))), sinks=True, moe_bias=True,
                    moe=("num_local_experts", "num_experts_per_tok", "intermediate_size", None),
                    require=("num_key_value_heads", "head_dim", "sliding_window", "num_local_experts",
                             "num_experts_per_tok", "intermediate_size")),
    # plain FFNs and LayerNorms: GPT-2, OPT, GPT-NeoX (Pythia), Phi-1.5/2 (transformers' modelling code
    # of each; OPT's learned positions have 2 rows more than max_position_embeddings)
    "gpt2": dict(mha=True, tied=True, window=None, gated=False, ln_bias=True, biased=("attn", "mlp"),
                 pos=("n_positions", 0, 0), names=dict(hidden_size="n_embd", num_hidden_layers="n_layer", num_attention_heads="n_head",
                            intermediate_size="n_inner"), ffn_mult=4, require=("n_positions",),
                 fixed=(("add_cross_attention", False, "cross-attention blocks (an encoder-decoder)"),)),
    "opt": dict(mha=True, tied=True, window=None, gated=False, ln_bias=True,
                bias=dict(enable_bias=(True, ("attn", "mlp"))), pos=("max_position_embeddings", 2, 0), names=dict(intermediate_size="ffn_dim"),
                require=("max_position_embeddings", "ffn_dim"),
                fixed=(("word_embed_proj_dim", "hidden_size", "projections between a narrower embedding and the layers"),
                       ("do_layer_norm_before", True, "post-norm layers (OPT-350m), whose final norm is left out"),
                       ("layer_norm_elementwise_affine", True, "LayerNorms without weights and biases"),
                       ("_remove_final_layer_norm", False, "a model without its final LayerNorm"))),
    "gpt_neox": dict(mha=True, tied=False, window=None, gated=False, ln_bias=True,
                     bias=dict(attention_bias=(True, ("attn",))), biased=("mlp",), require=()),
    "phi": dict(tied=False, window=None, gated=False, ln_bias=True, norms=1, biased=("attn", "mlp", "head"), require=(),
                fixed=(("qk_layernorm", False, "LayerNorms over Q and K"),)),
    # encoders: the base model without a task head (BertModel, RobertaModel, DistilBertModel)
    "bert": dict(mha=True, tied=False, encoder=True, window=None, gated=False, ln_bias=True, biased=("attn", "mlp"),
                 pos=("max_position_embeddings", 0, 0), types="type_vocab_size", pooler=True,
                 require=("max_position_embeddings", "type_vocab_size", "intermediate_size"), fixed=_ENCODER_FIXED),
    "roberta": dict(mha=True, tied=False, encoder=True, window=None, gated=False, ln_bias=True, biased=("attn", "mlp"),
                    pos=("max_position_embeddings", 0, "pad_token_id"), types="type_vocab_size", pooler=True,
                    require=("max_position_embeddings", "type_vocab_size", "intermediate_size"), fixed=_ENCODER_FIXED),
    "distilbert": dict(mha=True, tied=False, encoder=True, window=None, gated=False, ln_bias=True, biased=("attn", "mlp"),
                       pos=("max_position_embeddings", 0, 0),
                       names=dict(hidden_size="dim", num_hidden_layers="n_layers", num_attention_heads="n_heads",
                                  intermediate_size="hidden_dim"),
                       require=("max_position_embeddings", "hidden_dim")),
    "vit": dict(mha=True, tied=False, encoder=True, image=True, window=None, gated=False, ln_bias=True, biased=("o", "mlp"),
                bias=dict(qkv_bias=(True, ("qkv",))), pooler=True,
                require=("image_size", "patch_size", "intermediate_size"), fixed=_ENCODER_FIXED),
    "deepseek_v2": dict(tied=False, window=None, mla=True, topk="greedy", moe=_DEEPSEEK_MOE, require=_DEEPSEEK_REQ),
    "deepseek_v3": dict(tied=False, window=None, mla=True, topk="noaux_tc", moe=_DEEPSEEK_MOE, require=_DEEPSEEK_REQ),
}
MAX_DIM = 2 ** 31  # the model file's limit for a transformer key (traces/FORMAT.md)


def _load(config):
    if isinstance(config, dict):
        return dict(config), "config"
    path = os.fspath(config)
    with open(path, encoding="utf-8") as f:
        try:
            cfg = json.load(f)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as e:
            raise ValueError(f"{_clean(path)}: not a JSON config: {e}") from None
    if not isinstance(cfg, dict):
        raise ValueError(f"{_clean(path)}: a config.json is a JSON object, not {type(cfg).__name__}")
    return cfg, path


def _clean(text):
    """text for a comment or a message: control characters (a newline would start a line of the
    model file) and characters UTF-8 cannot carry become '?'"""
    return "".join(c if c >= " " and c != "\x7f" and not "\ud800" <= c <= "\udfff" else "?" for c in str(text))


def _index(v):
    """An integer-like argument (NumPy's too) as an int; anything else unchanged, for _int to refuse."""
    if v is None or isinstance(v, (bool, int)) or not hasattr(v, "__index__") or getattr(v, "dtype", None) == bool:
        return v
    return operator.index(v)


def _int(cfg, src, key, default=None, lo=1, hi=MAX_DIM):
    v = cfg.get(key)
    if v is None:  # absent or null: the config class's default
        v = default
    if v is None:
        raise ValueError(f"{src}: key '{key}': missing")
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or v > hi:
        raise ValueError(f"{_clean(src)}: key '{key}': {_clean(repr(v))[:60]} is not an integer in "
                         f"{lo}..{'2^31' if hi == MAX_DIM else hi}")
    return v


def model_from_hf(config, mode="decode", ctx=None, seq=None, batch=1, kv_cache=None, name=None, text_config=False,
                  routing=None):
    """The text of a model file for a Hugging Face config (a dict or a config.json path).
    mode "decode" needs ctx (cached keys per sequence); "prefill" needs seq (query tokens),
    kv_cache (default 1 for a decoder: the prefill fills the cache).  text_config: describe the
    language model of a multimodal config (its "text_config"), leaving its vision encoder out.
    routing: a mixture of experts' "balanced" (the default: the T k token-expert pairs over as many
    experts as they can reach) or "uniform" (independent uniform choices: the expected experts)."""
    cfg, src = _load(config)
    if text_config:
        if not isinstance(cfg.get("text_config"), dict):
            raise ValueError(f"{_clean(src)}: key 'text_config': not in this config (text_config is for a multimodal "
                             "config whose language model it holds)")
        cfg, src = dict(cfg["text_config"]), f"{src} (text_config)"
    elif isinstance(cfg.get("text_config"), dict):
        raise ValueError(f"{_clean(src)}: key 'text_config': a multimodal config: its language model can be described "
                         "alone with text_config=True (--text-config), leaving the vision encoder out")
    mt = cfg.get("model_type")
    if not isinstance(mt, str) or mt not in FAMILIES:
        raise ValueError(f"{_clean(src)}: key 'model_type': {_clean(repr(mt))[:60]} is not one this converter describes exactly "
                         f"({', '.join(sorted(FAMILIES))}); write the model file by hand (traces/FORMAT.md)")
    fam = FAMILIES[mt]
    taken = sorted(k for k in fam.get("defaults", {}) if cfg.get(k) is None)
    cfg = dict(cfg, **{k: fam["defaults"][k] for k in taken})
    for key in fam["require"]:
        if key not in cfg:
            raise ValueError(f"{_clean(src)}: key '{key}': missing (the {mt} config class's default is not "
                             "one this converter assumes: give it)")
    if name is not None and (not isinstance(name, str) or not name or _clean(name) != name):
        raise ValueError(f"name: {_clean(repr(name))[:60]} is not a one-line text")
    if mode not in ("decode", "prefill"):
        raise ValueError(f"mode: {mode!r} is not decode or prefill")
    # the counts a caller gives may be NumPy integers (np.int64(100)), as elsewhere in the package
    ctx, seq, batch = (_index(v) for v in (ctx, seq, batch))
    if mode == "decode" and (ctx is None or seq is not None):
        raise ValueError("decode: give ctx (the cached keys per sequence) and no seq")
    if fam.get("image") and mode == "prefill" and ctx is None:  # the image's patches and [CLS]: the tokens
        img, patch = _int(cfg, src, "image_size"), _int(cfg, src, "patch_size")
        if img % patch:
            raise ValueError(f"{_clean(src)}: key 'patch_size': {patch} does not divide image_size {img}")
        if seq not in (None, (img // patch) ** 2 + 1):
            raise ValueError(f"seq: {seq!r}, where a {img} x {img} image in {patch} x {patch} patches is "
                             f"{(img // patch) ** 2 + 1} tokens with [CLS]: leave seq out")
        seq = (img // patch) ** 2 + 1
    if mode == "prefill" and (seq is None or ctx is not None):
        raise ValueError("prefill: give seq (the query tokens per sequence) and no ctx")
    if fam.get("encoder") and (mode != "prefill" or kv_cache):
        raise ValueError(f"{'mode' if mode != 'prefill' else 'kv_cache'}: {mt} is an encoder, which attends over its "
                         "whole input at once and keeps no KV cache: give mode prefill with seq, without kv_cache")
    if mode == "decode" and kv_cache is not None:
        raise ValueError("kv_cache: decode always reads its KV cache: leave kv_cache out")
    batch = _int({'batch': batch}, 'batch', 'batch')
    if routing not in (None, "balanced", "uniform"):
        raise ValueError(f"routing: {_clean(repr(routing))[:40]} is not balanced or uniform")
    if routing is not None and not fam.get("moe"):
        raise ValueError(f"routing: {mt} has no mixture of experts to route")
    if kv_cache is not None and kv_cache not in (0, 1):
        raise ValueError(f"kv_cache: {kv_cache!r} is not 0 or 1")
    names = fam.get("names", {})
    d = _int(cfg, src, names.get("hidden_size", "hidden_size"))
    L = _int(cfg, src, names.get("num_hidden_layers", "num_hidden_layers"))
    H = _int(cfg, src, names.get("num_attention_heads", "num_attention_heads"))
    mla = fam.get("mla", False)
    hkey, dkey = names.get("num_attention_heads", "num_attention_heads"), names.get("hidden_size", "hidden_size")
    if fam.get("mha") and d % H:
        raise ValueError(f"{_clean(src)}: key '{hkey}': {dkey} {d} is not a multiple of {hkey} {H}")
    if fam.get("mha"):  # heads of hidden / heads each, one K and V per head: the code reads no other key
        for key, want in (("num_key_value_heads", H), ("head_dim", d // H)):
            if cfg.get(key) is not None and cfg[key] != want:
                raise ValueError(f"{_clean(src)}: key '{key}': {_clean(repr(cfg[key]))[:40]} is not {want}: {mt}'s "
                                 f"attention has {hkey} heads of {dkey} / {hkey} and reads no such key")
    kvh = H if mla else _int(cfg, src, "num_key_value_heads", H)  # MLA: one latent cache for every head
    if H % kvh:
        raise ValueError(f"{_clean(src)}: key 'num_key_value_heads': {kvh} does not divide num_attention_heads {H}")
    if mla:
        hd = _int(cfg, src, "qk_nope_head_dim")
    else:
        hd = cfg.get("head_dim")
        hd = _int(cfg, src, "head_dim") if hd is not None else d // H
        if cfg.get("head_dim") is None and d % H:
            raise ValueError(f"{_clean(src)}: key '{hkey}': {dkey} {d} is not a multiple of {hkey} {H}"
                             + ("" if fam.get("mha") else " (and no head_dim is given)"))
    V = 0 if fam.get("image") else _int(cfg, src, "vocab_size")
    tied = cfg.get("tie_word_embeddings", fam["tied"])
    if not isinstance(tied, bool):
        raise ValueError(f"{src}: key 'tie_word_embeddings': {tied!r} is not true or false")
    # the features that make layers differ, or add parameters this table does not know
    for key, want, what in fam.get("fixed", ()):
        want = d if want == "hidden_size" else want
        if cfg.get(key) is not None and (cfg[key] != want or type(cfg[key]) is not type(want)):
            raise ValueError(f"{_clean(src)}: key '{key}': {_clean(repr(cfg[key]))[:40]} is not {json.dumps(want)}: "
                             f"{what} are not described here: write the model file by hand (traces/FORMAT.md)")
    biased = set(fam.get("biased", ()))
    for key, (default, parts) in fam.get("bias", {}).items():
        on = cfg.get(key, default)
        if not isinstance(on, bool):
            raise ValueError(f"{_clean(src)}: key '{key}': {_clean(repr(on))[:40]} is not true or false")
        biased |= set(parts) if on else set()
    for key in ("attention_bias", "mlp_bias"):
        if key not in fam.get("bias", {}) and cfg.get(key):
            raise ValueError(f"{src}: key '{key}': biases of this kind are not described for {mt}: "
                             "add them as param lines by hand")
    if cfg.get("use_bidirectional_attention"):  # EmbeddingGemma: an encoder, no cache, no LM head
        raise ValueError(f"{_clean(src)}: key 'use_bidirectional_attention': a bidirectional encoder (an embedding "
                         "model) is not a decoder this converter describes: write its model file by hand (kv_cache = 0, "
                         "no vocab)")
    window, wl = _window(cfg, src, fam, L, taken)
    lines = [f"# {mt} from {_clean(os.path.basename(src))} (mxsim.hf.model_from_hf"
             + (", the language model only: no vision encoder" if text_config else "")
             + (f"; the config class's defaults for {', '.join(taken)}" if taken else "") + f"): hidden_size {d}, "
             f"num_hidden_layers {L}, num_attention_heads {H}, "
             + (f"qk_nope_head_dim {hd}" if mla else f"num_key_value_heads {kvh}, head_dim {hd}")
             + (f", vocab_size {V}" if V else "") + ("" if fam.get("encoder") else f", tie_word_embeddings {str(tied).lower()}"),
             f"name = {_clean(name or cfg.get('_name_or_path') or mt)[:40]}",
             f"hidden = {d}"]
    if fam.get("image"):  # before the layers key: it runs before the blocks (FORMAT.md, layer lines)
        chans = _int(cfg, src, "num_channels", 3)
        if batch * (seq - 1) > MAX_DIM:
            raise ValueError(f"batch: {batch} images of {seq - 1} patches are more than 2^31 rows of the patch "
                             "embedding's GEMM")
        lines.append(f"layer = gemm patch_embed {batch * (seq - 1)} {d} "
                     f"{chans * patch * patch}   # the {patch} x {patch} patches of {chans} channels")
    lines += [f"layers = {L}", f"heads = {H}"]
    lines += [f"head_dim = {hd}"] if mla else [f"kv_heads = {kvh}", f"head_dim = {hd}"]
    gated = fam.get("gated", True)
    lines.append(f"ffn_gated = {int(gated)}")
    ql = C = 0
    if mla:  # DeepSeek's latent attention (traces/FORMAT.md): q_lora_rank null puts no bottleneck on Q
        C = _int(cfg, src, "kv_lora_rank")
        ql = 0 if cfg.get("q_lora_rank") is None else _int(cfg, src, "q_lora_rank")  # null: no bottleneck
        lines += [f"rope_head_dim = {_int(cfg, src, 'qk_rope_head_dim')}", f"v_head_dim = {_int(cfg, src, 'v_head_dim')}",
                  f"kv_lora_rank = {C}"] + ([f"q_lora_rank = {ql}"] if ql else [])
    moe = fam.get("moe")
    E = dense = 0
    if moe:
        nkey, kkey, fkey, skey = moe
        E, k, f = _int(cfg, src, nkey), _int(cfg, src, kkey), _int(cfg, src, fkey)
        if k > E:
            raise ValueError(f"{_clean(src)}: key '{kkey}': {k} is more than {nkey} = {E}")
        if cfg.get("decoder_sparse_step", 1) != 1 or cfg.get("mlp_only_layers") or cfg.get("moe_layer_freq", 1) != 1:
            raise ValueError(f"{src}: keys 'decoder_sparse_step' / 'mlp_only_layers' / 'moe_layer_freq': MoE and dense "
                             "layers interleave: write them as layer lines (traces/FORMAT.md)")
        lines += [f"ffn = {f}", f"experts = {E}", f"experts_per_token = {k}"]
        if routing is not None:
            lines.append(f"routing = {routing}")
        if skey == "n_shared_experts":  # DeepSeek: n shared experts of the routed width, run as one
            shf = _int(cfg, src, skey, 0, lo=0) * f
        else:
            shf = _int(cfg, src, skey, 0, lo=0) if skey else 0
        if shf:
            lines.append(f"shared_ffn = {_int({'shared_ffn': shf}, skey, 'shared_ffn')}")
        if mla:  # DeepSeek's first_k_dense_replace layers keep a dense FFN of intermediate_size
            dense = _int(cfg, src, "first_k_dense_replace", lo=0, hi=L - 1)
            if dense:
                lines += [f"dense_layers = {dense}", f"dense_ffn = {_int(cfg, src, 'intermediate_size')}"]
    else:
        fkey = names.get("intermediate_size", "intermediate_size")
        if cfg.get(fkey) is None and "ffn_mult" in fam:  # the class default: a multiple of the width
            f = fam["ffn_mult"] * d
            if f > MAX_DIM:
                raise ValueError(f"{_clean(src)}: key '{dkey}': {d} makes the FFN width ({fkey} null: "
                                 f"{fam['ffn_mult']} x {dkey}) {f}, more than 2^31")
        else:
            f = _int(cfg, src, fkey)
        lines.append(f"ffn = {f}")
        shf = 0
    lines.append(f"batch = {batch}")
    if mode == "decode":
        lines += ["mode = decode", f"ctx = {_int({'ctx': ctx}, 'ctx', 'ctx')}"]
    else:
        if mla and kv_cache:
            raise ValueError("kv_cache: prefill with latent attention attends on decompressed K and V and keeps no "
                             "cache mxsim can time: leave kv_cache out (0), and time the cache in decode")
        kv = 0 if mla or fam.get("encoder") else 1 if kv_cache is None else int(bool(kv_cache))
        lines += ["mode = prefill", f"seq = {_int({'seq': seq}, 'seq', 'seq')}", f"kv_cache = {kv}"]
    if window is not None:
        lines.append(f"window = {window}")
        if wl != L:
            lines.append(f"window_layers = {wl}")
    if fam.get("encoder"):
        lines.append("# an encoder: no LM head (vocab 0)")
    else:
        lines.append(f"vocab = {V}")
    if mla and cfg.get("num_nextn_predict_layers"):
        lines.append(f"# not described: the checkpoint's {_int(cfg, src, 'num_nextn_predict_layers')} multi-token-"
                     "prediction layer(s), which the modelling code does not run")
    # non-GEMM parameters, bf16 in an MXINT8 model
    if V and (not tied or fam.get("encoder")):  # else the LM head's GEMM holds the shared matrix (FORMAT.md: tied embeddings)
        lines.append(f"param = embed_tokens {V * d} 1 embedding")
    if fam.get("pos"):  # learned positions: no token past the table's last row
        key, extra, reserved = fam["pos"]
        if isinstance(reserved, str):  # RoBERTa numbers positions from padding_idx + 1
            reserved = _int(cfg, src, reserved, 1, lo=0) + 1
        P, last = _int(cfg, src, key), (ctx + 1 if mode == "decode" else seq)
        if last > P - reserved:
            raise ValueError(f"{_clean(src)}: key '{key}': {P - reserved} learned positions"
                             + (f" ({P} less {reserved} reserved)" if reserved else "") + ", and this "
                             + (f"decode's token is position {ctx + 1} (ctx {ctx} + 1)" if mode == "decode"
                                else f"prefill has seq {seq}"))
        lines.append(f"param = pos_embed {(P + extra) * d} 1 embedding   # learned positions")
    if fam.get("image"):
        lines += [f"param = patch_embed_bias {d} 1 bias", f"param = cls_token {d} 1 embedding",
                  f"param = pos_embed {seq * d} 1 embedding   # learned positions, one per patch and [CLS]"]
    if fam.get("types"):
        lines.append(f"param = token_type_embed {_int(cfg, src, fam['types']) * d} 1 embedding")
    npl = fam.get("norms", 2)
    if fam.get("ln_bias"):
        lines.append(f"param = norms {2 * d} {npl * L + 1} norm   # {npl} LayerNorms per layer, "
                     + ("the embeddings'" if fam.get("encoder") and not fam.get("image") else "final norm") + ": weight and bias")
    else:
        lines.append(f"param = norms {d} {npl * L + 1} norm   # {npl} RMSNorms per layer, final norm")
    if "attn" in biased or {"qkv", "o"} <= biased:
        lines.append(f"param = attn_bias {(H + 2 * kvh) * hd + d} {L} bias   # q, k, v and o projections")
    elif "o" in biased:
        lines.append(f"param = o_bias {d} {L} bias   # the output projection's (qkv_bias false)")
    if "mlp" in biased:
        lines.append(f"param = mlp_bias {(2 if gated else 1) * f + d} {L} bias   # the FFN's "
                     + ("gate, up and down" if gated else "up and down"))
    if "head" in biased:
        lines.append(f"param = lm_head_bias {V} 1 bias")
    if fam.get("sinks"):
        lines.append(f"param = attn_sinks {H} {L} sink   # a softmax logit per head: its few operations are not timed")
    if fam.get("moe_bias"):
        lines.append(f"param = router_bias {E} {L} bias")
        lines.append(f"param = expert_bias {E * (2 * f + d)} {L} bias   # gate_up and down of every expert")
    if fam.get("qkv_bias") and cfg.get("qkv_bias", True) is not False:  # Qwen2-MoE's qkv_bias key
        lines.append(f"param = qkv_bias {(H + 2 * kvh) * hd} {L} bias")
    if fam.get("qk_norm"):
        lines.append(f"param = qk_norm {hd} {2 * L} norm   # q_norm and k_norm per layer")
    if ql:
        lines.append(f"param = q_a_layernorm {ql} {L} norm")
    if mla:
        lines.append(f"param = kv_a_layernorm {C} {L} norm")
    topk = cfg.get("topk_method", fam.get("topk"))
    if mla and topk == "noaux_tc":  # DeepSeek's MoEGate creates it only for this method
        lines.append(f"param = e_score_correction_bias {E} {L - dense} bias   # the router's, per MoE layer "
                     "(a checkpoint tensor; transformers holds it as a buffer)")
    if shf and not mla:
        lines.append(f"param = shared_expert_gate {d} {L} gate   # d x 1 per layer: its MACs are not timed")
    if fam.get("pooler"):  # after the layers key: it runs after the blocks (FORMAT.md, layer lines)
        po = _int(cfg, src, "pooler_output_size", d) if fam.get("image") else d  # ViTPooler's width
        lines += [f"layer = gemm pooler {batch} {po} {d}   # the {mt} base model's pooler: each sequence's first token",
                  f"param = pooler_bias {po} 1 bias"]
    return "\n".join(lines) + "\n"


def _window(cfg, src, fam, L, taken):
    """(window keys or None, how many of the L layers use it): from the family's rule, checked
    against the config's layer_types where it has one (newer transformers write it); a class
    default it uses is added to taken"""
    how, window, wl = fam["window"], None, L
    if how == "sliding_window" and cfg.get("sliding_window") is not None:
        window = _int(cfg, src, "sliding_window")
    elif how == "use_sliding_window" and cfg.get("use_sliding_window") is not None and \
            not isinstance(cfg["use_sliding_window"], bool):
        raise ValueError(f"{_clean(src)}: key 'use_sliding_window': {_clean(repr(cfg['use_sliding_window']))[:40]} is not "
                         "true or false")
    elif how == "use_sliding_window" and cfg.get("use_sliding_window"):
        # Qwen2/3 (transformers' Qwen2Config): the layers from max_window_layers on use the window, none
        # when it is L or more; early vLLM read it the other way round (the layers below it)
        window = _int(cfg, src, "sliding_window")
        wl = max(0, L - _int(cfg, src, "max_window_layers", lo=0))
    elif how == "alternate":  # Gemma-2/3: layer i is global when (i + 1) % pattern == 0
        window = _int(cfg, src, "sliding_window")
        pat = fam["pattern"]
        if isinstance(pat, tuple):  # (key, class default): the layer_types a config gives win over the default
            key, default = pat
            pat = _int(cfg, src, key) if cfg.get(key) is not None else None if cfg.get("layer_types") is not None else default
            if cfg.get(key) is None and pat is not None:
                taken.append(key)
                taken.sort()
        wl = L - L // pat if pat else None
    types = cfg.get("layer_types")
    if types is not None:
        if not isinstance(types, list) or len(types) != L or not all(isinstance(x, str) for x in types):
            raise ValueError(f"{_clean(src)}: key 'layer_types': not a list of {L} names (num_hidden_layers)")
        other = sorted(set(types) - {"full_attention", "sliding_attention"})
        if other:
            raise ValueError(f"{_clean(src)}: key 'layer_types': {_clean(other[0])[:40]!r} layers are not described "
                             "here (full_attention and sliding_attention are): write them as layer lines (traces/FORMAT.md)")
        n = types.count("sliding_attention")
        if n and window is None:
            raise ValueError(f"{_clean(src)}: key 'layer_types': {n} sliding_attention layers, but the config gives "
                             "them no window this converter reads")
        if window is not None and wl is not None and n != wl:
            raise ValueError(f"{_clean(src)}: key 'layer_types': {n} sliding_attention layers, where the {fam['window']} "
                             f"rule of this family gives {wl}")
        wl = n
    if wl == 0:
        window = None
    return window, wl


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m mxsim.hf",
                                description="Writes an mxsim model file (traces/FORMAT.md) from a Hugging Face "
                                            "config.json; exit 2 on bad input, with nothing written.")
    p.add_argument("config", help="the model's config.json")
    p.add_argument("--mode", choices=("decode", "prefill"), default="decode", help="default: decode")
    p.add_argument("--ctx", type=int, help="decode: keys cached per sequence")
    p.add_argument("--seq", type=int, help="prefill: query tokens per sequence")
    p.add_argument("--batch", type=int, default=1, help="sequences (default 1)")
    p.add_argument("--kv-cache", type=int, choices=(0, 1), help="prefill: 1 (default) keeps K and V as a KV cache")
    p.add_argument("--name", help="the model file's name (default: the config's _name_or_path, else model_type)")
    p.add_argument("--text-config", action="store_true",
                   help="a multimodal config: describe its language model (text_config) alone, without the vision encoder")
    p.add_argument("--routing", choices=("balanced", "uniform"),
                   help="a mixture of experts' token routing (default balanced: as many experts as the tokens reach)")
    p.add_argument("-o", "--out", required=True, help="the model file to write")
    a = p.parse_args(argv)
    try:
        text = model_from_hf(a.config, a.mode, a.ctx, a.seq, a.batch, a.kv_cache, a.name, a.text_config, a.routing)
        data = text.encode("utf-8")
        if os.path.exists(a.out) and os.path.exists(a.config) and os.path.samefile(a.out, a.config):
            raise ValueError(f"-o {_clean(a.out)}: is the config it reads")
        if os.path.isdir(a.out):
            raise ValueError(f"-o {_clean(a.out)}: is a directory")
    except (OSError, ValueError, TypeError, UnicodeError) as e:
        print(f"python -m mxsim.hf: error: {_clean(e)}", file=sys.stderr)
        return 2
    tmp = None
    try:  # atomically: a temporary file beside OUT, renamed over it
        fd, tmp = tempfile.mkstemp(prefix=".mxsim-hf-", dir=os.path.dirname(os.path.abspath(a.out)))
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, a.out)
    except OSError as e:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        print(f"python -m mxsim.hf: error: {_clean(a.out)}: {_clean(e.strerror or e)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
