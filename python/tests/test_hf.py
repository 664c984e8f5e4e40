"""mxsim.hf: model files from Hugging Face config.json values, against the published parameter
counts (model cards, the Hub's totals and keras-hub's preset metadata, not mxsim's; Llama-2-7B's
checkpoint holds 2,048 more elements, rotary buffers, and Qwen3-0.6B's a second copy of its tied LM
head, neither a parameter mxsim counts) and hand MAC formulas."""
import json
import os
import subprocess
import sys

import pytest

import mxsim
import mxsim.hf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CFG = os.path.join(ROOT, "workloads", "configs", "small.ini")

# config.json values as published on the Hugging Face hub (only the keys the converter reads)
CONFIGS = {
    "meta-llama/Llama-2-7b-hf": (dict(model_type="llama", hidden_size=4096, num_hidden_layers=32, num_attention_heads=32,
                                      num_key_value_heads=32, intermediate_size=11008, vocab_size=32000,
                                      tie_word_embeddings=False), 6738415616),
    "meta-llama/Meta-Llama-3-8B": (dict(model_type="llama", hidden_size=4096, num_hidden_layers=32, num_attention_heads=32,
                                        num_key_value_heads=8, intermediate_size=14336, vocab_size=128256,
                                        tie_word_embeddings=False), 8030261248),
    "mistralai/Mistral-7B-v0.1": (dict(model_type="mistral", hidden_size=4096, num_hidden_layers=32,
                                       num_attention_heads=32, num_key_value_heads=8, intermediate_size=14336,
                                       vocab_size=32000, sliding_window=4096, tie_word_embeddings=False), 7241732096),
    "mistralai/Mixtral-8x7B-v0.1": (dict(model_type="mixtral", hidden_size=4096, num_hidden_layers=32,
                                         num_attention_heads=32, num_key_value_heads=8, intermediate_size=14336,
                                         num_local_experts=8, num_experts_per_tok=2, vocab_size=32000,
                                         sliding_window=None, tie_word_embeddings=False), 46702792704),
    "Qwen/Qwen2-7B": (dict(model_type="qwen2", hidden_size=3584, num_hidden_layers=28, num_attention_heads=28,
                           num_key_value_heads=4, intermediate_size=18944, vocab_size=152064, use_sliding_window=False,
                           tie_word_embeddings=False), 7615616512),
    "Qwen/Qwen1.5-MoE-A2.7B": (dict(model_type="qwen2_moe", hidden_size=2048, num_hidden_layers=24,
                                    num_attention_heads=16, num_key_value_heads=16, intermediate_size=5632,
                                    moe_intermediate_size=1408, shared_expert_intermediate_size=5632, num_experts=60,
                                    num_experts_per_tok=4, decoder_sparse_step=1, mlp_only_layers=[],
                                    vocab_size=151936, use_sliding_window=False, tie_word_embeddings=False),
                               14315784192),
    "Qwen/Qwen3-30B-A3B": (dict(model_type="qwen3_moe", hidden_size=2048, num_hidden_layers=48, num_attention_heads=32,
                                num_key_value_heads=4, head_dim=128, intermediate_size=6144, moe_intermediate_size=768,
                                num_experts=128, num_experts_per_tok=8, decoder_sparse_step=1, mlp_only_layers=[],
                                vocab_size=151936, use_sliding_window=False, tie_word_embeddings=False),
                           30532122624),
    "google/gemma-7b": (dict(model_type="gemma", hidden_size=3072, num_hidden_layers=28, num_attention_heads=16,
                             num_key_value_heads=16, head_dim=256, intermediate_size=24576, vocab_size=256000),
                        8537680896),
    "google/gemma-2-2b": (dict(model_type="gemma2", hidden_size=2304, num_hidden_layers=26, num_attention_heads=8,
                               num_key_value_heads=4, head_dim=256, intermediate_size=9216, vocab_size=256000,
                               sliding_window=4096), 2614341888),
    "google/gemma-2-9b": (dict(model_type="gemma2", hidden_size=3584, num_hidden_layers=42, num_attention_heads=16,
                               num_key_value_heads=8, head_dim=256, intermediate_size=14336, vocab_size=256000,
                               sliding_window=4096), 9241705984),
    "google/gemma-3-1b-pt": (dict(model_type="gemma3_text", hidden_size=1152, num_hidden_layers=26, num_attention_heads=4,
                                  num_key_value_heads=1, head_dim=256, intermediate_size=6912, vocab_size=262144,
                                  sliding_window=512, sliding_window_pattern=6), 999885952),
    # Gemma-2-27B and Gemma-3 (text only): keras-hub's preset metadata (keras-team/keras-hub,
    # keras_hub/src/models/gemma/gemma_presets.py and gemma3/gemma3_presets.py, "params"), whose
    # Gemma-3 vocabulary is the tokenizer's 262,144 (the Hugging Face multimodal checkpoints' language
    # models have 262,208 rows, 64 more: test_text_config)
    "google/gemma-2-27b": (dict(model_type="gemma2", hidden_size=4608, num_hidden_layers=46, num_attention_heads=32,
                                num_key_value_heads=16, head_dim=128, intermediate_size=36864, vocab_size=256000,
                                sliding_window=4096), 27227128320),
    "google/gemma-3-270m": (dict(model_type="gemma3_text", hidden_size=640, num_hidden_layers=18, num_attention_heads=4,
                                 num_key_value_heads=1, head_dim=256, intermediate_size=2048, vocab_size=262144,
                                 sliding_window=512, sliding_window_pattern=6), 268098176),
    "google/gemma-3-4b (text)": (dict(model_type="gemma3_text", hidden_size=2560, num_hidden_layers=34,
                                      num_attention_heads=8, num_key_value_heads=4, head_dim=256,
                                      intermediate_size=10240, vocab_size=262144, sliding_window=1024,
                                      sliding_window_pattern=6), 3880099328),
    "google/gemma-3-12b (text)": (dict(model_type="gemma3_text", hidden_size=3840, num_hidden_layers=48,
                                       num_attention_heads=16, num_key_value_heads=8, head_dim=256,
                                       intermediate_size=15360, vocab_size=262144, sliding_window=1024,
                                       sliding_window_pattern=6), 11765788416),
    "google/gemma-3-27b (text)": (dict(model_type="gemma3_text", hidden_size=5376, num_hidden_layers=62,
                                       num_attention_heads=32, num_key_value_heads=16, head_dim=128,
                                       intermediate_size=21504, vocab_size=262144, sliding_window=1024,
                                       sliding_window_pattern=6), 27009002240),
    # DeepSeek: the totals without the multi-token-prediction layer (V3's checkpoint holds one more,
    # which the modelling code does not run): model cards "671B" and "15.7B"; exact counts by hand from
    # these values (tests/timing/published_models.sh writes the sums out)
    "deepseek-ai/DeepSeek-V3": (dict(model_type="deepseek_v3", hidden_size=7168, num_hidden_layers=61,
                                     num_attention_heads=128, num_key_value_heads=128, q_lora_rank=1536,
                                     kv_lora_rank=512, qk_nope_head_dim=128, qk_rope_head_dim=64, v_head_dim=128,
                                     intermediate_size=18432, moe_intermediate_size=2048, n_routed_experts=256,
                                     n_shared_experts=1, num_experts_per_tok=8, first_k_dense_replace=3,
                                     moe_layer_freq=1, vocab_size=129280, tie_word_embeddings=False,
                                     num_nextn_predict_layers=1), 671026419200),
    "deepseek-ai/DeepSeek-V2-Lite": (dict(model_type="deepseek_v2", hidden_size=2048, num_hidden_layers=27,
                                          num_attention_heads=16, num_key_value_heads=16, q_lora_rank=None,
                                          kv_lora_rank=512, qk_nope_head_dim=128, qk_rope_head_dim=64, v_head_dim=128,
                                          intermediate_size=10944, moe_intermediate_size=1408, n_routed_experts=64,
                                          n_shared_experts=2, num_experts_per_tok=6, first_k_dense_replace=1,
                                          moe_layer_freq=1, vocab_size=102400, tie_word_embeddings=False),
                                     15706484224),
    # gpt-oss: the model card (arXiv:2508.10925, table 1) gives 20.91B and 116.83B in total; exact
    # counts by hand from these values and transformers' GptOss modules (q, k, v, o biases, one sink
    # logit per head, the router's bias, each expert's gate_up and down biases): test_gpt_oss
    "openai/gpt-oss-20b": (dict(model_type="gpt_oss", hidden_size=2880, num_hidden_layers=24, num_attention_heads=64,
                                num_key_value_heads=8, head_dim=64, intermediate_size=2880, num_local_experts=32,
                                num_experts_per_tok=4, vocab_size=201088, sliding_window=128, attention_bias=True,
                                tie_word_embeddings=False,
                                layer_types=["sliding_attention", "full_attention"] * 12), 20914757184),
    "openai/gpt-oss-120b": (dict(model_type="gpt_oss", hidden_size=2880, num_hidden_layers=36, num_attention_heads=64,
                                 num_key_value_heads=8, head_dim=64, intermediate_size=2880, num_local_experts=128,
                                 num_experts_per_tok=4, vocab_size=201088, sliding_window=128, attention_bias=True,
                                 tie_word_embeddings=False,
                                 layer_types=["sliding_attention", "full_attention"] * 18), 116829156672),
    # plain FFNs and LayerNorms with biases, each exact total by hand from transformers' modelling code
    # (GPT-2's Conv1D and learned positions; OPT's positions with 2 rows of offset; GPT-NeoX; Phi):
    # Pythia's README publishes its totals exactly (70,426,624 and 6,857,302,016; non-embedding
    # 18,915,328 and 6,444,163,072: test_plain_ffn_families); the others' cards round them (GPT-2
    # 124M and 1.5B, OPT 125M and 6.7B, Phi-2 2.7B)
    "openai-community/gpt2": (dict(model_type="gpt2", n_embd=768, n_layer=12, n_head=12, n_inner=None, n_positions=1024,
                                   vocab_size=50257), 124439808),
    "openai-community/gpt2-xl": (dict(model_type="gpt2", n_embd=1600, n_layer=48, n_head=25, n_inner=None,
                                      n_positions=1024, vocab_size=50257), 1557611200),
    "facebook/opt-125m": (dict(model_type="opt", hidden_size=768, num_hidden_layers=12, num_attention_heads=12,
                               ffn_dim=3072, max_position_embeddings=2048, vocab_size=50272, word_embed_proj_dim=768,
                               do_layer_norm_before=True, enable_bias=True), 125239296),
    "facebook/opt-6.7b": (dict(model_type="opt", hidden_size=4096, num_hidden_layers=32, num_attention_heads=32,
                               ffn_dim=16384, max_position_embeddings=2048, vocab_size=50272, word_embed_proj_dim=4096,
                               do_layer_norm_before=True), 6658473984),
    "EleutherAI/pythia-70m": (dict(model_type="gpt_neox", hidden_size=512, num_hidden_layers=6, num_attention_heads=8,
                                   intermediate_size=2048, vocab_size=50304, tie_word_embeddings=False), 70426624),
    "EleutherAI/pythia-6.9b": (dict(model_type="gpt_neox", hidden_size=4096, num_hidden_layers=32,
                                    num_attention_heads=32, intermediate_size=16384, vocab_size=50432,
                                    tie_word_embeddings=False), 6857302016),
    "microsoft/phi-2": (dict(model_type="phi", hidden_size=2560, num_hidden_layers=32, num_attention_heads=32,
                             num_key_value_heads=None, intermediate_size=10240, vocab_size=51200,
                             tie_word_embeddings=False, qk_layernorm=False), 2779683840),
    # encoders as AutoModel loads them (BertModel with its pooler, no task head), exact totals by hand
    # (test_encoders); the papers round them: BERT-base 110M, RoBERTa-base 125M, DistilBERT 66M
    "google-bert/bert-base-uncased": (dict(model_type="bert", hidden_size=768, num_hidden_layers=12,
                                           num_attention_heads=12, intermediate_size=3072, max_position_embeddings=512,
                                           type_vocab_size=2, vocab_size=30522, position_embedding_type="absolute"),
                                      109482240),
    "FacebookAI/roberta-large": (dict(model_type="roberta", hidden_size=1024, num_hidden_layers=24,
                                      num_attention_heads=16, intermediate_size=4096, max_position_embeddings=514,
                                      type_vocab_size=1, vocab_size=50265), 355359744),
    "distilbert/distilbert-base-uncased": (dict(model_type="distilbert", dim=768, n_layers=6, n_heads=12,
                                                hidden_dim=3072, max_position_embeddings=512, vocab_size=30522),
                                           66362880),
    "microsoft/Phi-3-mini-4k-instruct": (dict(model_type="phi3", hidden_size=3072, num_hidden_layers=32,
                                              num_attention_heads=32, num_key_value_heads=32, intermediate_size=8192,
                                              vocab_size=32064, sliding_window=2047, tie_word_embeddings=False),
                                         3821079552),
}


def gen(tmp_path, text, tag="m"):
    p = tmp_path / f"{tag}.model"
    p.write_text(text)
    return mxsim.Trace.gen(p)


def weights(tr):
    """`mxsim memory`'s TOTAL weights (elements) of trace tr"""
    return {r["item"]: r for r in mxsim.memory(CFG, tr)}["TOTAL weights"]["elems"]


@pytest.mark.parametrize("repo", sorted(CONFIGS))
def test_published_parameter_counts(tmp_path, repo):
    cfg, published = CONFIGS[repo]
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    mode = dict(mode="prefill", seq=100) if mxsim.hf.FAMILIES[cfg["model_type"]].get("encoder") else dict(ctx=1000)
    tr = gen(tmp_path, mxsim.hf.model_from_hf(tmp_path / "config.json", batch=3, **mode))
    assert weights(tr) == published


def test_macs_by_hand(tmp_path):
    # Qwen1.5-MoE-A2.7B prefill of 2 x 100 tokens: per token the weights less the embedding, norms,
    # biases, the shared-expert gate (a param: not timed) and the 56 idle experts of each layer, plus
    # QK^T and PV (2 L S T H hd per sequence); the LM head runs on each sequence's last token
    cfg, P = CONFIGS["Qwen/Qwen1.5-MoE-A2.7B"]
    tr = gen(tmp_path, mxsim.hf.model_from_hf(cfg, mode="prefill", seq=100, batch=2))
    d, L, V, H, hd = 2048, 24, 151936, 16, 128
    params = V * d + (2 * L + 1) * d + L * 3 * d + L * d
    idle = L * (60 - 4) * 3 * d * 1408
    want = 200 * (P - params - V * d - idle) + 2 * V * d + 2 * L * 2 * 100 * 100 * H * hd
    assert mxsim.run(CFG, tr)[-1]["n_macs"] == want


def test_window_and_tied(tmp_path):
    # Mistral's window caps the keys (8192 cached, 4096 attended); Gemma's LM head is the embedding
    mis = mxsim.hf.model_from_hf(CONFIGS["mistralai/Mistral-7B-v0.1"][0], ctx=8192)
    assert "window = 4096" in mis
    ops = {o["name"]: o for o in gen(tmp_path, mis).ops}
    assert ops["attn_scores"]["n"] == 4096
    gem = mxsim.hf.model_from_hf(CONFIGS["google/gemma-7b"][0], ctx=64)
    assert "embed_tokens" not in gem and "vocab = 256000" in gem


def test_gpt_oss(tmp_path):
    # totals by hand: per layer q, k, v, o with biases, 64 sinks, router E x d + E, E experts of
    # d x 2f + 2f and f x d + d, two norms; embedding and LM head apart; final norm
    d, f, H, kvh, hd, V = 2880, 2880, 64, 8, 64, 201088
    attn = d * (H + 2 * kvh) * hd + (H + 2 * kvh) * hd + H * hd * d + d
    for repo, L, E, card in (("openai/gpt-oss-20b", 24, 32, 20.91e9), ("openai/gpt-oss-120b", 36, 128, 116.83e9)):
        cfg, total = CONFIGS[repo]
        expert = d * 2 * f + 2 * f + f * d + d
        assert total == L * (attn + H + E * d + E + E * expert + 2 * d) + 2 * V * d + d
        assert round(total / 1e7) == round(card / 1e7)
        # decode of one token: the weight GEMMs are the card's active parameters (3.61B, 5.13B) less
        # the biases, sinks and norms, and the embedding's lookup; the 128-key window on every other layer
        tr = gen(tmp_path, mxsim.hf.model_from_hf(cfg, mode="decode", ctx=1024, batch=1), repo[7:])
        active = L * (d * (H + 2 * kvh) * hd + H * hd * d + E * d + 4 * 3 * d * f) + V * d
        attn_macs = (L // 2) * H * 2 * hd * (1024 + 128)
        assert mxsim.run(CFG, tr)[-1]["n_macs"] == active + attn_macs
        small = L * ((H + 2 * kvh) * hd + d + H + E + 4 * (2 * f + d) + 2 * d) + d
        assert round((active + small) / 1e7) == {24: 361, 36: 513}[L]
    # attention_bias false leaves the q, k, v, o biases out; the class default is true
    cfg = dict(CONFIGS["openai/gpt-oss-20b"][0])
    assert "attn_bias" not in mxsim.hf.model_from_hf(dict(cfg, attention_bias=False), ctx=8)
    del cfg["attention_bias"]
    assert "param = attn_bias 8000 24 bias" in mxsim.hf.model_from_hf(cfg, ctx=8)
    with pytest.raises(ValueError, match="'layer_types': 24 sliding_attention layers, where the alternate rule"):
        mxsim.hf.model_from_hf(dict(cfg, layer_types=["sliding_attention"] * 24), ctx=8)
    with pytest.raises(ValueError, match="'sliding_window': missing"):
        mxsim.hf.model_from_hf({k: v for k, v in cfg.items() if k != "sliding_window"}, ctx=8)


def test_plain_ffn_families(tmp_path):
    # GPT-2 by hand: tied wte, wpe, per layer 2 LayerNorms (weight, bias), c_attn, attn c_proj, c_fc,
    # mlp c_proj with biases; ln_f
    cfg, total = CONFIGS["openai-community/gpt2"]
    d, L, V, P = 768, 12, 50257, 1024
    assert total == V * d + P * d + L * (2 * 2 * d + 3 * d * d + 3 * d + d * d + d + 4 * d * d + 4 * d + 4 * d * d + d) + 2 * d
    # Pythia's published non-embedding counts: the totals less embed_in and embed_out
    for repo, rows, width, ne in (("EleutherAI/pythia-70m", 50304, 512, 18915328),
                                  ("EleutherAI/pythia-6.9b", 50432, 4096, 6444163072)):
        assert CONFIGS[repo][1] - 2 * rows * width == ne
    # GPT-2 prefill, 2 x 10 tokens: plain FFN (c_fc, c_proj), attention 2 L H S^2 hd per sequence, the
    # tied LM head on each sequence's last token
    tr = gen(tmp_path, mxsim.hf.model_from_hf(cfg, mode="prefill", seq=10, batch=2))
    ops = {o["name"]: o for o in tr.ops}
    assert "ffn_up" in ops and "ffn_gate_up" not in ops
    want = 20 * L * (4 * d * d + 2 * 4 * d * d) + 2 * L * 2 * 10 * 10 * 12 * 64 + 2 * V * d
    assert mxsim.run(CFG, tr)[-1]["n_macs"] == want
    # what these families' code would add and the converter does not describe is refused by name
    for repo, key, value in (("openai-community/gpt2", "add_cross_attention", True),
                             ("facebook/opt-125m", "word_embed_proj_dim", 512),
                             ("facebook/opt-125m", "do_layer_norm_before", False),
                             ("microsoft/phi-2", "qk_layernorm", True)):
        with pytest.raises(ValueError, match=f"key '{key}': .* is not .*not described here"):
            mxsim.hf.model_from_hf(dict(CONFIGS[repo][0], **{key: value}), ctx=8)
    # learned positions bound the sequence: GPT-2 has 1024
    mxsim.hf.model_from_hf(cfg, ctx=1023)
    with pytest.raises(ValueError, match="'n_positions': 1024 learned positions, and this decode's token is position 1025"):
        mxsim.hf.model_from_hf(cfg, ctx=1024)
    with pytest.raises(ValueError, match="'max_position_embeddings': 2048 learned positions, and this prefill has seq 2049"):
        mxsim.hf.model_from_hf(CONFIGS["facebook/opt-125m"][0], mode="prefill", seq=2049)
    # keys these families' code reads and the converter does not describe (an audit's list)
    for repo, key, value in (("facebook/opt-125m", "layer_norm_elementwise_affine", False),
                             ("facebook/opt-125m", "_remove_final_layer_norm", True),
                             ("openai-community/gpt2", "head_dim", 32),
                             ("EleutherAI/pythia-70m", "num_key_value_heads", 1)):
        with pytest.raises(ValueError, match=f"key '{key}': .* is not "):
            mxsim.hf.model_from_hf(dict(CONFIGS[repo][0], **{key: value}), ctx=8)
    mxsim.hf.model_from_hf(dict(cfg, head_dim=64, num_key_value_heads=12), ctx=8)  # saying the same is accepted
    for extra in ({}, {"head_dim": 64}):  # a head_dim does not make 770 / 12 whole
        with pytest.raises(ValueError, match="key 'n_head': n_embd 770 is not a multiple of n_head 12"):
            mxsim.hf.model_from_hf(dict(cfg, n_embd=770, **extra), ctx=8)
    with pytest.raises(ValueError, match="key 'n_embd': 536870913 makes the FFN width \\(n_inner null: 4 x n_embd\\) "
                                         "2147483652, more than 2\\^31"):
        mxsim.hf.model_from_hf(dict(cfg, n_embd=2 ** 29 + 1, n_head=1), ctx=8)
    # OPT's enable_bias false leaves every projection's bias out; GPT-NeoX's attention_bias the attention's
    p = weights(gen(tmp_path, mxsim.hf.model_from_hf(dict(CONFIGS["facebook/opt-125m"][0], enable_bias=False), ctx=8)))
    assert p == 125239296 - 12 * (4 * 768 + 3072 + 768)
    text = mxsim.hf.model_from_hf(dict(CONFIGS["EleutherAI/pythia-70m"][0], attention_bias=False), ctx=8)
    assert "attn_bias" not in text and "param = mlp_bias 2560 6 bias" in text


def test_encoders(tmp_path):
    # by hand: word, position and token-type embeddings, the embeddings' LayerNorm, per layer q, k, v,
    # o, up, down with biases and two LayerNorms, the pooler (d x d + d); DistilBERT has neither
    # token types nor pooler
    def total(V, P, T, d, L, f, pooler):
        return (V + P + T) * d + 2 * d + L * (4 * d * d + 4 * d + 2 * d * f + f + d + 4 * d) + pooler * (d * d + d)
    assert CONFIGS["google-bert/bert-base-uncased"][1] == total(30522, 512, 2, 768, 12, 3072, 1)
    assert CONFIGS["FacebookAI/roberta-large"][1] == total(50265, 514, 1, 1024, 24, 4096, 1)
    assert CONFIGS["distilbert/distilbert-base-uncased"][1] == total(30522, 512, 0, 768, 6, 3072, 0)
    # BERT-base at 128 tokens: the bundled trace (workloads/models/bert-base.model, written by hand from
    # google-research/bert's bert_config.json) op for op, plus the pooler on each sequence's first token
    cfg = CONFIGS["google-bert/bert-base-uncased"][0]
    tr = gen(tmp_path, mxsim.hf.model_from_hf(cfg, mode="prefill", seq=128))
    ref = mxsim.Trace.load(os.path.join(ROOT, "traces", "bert-base.trace"))
    key = ("kind", "name", "m", "n", "k", "repeat")
    got = [tuple(o[x] for x in key) for o in tr.ops]
    assert got[:-1] == [tuple(o[x] for x in key) for o in ref.ops]
    assert got[-1][1:5] == ("pooler", 1, 768, 768)
    assert mxsim.run(CFG, tr)[-1]["n_macs"] == mxsim.run(CFG, ref)[-1]["n_macs"] + 768 * 768
    # RoBERTa's positions start after padding_idx = pad_token_id (1): 512 tokens of 514 rows; 508 with 5
    mxsim.hf.model_from_hf(CONFIGS["FacebookAI/roberta-large"][0], mode="prefill", seq=512)
    rob5 = dict(CONFIGS["FacebookAI/roberta-large"][0], pad_token_id=5)
    mxsim.hf.model_from_hf(rob5, mode="prefill", seq=508)
    with pytest.raises(ValueError, match="508 learned positions \\(514 less 6 reserved\\)"):
        mxsim.hf.model_from_hf(rob5, mode="prefill", seq=509)
    with pytest.raises(ValueError, match="key 'num_key_value_heads': 1 is not 12"):
        mxsim.hf.model_from_hf(dict(cfg, num_key_value_heads=1), mode="prefill", seq=8)
    with pytest.raises(ValueError, match="'max_position_embeddings': 512 learned positions \\(514 less 2 reserved\\)"):
        mxsim.hf.model_from_hf(CONFIGS["FacebookAI/roberta-large"][0], mode="prefill", seq=513)
    with pytest.raises(ValueError, match="mode: bert is an encoder"):
        mxsim.hf.model_from_hf(cfg, ctx=8)
    with pytest.raises(ValueError, match="kv_cache: bert is an encoder"):
        mxsim.hf.model_from_hf(cfg, mode="prefill", seq=8, kv_cache=1)
    with pytest.raises(ValueError, match="'position_embedding_type': 'relative_key' is not \"absolute\""):
        mxsim.hf.model_from_hf(dict(cfg, position_embedding_type="relative_key"), mode="prefill", seq=8)
    with pytest.raises(ValueError, match="'is_decoder': True is not false"):
        mxsim.hf.model_from_hf(dict(cfg, is_decoder=True), mode="prefill", seq=8)


def test_vit(tmp_path):
    # google/vit-base-patch16-224-in21k as ViTModel loads it (86,389,248 by hand: patch embedding
    # 3 x 16^2 x 768 + 768, [CLS], 197 positions, 12 layers as BERT's, final LayerNorm, pooler)
    cfg = dict(model_type="vit", hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072,
               image_size=224, patch_size=16, num_channels=3, qkv_bias=True)
    d, f, L = 768, 3072, 12
    want = 3 * 256 * d + d + d + 197 * d + L * (4 * d * d + 4 * d + 2 * d * f + f + d + 4 * d) + 2 * d + d * d + d
    assert want == 86389248
    tr = gen(tmp_path, mxsim.hf.model_from_hf(cfg, mode="prefill", batch=2))
    assert weights(tr) == want
    # the bundled ViT-B/16 trace (written by hand from the same config) op for op, at batch 1; its
    # classifier head is ImageNet's, the converter's pooler the base model's
    tr1 = gen(tmp_path, mxsim.hf.model_from_hf(cfg, mode="prefill"), "b1")
    ref = mxsim.Trace.load(os.path.join(ROOT, "traces", "vit-b16.trace"))
    key = ("kind", "name", "m", "n", "k", "repeat")
    assert [tuple(o[x] for x in key) for o in tr1.ops][:-1] == [tuple(o[x] for x in key) for o in ref.ops][:-1]
    ops = {o["name"]: o for o in tr.ops}
    assert (ops["patch_embed"]["m"], ops["qkv_proj"]["m"], ops["pooler"]["m"]) == (2 * 196, 2 * 197, 2)
    # ViTPooler maps hidden_size to pooler_output_size (null: hidden_size)
    tr5 = gen(tmp_path, mxsim.hf.model_from_hf(dict(cfg, pooler_output_size=512), mode="prefill"), "p512")
    assert weights(tr5) == want - d * d - d + d * 512 + 512
    assert {o["name"]: o for o in tr5.ops}["pooler"]["n"] == 512
    # qkv_bias false leaves q, k, v's biases out, the output projection's in
    assert "param = o_bias 768 12 bias" in mxsim.hf.model_from_hf(dict(cfg, qkv_bias=False), mode="prefill")
    with pytest.raises(ValueError, match="seq: 100, where a 224 x 224 image in 16 x 16 patches is 197 tokens"):
        mxsim.hf.model_from_hf(cfg, mode="prefill", seq=100)
    with pytest.raises(ValueError, match="batch: 20000000 images of 196 patches are more than 2\\^31 rows"):
        mxsim.hf.model_from_hf(cfg, mode="prefill", batch=20000000)
    with pytest.raises(ValueError, match="'patch_size': 15 does not divide image_size 224"):
        mxsim.hf.model_from_hf(dict(cfg, patch_size=15), mode="prefill")


def test_routing(tmp_path):
    # DeepSeek-V3 decode of 32 sequences: 32 x 8 token-expert pairs over 256 experts per MoE layer.
    # balanced: every pair its own expert (256 run, 1 token each); uniform: an expert is missed by a
    # token with probability 1 - 8/256, by all 32 with (1 - 8/256)^32, so 256 (1 - 0.96875^32) =
    # 163.3 run, as a Monte Carlo draw of 2,000 layers confirms; 163 experts carry the 256 pairs, 93
    # of them 2 tokens
    import numpy as np
    E, k, T = 256, 8, 32
    rng = np.random.default_rng(1)
    draws = [len(set(np.concatenate([rng.choice(E, k, replace=False) for _ in range(T)]))) for _ in range(2000)]
    assert abs(np.mean(draws) - E * (1 - (1 - k / E) ** T)) < 0.2
    cfg, P = CONFIGS["deepseek-ai/DeepSeek-V3"]
    L = 61 - 3
    for routing, want in ((None, {1: 256}), ("balanced", {1: 256}), ("uniform", {2: 93, 1: 70}),
                          ("uniform-b3", {2: 1, 1: 22})):
        batch = 3 if routing == "uniform-b3" else T  # 24 pairs, 256 (1 - (1 - 8/256)^3) = 23.3 run
        text = mxsim.hf.model_from_hf(cfg, ctx=64, batch=batch, routing=routing and routing.split("-")[0])
        assert ("routing = uniform" in text) == (routing is not None and routing.startswith("uniform"))
        tr = gen(tmp_path, text, str(routing))
        ops = [o for o in tr.ops if o["name"].startswith("expert_down")]
        assert {o["m"]: o["repeat"] // L for o in ops} == want
        assert sum(o["m"] * o["repeat"] for o in ops) == L * batch * k  # every pair runs once
        # all 256 experts stored once, however the pairs split over ops (the published total)
        assert weights(tr) == P
    with pytest.raises(ValueError, match="routing: 'random' is not balanced or uniform"):
        mxsim.hf.model_from_hf(cfg, ctx=64, routing="random")
    with pytest.raises(ValueError, match="routing: llama has no mixture of experts"):
        mxsim.hf.model_from_hf(CONFIGS["meta-llama/Llama-2-7b-hf"][0], ctx=64, routing="uniform")


def test_llama_biases(tmp_path):
    # LlamaAttention's q, k, v, o and LlamaMLP's gate, up, down take bias=attention_bias / mlp_bias
    cfg, P = CONFIGS["meta-llama/Llama-2-7b-hf"]
    d, L, f = 4096, 32, 11008
    for ab, mb, extra in ((True, False, L * 4 * d), (False, True, L * (2 * f + d)), (True, True, L * (4 * d + 2 * f + d))):
        tr = gen(tmp_path, mxsim.hf.model_from_hf(dict(cfg, attention_bias=ab, mlp_bias=mb), ctx=8))
        assert weights(tr) == P + extra


def test_refusals():
    base = dict(CONFIGS["meta-llama/Llama-2-7b-hf"][0])
    with pytest.raises(ValueError, match="'model_type': 'falcon' is not one"):
        mxsim.hf.model_from_hf(dict(base, model_type="falcon"), ctx=8)
    with pytest.raises(ValueError, match="'attention_bias': biases of this kind are not described for mistral"):
        mxsim.hf.model_from_hf(dict(CONFIGS["mistralai/Mistral-7B-v0.1"][0], attention_bias=True), ctx=8)
    with pytest.raises(ValueError, match="'mlp_bias': 'yes' is not true or false"):
        mxsim.hf.model_from_hf(dict(base, mlp_bias="yes"), ctx=8)
    with pytest.raises(ValueError, match="'max_window_layers': missing"):
        mxsim.hf.model_from_hf(dict(CONFIGS["Qwen/Qwen2-7B"][0], use_sliding_window=True, sliding_window=64), ctx=8)
    with pytest.raises(ValueError, match="'mlp_only_layers'"):
        mxsim.hf.model_from_hf(dict(CONFIGS["Qwen/Qwen3-30B-A3B"][0], mlp_only_layers=[0]), ctx=8)
    with pytest.raises(ValueError, match="'hidden_size': missing"):
        mxsim.hf.model_from_hf({k: v for k, v in base.items() if k != "hidden_size"}, ctx=8)
    with pytest.raises(ValueError, match="decode: give ctx"):
        mxsim.hf.model_from_hf(base)
    with pytest.raises(ValueError, match="'num_hidden_layers': '32' is not an integer"):
        mxsim.hf.model_from_hf(dict(base, num_hidden_layers="32"), ctx=8)


def test_more_refusals(tmp_path):
    base = dict(CONFIGS["mistralai/Mistral-7B-v0.1"][0])
    (tmp_path / "list.json").write_text("[1, 2]")
    with pytest.raises(ValueError, match="a config.json is a JSON object, not list"):
        mxsim.hf.model_from_hf(tmp_path / "list.json", ctx=8)
    with pytest.raises(ValueError, match="'model_type'"):
        mxsim.hf.model_from_hf(dict(base, model_type=["llama"]), ctx=8)
    # Mistral's class defaults (8 KV heads, a 4096-key window) are not generic: absent is refused
    with pytest.raises(ValueError, match="'sliding_window': missing"):
        mxsim.hf.model_from_hf({k: v for k, v in base.items() if k != "sliding_window"}, ctx=8)
    with pytest.raises(ValueError, match="'head_dim': missing"):
        mxsim.hf.model_from_hf({k: v for k, v in CONFIGS["google/gemma-7b"][0].items() if k != "head_dim"}, ctx=8)
    with pytest.raises(ValueError, match="3 does not divide num_attention_heads 32"):
        mxsim.hf.model_from_hf(dict(base, num_key_value_heads=3), ctx=8)
    with pytest.raises(ValueError, match="9 is more than num_local_experts = 8"):
        mxsim.hf.model_from_hf(dict(CONFIGS["mistralai/Mixtral-8x7B-v0.1"][0], num_experts_per_tok=9), ctx=8)
    with pytest.raises(ValueError, match="'hidden_size'.*1..2\\^31"):
        mxsim.hf.model_from_hf(dict(base, hidden_size=2 ** 32), ctx=8)
    with pytest.raises(ValueError, match="'layer_types'"):
        mxsim.hf.model_from_hf(dict(base, layer_types=["sliding_attention", "full_attention"]), ctx=8)
    with pytest.raises(ValueError, match="kv_cache"):
        mxsim.hf.model_from_hf(base, ctx=8, kv_cache=1)
    # a file name or _name_or_path with a newline cannot add a line to the model file
    (tmp_path / "c\npad = 1000 #.json").write_text(json.dumps(dict(base, _name_or_path="x\nwindow = 3")))
    text = mxsim.hf.model_from_hf(tmp_path / "c\npad = 1000 #.json", ctx=16)
    assert "\npad" not in text and "\nwindow = 3" not in text
    assert {o["name"]: o for o in gen(tmp_path, text).ops}["attn_scores"]["n"] == 16


def test_command_line(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps(CONFIGS["mistralai/Mixtral-8x7B-v0.1"][0]))
    out = tmp_path / "m.model"
    r = subprocess.run([sys.executable, "-m", "mxsim.hf", str(tmp_path / "config.json"), "--ctx", "4096",
                        "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "experts = 8" in out.read_text()
    (tmp_path / "bad.json").write_text("{")
    r = subprocess.run([sys.executable, "-m", "mxsim.hf", str(tmp_path / "bad.json"), "--ctx", "8", "-o",
                        str(tmp_path / "x.model")], capture_output=True, text=True)
    assert r.returncode == 2 and "not a JSON config" in r.stderr and not (tmp_path / "x.model").exists()
    # -o naming the config it reads, or a directory: exit 2, nothing written, no temporary left
    cfgp = tmp_path / "config.json"
    before = cfgp.read_text()
    for out in (cfgp, tmp_path):
        r = subprocess.run([sys.executable, "-m", "mxsim.hf", str(cfgp), "--ctx", "8", "-o", str(out)],
                           capture_output=True, text=True)
        assert r.returncode == 2 and "error" in r.stderr, r.stderr
    assert cfgp.read_text() == before
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".mxsim-hf-")]


def test_layers_that_differ(tmp_path):
    # Qwen2 with use_sliding_window: the layers from max_window_layers on use the window (HF's
    # Qwen2Config); Gemma-3: one global layer in six; layer_types, where a config has it, must agree
    qwen = dict(CONFIGS["Qwen/Qwen2-7B"][0], use_sliding_window=True, sliding_window=1024, max_window_layers=21)
    ops = {o["name"]: o for o in gen(tmp_path, mxsim.hf.model_from_hf(qwen, ctx=4096, batch=2)).ops}
    assert (ops["attn_scores"]["n"], ops["attn_scores"]["repeat"]) == (4096, 21 * 4 * 2)
    assert (ops["attn_scores_window"]["n"], ops["attn_scores_window"]["repeat"]) == (1024, 7 * 4 * 2)
    types = ["full_attention"] * 21 + ["sliding_attention"] * 7
    assert mxsim.hf.model_from_hf(dict(qwen, layer_types=types), ctx=64) == mxsim.hf.model_from_hf(qwen, ctx=64)
    with pytest.raises(ValueError, match="8 sliding_attention layers, where the use_sliding_window rule"):
        mxsim.hf.model_from_hf(dict(qwen, layer_types=types[1:] + ["sliding_attention"]), ctx=64)
    g3, _ = CONFIGS["google/gemma-3-1b-pt"]
    text = mxsim.hf.model_from_hf(g3, ctx=2048)
    assert "window = 512" in text and "window_layers = 22" in text  # 26 layers, global 5, 11, 17, 23
    by_types = {k: v for k, v in g3.items() if k != "sliding_window_pattern"}
    by_types["layer_types"] = ["full_attention" if (i + 1) % 6 == 0 else "sliding_attention" for i in range(26)]
    assert mxsim.hf.model_from_hf(by_types, ctx=2048) == text
    # neither: transformers' default pattern, 6, said in the comment line
    del by_types["layer_types"]
    text6 = mxsim.hf.model_from_hf(by_types, ctx=2048)
    assert "defaults for sliding_window_pattern" in text6 and text6.split("\n", 1)[1] == text.split("\n", 1)[1]
    # a layer_types of another pattern (one global layer in 4) is read as given, not against the default
    four = dict(by_types, layer_types=["full_attention" if (i + 1) % 4 == 0 else "sliding_attention" for i in range(26)])
    assert "window_layers = 20" in mxsim.hf.model_from_hf(four, ctx=2048)
    with pytest.raises(ValueError, match="'chunked_attention' layers are not described"):
        mxsim.hf.model_from_hf(dict(g3, layer_types=["chunked_attention"] * 26), ctx=2048)
    # a window longer than the context cuts nothing: one set of attention ops
    ops = {o["name"]: o for o in gen(tmp_path, mxsim.hf.model_from_hf(g3, ctx=256), "short").ops}
    assert "attn_scores_window" not in ops and ops["attn_scores"]["repeat"] == 26


def test_latent_attention_macs_by_hand(tmp_path):
    # DeepSeek-V2-Lite prefill of 300 tokens: per token every GEMM weight but the LM head and the 58
    # experts of each MoE layer it is not routed to (6 of 64), decompressed attention per head (scores
    # K = 128 + 64, attention x V N = 128); decode at batch 2 over 1000 keys: the latent cache of 512 +
    # 64 per token read by every head (scores K = 576, attention x V N = 512)
    cfg, P = CONFIGS["deepseek-ai/DeepSeek-V2-Lite"]
    d, L, H, V, C, R = 2048, 27, 16, 102400, 512, 64
    W = P - (V * d + 55 * d + L * C)  # GEMM weights (untied: the embedding is a param)
    idle = (L - 1) * (64 - 6) * 3 * d * 1408  # per token: 1 dense layer, 26 MoE layers
    pre = gen(tmp_path, mxsim.hf.model_from_hf(cfg, mode="prefill", seq=300), "pre")
    assert "kv_cache = 0" in mxsim.hf.model_from_hf(cfg, mode="prefill", seq=300)
    assert mxsim.run(CFG, pre)[-1]["n_macs"] == 300 * (W - V * d - idle) + V * d + L * H * 300 * 300 * (128 + R + 128)
    dec = gen(tmp_path, mxsim.hf.model_from_hf(cfg, mode="decode", ctx=1000, batch=2), "dec")
    assert mxsim.run(CFG, dec)[-1]["n_macs"] == 2 * (W - V * d - idle) + 2 * V * d + L * 2 * H * 1000 * (2 * C + R)
    rows = {r["item"]: r for r in mxsim.memory(CFG, dec)}
    assert rows["TOTAL kv"]["elems"] == L * 2 * 1000 * (C + R)
    # attention x V reads a view of that cache (b_tensors=0), neither counted again nor taken for the
    # largest transient activation, which is the dense layer's FFN-down input, 2 tokens x 10944
    assert rows["attn_v.B"]["elems"] == 0 and rows["TOTAL act (largest)"]["elems"] == 2 * 10944
    with pytest.raises(ValueError, match="kv_cache: prefill with latent attention"):
        mxsim.hf.model_from_hf(cfg, mode="prefill", seq=300, kv_cache=1)
    with pytest.raises(ValueError, match="'moe_layer_freq'"):
        mxsim.hf.model_from_hf(dict(cfg, moe_layer_freq=2), ctx=8)
    with pytest.raises(ValueError, match="'first_k_dense_replace'.*0..26"):
        mxsim.hf.model_from_hf(dict(cfg, first_k_dense_replace=27), ctx=8)


def test_text_config(tmp_path):
    # a multimodal config's language model, described alone on request (named in the comment line)
    g3, _ = CONFIGS["google/gemma-3-4b (text)"]
    multi = dict(model_type="gemma3", text_config=g3, vision_config=dict(hidden_size=1152))
    with pytest.raises(ValueError, match="'text_config': a multimodal config"):
        mxsim.hf.model_from_hf(multi, ctx=64)
    text = mxsim.hf.model_from_hf(multi, ctx=64, text_config=True)
    assert "the language model only" in text and text.split("\n", 1)[1] == mxsim.hf.model_from_hf(g3, ctx=64).split("\n", 1)[1]
    with pytest.raises(ValueError, match="'text_config': not in this config"):
        mxsim.hf.model_from_hf(g3, ctx=64, text_config=True)
    # the real google/gemma-3-4b-it config.json gives its text_config only a few keys: transformers'
    # Gemma3TextConfig defaults give the rest (8 heads on 4 KV heads of 256, vocab 262,208, one
    # global layer in 6): keras-hub's 3,880,099,328 + 64 x 2560 embedding rows
    real = dict(model_type="gemma3", vision_config=dict(hidden_size=1152),
                text_config=dict(hidden_size=2560, intermediate_size=10240, model_type="gemma3_text", num_hidden_layers=34,
                                 rope_scaling=dict(factor=8.0, rope_type="linear"), sliding_window=1024))
    text = mxsim.hf.model_from_hf(real, ctx=64, text_config=True)
    assert "defaults for head_dim, num_attention_heads, num_key_value_heads, sliding_window_pattern, vocab_size" in text
    assert weights(gen(tmp_path, text, "real")) == 3880099328 + 64 * 2560
    (tmp_path / "config.json").write_text(json.dumps(multi))
    r = subprocess.run([sys.executable, "-m", "mxsim.hf", str(tmp_path / "config.json"), "--ctx", "64", "--text-config",
                        "-o", str(tmp_path / "m.model")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "window_layers = 29" in (tmp_path / "m.model").read_text()  # 34 layers, 5 global


def test_flags_and_defaults():
    # flags are booleans (a string "false" is not false); an encoder is refused; Qwen's
    # max_window_layers at or above the layers leaves no sliding layer, as transformers reads it
    qwen = dict(CONFIGS["Qwen/Qwen2-7B"][0], use_sliding_window=True, sliding_window=1024, max_window_layers=70)
    assert "window" not in mxsim.hf.model_from_hf(qwen, ctx=4096)
    with pytest.raises(ValueError, match="'use_sliding_window': 'false' is not true or false"):
        mxsim.hf.model_from_hf(dict(qwen, use_sliding_window="false"), ctx=64)
    g3, _ = CONFIGS["google/gemma-3-1b-pt"]
    with pytest.raises(ValueError, match="'use_bidirectional_attention'"):
        mxsim.hf.model_from_hf(dict(g3, use_bidirectional_attention=True), ctx=64)
    # DeepSeek: q_lora_rank null is no query bottleneck, 0 is no model; the router bias exists with
    # topk_method noaux_tc (V3's default), not with greedy (V2's)
    v2, _ = CONFIGS["deepseek-ai/DeepSeek-V2-Lite"]
    with pytest.raises(ValueError, match="'q_lora_rank': 0 is not an integer"):
        mxsim.hf.model_from_hf(dict(v2, q_lora_rank=0), ctx=64)
    v3, _ = CONFIGS["deepseek-ai/DeepSeek-V3"]
    assert "e_score_correction_bias" in mxsim.hf.model_from_hf(v3, ctx=64)
    assert "e_score_correction_bias" not in mxsim.hf.model_from_hf(dict(v3, topk_method="greedy"), ctx=64)
    assert "e_score_correction_bias 64 26 " in mxsim.hf.model_from_hf(dict(v2, topk_method="noaux_tc"), ctx=64)


def test_numpy_integer_arguments():
    # ctx, seq and batch as NumPy integers, as the rest of the package takes them; a NumPy bool or a float is refused
    np = pytest.importorskip("numpy")
    cfg = CONFIGS["meta-llama/Llama-2-7b-hf"][0]
    assert mxsim.hf.model_from_hf(cfg, ctx=np.int64(100), batch=np.int32(2)) == mxsim.hf.model_from_hf(cfg, ctx=100, batch=2)
    assert mxsim.hf.model_from_hf(cfg, mode="prefill", seq=np.uint16(7)) == mxsim.hf.model_from_hf(cfg, mode="prefill", seq=7)
    for bad in (np.bool_(True), 100.0):
        with pytest.raises(ValueError, match="'ctx': .* is not an integer"):
            mxsim.hf.model_from_hf(cfg, ctx=bad)
