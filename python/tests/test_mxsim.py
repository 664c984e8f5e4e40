"""mxsim's Python package against the CLI (byte for byte), against an independent NumPy
reference of the OCP MXINT8 rules, and its examples.

The CLI is $MXSIM_CLI, else the one shipped in the package, else build/mxsim."""
import concurrent.futures
import json
import warnings
import os
import pickle
import shutil
import subprocess
import sys

import numpy as np
import pytest

import mxsim
from clihelp import cli

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CFG = os.path.join(ROOT, "workloads", "configs", "small.ini")
TRACE = os.path.join(ROOT, "traces", "bert-base.trace")


def data(shape, seed=0, scale_spread=True):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape).astype(np.float32)
    if scale_spread:  # groups of very different magnitudes, zeros, a negative power of two
        x *= np.float32(2.0) ** rng.integers(-30, 30, size=shape[:-1] + (1,)).astype(np.float32)
        x.reshape(-1)[:32] = 0
        x.reshape(-1)[40] = -4.0
    return x


def bf16_bits(x):
    u = x.view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)  # RNE, finite inputs


def same(a, b):
    return open(a, "rb").read() == open(b, "rb").read()


@pytest.mark.parametrize("profile", mxsim.PROFILES)
@pytest.mark.parametrize("dtype", ["f32", "bf16"])
@pytest.mark.parametrize("group", [8, 32])
def test_quantize_dequantize_match_cli(tmp_path, profile, dtype, group):
    x = data((6, 64), seed=group)
    if dtype == "bf16":
        x = bf16_bits(x)
    np.save(tmp_path / "x.npy", x)
    cli("quantize", "--profile", profile, "--group-size", group, tmp_path / "x.npy", "-o", tmp_path / "cli.npz")
    mx = mxsim.quantize(x, group_size=group, profile=profile)
    mx.save(tmp_path / "py.npz")
    assert same(tmp_path / "cli.npz", tmp_path / "py.npz")
    for out in ("f32", "bf16"):
        cli("dequantize", "--dtype", out, tmp_path / "cli.npz", "-o", tmp_path / f"cli_{out}.npy")
        ref = np.load(tmp_path / f"cli_{out}.npy")
        got = mxsim.dequantize(mx, out)
        assert got.dtype == ref.dtype and got.shape == ref.shape
        assert np.array_equal(got.view(np.uint8), ref.view(np.uint8))
    back = mxsim.MXTensor.load(tmp_path / "cli.npz")
    assert (back.group_size, back.axis, back.profile) == (group, 1, profile)
    assert np.array_equal(back.mantissa, mx.mantissa) and np.array_equal(back.scale, mx.scale)
    again = mxsim.MXTensor(mx.mantissa.copy(), mx.scale.copy(), group, 1, profile)
    again.save(tmp_path / "again.npz")
    assert same(tmp_path / "cli.npz", tmp_path / "again.npz")


def ocp_reference(x, g):
    """OCP MX v1.0 MXINT8 encode (sim/doc/numerics.md section 3, 'ocp' column), written from the
    rules: e = floor(log2 amax) (all-zero: -127), clipped to [-127, 127], E = e + 127; m =
    RNE(x * 2^(6-e)) clamped to [-128, 127]."""
    blocks = x.astype(np.float64).reshape(x.shape[0], -1, g)
    amax = np.abs(blocks).max(axis=2)
    _, ex = np.frexp(amax)  # amax = f * 2^ex, f in [0.5, 1): floor(log2 amax) = ex - 1
    e = np.where(amax == 0, -127, ex - 1).clip(-127, 127)
    q = np.rint(blocks * np.exp2(6.0 - e)[..., None])
    m = q.clip(-128, 127).astype(np.int8)
    return m.reshape(x.shape), (e + 127).astype(np.uint8)


@pytest.mark.parametrize("group", [4, 16, 32, 64])
def test_ocp_matches_numpy_reference(group):
    x = data((16, 128), seed=100 + group)
    x[3, :group] = np.float32(127.75)  # rounds up to 128 -> saturates at 127
    x[4, :group] = np.float32(-127.75) * 2  # negative maximum rounding to -128 (legal in OCP)
    # exact ties: every group holds 64 (e = 6, so x * 2^(6-e) = x) and halves, which RNE sends to the
    # even neighbour (2.5 -> 2, 3.5 -> 4, -0.5 -> 0, 126.5 -> 126, 127.5 -> 128 -> 127, -127.5 -> -128),
    # where rounding half away from zero would give 3, 4, -1, 127, 127, -128; row 6: the same at 2^-10
    ties = np.array([64, 2.5, 3.5, -2.5, 64, -0.5, 0.5, 1.5, 64, 126.5, 127.5, -127.5, 64, 125.5, -1.5, -126.5], np.float32)
    x[5] = np.resize(ties, x.shape[1])  # 64 at every multiple of 4: in every group
    x[6] = x[5] * np.float32(2.0**-10)
    m_ref, e_ref = ocp_reference(x, group)
    assert list(m_ref[5, :16]) == [64, 2, 4, -2, 64, 0, 0, 2, 64, 126, 127, -128, 64, 126, -2, -126]  # the rule, by hand
    mx = mxsim.quantize(x, group_size=group, profile="ocp")
    assert np.array_equal(mx.mantissa, m_ref)
    assert np.array_equal(mx.scale, e_ref)
    dec = mx.mantissa.astype(np.float64) * np.exp2(np.repeat(mx.scale.astype(np.float64), group, axis=1) - 133)
    assert np.array_equal(mxsim.dequantize(mx).astype(np.float64), dec)  # exact in float32 here


@pytest.mark.parametrize("acc", ["fp32", "exact"])
@pytest.mark.parametrize("out", ["f32", "bf16"])
def test_gemm_and_compare_match_cli(tmp_path, acc, out):
    a, w = data((8, 96), 1, False), data((5, 96), 2, False)
    ma, mw = mxsim.quantize(a, 32), mxsim.quantize(w, 32)
    ma.save(tmp_path / "a.npz")
    mw.save(tmp_path / "w.npz")
    cli("gemm", "--acc", acc, "--out-dtype", out, tmp_path / "a.npz", tmp_path / "w.npz", "-o", tmp_path / "c.npy")
    ref = np.load(tmp_path / "c.npy")
    for threads in (1, 2):
        c = mxsim.gemm(ma, mw, acc=acc, out_dtype=out, threads=threads)
        assert np.array_equal(c.view(np.uint8), ref.view(np.uint8))
    if out == "f32":
        exact = (a.astype(np.float64) @ w.astype(np.float64).T).astype(np.float32)
        np.save(tmp_path / "ref.npy", exact)
        doc = json.loads(cli("compare", "--format", "json", tmp_path / "ref.npy", tmp_path / "c.npy"))
        got = mxsim.compare(exact, ref)
        row = doc["rows"][0]
        for k, v in row.items():
            if k in got and isinstance(v, (int, float)):
                assert got[k] == pytest.approx(v, rel=1e-12), k
        assert 20 < got["sqnr_db"] < 80


def test_errors_carry_status_and_message():
    with pytest.raises(mxsim.MxsimError) as e:
        mxsim.quantize(np.ones((2, 30), np.float32), group_size=32)
    assert e.value.status == 2 and e.value.status_name == "E_INPUT" and "32" in e.value.message
    with pytest.raises(mxsim.MxsimError) as e:
        mxsim.Config(CFG)["array.rows"] = 0
    assert e.value.status_name == "E_INPUT" and "array.rows" in e.value.message
    with pytest.raises(mxsim.MxsimError):
        mxsim.Trace.load("/nonexistent.trace")
    with pytest.raises(KeyError):
        mxsim.Config()["no.such.key"]
    with pytest.raises(mxsim.MxsimError) as e:
        mxsim.quantize(np.ones((2, 32), np.float32), threads=5000)
    assert e.value.status_name == "E_ARG" and "1..1024" in e.value.message
    with pytest.raises(mxsim.MxsimError, match="profile 'nope'"):
        mxsim.quantize(np.ones((2, 32), np.float32), profile="nope")


def test_config_is_the_field_table():
    c = mxsim.Config(CFG)
    fields = {f["name"]: f for f in c.fields()}
    assert fields["array.rows"]["unit"] == "PE" and fields["array.rows"]["min"] >= 1
    assert c["array.rows"] == 16 and c["array.dataflow"] == "os"
    c["array.dataflow"] = "ws"
    c["dram.bw_bytes_per_cycle"] = 12.5
    assert c["array.dataflow"] == "ws" and c["dram.bw_bytes_per_cycle"] == 12.5
    assert pickle.loads(pickle.dumps(c)) == c
    dump = json.loads(cli("config", "--config", CFG, "--dump", "--format", "json"))
    assert [r["key"] for r in dump["rows"]] == list(mxsim.Config(CFG).keys())
    assert mxsim.Config(CFG).table() == dump["rows"]


def test_trace_build_save_load(tmp_path):
    tr = mxsim.Trace.build([{"kind": "gemm", "name": "fc", "m": 64, "n": 128, "k": 256},
                            {"kind": "dequant", "name": "dq", "m": 16, "n": 64, "repeat": 3}])
    tr.save(tmp_path / "t.trace")
    back = mxsim.Trace.load(tmp_path / "t.trace")
    assert [(o["kind"], o["name"], o["m"], o["n"], o["k"], o["repeat"]) for o in back.ops] == \
        [("gemm", "fc", 64, 128, 256, 1), ("dequant", "dq", 16, 64, 0, 3)]
    assert pickle.loads(pickle.dumps(back)).ops == back.ops
    # a bundled trace's operand roles and parameters (the memory footprint) survive pickling too
    bert = mxsim.Trace.load(TRACE)
    again = pickle.loads(pickle.dumps(bert))
    assert again.roles == bert.roles and again.params == bert.params and len(bert.params) > 0
    assert 2 in bert.roles  # weights


def test_trace_b_tensors_survive_pickle_and_count_in_memory(tmp_path):
    # a mixture-of-experts layer's idle experts (b_tensors) and a weight shared by every repeat: the
    # footprint counts b_tensors tensors, by hand: 16 x (64 x 32) and 1 x (8 x 16) elements
    (tmp_path / "t.trace").write_text("mxsim-trace 2\n"
                                      "gemm name=experts m=1 n=64 k=32 repeat=4 b_role=weight b_tensors=16\n"
                                      "gemm name=shared m=4 n=8 k=16 repeat=6 b_role=weight b_tensors=1\n")
    tr = mxsim.Trace.load(tmp_path / "t.trace")
    assert tr.b_tensors == [16, 1]
    again = pickle.loads(pickle.dumps(tr))
    assert again.b_tensors == [16, 1] and again.roles == tr.roles
    rows = {r["item"]: r for r in mxsim.memory(CFG, again)}
    assert rows["experts.B"]["elems"] == 16 * 64 * 32 and rows["shared.B"]["elems"] == 8 * 16
    assert rows["TOTAL weights"]["elems"] == 16 * 64 * 32 + 8 * 16


def test_trace_gen_matches_cli(tmp_path):
    # a mixture-of-experts model file: Trace.gen gives the ops `mxsim trace gen` writes, and the
    # hand count of its weights (2 layers x 8 experts x 3 x 64 x 32, router 8 x 64, attention)
    (tmp_path / "m.model").write_text("hidden = 64\nlayers = 2\nheads = 4\nhead_dim = 16\nffn = 32\n"
                                      "ffn_gated = 1\nexperts = 8\nexperts_per_token = 2\nmode = decode\nctx = 32\n")
    cli("trace", "gen", str(tmp_path / "m.model"), "-o", str(tmp_path / "m.trace"))
    tr = mxsim.Trace.gen(tmp_path / "m.model")
    back = mxsim.Trace.load(tmp_path / "m.trace")
    def fields(t):  # the op's line is where it came from: the model file (0: generated) or the trace
        return [{f: v for f, v in o.items() if f != "line"} for o in t.ops]
    assert fields(tr) == fields(back) and tr.roles == back.roles and tr.b_tensors == back.b_tensors
    assert [o["name"] for o in tr.ops if o["name"].startswith("expert")] == ["expert_gate_up", "expert_down"]
    rows = {r["item"]: r for r in mxsim.memory(CFG, tr)}
    assert rows["TOTAL weights"]["elems"] == 2 * (8 * 3 * 64 * 32 + 8 * 64 + 4 * 64 * 64)
    with pytest.raises(mxsim.MxsimError, match="experts_per_token"):
        (tmp_path / "bad.model").write_text("hidden = 64\nlayers = 2\nheads = 4\nhead_dim = 16\nffn = 32\n"
                                            "ffn_gated = 1\nexperts = 8\nseq = 4\n")
        mxsim.Trace.gen(tmp_path / "bad.model")


def test_memory_matches_cli():
    # the Python call is the CLI's table, row for row, with two group sizes
    doc = json.loads(cli("memory", "--config", CFG, "--group-size", "32", "--group-size", "128",
                         "--format", "json", TRACE))
    assert list(mxsim.memory(CFG, TRACE, [32, 128])) == doc["rows"]
    with pytest.raises(TypeError):
        mxsim.memory(CFG, TRACE, 32)
    with pytest.raises(mxsim.MxsimError, match="given twice"):
        mxsim.memory(CFG, TRACE, [32, 32])


def test_run_matches_cli():
    doc = json.loads(cli("run", "--config", CFG, "--format", "json", TRACE))
    r = mxsim.run(CFG, TRACE)
    assert list(r) == doc["rows"]
    assert r[-1]["op"] == "TOTAL" and r[-1]["cycles_total"] > 0
    # columns come from the statistics table at run time
    assert [c["name"] for c in r.columns] == [c["name"] for c in doc["columns"]]


def test_compare_matches_cli(tmp_path):
    """compare() returns the CLI's columns by the CLI's names, every value exactly (the CSV spells
    inf; JSON would give null): one table in the library, mxsim_compare_table."""
    ref = np.array([1.0, 2.0, np.inf, np.nan, 0.1], np.float32)
    tst = np.array([1.0, 2.5, np.inf, 1.0, 0.1000001], np.float32)
    np.save(tmp_path / "r.npy", ref)
    np.save(tmp_path / "t.npy", tst)
    head, row = cli("compare", "--format", "csv", str(tmp_path / "r.npy"), str(tmp_path / "t.npy")).splitlines()
    want = {h: v for h, v in zip(head.split(","), row.split(",")) if h not in ("ref", "test")}
    got = mxsim.compare(ref, tst)
    assert list(got) == list(want) == [c["name"] for c in mxsim.compare_columns()]
    assert {k: repr(v) for k, v in got.items()} == {k: repr(int(v) if v.lstrip("-").isdigit() else float(v))
                                                    for k, v in want.items()}
    # by hand: 5 elements, 3 whose bits differ (2.5, the NaN, 0.1000001), 1 NaN in one side only;
    # a NaN meeting a number makes the errors infinite
    assert (got["elements"], got["bit_mismatches"], got["nan_mismatches"]) == (5, 3, 1)
    assert got["sqnr_db"] == -np.inf and got["max_abs_err"] == np.inf


AXES = {"array.size": [8, 32], "mx.group_size": [16, 32]}  # the CLI adds --array-width first
SWEEP_CLI = ["--group-size", "16,32", "--array-width", "8,32"]
SMALL = dict(sample_rows=8, sample_cols=8)


def test_sweep_matches_cli_and_executor(tmp_path):
    cli("sweep", "--config", CFG, TRACE, *SWEEP_CLI, "--sweep", "numerics.profile=ocp,mase", "--sample-rows", 8,
        "--sample-cols", 8, "-q", "-o", tmp_path / "cli.csv")
    cli("sweep", "--config", CFG, TRACE, *SWEEP_CLI, "--sweep", "numerics.profile=ocp,mase", "--sample-rows", 8,
        "--sample-cols", 8, "-q", "-o", tmp_path / "cli.json")
    axes = dict(AXES, **{"numerics.profile": ["ocp", "mase"]})
    local = mxsim.sweep(mxsim.Config(CFG), mxsim.Trace.load(TRACE), axes, out=tmp_path / "py.csv", threads=2, **SMALL)
    assert same(tmp_path / "cli.csv", tmp_path / "py.csv")
    assert same(tmp_path / "cli.meta.json", tmp_path / "py.meta.json")
    assert list(local) == json.load(open(tmp_path / "cli.json"))["rows"]
    with concurrent.futures.ProcessPoolExecutor(2) as ex:
        dist = mxsim.sweep(CFG, TRACE, axes, out=tmp_path / "dist.csv", executor=ex, shards=3, **SMALL)
    assert list(dist) == list(local)
    assert same(tmp_path / "cli.csv", tmp_path / "dist.csv")
    assert same(tmp_path / "cli.meta.json", tmp_path / "dist.meta.json")
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        assert list(mxsim.sweep(CFG, TRACE, axes, executor=ex, **SMALL)) == list(local)
    pd = pytest.importorskip("pandas")
    df = local.to_pandas()
    assert len(df) == len(local) and "cycles_total" in df.columns
    csv = pd.read_csv(tmp_path / "py.csv")
    assert list(csv.columns) == list(df.columns)
    index = mxsim.report(tmp_path / "py.csv", tmp_path / "report")
    assert os.path.exists(index)


def test_shard_merge_python(tmp_path):
    mxsim.sweep(CFG, TRACE, AXES, out=tmp_path / "full.json", **SMALL)
    parts = [mxsim._run_shard(mxsim.Config(CFG), mxsim.Trace.load(TRACE), AXES, dict(SMALL), i, 3,
                              str(tmp_path / f"{i}.part")) for i in range(3)]
    assert mxsim.merge(parts[::-1], tmp_path / "merged.json") == 0
    assert same(tmp_path / "full.json", tmp_path / "merged.json")
    with pytest.raises(mxsim.MxsimError, match="missing"):
        mxsim.merge(parts[:2], tmp_path / "x.json")


def test_cost_matches_cli():
    doc = json.loads(cli("cost", "--config", CFG, "--format", "json"))
    assert list(mxsim.cost(CFG)) == doc["rows"]


def test_torch_linear_bit_exact():
    torch = pytest.importorskip("torch")
    lin = torch.nn.Linear(64, 8)
    for profile in mxsim.PROFILES:
        mx = mxsim.quantize(lin.weight, 32, profile=profile)
        ref = mxsim.quantize(lin.weight.detach().numpy(), 32, profile=profile)
        assert np.array_equal(mx.mantissa, ref.mantissa) and np.array_equal(mx.scale, ref.scale)
    w16 = lin.weight.detach().to(torch.bfloat16)
    assert mxsim.quantize(w16, 32).shape == (8, 64)


EXAMPLES = os.path.join(ROOT, "workloads", "examples")


def test_example_optuna():
    pytest.importorskip("optuna")
    r = subprocess.run([sys.executable, os.path.join(EXAMPLES, "optuna_search.py"), "--trials", "6"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "best" in r.stdout


def test_example_torch_linear():
    r = subprocess.run([sys.executable, os.path.join(EXAMPLES, "torch_linear.py")], capture_output=True, text=True,
                       timeout=600)
    if r.returncode == 77:
        pytest.skip("torch not installed")
    assert r.returncode == 0, r.stderr


def test_notes_are_warnings(tmp_path):
    # a SCALE-Sim v3 .cfg under USER bandwidth loads, with the library's note as an MxsimNote warning
    cfg = ("[general]\nrun_name = x\n[architecture_presets]\nArrayHeight: 8\nArrayWidth: 8\nIfmapSramSzkB: 1\n"
           "FilterSramSzkB: 1\nOfmapSramSzkB: 1\nIfmapOffset: 0\nFilterOffset: 10000000\nOfmapOffset: 20000000\n"
           "Dataflow : ws\nBandwidth : 2\n[run_presets]\nInterfaceBandwidth: USER\n")
    (tmp_path / "v2.cfg").write_text(cfg)
    (tmp_path / "v3.cfg").write_text(cfg + "[layout]\nIfmapCustomLayout: False\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mxsim.Config(tmp_path / "v2.cfg")  # no note
    for _ in range(2):  # every time, attributed to the caller's line (not to the package)
        with pytest.warns(mxsim.MxsimNote, match=r"v3\.cfg:16: a SCALE-Sim v3 file \(section \[layout\]\) with "
                                                 "InterfaceBandwidth USER") as rec:
            mxsim.Config(tmp_path / "v3.cfg")
        assert [r.filename for r in rec] == [__file__]
