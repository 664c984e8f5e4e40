"""Audit 13: inputs the package took and the CLI refuses (or that gave wrong numbers).

Every expectation is derived by hand (OCP MXINT8: 1.0 in a group of ones is scale byte 127 and
mantissa 64; SQNR 10 log10(sum ref^2 / sum err^2)), or is the CLI's own answer to the same input."""
import math
import os
import pathlib
import pickle
import re
import subprocess

import numpy as np
import pytest

import mxsim
from clihelp import cli_run

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CFG = os.path.join(ROOT, "workloads", "configs", "small.ini")
TRACE = os.path.join(ROOT, "traces", "bert-base.trace")
TOPO = os.path.join(ROOT, "tests", "timing", "scalesim", "topologies", "audit", "strides9.csv")


def tiny_trace():
    return mxsim.Trace.build([{"kind": "gemm", "name": "g", "m": 8, "n": 8, "k": 32}])


needs_sweep = pytest.mark.skipif(not mxsim.FEATURES["sweep"], reason="library built without the sweep module")
needs_timing = pytest.mark.skipif(not mxsim.FEATURES["timing"], reason="library built without the timing engine")


# ---- 1. compare: no silent float64/int64 -> float32 rounding ------------------------------------

@pytest.mark.parametrize("ref, test, bad, value", [
    (np.array([1.0]), np.array([1.0 + 1e-12]), "test", "1.000000000001"),
    (np.array([2 ** 60]), np.array([2 ** 60 + 1000]), "test", str(2 ** 60 + 1000)),
    (np.array([1e-50]), np.array([0.0]), "ref", "1e-50"),
    (np.array([1e300]), np.array([2e300]), "ref", "1e+300"),
])
def test_compare_refuses_inexact_float32_cast(ref, test, bad, value):
    with pytest.raises(ValueError, match=rf"^{bad}: {re.escape(value)} \((float64|int64)\) at index \(0,\)"):
        mxsim.compare(ref, test)


def test_compare_inexact_value_named_by_index():
    ref = np.zeros((2, 3))
    ref[1, 2] = 0.1  # 0.1 has no float32 form
    with pytest.raises(ValueError, match=r"^ref: 0\.1 \(float64\) at index \(1, 2\)"):
        mxsim.compare(ref, np.zeros((2, 3), np.float32))


def test_compare_exact_wider_inputs_give_the_float32_numbers():
    # exactly representable float64 and int64 values: the same numbers as float32, computed by hand
    s = mxsim.compare(np.array([1.0, 2.0]), np.array([1, 2.5]))
    assert (s["elements"], s["bit_mismatches"], s["nan_mismatches"]) == (2, 1, 0)
    assert s["max_abs_err"] == 0.5 and s["max_rel_err"] == 0.25 and s["mean_abs_err"] == 0.25
    assert math.isclose(s["sqnr_db"], 10 * math.log10(5 / 0.25), rel_tol=1e-12)
    # infinities, NaN, -0.0, the float32 extremes and int64 2**60 are exact in float32
    f32 = np.finfo(np.float32)
    vals = [np.inf, -np.inf, np.nan, -0.0, float(f32.max), float(f32.smallest_subnormal)]
    assert mxsim.compare(np.array(vals), np.array(vals, np.float32))["bit_mismatches"] == 0
    s = mxsim.compare(np.array([2 ** 60], np.int64), np.array([2.0 ** 60], np.float32))
    assert s["bit_mismatches"] == 0 and s["sqnr_db"] == math.inf


def test_compare_int64_max_is_not_rounded_to_2_63():
    with pytest.raises(ValueError, match=r"^ref: 9223372036854775807 \(int64\)"):
        mxsim.compare(np.array([2 ** 63 - 1]), np.array([0]))
    with pytest.raises(ValueError, match=r"^ref: 18446744073709551615 \(uint64\)"):
        mxsim.compare(np.array([2 ** 64 - 1], np.uint64), np.array([0]))


def test_cli_compare_refuses_float64(tmp_path):
    np.save(tmp_path / "a.npy", np.array([1.0]))
    np.save(tmp_path / "b.npy", np.array([1.0 + 1e-12]))
    r = cli_run("compare", tmp_path / "a.npy", tmp_path / "b.npy")
    assert r.returncode == 2 and "'<f8' is not supported" in r.stderr


# ---- 2. quantize: a value float32 cannot hold is refused, float32 inf/NaN keep working -----------

def test_quantize_refuses_value_overflowing_float32():
    x = np.ones((1, 32))
    x[0, 5] = 1e39
    with pytest.raises(ValueError, match=r"^x: 1e\+39 \(float64\) at index \(0, 5\) .* would become inf"):
        mxsim.quantize(x)


def test_quantize_exact_float64_and_nonfinite_as_float32():
    mx = mxsim.quantize(np.ones((1, 32)))  # hand: max 1.0 -> shared exponent 0 -> scale 127, mantissa 1 * 2^6
    assert mx.scale.tolist() == [[127]] and mx.mantissa.tolist() == [[64] * 32]
    for special in (np.inf, -np.inf, np.nan):
        x = np.ones((1, 32))
        x[0, 3] = special
        a, b = mxsim.quantize(x), mxsim.quantize(x.astype(np.float32))  # what the library does with float32's
        assert np.array_equal(a.scale, b.scale) and np.array_equal(a.mantissa, b.mantissa)


# ---- 3. sweep options as the CLI takes them -----------------------------------------------------

@needs_sweep
@pytest.mark.parametrize("kw", [dict(seed=5), dict(sample_rows=3), dict(sample_cols=0), dict(data_dir="/tmp")])
def test_sweep_accuracy_options_need_accuracy(kw):
    name = next(iter(kw))
    with pytest.raises(ValueError, match=rf"^{name}=.* has no effect with accuracy=False"):
        mxsim.sweep(CFG, tiny_trace(), {"mx.group_size": [32]}, accuracy=False, **kw)


@needs_sweep
def test_cli_refuses_seed_with_no_accuracy():
    r = cli_run("sweep", "--config", CFG, TRACE, "--no-accuracy", "--seed", 5, "-q")
    assert r.returncode == 2 and "--seed has no effect with --no-accuracy" in r.stderr


@needs_sweep
@pytest.mark.parametrize("kw, exc, msg", [
    (dict(sample_rows=2 ** 40), ValueError, r"sample_rows=1099511627776: expected 0\.\.1048576"),
    (dict(sample_cols=1048577), ValueError, r"sample_cols=1048577: expected 0\.\.1048576"),
    (dict(sample_rows=-1), ValueError, r"sample_rows=-1: expected 0\.\.1048576"),
    (dict(seed=2 ** 63), ValueError, r"seed=9223372036854775808: expected 0\.\.9223372036854775807"),
    (dict(seed=2 ** 64), OverflowError, r"seed=18446744073709551616"),
])
def test_sweep_cli_ranges(kw, exc, msg):
    with pytest.raises(exc, match=msg):
        mxsim.sweep(CFG, tiny_trace(), {"mx.group_size": [32]}, **kw)


@needs_sweep
def test_sweep_cli_range_ends_accepted():
    r = mxsim.sweep(CFG, tiny_trace(), {"mx.group_size": [32]}, sample_rows=2 ** 20, sample_cols=0,
                    seed=2 ** 63 - 1, threads=1)
    assert len(r) == 2 and all(row["status"] == "ok" for row in r)


# ---- 4. yes/no arguments are bools --------------------------------------------------------------

@needs_sweep
@pytest.mark.parametrize("kw", [dict(accuracy="no"), dict(strict_group="no"), dict(accuracy=None),
                                dict(strict_group=1), dict(check="no")])
def test_sweep_flags_must_be_bool(kw):
    name = next(iter(kw))
    with pytest.raises(TypeError, match=rf"^{name}: expected True or False"):
        mxsim.sweep(CFG, tiny_trace(), {"mx.group_size": [32]}, **kw)


@needs_timing
@pytest.mark.parametrize("v", ["yes", "no", 1, None])
def test_run_detail_must_be_bool(v):
    with pytest.raises(TypeError, match=r"^detail: expected True or False"):
        mxsim.run(CFG, tiny_trace(), detail=v)


@needs_timing
def test_run_bool_flags_still_work():
    a, b = mxsim.run(CFG, tiny_trace(), detail=np.bool_(False)), mxsim.run(CFG, tiny_trace())
    assert a == b


def test_save_compress_must_be_bool(tmp_path):
    mx = mxsim.quantize(np.ones((1, 32), np.float32))
    with pytest.raises(TypeError, match=r"^compress: expected True or False"):
        mx.save(tmp_path / "x.npz", compress="no")
    assert not (tmp_path / "x.npz").exists()


# ---- 5. Trace.build: nothing that save() would drop ---------------------------------------------

@needs_timing
@pytest.mark.parametrize("extra", [dict(conv_h=3), dict(conv_s=0, conv_h=10, conv_w=10, conv_fh=3, conv_fw=3, conv_c=4),
                                   dict(conv_s=-1), dict(conv_c=-5)])
def test_trace_build_refuses_conv_fields(extra):
    op = dict(kind="gemm", name="g", m=8, n=8, k=32, **extra)
    with pytest.raises(ValueError, match=r"^trace op 'g': conv_.*SCALE-Sim"):
        mxsim.Trace.build([op])


@needs_timing
@pytest.mark.parametrize("kind", ["dequant", "quantize"])
def test_trace_build_refuses_k_on_elementwise_op(kind):
    with pytest.raises(ValueError, match=rf"^trace op 'd': k=4: only a gemm op has k \(a {kind} op"):
        mxsim.Trace.build([{"k": 4, "kind": kind, "name": "d", "m": 8, "n": 32}])  # k before kind: still seen


@needs_timing
def test_trace_build_roundtrips_through_save(tmp_path):
    t = mxsim.Trace.load(TRACE)
    b = mxsim.Trace.build(t.ops)  # conv_* 0 and k 0 of the dequant/quantize ops: accepted
    b.save(tmp_path / "b.trace")
    back = mxsim.Trace.load(tmp_path / "b.trace")
    strip = lambda ops: [{k: v for k, v in o.items() if k != "line"} for o in ops]  # noqa: E731
    assert strip(back.ops) == strip(t.ops)


@needs_timing
def test_scalesim_trace_pickles_with_its_conv_fields():
    t = mxsim.Trace.load(TOPO)
    ops = {o["name"]: o for o in t.ops}
    # hand: row stride | column stride << 32 where they differ (ConvA 2, 1; ConvB 1, 3)
    assert ops["ConvA"]["conv_s"] == 2 | 1 << 32 and ops["ConvB"]["conv_s"] == 1 | 3 << 32
    assert (ops["ConvB"]["conv_h"], ops["ConvB"]["conv_w"], ops["ConvB"]["conv_fh"], ops["ConvB"]["conv_fw"],
            ops["ConvB"]["conv_c"]) == (20, 30, 3, 5, 4)
    assert pickle.loads(pickle.dumps(t)).ops == t.ops


# ---- 6. run and sweep need a configuration, as the CLI ------------------------------------------

@needs_timing
def test_run_refuses_none_config():
    with pytest.raises(TypeError, match=r"^config: mxsim\.run needs a configuration.*--config"):
        mxsim.run(None, tiny_trace())
    r = cli_run("run", TRACE)
    assert r.returncode == 2 and "missing --config" in r.stderr


@needs_sweep
def test_sweep_refuses_none_config_cost_takes_default():
    with pytest.raises(TypeError, match=r"^config: mxsim\.sweep needs a configuration"):
        mxsim.sweep(None, tiny_trace(), {"mx.group_size": [32]})
    assert mxsim.cost(None) == mxsim.cost(mxsim.Config())  # `mxsim cost` runs without --config


@needs_timing
def test_run_refuses_none_trace():
    with pytest.raises(TypeError, match=r"^trace: expected a Trace or a path, got None"):
        mxsim.run(CFG, None)


# ---- 7. merge takes a list of parts -------------------------------------------------------------

@needs_sweep
@pytest.mark.parametrize("parts", ["parts.csv", b"parts.csv", pathlib.Path("parts.csv")])
def test_merge_refuses_a_single_path(tmp_path, parts):
    with pytest.raises(TypeError, match=r"^parts: expected a list of part file paths, got the single path"):
        mxsim.merge(parts, tmp_path / "out.csv")
    assert not (tmp_path / "out.csv").exists()


@needs_sweep
def test_merge_refuses_no_parts(tmp_path):
    with pytest.raises(ValueError, match=r"^parts: no part files"):
        mxsim.merge([], tmp_path / "out.csv")
    with pytest.raises(TypeError, match=r"^parts: expected a list"):
        mxsim.merge(3, tmp_path / "out.csv")


# ---- 8. MXTensor.save writes *.npz only ---------------------------------------------------------

@pytest.mark.parametrize("name", ["x.npy", "x", "x.NPZ", "x.npz.tmp"])
def test_mxtensor_save_needs_npz_name(tmp_path, name):
    mx = mxsim.quantize(np.ones((1, 32), np.float32))
    with pytest.raises(ValueError, match=r"^path=.*: this writes an MXINT8 \.npz; name the file \*\.npz"):
        mx.save(tmp_path / name)
    assert not (tmp_path / name).exists()
    r = cli_run("quantize", os.devnull, "-o", tmp_path / name)  # the CLI: the same refusal, before reading
    assert r.returncode == 2 and "name the file *.npz" in r.stderr


def test_mxtensor_save_npz_still_works(tmp_path):
    mx = mxsim.quantize(np.ones((1, 32), np.float32))
    mx.save(tmp_path / "x.npz")
    back = mxsim.MXTensor.load(tmp_path / "x.npz")
    assert back.scale.tolist() == [[127]] and back.mantissa.tolist() == [[64] * 32]


# ---- 9 and 11. 0-d arrays: refused, with the CLI's message --------------------------------------

def test_mxtensor_refuses_0d_mantissa():
    with pytest.raises(mxsim.MxsimError, match=r"mantissa: 0-d array, expected at least 1 dimension") as e:
        mxsim.MXTensor(np.int8(1), np.uint8(1), 1, 0)
    assert e.value.status_name == "E_INPUT"


def test_quantize_0d_message_matches_cli(tmp_path):
    with pytest.raises(mxsim.MxsimError, match=r"^input: 0-d array cannot be grouped") as e:
        mxsim.quantize(np.float32(3))
    assert e.value.status_name == "E_INPUT"
    np.save(tmp_path / "s.npy", np.float32(3))
    r = cli_run("quantize", tmp_path / "s.npy", "-o", tmp_path / "s.npz")
    assert r.returncode == 2 and e.value.message in r.stderr


def test_compare_0d_stays_0d():
    s = mxsim.compare(np.float32(1), np.float32(3))  # hand: one element, |3 - 1| = 2, relative 2
    assert (s["elements"], s["bit_mismatches"], s["max_abs_err"], s["max_rel_err"]) == (1, 1, 2.0, 2.0)


# ---- 10. configuration values that are not text -------------------------------------------------

@needs_timing
@pytest.mark.parametrize("v", [b"\xff", b"o\xc3", "\udcff"])
def test_config_value_not_utf8_is_value_error(v):
    c = mxsim.Config()
    with pytest.raises(ValueError, match=r"^value of 'array\.dataflow': .* is not (UTF-8|valid Unicode) text"):
        c["array.dataflow"] = v
    c["array.dataflow"] = b"ws"
    assert c["array.dataflow"] == "ws"


@needs_sweep
def test_sweep_axis_value_not_utf8_is_value_error():
    with pytest.raises(ValueError, match=r"^sweep axis 'array\.dataflow': .* is not UTF-8 text"):
        mxsim.sweep(CFG, tiny_trace(), {"array.dataflow": [b"\xff"]})
