"""mxsim: Python bindings of the MXINT8 accelerator simulator (ctypes over libmxsim's C ABI).

Numerics:  quantize, dequantize, gemm, compare on NumPy arrays (float32, or bfloat16 bits as
           uint16) and torch tensors; MXTensor (mantissa, scale, group_size, axis, profile) with
           save/load of the CLI's .npz.
Timing:    Config (dict-like over the configuration field table), Trace, run(config, trace).
Sweeps:    sweep(config, trace, axes, ..., executor=None) -> Records (to_pandas()); cost(config);
           report(csv, out_dir).
Errors raise MxsimError(status, message), the library's status and message.
"""
import concurrent.futures
import ctypes
import json
import os
import tempfile
import threading

import numpy as np

from . import _lib
from ._lib import lib

__all__ = ["MxsimError", "MXTensor", "quantize", "dequantize", "gemm", "compare", "Config", "Trace", "run",
           "sweep", "merge", "cost", "report", "Records", "version", "PROFILES", "library_path", "cli_path"]

PROFILES = ("ocp", "mase", "mase-cuda", "microxcaling")
_DT_F32, _DT_BF16, _DT_I8, _DT_U8, _DT_U16 = 0, 1, 2, 3, 4
_NP = {_DT_F32: np.float32, _DT_BF16: np.uint16, _DT_I8: np.int8, _DT_U8: np.uint8, _DT_U16: np.uint16,
       5: np.int64, 6: np.int32}
library_path = _lib.path


def version():
    return lib.mxsim_version().decode()


def cli_path():
    """The mxsim CLI shipped with the package (None if this build has none)."""
    p = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "mxsim")
    return p if os.path.exists(p) else None


# ---- errors and contexts --------------------------------------------------------------------

_STATUS_NAMES = ["OK", "E_ARG", "E_INPUT", "E_FORMAT", "E_IO", "E_NOMEM", "E_LIMIT", "E_UNSUPPORTED",
                 "E_INTERNAL"]


class MxsimError(Exception):
    """A failed library call: .status (int), .status_name ("E_INPUT"; later codes by number),
    .message (the library's message)."""

    def __init__(self, status, message):
        self.status = int(status)
        self.status_name = _STATUS_NAMES[status] if 0 <= status < len(_STATUS_NAMES) else f"status {status}"
        self.message = message
        super().__init__(f"{message} [{self.status_name}: {lib.mxsim_strerror(status).decode()}]")


class _Ctx:
    def __init__(self):
        self.p = ctypes.c_void_p()
        st = lib.mxsim_ctx_create(ctypes.byref(self.p))
        if st:
            raise MemoryError("mxsim_ctx_create failed")

    def __del__(self):
        if getattr(self, "p", None):
            lib.mxsim_ctx_destroy(self.p)


_tls = threading.local()


def _ctx(threads=None):
    """This thread's context (the library's contexts are not shared between threads)."""
    c = getattr(_tls, "ctx", None)
    if c is None:
        c = _tls.ctx = _Ctx()
    _check(c.p, lib.mxsim_ctx_set_threads(c.p, 0 if threads is None else int(threads)))
    return c.p


def _check(ctx, st):
    if st != 0:
        raise MxsimError(st, lib.mxsim_errmsg(ctx).decode(errors="replace"))


def _b(s):
    return None if s is None else os.fsencode(s) if isinstance(s, os.PathLike) else str(s).encode()


# ---- dense tensors --------------------------------------------------------------------------

class _Owned:
    """Keeps a library object alive while NumPy arrays view its memory (zero-copy outputs)."""

    def __init__(self, ptr, free):
        self.ptr, self._free = ptr, free

    def __del__(self):
        if self.ptr:
            self._free(self.ptr)
            self.ptr = None


class _View:
    def __init__(self, owner, tensor):
        dt = lib.mxsim_tensor_dtype(tensor)
        nd = lib.mxsim_tensor_ndim(tensor)
        shp = lib.mxsim_tensor_shape(tensor)
        shape = tuple(shp[i] for i in range(nd))
        self.owner = owner
        self.__array_interface__ = {"shape": shape, "typestr": np.dtype(_NP[dt]).str,
                                    "data": (lib.mxsim_tensor_cdata(tensor) or 0, False), "version": 3}


def _tensor_array(owner, tensor):
    """A NumPy array viewing tensor's storage (owned by owner), without a copy."""
    return np.asarray(_View(owner, tensor))


def _as_numpy(x, dtype=None):
    """(array, mxsim dtype) from a NumPy array, a torch tensor (bfloat16 included) or a sequence."""
    mod = type(x).__module__
    if mod.startswith("torch"):
        import torch
        x = x.detach().cpu()
        if x.dtype == torch.bfloat16:
            x, dtype = x.contiguous().view(torch.int16).numpy().view(np.uint16), dtype or "bf16"
        else:
            x = x.contiguous().numpy()
    elif hasattr(x, "__dlpack__") and not isinstance(x, np.ndarray):
        try:
            x = np.from_dlpack(x)
        except (TypeError, RuntimeError, BufferError):
            x = np.asarray(x)
    a = np.asarray(x)
    if dtype is None:
        dtype = "bf16" if a.dtype == np.uint16 else "f32"
    if dtype in ("bf16", "bfloat16"):
        if a.dtype != np.uint16:
            raise TypeError(f"bf16 input must be uint16 bit patterns, got {a.dtype}")
        return a, _DT_BF16
    if dtype in ("f32", "float32"):
        return a.astype(np.float32, copy=False), _DT_F32
    raise ValueError(f"dtype '{dtype}': expected 'f32' or 'bf16'")


def _to_tensor(ctx, a, dt):
    """A library tensor holding a's values (the library owns its storage: one copy)."""
    a = np.ascontiguousarray(a, dtype=_NP[dt])
    shape = (ctypes.c_int64 * max(a.ndim, 1))(*a.shape)
    t = ctypes.c_void_p()
    _check(ctx, lib.mxsim_tensor_create(ctx, dt if dt != _DT_BF16 else _DT_U16, a.ndim, shape, ctypes.byref(t)))
    if dt == _DT_BF16:
        lib.mxsim_tensor_set_dtype(ctx, t, _DT_BF16)
    if a.nbytes:
        ctypes.memmove(lib.mxsim_tensor_data(t), a.ctypes.data, a.nbytes)
    return _Owned(t, lib.mxsim_tensor_free)


def _profile_id(p):
    if isinstance(p, int):
        return p
    out = ctypes.c_int()
    st = lib.mxsim_profile_parse(_b(p), ctypes.byref(out))
    if st:
        raise MxsimError(st, f"profile '{p}': expected one of {', '.join(PROFILES)}")
    return out.value


# ---- MXINT8 tensors -------------------------------------------------------------------------

class MXTensor:
    """An MXINT8 tensor: int8 mantissas in the tensor's shape, one scale byte per group of
    group_size elements along axis (bytes as the profile stores them)."""

    def __init__(self, mantissa, scale, group_size, axis, profile="ocp", _handle=None):
        if _handle is None:
            ctx = _ctx()
            m = _to_tensor(ctx, np.asarray(mantissa), _DT_I8)
            s = _to_tensor(ctx, np.asarray(scale), _DT_U8)
            h = ctypes.c_void_p()
            _check(ctx, lib.mxsim_mx_create(ctx, m.ptr, s.ptr, int(group_size), int(axis), _profile_id(profile),
                                            ctypes.byref(h)))
            _handle = _Owned(h, lib.mxsim_mx_free)
        self._h = _handle
        p = self._h.ptr
        self.mantissa = _tensor_array(self._h, lib.mxsim_mx_mantissa(p))
        self.scale = _tensor_array(self._h, lib.mxsim_mx_scale(p))
        self.group_size = int(lib.mxsim_mx_group_size(p))
        self.axis = int(lib.mxsim_mx_axis(p))
        self.profile = lib.mxsim_profile_name(lib.mxsim_mx_profile(p)).decode()

    @property
    def shape(self):
        return self.mantissa.shape

    def __repr__(self):
        return (f"MXTensor(shape={self.shape}, group_size={self.group_size}, axis={self.axis}, "
                f"profile='{self.profile}')")

    def save(self, path, compress=False):
        """Writes the CLI's .npz (members mantissa, scale, group_size, axis, profile), atomically."""
        ctx = _ctx()
        _check(ctx, lib.mxsim_mx_save(ctx, self._h.ptr, _b(path), int(bool(compress))))

    @classmethod
    def load(cls, path):
        ctx = _ctx()
        h = ctypes.c_void_p()
        _check(ctx, lib.mxsim_mx_load(ctx, _b(path), ctypes.byref(h)))
        return cls(None, None, 0, 0, _handle=_Owned(h, lib.mxsim_mx_free))

    def dequantize(self, dtype="f32"):
        return dequantize(self, dtype)


def quantize(x, group_size=32, axis=-1, profile="ocp", dtype=None, threads=None):
    """Quantizes x (float32, bf16 bits as uint16 with dtype='bf16' or by uint16 dtype, or a torch
    tensor) to an MXTensor, bit-identical to `mxsim quantize`.  threads: as the CLI's -j (None:
    every CPU)."""
    a, dt = _as_numpy(x, dtype)
    ctx = _ctx(threads)
    t = _to_tensor(ctx, a, dt)
    h = ctypes.c_void_p()
    _check(ctx, lib.mxsim_mx_quantize(ctx, t.ptr, _profile_id(profile), int(group_size), int(axis), ctypes.byref(h)))
    return MXTensor(None, None, 0, 0, _handle=_Owned(h, lib.mxsim_mx_free))


def dequantize(mx, dtype="f32", threads=None):
    """float32 array (dtype='f32') or bf16 bits as uint16 (dtype='bf16'), with mx's profile's decode.
    The array views the library's buffer (no copy)."""
    dt = {"f32": _DT_F32, "float32": _DT_F32, "bf16": _DT_BF16, "bfloat16": _DT_BF16}.get(dtype)
    if dt is None:
        raise ValueError(f"dtype '{dtype}': expected 'f32' or 'bf16'")
    ctx = _ctx(threads)
    out = ctypes.c_void_p()
    _check(ctx, lib.mxsim_mx_dequantize(ctx, mx._h.ptr, dt, ctypes.byref(out)))
    return _tensor_array(_Owned(out, lib.mxsim_tensor_free), out)


def gemm(a, b, acc="fp32", out_dtype="f32", threads=None):
    """C = A . B^T for MXTensors A [M,K] and B [N,K] grouped along K (the arithmetic contract),
    bit-identical to `mxsim gemm`.  threads: as the CLI's -j (None: every CPU)."""
    o = _lib.GemmOpts()
    lib.mxsim_gemm_opts_default(ctypes.byref(o))
    o.acc = {"fp32": 0, "exact": 1}[acc]
    o.out_dtype = {"f32": _DT_F32, "bf16": _DT_BF16}[out_dtype]
    ctx = _ctx(threads)
    out = ctypes.c_void_p()
    _check(ctx, lib.mxsim_gemm(ctx, a._h.ptr, b._h.ptr, ctypes.byref(o), ctypes.byref(out)))
    return _tensor_array(_Owned(out, lib.mxsim_tensor_free), out)


def compare(ref, test, dtype=None):
    """Error metrics of test against ref (same shape; float32, or both bf16 bits): dict with n,
    n_bit_mismatch, n_nan_mismatch, sqnr_db, max_abs_err, max_rel_err, mean_abs_err."""
    ctx = _ctx()
    ra, rdt = _as_numpy(ref, dtype)
    ta, tdt = _as_numpy(test, dtype)
    r, t = _to_tensor(ctx, ra, rdt), _to_tensor(ctx, ta, tdt)
    s = _lib.ErrorStats()
    _check(ctx, lib.mxsim_compare(ctx, r.ptr, t.ptr, ctypes.byref(s)))
    return {f: getattr(s, f) for f, _ in _lib.ErrorStats._fields_}


# ---- tables ---------------------------------------------------------------------------------

class Records(list):
    """Rows of a library table as dicts (column names carry their units); .meta and .columns
    come from the table's JSON form.  to_pandas() needs pandas."""

    meta = {}
    columns = []

    def to_pandas(self):
        import pandas as pd
        return pd.DataFrame(list(self), columns=[c["name"] for c in self.columns] or None)


def _render(ctx, table, fmt="json"):
    f = ctypes.c_int()
    _check(ctx, lib.mxsim_output_format_parse(ctx, fmt.encode(), ctypes.byref(f)))
    text, n = ctypes.c_void_p(), ctypes.c_size_t()
    _check(ctx, lib.mxsim_table_render(ctx, table, f.value, ctypes.byref(text), ctypes.byref(n)))
    try:
        return ctypes.string_at(text, n.value).decode()
    finally:
        lib.mxsim_free(text)


def _records(ctx, table_ptr):
    t = _Owned(table_ptr, lib.mxsim_table_free)
    doc = json.loads(_render(ctx, t.ptr, "json"))
    r = Records(doc["rows"])
    r.meta, r.columns = doc.get("meta", {}), doc.get("columns", [])
    return r


# ---- configuration --------------------------------------------------------------------------

def _fields():
    out = []
    for i in range(lib.mxsim_tconfig_field_count()):
        f = lib.mxsim_tconfig_field_at(i).contents
        out.append({"name": f.name.decode(), "type": f.type.decode(), "unit": f.unit.decode(),
                    "doc": f.doc.decode(), "choices": f.choices.decode().split("|") if f.choices else None,
                    "min": f.lo, "max": f.hi, "default": f.default})
    return out


class Config:
    """An accelerator configuration, dict-like over the library's field table:
    cfg["array.rows"] = 32; cfg["dataflow"]; cfg.fields() gives units, bounds and docs.
    Config(path) loads an .ini (or SCALE-Sim .cfg); overrides is a dict of key -> value."""

    def __init__(self, path=None, overrides=None, **kw):
        self._buf = (ctypes.c_char * _lib.TCONFIG_BYTES)()
        self.path = None if path is None else os.fspath(path)
        lib.mxsim_tconfig_default(self._buf)
        if path is not None:
            ctx = _ctx()
            _check(ctx, lib.mxsim_tconfig_load(ctx, self._buf, _b(path)))
        for k, v in dict(overrides or {}, **kw).items():
            self[k] = v

    _FIELDS = None

    @classmethod
    def fields(cls):
        """Every field: name, type, unit, doc, choices, min, max, default."""
        if cls._FIELDS is None:
            cls._FIELDS = _fields()
        return cls._FIELDS

    def _index(self, key):
        for i, f in enumerate(self.fields()):
            if f["name"] == key:
                return i, f
        raise KeyError(key)

    def __getitem__(self, key):
        i, f = self._index(key)
        buf = ctypes.create_string_buffer(128)
        s = lib.mxsim_tconfig_format(self._buf, i, buf, 128).decode()
        return float(s) if f["type"] == "real" else int(s) if f["type"] in ("int", "bool") else s

    def __setitem__(self, key, value):
        ctx = _ctx()
        if isinstance(value, bool):
            value = int(value)
        _check(ctx, lib.mxsim_tconfig_set(ctx, self._buf, _b(key), _b(repr(value) if isinstance(value, float)
                                                                       else value), b"Config"))

    def keys(self):
        return [f["name"] for f in self.fields()]

    def __iter__(self):
        return iter(self.keys())

    def __len__(self):
        return len(self.fields())

    def __contains__(self, key):
        return key in self.keys()

    def items(self):
        return [(k, self[k]) for k in self.keys()]

    def to_dict(self):
        return dict(self.items())

    def update(self, d=None, **kw):
        for k, v in dict(d or {}, **kw).items():
            self[k] = v

    def validate(self):
        ctx = _ctx()
        _check(ctx, lib.mxsim_tconfig_validate(ctx, self._buf))

    def table(self):
        """The resolved configuration as records (key, value, type, unit, min, max, default, doc)."""
        ctx = _ctx()
        t = ctypes.c_void_p()
        _check(ctx, lib.mxsim_tconfig_table(ctx, self._buf, ctypes.byref(t)))
        return _records(ctx, t)

    def copy(self):
        c = Config.__new__(Config)
        c._buf = (ctypes.c_char * _lib.TCONFIG_BYTES).from_buffer_copy(self._buf)
        c.path = self.path
        return c

    def __getstate__(self):  # picklable (executors): the path and every field's value
        return {"path": self.path, "values": {k: self[k] for k in self.keys()}}

    def __setstate__(self, st):
        self.__init__(None)
        self.path = st["path"]
        for k, v in st["values"].items():
            self[k] = v

    def __eq__(self, other):
        return isinstance(other, Config) and self.to_dict() == other.to_dict()

    def __repr__(self):
        return f"Config({self.path!r})" if self.path else "Config()"


def _config(c):
    return c if isinstance(c, Config) else Config(c)


# ---- traces ---------------------------------------------------------------------------------

_OP_FIELDS = ("kind", "name", "m", "n", "k", "group_size", "repeat", "a_fmt", "b_fmt", "out_fmt", "line",
              "conv_h", "conv_w", "conv_fh", "conv_fw", "conv_c", "conv_s")


class Trace:
    """A workload trace (traces/FORMAT.md).  Trace.load(path), Trace.build(ops), t.save(path),
    t.ops (list of dicts)."""

    def __init__(self, _handle, path=None):
        self._h = _handle
        self.path = path

    @classmethod
    def load(cls, path):
        ctx = _ctx()
        h = ctypes.c_void_p()
        _check(ctx, lib.mxsim_trace_load(ctx, _b(path), ctypes.byref(h)))
        return cls(_Owned(h, lib.mxsim_trace_free), os.fspath(path))

    @classmethod
    def build(cls, ops, source="python"):
        """ops: dicts with kind ("gemm", "dequant", "quantize"), name, m, n, k and optionally
        group_size (0: the configuration's), repeat, a_fmt/b_fmt/out_fmt (-1: the configuration's)."""
        ctx = _ctx()
        h = ctypes.c_void_p()
        _check(ctx, lib.mxsim_trace_create(ctx, _b(source), ctypes.byref(h)))
        tr = cls(_Owned(h, lib.mxsim_trace_free))
        for d in ops:
            op = _lib.Top()
            op.repeat, op.a_fmt, op.b_fmt, op.out_fmt = 1, -1, -1, -1
            for k, v in d.items():
                if k == "kind" and isinstance(v, str):
                    kind = ctypes.c_int()
                    _check(ctx, lib.mxsim_op_kind_parse(ctx, v.encode(), ctypes.byref(kind)))
                    v = kind.value
                elif k == "name":
                    v = str(v).encode()
                elif k not in _OP_FIELDS:
                    raise KeyError(f"trace op field '{k}': expected one of {', '.join(_OP_FIELDS)}")
                setattr(op, k, v)
            _check(ctx, lib.mxsim_trace_append(ctx, h, ctypes.byref(op)))
        return tr

    @property
    def source(self):
        return lib.mxsim_trace_source(self._h.ptr).decode()

    def __len__(self):
        return int(lib.mxsim_trace_count(self._h.ptr))

    @property
    def ops(self):
        out = []
        for i in range(len(self)):
            op = lib.mxsim_trace_op(self._h.ptr, i).contents
            d = {f: getattr(op, f) for f in _OP_FIELDS}
            d["name"] = op.name.decode()
            d["kind"] = lib.mxsim_op_kind_name(op.kind).decode()
            out.append(d)
        return out

    def save(self, path):
        ctx = _ctx()
        _check(ctx, lib.mxsim_trace_save(ctx, self._h.ptr, _b(path)))

    @property
    def roles(self):
        """Per op, the role of its B operand (0 unset, 1 act, 2 weight, 3 kv: mxsim_tensor_role)."""
        return [int(lib.mxsim_trace_b_role(self._h.ptr, i)) for i in range(len(self))]

    @property
    def params(self):
        """The non-GEMM parameter tensors: dicts of name, elems, count, why."""
        out = []
        for i in range(int(lib.mxsim_trace_param_count(self._h.ptr))):
            name, why = ctypes.c_char_p(), ctypes.c_char_p()
            elems, count = ctypes.c_int64(), ctypes.c_int64()
            _check(_ctx(), lib.mxsim_trace_param(self._h.ptr, i, ctypes.byref(name), ctypes.byref(elems),
                                                 ctypes.byref(count), ctypes.byref(why)))
            out.append({"name": name.value.decode(), "elems": elems.value, "count": count.value,
                        "why": why.value.decode()})
        return out

    def __getstate__(self):  # picklable: every op field, the operand roles, the parameters, the source and the path
        return {"ops": self.ops, "roles": self.roles, "params": self.params, "source": self.source,
                "path": self.path}

    def __setstate__(self, st):
        t = Trace.build(st["ops"], st["source"])
        ctx = _ctx()
        for i, r in enumerate(st.get("roles", [])):
            if r:
                _check(ctx, lib.mxsim_trace_set_b_role(ctx, t._h.ptr, i, r))
        for p in st.get("params", []):
            _check(ctx, lib.mxsim_trace_add_param(ctx, t._h.ptr, p["name"].encode(), p["elems"], p["count"],
                                                  p["why"].encode()))
        self._h, self.path = t._h, st["path"]

    def __repr__(self):
        return f"Trace({self.source!r}, {len(self)} ops)"


def _trace(t):
    return t if isinstance(t, Trace) else Trace.load(t)


# ---- run, cost, report ----------------------------------------------------------------------

def run(config, trace, detail=False):
    """Times every op of trace on config (`mxsim run`): Records, one per op and a TOTAL row,
    with every statistic of the library's statistics table (columns read at run time)."""
    cfg, tr = _config(config), _trace(trace)
    ctx = _ctx()
    _check(ctx, lib.mxsim_tconfig_validate(ctx, cfg._buf))
    n = len(tr)
    # mxsim_run_table reads op_stats as an array of the library's struct: stride = its sizeof
    size = _tstats_size()
    stats = (ctypes.c_char * (size * max(n, 1)))()
    total = (ctypes.c_char * size)()
    base = ctypes.addressof(stats)
    for i in range(n):
        op = lib.mxsim_trace_op(tr._h.ptr, i)
        _check(ctx, lib.mxsim_time_op(ctx, cfg._buf, op, lib.mxsim_trace_source(tr._h.ptr), int(bool(detail)),
                                      None, base + i * size))
        _check(ctx, lib.mxsim_tstats_add(ctx, cfg._buf, total, base + i * size,
                                         op.contents.name))
    t = ctypes.c_void_p()
    _check(ctx, lib.mxsim_run_table(ctx, cfg._buf, tr._h.ptr, stats, total, ctypes.byref(t)))
    return _records(ctx, t)


_TSTATS_SIZE = None


def _tstats_size():
    """sizeof(mxsim_tstats) in the loaded library, without laying the struct out in Python: every
    member is a statistic of the field table (mxsim.h), so the struct ends after the last byte
    that changes some field's value (mxsim_tstats_value), rounded up to its 8-byte alignment."""
    global _TSTATS_SIZE
    if _TSTATS_SIZE is None:
        lib.mxsim_tstats_value.restype = ctypes.c_double
        lib.mxsim_tstats_value.argtypes = [ctypes.c_void_p, ctypes.c_int]
        n = lib.mxsim_tstats_field_count()
        probe = (ctypes.c_ubyte * _lib.TSTATS_BYTES)()
        end = 0
        for off in range(_lib.TSTATS_BYTES):
            probe[off] = 0x7F
            if any(lib.mxsim_tstats_value(probe, i) != 0 for i in range(n)):
                end = off + 1
            probe[off] = 0
            if off >= end + 64:
                break
        _TSTATS_SIZE = (end + 7) // 8 * 8
    return _TSTATS_SIZE


def cost(config, node=45, vdd=0.0, overhead=1.0, sram_bank_kib=None):
    """Area and leakage per component (`mxsim cost`): Records."""
    cfg = _config(config)
    p = _lib.CostParams()
    lib.mxsim_cost_params_default(ctypes.byref(p))
    p.node_nm, p.vdd_v, p.overhead_factor = int(node), float(vdd), float(overhead)
    if sram_bank_kib is not None:
        p.sram_bank_kib = int(sram_bank_kib)
    ctx = _ctx()
    t = ctypes.c_void_p()
    _check(ctx, lib.mxsim_cost_area_table(ctx, cfg._buf, ctypes.byref(p), ctypes.byref(t)))
    return _records(ctx, t)


def report(results, out_dir, meta=None):
    """The HTML + Markdown report of a sweep (`mxsim report`): results is the sweep's CSV path
    (with NAME.meta.json beside it, or meta=)."""
    ctx = _ctx()
    o = _lib.ReportOpts(_b(meta))
    _check(ctx, lib.mxsim_report_build(ctx, _b(results), _b(out_dir), ctypes.byref(o)))
    return os.path.join(os.fspath(out_dir), "index.html")


# ---- sweeps ---------------------------------------------------------------------------------

def _sweep_setup(ctx, cfg, tr, axes, opts):
    o = _lib.SweepOpts()
    lib.mxsim_sweep_opts_default(ctypes.byref(o))
    o.n_threads = int(opts.get("threads") or 0)
    o.accuracy = int(bool(opts.get("accuracy", True)))
    for k in ("sample_rows", "sample_cols", "seed"):
        if opts.get(k) is not None:
            setattr(o.acc, k, int(opts[k]))
    if opts.get("data_dir") is not None:
        o.acc.data_dir = _b(opts["data_dir"])
    o.strict_group = int(bool(opts.get("strict_group", False)))
    if opts.get("profile") is not None:
        o.profile = _profile_id(opts["profile"])
    if opts.get("node") is not None:
        o.cost.node_nm = int(opts["node"])
    if opts.get("vdd") is not None:
        o.cost.vdd_v = float(opts["vdd"])
    if opts.get("overhead") is not None:
        o.cost.overhead_factor = float(opts["overhead"])
    sw = ctypes.c_void_p()
    _check(ctx, lib.mxsim_sweep_create(ctx, cfg._buf, ctypes.byref(sw)))
    h = _Owned(sw, lib.mxsim_sweep_free)
    for key, vals in axes.items():
        v = vals if isinstance(vals, str) else ",".join(repr(x) if isinstance(x, float) else str(x) for x in vals)
        _check(ctx, lib.mxsim_sweep_add_axis(ctx, sw, _b(key), _b(v)))
    keep = (_b(tr.path), _b(cfg.path), o)
    info = _lib.SweepInfo(keep[0], keep[1], ctypes.pointer(o))
    return h, o, info, keep


def _run_shard(cfg, tr, axes, opts, index, count, part_path):
    """One shard of a sweep, written as a part file (runs in any executor's worker)."""
    ctx = _ctx()
    sw, o, info, keep = _sweep_setup(ctx, cfg, tr, axes, opts)
    _check(ctx, lib.mxsim_sweep_set_shard(ctx, sw.ptr, index, count))
    _check(ctx, lib.mxsim_sweep_run(ctx, sw.ptr, tr._h.ptr, ctypes.byref(o)))
    _check(ctx, lib.mxsim_sweep_save_part(ctx, sw.ptr, tr._h.ptr, ctypes.byref(info), _b(part_path)))
    return part_path


def _format(ctx, fmt, path):
    f = ctypes.c_int()
    _check(ctx, lib.mxsim_output_format_choose(ctx, _b(fmt), _b(path), ctypes.byref(f)))
    return f.value


def merge(parts, out, format=None):
    """Joins part files (`mxsim merge`) into out (format from format or out's extension)."""
    ctx = _ctx()
    arr = (ctypes.c_char_p * len(parts))(*[_b(p) for p in parts])
    failed = ctypes.c_int64()
    _check(ctx, lib.mxsim_sweep_merge(ctx, arr, len(parts), _format(ctx, format, out), _b(out), ctypes.byref(failed)))
    return int(failed.value)


def sweep(config, trace, axes, out=None, format=None, threads=None, executor=None, shards=None,
          accuracy=True, sample_rows=None, sample_cols=None, seed=None, data_dir=None, profile=None,
          strict_group=False, node=None, vdd=None, overhead=None):
    """The cartesian product of axes ({"mx.group_size": [16, 32], "array.size": [8, 16], ...})
    over trace on config (`mxsim sweep`): Records, one per point and op plus a TOTAL row per
    point (to_pandas() for a DataFrame).  out: also write the CLI's file (NAME.csv + NAME.meta.json,
    .json, .md), byte-identical to the CLI's.
    executor: any concurrent.futures.Executor (process pools, Dask's or Ray's): the grid is cut
    into `shards` slices (default: 4 x the executor's workers, at most the points) run as shards
    and merged; the result is identical to the local sweep."""
    cfg, tr = _config(config), _trace(trace)
    axes = dict(axes)
    opts = dict(threads=threads, accuracy=accuracy, sample_rows=sample_rows, sample_cols=sample_cols, seed=seed,
                data_dir=data_dir, profile=profile, strict_group=strict_group, node=node, vdd=vdd,
                overhead=overhead)
    ctx = _ctx()
    if executor is None:
        sw, o, info, keep = _sweep_setup(ctx, cfg, tr, axes, opts)
        _check(ctx, lib.mxsim_sweep_run(ctx, sw.ptr, tr._h.ptr, ctypes.byref(o)))
        if out is not None:
            _check(ctx, lib.mxsim_sweep_save(ctx, sw.ptr, tr._h.ptr, ctypes.byref(info), _format(ctx, format, out),
                                             _b(out)))
        t = ctypes.c_void_p()
        _check(ctx, lib.mxsim_sweep_table(ctx, sw.ptr, tr._h.ptr, ctypes.byref(info), 0, ctypes.byref(t)))
        return _records(ctx, t)
    sw, _o, _i, _k = _sweep_setup(ctx, cfg, tr, axes, opts)  # checks the axes before any work
    points = int(lib.mxsim_sweep_point_count(sw.ptr))
    if shards is None:
        workers = getattr(executor, "_max_workers", None) or os.cpu_count() or 1
        shards = 4 * workers
    shards = max(1, min(int(shards), points))
    with tempfile.TemporaryDirectory(prefix="mxsim-sweep-") as tmp:
        futs = [executor.submit(_run_shard, cfg, tr, axes, opts, i, shards, os.path.join(tmp, f"shard{i}.part"))
                for i in range(shards)]
        parts = [f.result() for f in concurrent.futures.as_completed(futs)]
        if out is not None:
            merge(parts, out, format)
        j = os.path.join(tmp, "all.json")
        merge(parts, j, "json")
        with open(j) as f:
            doc = json.load(f)
    r = Records(doc["rows"])
    r.meta, r.columns = doc.get("meta", {}), doc.get("columns", [])
    return r
