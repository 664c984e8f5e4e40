"""mxsim.hf: model files from Hugging Face config.json values, against the published parameter
counts (model cards and the Hub's totals, not mxsim's; Llama-2-7B's checkpoint holds 2,048 more
elements, rotary buffers, and Qwen3-0.6B's a second copy of its tied LM head, neither a parameter
mxsim counts) and hand MAC formulas."""
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
    "microsoft/Phi-3-mini-4k-instruct": (dict(model_type="phi3", hidden_size=3072, num_hidden_layers=32,
                                              num_attention_heads=32, num_key_value_heads=32, intermediate_size=8192,
                                              vocab_size=32064, sliding_window=2047, tie_word_embeddings=False),
                                         3821079552),
}


def gen(tmp_path, text, tag="m"):
    p = tmp_path / f"{tag}.model"
    p.write_text(text)
    return mxsim.Trace.gen(p)


@pytest.mark.parametrize("repo", sorted(CONFIGS))
def test_published_parameter_counts(tmp_path, repo):
    cfg, published = CONFIGS[repo]
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    tr = gen(tmp_path, mxsim.hf.model_from_hf(tmp_path / "config.json", mode="decode", ctx=1024, batch=3))
    rows = {r["item"]: r for r in mxsim.memory(CFG, tr)}
    assert rows["TOTAL weights"]["elems"] == published


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


def test_refusals():
    base = dict(CONFIGS["meta-llama/Llama-2-7b-hf"][0])
    with pytest.raises(ValueError, match="'model_type': 'gemma2' is not one"):
        mxsim.hf.model_from_hf(dict(base, model_type="gemma2"), ctx=8)
    with pytest.raises(ValueError, match="'attention_bias'"):
        mxsim.hf.model_from_hf(dict(base, attention_bias=True), ctx=8)
    with pytest.raises(ValueError, match="'use_sliding_window'"):
        mxsim.hf.model_from_hf(dict(CONFIGS["Qwen/Qwen2-7B"][0], use_sliding_window=True), ctx=8)
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
