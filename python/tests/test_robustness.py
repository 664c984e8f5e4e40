"""Argument checking, pickling, bf16 inputs, optional modules, failed sweeps and cancellation of
mxsim's Python package.  Expectations are independent of the package: NumPy references of the
OCP rules, the CLI's files and exit codes, constants of sim/doc/numerics.md, Python's own floats."""
import concurrent.futures
import copy
import json
import os
import pathlib
import pickle
import signal
import subprocess
import sys
import threading
import time
import warnings

import numpy as np
import pytest

import mxsim
from clihelp import cli, cli_run

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CFG = os.path.join(ROOT, "workloads", "configs", "small.ini")
MEDIUM = os.path.join(ROOT, "workloads", "configs", "medium.ini")
TRACE = os.path.join(ROOT, "traces", "bert-base.trace")
RESNET = os.path.join(ROOT, "traces", "resnet18.trace")  # conv1 has k = 147 (3 x 7 x 7)
LLAMA = os.path.join(ROOT, "traces", "llama2-7b-prefill.trace")
SMALL = dict(sample_rows=8, sample_cols=8)


def same(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def ocp_reference(x, g):
    """OCP MXINT8 along the last axis from the rules (numerics.md section 3): e = floor(log2 amax)
    (all-zero: -127) clipped to [-127, 127]; m = RNE(x * 2^(6-e)) clamped to [-128, 127]."""
    blocks = x.astype(np.float64).reshape(x.shape[0], -1, g)
    amax = np.abs(blocks).max(axis=2)
    _, ex = np.frexp(amax)
    e = np.where(amax == 0, -127, ex - 1).clip(-127, 127)
    m = np.rint(blocks * np.exp2(6.0 - e)[..., None]).clip(-128, 127).astype(np.int8)
    return m.reshape(x.shape), (e + 127).astype(np.uint8)


def spread(shape, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape).astype(np.float32)
    return x * np.float32(2.0) ** rng.integers(-20, 20, size=shape[:-1] + (1,)).astype(np.float32)


def bf16_round(x):
    """float32 -> bf16 bit patterns, RNE (finite inputs), and the float32 values they hold."""
    u = x.view(np.uint32).astype(np.uint64)
    bits = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return bits, (bits.astype(np.uint32) << 16).view(np.float32)


# ---- 1. errors cross process pools ------------------------------------------------------------

def _bad_quantize():
    mxsim.quantize(np.ones((2, 30), np.float32), 32)


def test_error_pickles_and_crosses_process_pool(tmp_path):
    e = pickle.loads(pickle.dumps(mxsim.MxsimError(2, "x")))
    assert type(e) is mxsim.MxsimError and (e.status, e.status_name, e.message) == (2, "E_INPUT", "x")
    assert str(e) == str(mxsim.MxsimError(2, "x"))
    assert mxsim.MxsimError(9, "c").status_name == "E_CANCELLED"
    with concurrent.futures.ProcessPoolExecutor(1) as ex:
        with pytest.raises(mxsim.MxsimError) as ei:
            ex.submit(_bad_quantize).result()
    assert ei.value.status_name == "E_INPUT" and "30" in ei.value.message
    # a bad data file inside a distributed sweep: the library's error, not BrokenProcessPool
    dd = tmp_path / "data"
    dd.mkdir()
    name = mxsim.Trace.load(TRACE).ops[0]["name"]
    (dd / f"{name}.a.npy").write_bytes(b"not a npy file")
    with pytest.raises(mxsim.MxsimError) as local:
        mxsim.sweep(CFG, TRACE, {"mx.group_size": [16, 32]}, data_dir=dd, **SMALL)
    with concurrent.futures.ProcessPoolExecutor(2) as ex:
        with pytest.raises(mxsim.MxsimError) as dist:
            mxsim.sweep(CFG, TRACE, {"mx.group_size": [16, 32]}, data_dir=dd, executor=ex, **SMALL)
    assert dist.value.status == local.value.status and dist.value.message == local.value.message
    assert name in dist.value.message


# ---- 2, 5. bf16 inputs ----------------------------------------------------------------------------

MASE_BITS = 0x3B81  # sim/doc/numerics.md 5.3: as bf16 under "mase" -> byte 119, m 127; as f32 -> 120, 64


def test_uint16_bits_both_byte_orders():
    bits = np.full((1, 32), 0x3F80, "<u2")
    assert np.array_equal(mxsim.quantize(bits.astype(">u2")).dequantize(), np.ones((1, 32), np.float32))
    b, _ = bf16_round(spread((4, 64), 5))
    le, be = mxsim.quantize(b.astype("<u2"), 32), mxsim.quantize(b.astype(">u2"), 32)
    assert np.array_equal(le.mantissa, be.mantissa) and np.array_equal(le.scale, be.scale)
    be_mase = mxsim.quantize(np.full((1, 32), MASE_BITS, ">u2"), 32, profile="mase", dtype="bf16")
    assert (int(be_mase.scale[0, 0]), int(be_mase.mantissa[0, 0])) == (119, 127)
    with pytest.raises(TypeError, match="bf16 bit patterns"):
        mxsim.quantize(b, 32, dtype="f32")  # raw uint16 values as f32: ambiguous, refused


def test_torch_bf16_with_dtype_f32_quantizes_values():
    torch = pytest.importorskip("torch")
    t = torch.full((1, 32), 0.0039, dtype=torch.bfloat16)
    vals = t.to(torch.float32).numpy()
    m_ref, e_ref = ocp_reference(vals, 32)
    mx = mxsim.quantize(t, 32, dtype="f32")
    assert np.array_equal(mx.scale, e_ref) and np.array_equal(mx.mantissa, m_ref)
    x = torch.from_numpy(spread((6, 64), 7)).to(torch.bfloat16)
    m_ref, e_ref = ocp_reference(x.to(torch.float32).numpy(), 32)
    mx = mxsim.quantize(x, 32, dtype="f32")
    assert np.array_equal(mx.mantissa, m_ref) and np.array_equal(mx.scale, e_ref)
    # the default (bf16 path) of a torch bf16 tensor is that of its bits
    bits = torch.from_numpy(np.full((1, 32), MASE_BITS, np.uint16).view(np.int16)).view(torch.bfloat16)
    q = mxsim.quantize(bits, 32, profile="mase")
    assert (int(q.scale[0, 0]), int(q.mantissa[0, 0])) == (119, 127)
    q = mxsim.quantize(bits, 32, profile="mase", dtype="f32")
    assert (int(q.scale[0, 0]), int(q.mantissa[0, 0])) == (120, 64)


def test_ml_dtypes_bfloat16_is_bf16():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    a = np.full((1, 32), MASE_BITS, np.uint16).view(ml_dtypes.bfloat16)
    for dtype in (None, "bf16"):
        q = mxsim.quantize(a, 32, profile="mase", dtype=dtype)
        assert (int(q.scale[0, 0]), int(q.mantissa[0, 0])) == (119, 127)
    q = mxsim.quantize(a, 32, profile="mase", dtype="f32")
    assert (int(q.scale[0, 0]), int(q.mantissa[0, 0])) == (120, 64)
    bits, vals = bf16_round(spread((6, 64), 9))
    x = bits.view(ml_dtypes.bfloat16)
    for profile in mxsim.PROFILES:
        got, ref = mxsim.quantize(x, 32, profile=profile), mxsim.quantize(bits, 32, profile=profile)
        assert np.array_equal(got.mantissa, ref.mantissa) and np.array_equal(got.scale, ref.scale)
    m_ref, e_ref = ocp_reference(vals, 32)
    got = mxsim.quantize(x, 32, dtype="f32")
    assert np.array_equal(got.mantissa, m_ref) and np.array_equal(got.scale, e_ref)
    assert mxsim.compare(x, bits)["bit_mismatches"] == 0
    f8 = np.array([[1.5, -0.25] * 16], np.float32).astype(ml_dtypes.float8_e4m3fn)  # other ml_dtypes: cast
    assert np.array_equal(mxsim.quantize(f8, 32).dequantize(), f8.astype(np.float32))


def test_non_real_inputs_refused():
    with pytest.raises(TypeError, match="complex"):
        mxsim.quantize(np.ones((1, 32), np.complex64))
    with pytest.raises(TypeError):
        mxsim.quantize(np.array([["a"] * 32]))
    with pytest.raises(TypeError, match="bf16"):
        mxsim.quantize(np.ones((1, 32), np.float32), dtype="bf16")
    with pytest.raises(ValueError, match="dtype"):
        mxsim.quantize(np.ones((1, 32), np.float32), dtype="f16")


# ---- 3. exact real configuration fields ---------------------------------------------------------

def test_config_reals_are_exact_through_pickle_and_copies():
    clock = 1000 / 0.7  # not representable in 10 significant digits
    c = mxsim.Config(CFG)
    c["clock.mhz"] = clock
    assert c["clock.mhz"] == clock
    copies = [pickle.loads(pickle.dumps(c)), copy.deepcopy(c), copy.copy(c), c.copy()]
    base = mxsim.run(c, TRACE)[-1]
    for d in copies:
        assert d["clock.mhz"] == clock and d == c
        assert mxsim.run(d, TRACE)[-1] == base
    # time = cycles / clock, with the exact clock (10 digits would be off by ~2e-10 relative)
    assert base["time_us"] == pytest.approx(base["cycles_total"] / clock, rel=1e-14)
    c["dram.bw_bytes_per_cycle"] = 12.5 + 3 / 1024  # a multiple of the model's 1/1024 step
    assert c["dram.bw_bytes_per_cycle"] == 12.5 + 3 / 1024
    assert pickle.loads(pickle.dumps(c))["dram.bw_bytes_per_cycle"] == 12.5 + 3 / 1024


def test_process_pool_sweep_equals_local_with_exact_clock():
    c = mxsim.Config(CFG)
    c["clock.mhz"] = 1000 / 0.7
    axes = {"mx.group_size": [16, 32]}
    local = mxsim.sweep(c, TRACE, axes, accuracy=False)
    with concurrent.futures.ProcessPoolExecutor(2) as ex:
        dist = mxsim.sweep(c, TRACE, axes, accuracy=False, executor=ex)
    assert list(dist) == list(local)


# ---- 4. nothing wraps or truncates ------------------------------------------------------------------

ONES = np.ones((1, 32), np.int64)


@pytest.mark.parametrize("make, exc, what", [
    (lambda: mxsim.MXTensor(ONES, np.array([[-1]]), 32, 1), ValueError, "scale"),
    (lambda: mxsim.MXTensor(ONES, np.array([[383]]), 32, 1), ValueError, "scale"),
    (lambda: mxsim.MXTensor(ONES, np.array([[0.9]]), 32, 1), ValueError, "scale"),
    (lambda: mxsim.MXTensor(ONES * 200, np.array([[127]]), 32, 1), ValueError, "mantissa"),
    (lambda: mxsim.MXTensor(ONES * 1.7, np.array([[127]]), 32, 1), ValueError, "mantissa"),
    (lambda: mxsim.MXTensor(ONES.astype(bool), np.array([[127]]), 32, 1), TypeError, "mantissa"),
    (lambda: mxsim.MXTensor(ONES, np.array([[127]]), 32, 2 ** 32 + 1), OverflowError, "axis"),
    (lambda: mxsim.quantize(np.zeros((32, 4), np.float32), axis=2 ** 32), OverflowError, "axis"),
    (lambda: mxsim.quantize(np.zeros((2, 64), np.float32), group_size=2 ** 64 + 32), OverflowError, "group_size"),
    (lambda: mxsim.quantize(np.zeros((2, 64), np.float32), group_size=32.9), TypeError, "group_size"),
    (lambda: mxsim.quantize(np.zeros((2, 64), np.float32), threads=2 ** 32), OverflowError, "threads"),
    (lambda: mxsim.quantize(np.zeros((2, 64), np.float32), threads=-1), ValueError, "threads"),
    (lambda: mxsim.quantize(np.zeros((2, 64), np.float32), profile=True), TypeError, "profile"),
    (lambda: mxsim.Trace.build([{"kind": "gemm", "name": "x", "m": 2 ** 64 + 8, "n": 8, "k": 32}]), OverflowError,
     "'m'"),
    (lambda: mxsim.Trace.build([{"kind": "gemm", "name": "x", "m": 8, "n": 8, "k": 32, "a_fmt": 2 ** 32 + 1}]),
     OverflowError, "a_fmt"),
    (lambda: mxsim.Trace.build([{"kind": "gemm", "name": "x", "m": 8.0, "n": 8, "k": 32}]), TypeError, "'m'"),
    (lambda: mxsim.Trace.build([{"kind": "gemm", "name": "é" * 32, "m": 8, "n": 8, "k": 32}]), ValueError, "name"),
    (lambda: mxsim.sweep(CFG, TRACE, {"mx.group_size": [16]}, threads=2 ** 32), OverflowError, "threads"),
    (lambda: mxsim.sweep(CFG, TRACE, {"mx.group_size": [16]}, seed=-1), OverflowError, "seed"),
    (lambda: mxsim.sweep(CFG, TRACE, {"mx.group_size": [16]}, sample_rows=8.5), TypeError, "sample_rows"),
    (lambda: mxsim.sweep(CFG, TRACE, {"mx.group_size": [16]}, node=2 ** 31), OverflowError, "node"),
    (lambda: mxsim.sweep(CFG, TRACE, {"mx.group_size": ["16,32"]}), ValueError, "comma"),
    (lambda: mxsim.cost(CFG, vdd="0.8"), TypeError, "vdd"),
    (lambda: mxsim.Config(None, {"array.rows": object()}), TypeError, "array.rows"),
])
def test_bad_arguments_raise_before_c(make, exc, what):
    with pytest.raises(exc, match=what):
        make()


def test_in_range_values_still_accepted():
    # the extremes of each C type are legal; integral floats are accepted as integers
    mx = mxsim.MXTensor(np.full((1, 32), -128), np.array([[255]]), 32, 1, "ocp")
    assert mx.mantissa[0, 0] == -128 and mx.scale[0, 0] == 255 and np.isnan(mx.dequantize()[0, 0])
    f = mxsim.MXTensor(np.full((1, 32), 3.0), np.array([[127.0]]), 32, 1)
    assert np.array_equal(f.mantissa, np.full((1, 32), 3, np.int8)) and f.scale[0, 0] == 127
    assert np.array_equal(f.dequantize(), np.full((1, 32), 3 * 2.0 ** -6, np.float32))
    x = spread((4, 64), 3)
    a, b = mxsim.quantize(x, np.int64(32), axis=np.int32(-1), threads=np.uint8(1)), mxsim.quantize(x, 32)
    assert np.array_equal(a.mantissa, b.mantissa)
    t = mxsim.Trace.build([{"kind": "gemm", "name": "é" * 31, "m": np.int64(8), "n": 8, "k": 32}])
    assert t.ops[0]["name"] == "é" * 31 and t.ops[0]["m"] == 8


# ---- 6. optional modules ------------------------------------------------------------------------

_HIDE = r"""
import ctypes, sys
_orig = ctypes.CDLL.__getattr__
def _getattr(self, name):
    if name.startswith(tuple(sys.argv[1].split(","))):
        raise AttributeError(name)
    return _orig(self, name)
ctypes.CDLL.__getattr__ = _getattr
"""

_PROBE = r"""
import numpy as np, mxsim, json
out = {"features": mxsim.FEATURES, "scale": int(mxsim.quantize(np.ones((1, 32), np.float32)).scale[0, 0])}
for name, f in (("sweep", lambda: mxsim.sweep(CFG, TRACE, {"mx.group_size": [16]})), ("cost", lambda: mxsim.cost(CFG)),
                ("config", lambda: mxsim.Config(CFG)["array.rows"]), ("run", lambda: mxsim.run(CFG, TRACE)[-1]["op"])):
    try:
        out[name] = f()
    except mxsim.MxsimError as e:
        out[name] = [e.status_name, e.message]
print(json.dumps(out))
"""


def _probe(prefixes, env=None):
    """Runs _PROBE in a fresh interpreter; prefixes: the library's functions to hide, as a library
    built without their module lacks them."""
    code = (_HIDE if prefixes else "") + f"CFG, TRACE = {CFG!r}, {TRACE!r}\n" + _PROBE
    r = subprocess.run([sys.executable, "-c", code, prefixes or ""], capture_output=True, text=True,
                       env=dict(os.environ, **(env or {})), timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_import_without_sweep_module():
    got = _probe("mxsim_sweep_,mxsim_cost_,mxsim_report_")  # as -DMXSIM_WITH_SWEEP=OFF exports
    assert got["features"]["sweep"] is False and got["features"]["timing"] is True
    assert got["scale"] == 127 and got["config"] == 16 and got["run"] == "TOTAL"
    for k in ("sweep", "cost"):
        assert got[k][0] == "E_UNSUPPORTED" and "MXSIM_WITH_SWEEP" in got[k][1], got[k]


def test_import_without_timing_engine():
    got = _probe("mxsim_sweep_,mxsim_cost_,mxsim_report_,mxsim_tconfig_,mxsim_trace_,mxsim_time_op,mxsim_run_table,"
                 "mxsim_tstats_,mxsim_op_kind_")
    assert got["features"] == {"timing": False, "sweep": False, "cancel": True}
    assert got["scale"] == 127
    for k in ("config", "run"):
        assert got[k][0] == "E_UNSUPPORTED" and "MXSIM_WITH_TIMING" in got[k][1], got[k]


def test_real_library_without_sweep():
    lib = os.environ.get("MXSIM_NOSWEEP_LIBRARY")  # a libmxsim.so built with -DMXSIM_WITH_SWEEP=OFF
    if not lib:
        pytest.skip("set MXSIM_NOSWEEP_LIBRARY to a library built with -DMXSIM_WITH_SWEEP=OFF")
    got = _probe(None, {"MXSIM_LIBRARY": lib})
    assert got["features"]["sweep"] is False and got["scale"] == 127
    assert got["sweep"][0] == "E_UNSUPPORTED" and got["cost"][0] == "E_UNSUPPORTED"


# ---- 7. NumPy scalars and bools as values -----------------------------------------------------------

def test_numpy_scalars_in_config():
    c = mxsim.Config()
    c["dram.bw_bytes_per_cycle"] = np.float64(12.5)
    c["clock.mhz"] = np.float32(1234.5)
    c["array.rows"] = np.int64(8)
    c["report.scalesim_compat"] = np.bool_(True)
    c["mx.group_size"] = np.array(16)
    assert (c["dram.bw_bytes_per_cycle"], c["clock.mhz"], c["array.rows"], c["report.scalesim_compat"],
            c["mx.group_size"]) == (12.5, 1234.5, 8, 1, 16)
    c["report.scalesim_compat"] = False
    assert c["report.scalesim_compat"] == 0
    with pytest.raises(mxsim.MxsimError, match="not an integer"):
        c["array.rows"] = 16.5


def test_numpy_and_bool_sweep_axes_match_cli(tmp_path):
    cli("sweep", "--config", CFG, TRACE, "--sweep", "dram.bw_bytes_per_cycle=8,16", "--sweep",
        "report.scalesim_compat=0,1", "--no-accuracy", "-q", "-o", tmp_path / "cli.csv")
    axes = {"dram.bw_bytes_per_cycle": np.linspace(8, 16, 2), "report.scalesim_compat": [False, np.True_]}
    r = mxsim.sweep(CFG, TRACE, axes, accuracy=False, out=tmp_path / "py.csv")
    assert same(tmp_path / "cli.csv", tmp_path / "py.csv")
    assert same(tmp_path / "cli.meta.json", tmp_path / "py.meta.json")
    assert {row["status"] for row in r} == {"ok"}


# ---- 8. MXTensor copies, read-only views, choices, paths, failed sweeps, cost options ----------------

def test_mxtensor_pickle_copy(tmp_path):
    x = spread((4, 64), 11)
    for profile in ("ocp", "mase"):
        mx = mxsim.quantize(x, 16, profile=profile)
        mx.save(tmp_path / "a.npz")
        for other in (pickle.loads(pickle.dumps(mx)), copy.deepcopy(mx), copy.copy(mx)):
            assert (other.group_size, other.axis, other.profile) == (16, 1, profile)
            assert np.array_equal(other.mantissa, mx.mantissa) and np.array_equal(other.scale, mx.scale)
            other.save(tmp_path / "b.npz")
            assert same(tmp_path / "a.npz", tmp_path / "b.npz")
    r = subprocess.run([sys.executable, "-c", "import copy, numpy as np, mxsim\n"
                        "m = mxsim.quantize(np.ones((2, 32), np.float32))\n"
                        "for o in (m, m._h):\n"
                        "    try: copy.deepcopy(o)\n"
                        "    except TypeError: pass\n"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stderr == "", r.stderr  # no "Exception ignored in _Owned.__del__"


def test_mantissa_and_scale_are_read_only():
    a, w = mxsim.quantize(spread((8, 64), 1), 32), mxsim.quantize(spread((5, 64), 2), 32)
    before = mxsim.gemm(a, w).copy()
    for arr in (a.mantissa, a.scale):
        assert not arr.flags.writeable
        with pytest.raises(ValueError):
            arr[...] = 0
    assert np.array_equal(mxsim.gemm(a, w), before)
    out = mxsim.dequantize(a)
    out[...] = 0  # outputs are the caller's
    assert np.array_equal(mxsim.gemm(a, w), before)


def test_choices_are_value_errors():
    mx = mxsim.quantize(np.ones((2, 32), np.float32))
    with pytest.raises(ValueError, match="'fp32', 'exact'"):
        mxsim.gemm(mx, mx, acc="fp16")
    with pytest.raises(ValueError, match="'f32', 'bf16'"):
        mxsim.gemm(mx, mx, out_dtype="f16")
    with pytest.raises(TypeError, match="MXTensor"):
        mxsim.gemm(np.ones((2, 32)), mx)


def test_bytes_and_pathlike_paths(tmp_path):
    mx = mxsim.quantize(np.ones((2, 32), np.float32))
    p = tmp_path / "é.npz"
    mx.save(os.fsencode(p))
    assert p.exists() and not list(tmp_path.glob("b'*"))
    for q in (os.fsencode(p), p, str(p)):
        assert np.array_equal(mxsim.MXTensor.load(q).mantissa, mx.mantissa)
    t = mxsim.Trace.load(os.fsencode(TRACE))
    assert t.path == TRACE and len(t) > 0
    assert mxsim.Config(pathlib.Path(CFG)).path == CFG
    with pytest.raises(ValueError, match="NUL"):
        mx.save(str(tmp_path / "a\0b.npz"))
    with pytest.raises(TypeError, match="path"):
        mx.save(3)


def test_all_points_failing_raises_like_cli(tmp_path):
    axes = {"mx.group_size": [24, 48]}  # neither divides resnet18's conv1 k = 147
    r = cli_run("sweep", "--config", MEDIUM, RESNET, "--sweep", "mx.group_size=24,48", "--strict-group",
                "--no-accuracy", "-q", "-o", tmp_path / "cli.csv")
    assert r.returncode == 2
    first = r.stderr.split("first: ", 1)[1].strip()
    for ex in (None, concurrent.futures.ThreadPoolExecutor(2), concurrent.futures.ProcessPoolExecutor(2)):
        with pytest.raises(mxsim.MxsimError) as e:
            mxsim.sweep(MEDIUM, RESNET, axes, strict_group=True, accuracy=False, executor=ex, out=tmp_path / "py.csv")
        if ex is not None:
            ex.shutdown()
        assert e.value.status_name == "E_INPUT" and e.value.message.endswith(first)
        assert same(tmp_path / "cli.csv", tmp_path / "py.csv")  # written, as the CLI writes it
    # some points failing: the records come back, with a warning naming the first failure
    with pytest.warns(RuntimeWarning, match="1 of 2 points failed"):
        r = mxsim.sweep(MEDIUM, RESNET, {"mx.group_size": [24, 1]}, strict_group=True, accuracy=False)
    status = {row["point"]: row["status"] for row in r if row["op"] == "TOTAL"}
    assert status[0].startswith("error:") and status[1] == "ok"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check=False: the status column only
        r = mxsim.sweep(MEDIUM, RESNET, axes, strict_group=True, accuracy=False, check=False)
    assert {row["status"].split(": ", 1)[0] for row in r} == {"error"}


def test_sweep_sram_bank_kib_matches_cli(tmp_path):
    args = ["sweep", "--config", CFG, TRACE, "--sweep", "mx.group_size=16,32", "--sample-rows", 8, "--sample-cols", 8,
            "-q"]
    cli(*args, "--sram-bank-kib", 8, "-o", tmp_path / "cli8.csv")
    cli(*args, "-o", tmp_path / "cli.csv")
    assert not same(tmp_path / "cli8.csv", tmp_path / "cli.csv")  # the option changes the energy
    mxsim.sweep(CFG, TRACE, {"mx.group_size": [16, 32]}, sram_bank_kib=8, out=tmp_path / "py8.csv", **SMALL)
    assert same(tmp_path / "cli8.csv", tmp_path / "py8.csv")
    assert same(tmp_path / "cli8.meta.json", tmp_path / "py8.meta.json")


def test_unwritable_out_refused_before_running(tmp_path):
    with pytest.raises(mxsim.MxsimError) as e:
        mxsim.sweep(CFG, TRACE, {"mx.group_size": [16, 32]}, out=tmp_path / "no" / "dir" / "x.csv", **SMALL)
    assert e.value.status_name == "E_IO"


# ---- 9. Ctrl-C ----------------------------------------------------------------------------------

@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals need the main thread")
def test_ctrl_c_cancels_a_long_sweep():
    if not mxsim.FEATURES["cancel"]:
        pytest.skip("library without mxsim_ctx_set_cancel")
    cfg = mxsim.Config(MEDIUM)
    tr = mxsim.Trace.load(LLAMA)
    axes = {"mx.group_size": [16, 32, 64, 128], "numerics.profile": list(mxsim.PROFILES)}  # about a minute
    # Python turns SIGINT into KeyboardInterrupt only if SIGINT was not ignored when it started,
    # and a shell without job control starts its background commands with SIGINT ignored (a CI
    # script run with '&' did: "DID NOT RAISE", the sweep ran its 40 s): the test sets Python's own
    # handler for its duration.  The signal comes from a child process.
    old_handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    t0 = time.monotonic()
    killer = subprocess.Popen(["sh", "-c", "sleep 0.5 && kill -INT %d" % os.getpid()])
    try:
        with pytest.raises(KeyboardInterrupt):
            mxsim.sweep(cfg, tr, axes, threads=2, sample_rows=256, sample_cols=256)
        elapsed = time.monotonic() - t0
    finally:
        killer.kill()
        killer.wait()
        signal.signal(signal.SIGINT, old_handler)
    assert elapsed < 15, elapsed
    # the context is usable again, its hook removed
    r = mxsim.sweep(CFG, TRACE, {"mx.group_size": [16, 32]}, **SMALL)
    assert {row["status"] for row in r} == {"ok"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert mxsim.run(CFG, TRACE)[-1]["op"] == "TOTAL"


# ---- arguments a user gets wrong (sixteenth session's audit of the Python layer) -----------------------------

def test_mxtensor_attributes_are_read_only():
    """m.axis = 0 used to change repr and pickling but not dequantize/gemm/save (the library's copy)."""
    m = mxsim.quantize(np.arange(64, dtype=np.float32).reshape(2, 32), group_size=32)
    for attr, value in (("mantissa", np.zeros((2, 32), np.int8)), ("scale", np.zeros((2, 1), np.uint8)),
                        ("group_size", 16), ("axis", 0), ("profile", "mase")):
        with pytest.raises(AttributeError):
            setattr(m, attr, value)
    back = pickle.loads(pickle.dumps(m))
    assert np.array_equal(back.dequantize(), m.dequantize()) and repr(back) == repr(m)


def test_missing_paths_name_the_argument(tmp_path):
    m = mxsim.quantize(np.ones((1, 32), np.float32), group_size=32)
    for call, name in ((lambda: m.save(None), "path"), (lambda: mxsim.MXTensor.load(None), "path"),
                       (lambda: mxsim.Trace.load(None), "path"),
                       (lambda: mxsim.Trace.load(TRACE).save(None), "path"),
                       (lambda: mxsim.report(None, tmp_path / "r"), "results")):
        with pytest.raises(TypeError, match=name):
            call()


def test_masked_array_is_refused():
    """np.asarray drops a mask: the masked values would set the group's scale."""
    x = np.ma.masked_array(np.ones((1, 32), np.float32), mask=np.zeros((1, 32), bool))
    x[0, 0] = 1e30
    x[0, 0] = np.ma.masked
    with pytest.raises(TypeError, match="masked array"):
        mxsim.quantize(x, group_size=32)


def test_config_trace_sweep_argument_types():
    with pytest.raises(TypeError, match="path"):
        mxsim.Config(3)
    with pytest.raises(TypeError, match="overrides"):
        mxsim.Config(overrides=[1, 2])
    for ops in ("gemm", None, [None]):
        with pytest.raises(TypeError, match="ops"):
            mxsim.Trace.build(ops)
    with pytest.raises(TypeError, match="axes"):
        mxsim.sweep(CFG, TRACE, None)
    with pytest.raises(TypeError, match="executor"):
        mxsim.sweep(CFG, TRACE, {"mx.group_size": [32]}, executor="x")


def test_results_do_not_depend_on_the_decimal_comma_locale(tmp_path, monkeypatch):
    """Under de_DE (locale.setlocale(LC_ALL, '') for a German user) the library wrote "0,9" into
    its JSON, so run/cost/sweep raised JSONDecodeError, and Config refused "3.9"."""
    import locale
    cfg = os.path.join(ROOT, "workloads", "configs", "large.ini")
    trace = os.path.join(ROOT, "traces", "bert-base.trace")
    ref = (mxsim.cost(mxsim.Config(cfg)), mxsim.run(mxsim.Config(cfg), trace))
    old = locale.setlocale(locale.LC_ALL)

    def comma_locale():
        for name in ("de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"):
            try:
                locale.setlocale(locale.LC_ALL, name)
                return True
            except locale.Error:
                continue
        return False

    if not comma_locale():  # not installed: build one where glibc's LOCPATH finds it
        r = subprocess.run(["localedef", "-i", "de_DE", "-f", "UTF-8", str(tmp_path / "de_DE.UTF-8")],
                           capture_output=True)
        monkeypatch.setenv("LOCPATH", str(tmp_path))
        if r.returncode != 0 or not comma_locale():
            pytest.skip("no locale with a decimal comma is installed and localedef could not build one")
    try:
        assert locale.localeconv()["decimal_point"] == ","
        assert (mxsim.cost(mxsim.Config(cfg)), mxsim.run(mxsim.Config(cfg), trace)) == ref
    finally:
        locale.setlocale(locale.LC_ALL, old)


# ---- 9. a SCALE-Sim topology given as a path is read by the configuration's rules, as the CLI reads it

def test_topology_read_as_configuration_reads_it(tmp_path):
    # strides9.csv: ConvA 32x32, filter 3x3, strides (2, 1); ConvB 20x30, filter 3x5, strides (1, 3).
    # SCALE-Sim's output size per dimension is ceil((H - F + s) / s), mxsim's native floor((H - F) / s) + 1
    topo = os.path.join(ROOT, "tests", "timing", "scalesim", "topologies", "audit", "strides9.csv")
    ss_cfg = os.path.join(ROOT, "tests", "timing", "scalesim", "configs", "audit", "google_user10.cfg")
    rows = [(32, 32, 3, 3, 2, 1), (20, 30, 3, 5, 1, 3)]
    ceil_m = [-(-(h - fh + sh) // sh) * -(-(w - fw + sw) // sw) for h, w, fh, fw, sh, sw in rows]
    floor_m = [((h - fh) // sh + 1) * ((w - fw) // sw + 1) for h, w, fh, fw, sh, sw in rows]
    assert (ceil_m, floor_m) == ([480, 180], [450, 162])
    for cfg, want in ((ss_cfg, ceil_m), (CFG, floor_m)):
        for rec in (mxsim.run(cfg, topo), mxsim.run(cfg, mxsim.Trace.load(topo, config=cfg))):
            assert [r["m"] for r in rec if r["op"] != "TOTAL"] == want
        # memory's activation rows: M x K elements of A per conv, M = the output positions
        acts = {r["item"]: r["elems"] for r in mxsim.memory(cfg, topo) if r["item"].endswith(".A")}
        assert [acts[f"{n}.A"] for n in ("ConvA", "ConvB")] == [m * k for m, k in zip(want, (3 * 3 * 8, 3 * 5 * 4))]
        cl = json.loads(cli("run", "--config", cfg, "--format", "json", topo))["rows"]
        assert [r["cycles_total"] for r in mxsim.run(cfg, topo)] == [r["cycles_total"] for r in cl]
    # without a configuration a topology is read by mxsim's rules
    assert [op["m"] for op in mxsim.Trace.load(topo).ops] == floor_m
    # an axis that changes the reading is refused, as the CLI refuses it
    for key in ("report.scalesim_compat", b"report.scalesim_compat"):
        with pytest.raises(mxsim.MxsimError, match=r"axes\[b?'report.scalesim_compat'\]: .*reads differently under SCALE-Sim's model"):
            mxsim.sweep(CFG, topo, {key: [0, 1]}, accuracy=False)


def test_library_that_is_not_libmxsim():
    # MXSIM_LIBRARY naming another shared library: the package's ImportError, not an AttributeError
    import ctypes.util
    other = ctypes.util.find_library("z")
    if other is None:
        pytest.skip("no zlib shared library to stand in for another library")
    env = dict(os.environ, MXSIM_LIBRARY=other)
    r = subprocess.run([sys.executable, "-c", "import mxsim"], env=env, capture_output=True, text=True)
    assert r.returncode != 0 and "ImportError: mxsim: " in r.stderr and "is not libmxsim" in r.stderr, r.stderr


def test_argument_names_in_type_errors():
    # a wrong type names the argument it was given as (both said "path: expected a path")
    with pytest.raises(TypeError, match=r"^config: expected a Config or a path, got int 123"):
        mxsim.run(123, TRACE)
    with pytest.raises(TypeError, match=r"^trace: expected a Trace or a path, got int 123"):
        mxsim.run(CFG, 123)


def test_operand_formats_only_on_gemm():
    # a dequant's input is MXINT8 by definition: a=/b= on it were ignored by the timing, then the
    # saved trace was refused by the text reader; the library refuses them where the op is built
    with pytest.raises(mxsim.MxsimError, match="op 'd': field 'a': only gemm has operand formats"):
        mxsim.Trace.build([{"kind": "dequant", "name": "d", "m": 4, "n": 64, "a_fmt": 0}])
    t = mxsim.Trace.build([{"kind": "gemm", "name": "g", "m": 4, "n": 64, "k": 64, "a_fmt": 1, "b_fmt": 1}])
    assert [op["a_fmt"] for op in t.ops] == [1]


def test_axis_reading_without_a_context(tmp_path):
    # every ABI function that takes a context accepts NULL (mxsim.h); this one saved and restored
    # the context's notes without a check and crashed (run in a child: a crash must not end the suite)
    topo = os.path.join(ROOT, "tests", "timing", "scalesim", "topologies", "audit", "strides9.csv")
    code = ("import ctypes, mxsim, mxsim._lib as L\n"
            f"c = mxsim.Config({CFG!r})\n"
            f"print(L.lib.mxsim_trace_axis_reading(None, c._buf, {topo!r}.encode(), b'report.scalesim_compat'))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() != "0"  # strides9.csv reads differently under SCALE-Sim's model
