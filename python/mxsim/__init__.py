"""mxsim: Python bindings of the MXINT8 accelerator simulator (ctypes over libmxsim's C ABI).

Numerics:  quantize, dequantize, gemm, compare on NumPy arrays (float32, or another real type whose
           values are all exact in float32, else ValueError; bfloat16 as uint16 bit
           patterns or ml_dtypes.bfloat16), torch tensors and JAX arrays; MXTensor (mantissa,
           scale, group_size, axis, profile) with save/load of the CLI's .npz, picklable.
Timing:    Config (dict-like over the configuration field table), Trace, run(config, trace),
           memory(config, trace, group_sizes) (the footprint table of `mxsim memory`).
Sweeps:    sweep(config, trace, axes, ..., executor=None) -> Records (to_pandas()); cost(config);
           report(csv, out_dir).
Errors raise MxsimError(status, message), the library's status and message (picklable, so it
crosses process pools); bad Python arguments raise TypeError, ValueError or OverflowError naming
the argument before anything is converted to a C type.  Ctrl-C during a long call made from the
main thread (sweep, run) cancels it in the library and raises KeyboardInterrupt.
FEATURES says which optional modules the loaded library has (a library built with
-DMXSIM_WITH_SWEEP=OFF or -DMXSIM_WITH_TIMING=OFF imports; their functions raise
MxsimError(E_UNSUPPORTED) when called).
"""
import concurrent.futures
import csv
import ctypes
import io
import json
import numbers
import operator
import os
import stat
import tempfile
import sys
import threading
import warnings

import numpy as np

from . import _lib
from ._lib import lib

__all__ = ["MxsimError", "MxsimNote", "B_VIEW", "MXTensor", "quantize", "dequantize", "gemm", "compare", "compare_columns", "Config",
           "Trace", "run", "memory",
           "sweep", "merge", "cost", "report", "Records", "version", "PROFILES", "FEATURES", "library_path",
           "cli_path"]

PROFILES = ("ocp", "mase", "mase-cuda", "microxcaling")
B_VIEW = -1  # Trace.b_tensors of an op whose B is a view of a tensor another op counts (MXSIM_B_VIEW)
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
                 "E_INTERNAL", "E_CANCELLED"]  # mxsim_status, in the header's order (append only)
_E_UNSUPPORTED, _E_CANCELLED = 7, 9


class MxsimError(Exception):
    """A failed library call: .status (int), .status_name ("E_INPUT"; later codes by number),
    .message (the library's message).  Picklable: status and message round-trip."""

    def __init__(self, status, message):
        self.status = int(status)
        self.status_name = _STATUS_NAMES[status] if 0 <= status < len(_STATUS_NAMES) else f"status {status}"
        self.message = message
        super().__init__(f"{message} [{self.status_name}: {lib.mxsim_strerror(status).decode()}]")

    def __reduce__(self):
        return (type(self), (self.status, self.message))


# Functions of optional modules the loaded library lacks: stubs that say so when called.
_MODULES = (("mxsim_sweep_", "the sweep module", "MXSIM_WITH_SWEEP"),
            ("mxsim_cost_", "the sweep module (area/energy model)", "MXSIM_WITH_SWEEP"),
            ("mxsim_report_", "the sweep module (reports)", "MXSIM_WITH_SWEEP"),
            ("mxsim_tconfig_", "the timing engine", "MXSIM_WITH_TIMING"),
            ("mxsim_trace_", "the timing engine (traces)", "MXSIM_WITH_TIMING"),
            ("mxsim_time_op", "the timing engine", "MXSIM_WITH_TIMING"),
            ("mxsim_run_table", "the timing engine", "MXSIM_WITH_TIMING"),
            ("mxsim_tstats_", "the timing engine", "MXSIM_WITH_TIMING"),
            ("mxsim_op_kind_", "the timing engine", "MXSIM_WITH_TIMING"))


def _unsupported(name):
    why = next((f"was built without {what} (-D{opt}=OFF)" for pre, what, opt in _MODULES if name.startswith(pre)),
               "does not export it (an older library?)")

    def stub(*args, **kw):
        raise MxsimError(_E_UNSUPPORTED, f"{name}: {library_path} {why}")

    stub.__name__ = name
    return stub


for _n in _lib.missing:
    setattr(lib, _n, _unsupported(_n))

_FEATURE_DOC = {"timing": ("the timing engine", "MXSIM_WITH_TIMING"), "sweep": ("the sweep module", "MXSIM_WITH_SWEEP")}
FEATURES = {"timing": "mxsim_tconfig_set" not in _lib.missing and "mxsim_time_op" not in _lib.missing,
            "sweep": "mxsim_sweep_run" not in _lib.missing and "mxsim_cost_area_table" not in _lib.missing,
            "cancel": "mxsim_ctx_set_cancel" not in _lib.missing}


def _require(feature, what):
    """MxsimError(E_UNSUPPORTED) before any work when the library lacks an optional module."""
    if not FEATURES[feature]:
        module, opt = _FEATURE_DOC[feature]
        raise MxsimError(_E_UNSUPPORTED, f"{what} needs {module}: {library_path} was built without it (-D{opt}=OFF)")


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
    n = _threads(threads)
    c = getattr(_tls, "ctx", None)
    if c is None:
        c = _tls.ctx = _Ctx()
    _check(c.p, lib.mxsim_ctx_set_threads(c.p, n))
    return c.p


class MxsimNote(UserWarning):
    """A fact about an input that is not an error (the CLI's "note:" lines; mxsim_ctx_notes): a
    SCALE-Sim file SCALE-Sim itself would stop on, a SCALE-Sim v3 file timed by v2's rules, ...
    Shown every time (a filter "always" for this category), as the CLI prints them every run."""


warnings.filterwarnings("always", category=MxsimNote)


def _check(ctx, st):
    if st == _E_CANCELLED:  # the cancellation hook stopped the call (Ctrl-C)
        raise KeyboardInterrupt(lib.mxsim_errmsg(ctx).decode(errors="replace") or "cancelled")
    if st != 0:
        raise MxsimError(st, lib.mxsim_errmsg(ctx).decode(errors="replace"))
    notes = lib.mxsim_ctx_notes(ctx)
    if notes:
        lost = lib.mxsim_ctx_notes_lost(ctx)
        lib.mxsim_ctx_clear_notes(ctx)
        lines = notes.decode(errors="replace").splitlines() + ([f"{lost} more notes"] if lost else [])
        # attributed to the caller's line, the first frame outside this package
        f, level = sys._getframe(0), 1
        while f is not None and f.f_globals.get("__name__", "").split(".")[0] == "mxsim":
            f, level = f.f_back, level + 1
        for line in lines:
            warnings.warn(line, MxsimNote, stacklevel=level)


def _interruptible(ctx, work):
    """Runs work() -- library calls on ctx that poll its cancellation hook (sweeps, the detailed
    engine, file writers) -- so that Ctrl-C stops it.  A signal's Python handler runs only in the
    main thread and only between bytecodes, never while that thread sits in a foreign call, so a
    SIGINT handler could not set a flag during the call.  Instead, from the main thread, work()
    runs in a helper thread (ctx is used by that thread alone meanwhile) while the main thread
    waits in an interruptible join: the KeyboardInterrupt (or any exception a signal handler
    raises) sets the flag the hook returns, the library stops with MXSIM_E_CANCELLED after its
    cleanup (no partial output), and the exception is re-raised.  Other threads call directly
    (they never receive KeyboardInterrupt)."""
    if not FEATURES["cancel"] or threading.current_thread() is not threading.main_thread():
        return work()
    flag = threading.Event()
    hook = _lib.CANCEL(lambda _user: 1 if flag.is_set() else 0)
    _check(ctx, lib.mxsim_ctx_set_cancel(ctx, hook, None))
    out = {}
    done = threading.Event()

    def body():
        try:
            out["value"] = work()
        except BaseException as e:  # re-raised in the calling thread
            out["error"] = e
        finally:
            done.set()

    # The wait is on our own event, not on Thread.join / is_alive: a KeyboardInterrupt inside
    # join() can mark a still-running thread as stopped (CPython 3.11's _wait_for_tstate_lock), and
    # the caller then used ctx (and freed the hook) while the library still ran on it: a segfault.
    t = threading.Thread(target=body, name="mxsim-call", daemon=True)
    interrupt = None
    try:
        t.start()
        while not done.is_set():
            try:
                done.wait()
            except BaseException as e:  # KeyboardInterrupt, or whatever a signal handler raised
                flag.set()
                if interrupt is None:
                    interrupt = e
    finally:
        lib.mxsim_ctx_set_cancel(ctx, _lib.CANCEL(), None)
    if interrupt is not None:
        raise interrupt
    if "error" in out:
        raise out["error"]
    return out.get("value")


# ---- argument checks: before anything reaches a C type ----------------------------------------

_I32 = ("int32", -2 ** 31, 2 ** 31 - 1)
_I64 = ("int64", -2 ** 63, 2 ** 63 - 1)
_U32 = ("unsigned int", 0, 2 ** 32 - 1)
_U64 = ("uint64", 0, 2 ** 64 - 1)


def _int(name, v, ctype=_I64):
    """v as a Python int that fits ctype: TypeError for a non-integer (bool, float, str), OverflowError
    outside ctype's range (never wrapped or truncated)."""
    if isinstance(v, (bool, np.bool_)):
        raise TypeError(f"{name}: expected an integer, got a bool ({v!r})")
    try:
        n = operator.index(v)
    except TypeError:
        raise TypeError(f"{name}: expected an integer, got {type(v).__name__} {v!r}") from None
    if ctype is None:
        return n
    label, lo, hi = ctype
    if not lo <= n <= hi:
        raise OverflowError(f"{name}={n}: out of range of the library's {label} ({lo}..{hi})")
    return n


def _real(name, v):
    """v as a float: TypeError for anything but a real number (bools and strings included)."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (numbers.Real, np.integer, np.floating)):
        raise TypeError(f"{name}: expected a real number, got {type(v).__name__} {v!r}")
    return float(v)


def _flag(name, v):
    """A yes/no argument (the CLI's flags: --no-accuracy, --strict-group, --detail, --compress):
    bool or NumPy's bool only.  A string ("no" is truthy), a number or None is a TypeError: never
    guessed."""
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    raise TypeError(f"{name}: expected True or False, got {type(v).__name__} {v!r}")


def _cli_int(name, v, lo, hi, ctype=_I64):
    """An integer option with the CLI's range lo..hi: TypeError for a non-integer, OverflowError
    outside the C field's range (as _int), ValueError outside lo..hi (the CLI's usage error)."""
    n = _int(name, v, ctype)
    if not lo <= n <= hi:
        raise ValueError(f"{name}={n}: expected {lo}..{hi} (the CLI's range)")
    return n


def _threads(threads):
    """The library's n_threads (unsigned): None -> 0 (every CPU).  A negative count or one past the
    unsigned range would wrap (-1 -> 4294967295, 2**32 -> 0 = every CPU): refused here; 1..1024
    is the library's own check (MxsimError E_ARG)."""
    if threads is None:
        return 0
    n = _int("threads", threads, None)
    if n < 0:
        raise ValueError(f"threads={n}: expected None or 0 (every CPU), or 1..1024")
    return _int("threads", n, _U32)


def _text(name, s):
    """A C string from str (UTF-8) or bytes; an embedded NUL would truncate it: refused."""
    if isinstance(s, str):
        try:
            b = s.encode()
        except UnicodeEncodeError as e:
            raise ValueError(f"{name}: {s!r} is not valid Unicode text ({e.reason} at position {e.start})") from None
    elif isinstance(s, bytes):
        b = s
    else:
        raise TypeError(f"{name}: expected a string, got {type(s).__name__} {s!r}")
    if b"\0" in b:
        raise ValueError(f"{name}: {s!r} contains a NUL character")
    return b


def _path(name, p):
    """A C path from str, bytes or os.PathLike (os.fsencode); None stays NULL."""
    if p is None:
        return None
    try:
        b = os.fsencode(p)
    except TypeError:
        raise TypeError(f"{name}: expected a path (str, bytes or os.PathLike), got {type(p).__name__} {p!r}") from None
    if b"\0" in b:
        raise ValueError(f"{name}: {p!r} contains a NUL character")
    return b


def _req_path(name, p):
    """A path that must be given: None is a TypeError naming the argument (the library's NULL
    check answered E_ARG without the name)."""
    if p is None:
        raise TypeError(f"{name}: expected a path (str, bytes or os.PathLike), got None")
    return _path(name, p)


def _need_ext(name, p, ext, what):
    """The CLI's need_ext: a file a command writes must be named as what it holds, so the reading
    command accepts it; "-" (standard output) and an existing device or FIFO have no extension."""
    if len(p) > len(ext) and p.endswith(ext):
        return
    if p == b"-":
        return
    try:
        st = os.stat(p)
        if not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):
            return
    except (OSError, ValueError):
        pass
    raise ValueError(f"{name}={os.fsdecode(p)!r}: this writes {what}; name the file *{ext.decode()}")


def _choice(name, v, choices):
    if not isinstance(v, str) or v not in choices:
        raise ValueError(f"{name}={v!r}: expected one of {', '.join(repr(c) for c in choices)}")
    return choices[v]


def _value_text(name, v):
    """The library's text for a configuration or sweep-axis value: a string as it is; bool (also
    NumPy's) as 1/0; any integer (int, NumPy integers) in decimal; any other real number (float,
    NumPy floats, Fraction) as repr(float(v)), 17 significant digits, which strtod reads back
    exactly.  Anything else is a TypeError."""
    if isinstance(v, np.ndarray) and v.ndim == 0:
        v = v[()]
    if isinstance(v, str):
        return v
    if isinstance(v, bytes):
        try:
            return v.decode()
        except UnicodeDecodeError as e:
            raise ValueError(f"{name}: {v!r} is not UTF-8 text ({e.reason} at byte {e.start})") from None
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (numbers.Integral, np.integer)):
        return str(int(v))
    if isinstance(v, (numbers.Real, np.floating)):
        return repr(float(v))
    raise TypeError(f"{name}: {v!r} ({type(v).__name__}) is not a number, a bool or a string")


# ---- dense tensors --------------------------------------------------------------------------

class _Owned:
    """Keeps a library object alive while NumPy arrays view its memory (zero-copy outputs)."""

    def __init__(self, ptr, free):
        self.ptr, self._free = ptr, free

    def __del__(self):
        ptr = getattr(self, "ptr", None)  # absent when __init__ never ran (e.g. a failed copy)
        if ptr:
            self._free(ptr)
            self.ptr = None

    def __reduce__(self):
        raise TypeError("a library object (mxsim handle) cannot be pickled or copied; MXTensor, Config and "
                        "Trace can")


class _View:
    def __init__(self, owner, tensor, readonly):
        dt = lib.mxsim_tensor_dtype(tensor)
        nd = lib.mxsim_tensor_ndim(tensor)
        shp = lib.mxsim_tensor_shape(tensor)
        shape = tuple(shp[i] for i in range(nd))
        self.owner = owner
        self.__array_interface__ = {"shape": shape, "typestr": np.dtype(_NP[dt]).str,
                                    "data": (lib.mxsim_tensor_cdata(tensor) or 0, bool(readonly)), "version": 3}


def _tensor_array(owner, tensor, readonly=False):
    """A NumPy array viewing tensor's storage (owned by owner), without a copy; readonly for
    storage the library declares const (an MXTensor's mantissa and scale)."""
    return np.asarray(_View(owner, tensor, readonly))


_ML_BF16 = []


def _ml_bfloat16():
    """ml_dtypes.bfloat16 (JAX's bfloat16) if ml_dtypes is importable, else None (no hard dependency)."""
    if not _ML_BF16:
        try:
            import ml_dtypes
            _ML_BF16.append(np.dtype(ml_dtypes.bfloat16))
        except ImportError:
            _ML_BF16.append(None)
    return _ML_BF16[0]


def _as_numpy(x, dtype=None, name="input"):
    """(array, mxsim dtype) from a NumPy array, a torch tensor, a JAX/DLPack array or a sequence.

    bf16 inputs -- uint16 bit patterns (either byte order), ml_dtypes.bfloat16 arrays, torch
    bfloat16 tensors -- go through the library's bf16 path (dtype None or 'bf16'); with dtype 'f32'
    their VALUES are widened to float32 (exact), except raw uint16, whose meaning would be a guess
    (TypeError).  Other real types are converted to float32 (dtype None or 'f32') when every value
    is exact there (_exact_f32: else ValueError); complex and non-numeric types are a TypeError."""
    if dtype is None:
        want = None
    elif dtype in ("f32", "float32"):
        want = "f32"
    elif dtype in ("bf16", "bfloat16"):
        want = "bf16"
    else:
        raise ValueError(f"dtype={dtype!r}: expected 'f32' or 'bf16' (or None: from the input's type)")
    if isinstance(x, np.ma.MaskedArray):  # np.asarray would drop the mask: masked values would count
        raise TypeError(f"{name}: a masked array (its mask would be dropped and the masked values quantized or "
                        "compared): pass x.filled(value) or x.compressed()")
    if type(x).__module__.startswith("torch"):
        import torch
        if isinstance(x, torch.Tensor):
            x = x.detach().cpu()
            if x.dtype == torch.bfloat16:
                if want == "f32":
                    return x.to(torch.float32).contiguous().numpy(), _DT_F32
                return x.contiguous().view(torch.int16).numpy().view(np.uint16), _DT_BF16
            x = x.contiguous().numpy()
    elif hasattr(x, "__dlpack__") and not isinstance(x, np.ndarray):
        try:
            x = np.from_dlpack(x)
        except (TypeError, RuntimeError, BufferError, ValueError):
            x = np.asarray(x)
    a = np.asarray(x)
    bf = _ml_bfloat16() if a.dtype.name == "bfloat16" else None
    if bf is not None and a.dtype == bf:
        if want == "f32":
            return a.astype(np.float32), _DT_F32
        return np.ascontiguousarray(a).view(np.uint16), _DT_BF16
    if a.dtype.kind == "u" and a.dtype.itemsize == 2:  # bf16 bit patterns; '>u2' swapped to native
        if want == "f32":
            raise TypeError(f"{name}: uint16 arrays are bf16 bit patterns; for their values as float32 pass "
                            "dtype='bf16' (or None) and the library widens them, or convert integer data "
                            "yourself (x.astype(np.float32))")
        return a.astype(np.uint16, copy=False), _DT_BF16
    if want == "bf16":
        raise TypeError(f"{name}: bf16 input must be bf16 bit patterns (uint16), an ml_dtypes.bfloat16 array or "
                        f"a torch bfloat16 tensor, got {a.dtype}")
    if a.dtype.kind not in "fiub" and a.dtype.type.__module__ != "ml_dtypes":  # ml_dtypes' float8 etc. widen exactly
        raise TypeError(f"{name}: dtype {a.dtype} is not a real number type (float32 or bf16 expected)")
    return _exact_f32(name, a), _DT_F32


def _exact_f32(name, a):
    """a as float32 when every value converts exactly (NaN stays NaN, infinities stay infinite);
    else ValueError naming the first value that float32 cannot hold (float64 1 + 1e-12, 1e39 or
    1e-50, int64 2**60 + 1000).  The library computes in float32 only, as the CLI, which reads
    '<f4' (and bf16 bits) and refuses a '<f8' .npy: a rounded input would give wrong numbers."""
    if a.dtype == np.float32:
        return a
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        f = a.astype(np.float32)
        if a.dtype.kind == "b" or not a.size:
            return f
        if a.dtype.kind in "iu":
            bits = 8 * a.dtype.itemsize
            lo, hi = (-2.0 ** (bits - 1), 2.0 ** (bits - 1)) if a.dtype.kind == "i" else (0.0, 2.0 ** bits)
            w = f.astype(np.float64)
            fits = (w >= lo) & (w < hi)  # float32 may round up past the type's maximum (2**63 for int64)
            ok = fits & (np.where(fits, w, 0).astype(a.dtype) == a)
        else:  # floats (float16, float64, longdouble, ml_dtypes' types): compare in a's own type
            ok = (f.astype(a.dtype) == a) | (np.isnan(f) & np.isnan(a))
    if not ok.all():
        idx = tuple(int(i) for i in np.argwhere(~ok)[0])
        v = a[idx] if a.ndim else a[()]
        raise ValueError(f"{name}: {v.item()!r} ({a.dtype}) at index {idx} is not exactly representable in float32 "
                         f"(it would become {f[idx].item()!r}); mxsim computes in float32 and never rounds an input "
                         f"silently: convert it yourself (np.float32) if that is what you mean")
    return f


def _to_tensor(ctx, a, dt):
    """A library tensor holding a's values (the library owns its storage: one copy).  a's values
    must already fit the dtype (callers check: nothing wraps here)."""
    a = np.asarray(a, dtype=_NP[dt], order="C")  # not ascontiguousarray: it makes a 0-d array 1-d
    shape = (ctypes.c_int64 * max(a.ndim, 1))(*a.shape)
    t = ctypes.c_void_p()
    _check(ctx, lib.mxsim_tensor_create(ctx, dt if dt != _DT_BF16 else _DT_U16, a.ndim, shape, ctypes.byref(t)))
    owned = _Owned(t, lib.mxsim_tensor_free)
    if dt == _DT_BF16:
        _check(ctx, lib.mxsim_tensor_set_dtype(ctx, t, _DT_BF16))
    if a.nbytes:
        ctypes.memmove(lib.mxsim_tensor_data(t), a.ctypes.data, a.nbytes)
    return owned


def _int_array(name, x, lo, hi, np_type):
    """x as an array of np_type whose values all lie in lo..hi: integers, or floats holding whole
    numbers; anything else, or a value out of range, is refused (never wrapped or truncated)."""
    a = np.asarray(x)
    if a.dtype.kind in "iu":
        pass
    elif a.dtype.kind == "f":
        bad = ~np.isfinite(a) | (a != np.trunc(a)) if a.size else np.zeros(a.shape, bool)
        if bad.any():
            raise ValueError(f"{name}: {a[bad].flat[0].item()!r} at index {tuple(int(i) for i in np.argwhere(bad)[0])} is not "
                             f"an integer")
    else:
        raise TypeError(f"{name}: expected integers ({np.dtype(np_type).name}), got dtype {a.dtype}")
    if a.size:
        if int(a.min()) < lo or int(a.max()) > hi:
            af = a.astype(np.float64)  # exact for every value near the bounds; no mixed-sign compare
            out = (af < lo) | (af > hi)
            idx = tuple(int(i) for i in np.argwhere(out)[0])
            raise ValueError(f"{name}: {a[idx].item()!r} at index {idx} is out of range {lo}..{hi} "
                             f"({np.dtype(np_type).name})")
    return a.astype(np_type)


def _profile_id(p):
    if isinstance(p, (str, bytes)):
        out = ctypes.c_int()
        st = lib.mxsim_profile_parse(_text("profile", p), ctypes.byref(out))
        if st:
            raise MxsimError(st, f"profile '{p}': expected one of {', '.join(PROFILES)}")
        return out.value
    if isinstance(p, (numbers.Integral, np.integer)) and not isinstance(p, (bool, np.bool_)):
        return _int("profile", p, _I32)  # the library checks the number (MxsimError E_ARG)
    raise TypeError(f"profile: expected a name ({', '.join(PROFILES)}) or an mxsim_profile number, got {p!r}")


# ---- MXINT8 tensors -------------------------------------------------------------------------

class MXTensor:
    """An MXINT8 tensor: int8 mantissas in the tensor's shape, one scale byte per group of
    group_size elements along axis (bytes as the profile stores them).  .mantissa and .scale are
    read-only views of the library's storage (copy them to modify); no attribute can be reassigned
    (build a new MXTensor).  Picklable and copyable
    (through the mantissa and scale arrays)."""

    def __init__(self, mantissa, scale, group_size, axis, profile="ocp", _handle=None):
        if _handle is None:
            m = _int_array("mantissa", mantissa, -128, 127, np.int8)
            s = _int_array("scale", scale, 0, 255, np.uint8)
            g, ax, pid = _int("group_size", group_size), _int("axis", axis, _I32), _profile_id(profile)
            ctx = _ctx()
            mt, st = _to_tensor(ctx, m, _DT_I8), _to_tensor(ctx, s, _DT_U8)
            h = ctypes.c_void_p()
            _check(ctx, lib.mxsim_mx_create(ctx, mt.ptr, st.ptr, g, ax, pid, ctypes.byref(h)))
            _handle = _Owned(h, lib.mxsim_mx_free)
        self._h = _handle
        p = self._h.ptr
        self._mantissa = _tensor_array(self._h, lib.mxsim_mx_mantissa(p), readonly=True)
        self._scale = _tensor_array(self._h, lib.mxsim_mx_scale(p), readonly=True)
        self._group_size = int(lib.mxsim_mx_group_size(p))
        self._axis = int(lib.mxsim_mx_axis(p))
        self._profile = lib.mxsim_profile_name(lib.mxsim_mx_profile(p)).decode()

    # read-only: the library's copy is what dequantize, gemm and save use, so a reassigned attribute
    # (m.axis = 0) made repr and pickling disagree with them; build a new MXTensor instead
    mantissa = property(lambda self: self._mantissa, doc="int8 mantissas (read-only view)")
    scale = property(lambda self: self._scale, doc="scale bytes, one per group (read-only view)")
    group_size = property(lambda self: self._group_size, doc="elements per scale byte")
    axis = property(lambda self: self._axis, doc="the grouped axis")
    profile = property(lambda self: self._profile, doc="numerics profile name")

    @property
    def shape(self):
        return self.mantissa.shape

    def __reduce__(self):
        return (MXTensor, (np.array(self.mantissa), np.array(self.scale), self.group_size, self.axis, self.profile))

    def __repr__(self):
        return (f"MXTensor(shape={self.shape}, group_size={self.group_size}, axis={self.axis}, "
                f"profile='{self.profile}')")

    def save(self, path, compress=False):
        """Writes the CLI's .npz (members mantissa, scale, group_size, axis, profile), atomically.
        path must end in .npz, as `mxsim quantize -o` requires (an .npz under another name would
        be read as something else: a '.npy' by `mxsim info`/`compare`); "-" and an existing device
        or FIFO, which have no extension, as the CLI."""
        p = _req_path("path", path)
        _need_ext("path", p, b".npz", "an MXINT8 .npz")
        z = _flag("compress", compress)
        ctx = _ctx()
        _check(ctx, lib.mxsim_mx_save(ctx, self._h.ptr, p, int(z)))

    @classmethod
    def load(cls, path):
        ctx = _ctx()
        h = ctypes.c_void_p()
        _check(ctx, lib.mxsim_mx_load(ctx, _req_path("path", path), ctypes.byref(h)))
        return cls(None, None, 0, 0, _handle=_Owned(h, lib.mxsim_mx_free))

    def dequantize(self, dtype="f32"):
        return dequantize(self, dtype)


def _mx(name, x):
    if not isinstance(x, MXTensor):
        raise TypeError(f"{name}: expected an MXTensor (mxsim.quantize or MXTensor.load), got {type(x).__name__}")
    return x


def quantize(x, group_size=32, axis=-1, profile="ocp", dtype=None, threads=None):
    """Quantizes x to an MXTensor, bit-identical to `mxsim quantize`: float32 (other real types
    where every value is exact in float32, else ValueError naming it), or bf16 -- uint16 bit
    patterns, ml_dtypes.bfloat16 (JAX), torch bfloat16 -- through the library's bf16 path;
    dtype='f32' quantizes a bf16 input's values widened to float32 instead.
    threads: as the CLI's -j (None: every CPU)."""
    g, ax, pid = _int("group_size", group_size), _int("axis", axis, _I32), _profile_id(profile)
    a, dt = _as_numpy(x, dtype, "x")
    ctx = _ctx(threads)
    t = _to_tensor(ctx, a, dt)
    h = ctypes.c_void_p()
    _check(ctx, lib.mxsim_mx_quantize(ctx, t.ptr, pid, g, ax, ctypes.byref(h)))
    return MXTensor(None, None, 0, 0, _handle=_Owned(h, lib.mxsim_mx_free))


_DEQ_DTYPES = {"f32": _DT_F32, "float32": _DT_F32, "bf16": _DT_BF16, "bfloat16": _DT_BF16}


def dequantize(mx, dtype="f32", threads=None):
    """float32 array (dtype='f32') or bf16 bits as uint16 (dtype='bf16'), with mx's profile's decode.
    The array views the library's buffer (no copy)."""
    dt = _choice("dtype", dtype, _DEQ_DTYPES)
    _mx("mx", mx)
    ctx = _ctx(threads)
    out = ctypes.c_void_p()
    _check(ctx, lib.mxsim_mx_dequantize(ctx, mx._h.ptr, dt, ctypes.byref(out)))
    return _tensor_array(_Owned(out, lib.mxsim_tensor_free), out)


def gemm(a, b, acc="fp32", out_dtype="f32", threads=None):
    """C = A . B^T for MXTensors A [M,K] and B [N,K] grouped along K (the arithmetic contract),
    bit-identical to `mxsim gemm`.  acc: 'fp32' or 'exact'; out_dtype: 'f32' or 'bf16'.
    threads: as the CLI's -j (None: every CPU)."""
    o = _lib.GemmOpts()
    lib.mxsim_gemm_opts_default(ctypes.byref(o))
    o.acc = _choice("acc", acc, {"fp32": 0, "exact": 1})
    o.out_dtype = _choice("out_dtype", out_dtype, {"f32": _DT_F32, "bf16": _DT_BF16})
    _mx("a", a), _mx("b", b)
    ctx = _ctx(threads)
    out = ctypes.c_void_p()
    _check(ctx, lib.mxsim_gemm(ctx, a._h.ptr, b._h.ptr, ctypes.byref(o), ctypes.byref(out)))
    return _tensor_array(_Owned(out, lib.mxsim_tensor_free), out)


def compare(ref, test, dtype=None):
    """Error metrics of test against ref (same shape; float32, or both bf16 bits): dict with
    elements, bit_mismatches, nan_mismatches, sqnr_db, max_abs_err, max_rel_err, mean_abs_err, the
    columns of `mxsim compare` (one table in the library, mxsim_compare_table: names, units and docs
    in compare_columns()).  Non-finite results are real floats here (sqnr_db inf: every pair equal;
    -inf: a NaN or inf met another value).  Arrays of no elements are refused (MxsimError).
    The library compares in float32 only (the CLI refuses a '<f8' .npy): a float64 or integer
    input is taken only when each value is exact in float32, else ValueError naming the value
    (1.0 against 1.0 + 1e-12 would otherwise report no mismatch)."""
    ra, rdt = _as_numpy(ref, dtype, "ref")
    ta, tdt = _as_numpy(test, dtype, "test")
    ctx = _ctx()
    r, t = _to_tensor(ctx, ra, rdt), _to_tensor(ctx, ta, tdt)
    s = _lib.ErrorStats()
    _check(ctx, lib.mxsim_compare(ctx, r.ptr, t.ptr, ctypes.byref(s)))
    return _compare_row(ctx, s)[0]


def _compare_row(ctx, stats):
    """The library's compare table for stats: ({column: value} without the file names, columns).
    Values come from its CSV form, which spells every real exactly (inf and nan included)."""
    tb = ctypes.c_void_p()
    _check(ctx, lib.mxsim_compare_table(ctx, ctypes.byref(stats), None, None, ctypes.byref(tb)))
    t = _Owned(tb, lib.mxsim_table_free)
    cols = json.loads(_render(ctx, t.ptr, "json"))["columns"]
    head, row = list(csv.reader(io.StringIO(_render(ctx, t.ptr, "csv"))))
    conv = {"int": int, "real": float}
    out = {c["name"]: conv[c["type"]](v) for c, h, v in zip(cols, head, row) if c["type"] in conv and h == c["name"]}
    return out, [c for c in cols if c["type"] in conv]


def compare_columns():
    """The columns compare() returns: name, type, unit and doc of each (the library's table)."""
    return _compare_row(_ctx(), _lib.ErrorStats())[1]


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


def _records(ctx, table):
    t = table if isinstance(table, _Owned) else _Owned(table, lib.mxsim_table_free)
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
    Config(path) loads an .ini (or SCALE-Sim .cfg); overrides is a dict of key -> value.
    Values: strings, bools, integers and real numbers (NumPy's too); a real field reads back as
    the exact double the library holds, and pickling and copying keep it exactly."""

    def __init__(self, path=None, overrides=None, **kw):
        self._buf = (ctypes.c_char * _lib.TCONFIG_BYTES)()
        if path is not None:
            _path("path", path)  # a TypeError naming path, before os.fsdecode's anonymous one
        if overrides is not None and not isinstance(overrides, dict):
            raise TypeError(f"overrides: expected a dict of key -> value, got {type(overrides).__name__}")
        self.path = None if path is None else os.fsdecode(path)
        lib.mxsim_tconfig_default(self._buf)
        if path is not None:
            ctx = _ctx()
            _check(ctx, lib.mxsim_tconfig_load(ctx, self._buf, _path("path", path)))
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
        buf = ctypes.create_string_buffer(128)  # a real in the digits that read back exactly
        s = lib.mxsim_tconfig_format(self._buf, i, buf, 128).decode()
        return float(s) if f["type"] == "real" else int(s) if f["type"] in ("int", "bool") else s

    def __setitem__(self, key, value):
        ctx = _ctx()
        _check(ctx, lib.mxsim_tconfig_set(ctx, self._buf, _text("key", key),
                                          _text(f"value of '{key}'", _value_text(f"value of '{key}'", value)),
                                          b"Config"))

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

    __copy__ = copy

    def __deepcopy__(self, memo):
        return self.copy()

    def __getstate__(self):  # picklable (executors): the path and every field's exact value
        return {"path": self.path, "values": {k: self[k] for k in self.keys()}}

    def __setstate__(self, st):
        self.__init__(None)
        self.path = st["path"]
        for k, v in st["values"].items():
            self[k] = v  # a real as repr(float): 17 digits, read back exactly by the library

    def __eq__(self, other):
        return isinstance(other, Config) and self.to_dict() == other.to_dict()

    def __repr__(self):
        return f"Config({self.path!r})" if self.path else "Config()"


def _config(c, what=None):
    """A Config, or one loaded from a path.  None (the default configuration) only where the CLI's
    command runs without --config (`mxsim cost`); what names the call that requires one (`mxsim
    run` and `mxsim sweep` stop with "missing --config CFG"): TypeError."""
    if c is None and what is not None:
        raise TypeError(f"config: {what} needs a configuration (a Config or a path), got None (the CLI's "
                        f"`mxsim {what.split('.')[-1]}` requires --config; mxsim.Config() is the default one)")
    if c is not None and not isinstance(c, (Config, str, bytes, os.PathLike)):
        raise TypeError(f"config: expected a Config or a path, got {type(c).__name__} {c!r:.40}")
    return c if isinstance(c, Config) else Config(c)


# ---- traces ---------------------------------------------------------------------------------

_OP_FIELDS = ("kind", "name", "m", "n", "k", "group_size", "repeat", "a_fmt", "b_fmt", "out_fmt", "line",
              "conv_h", "conv_w", "conv_fh", "conv_fw", "conv_c", "conv_s")
_OP_INT32 = ("kind", "a_fmt", "b_fmt", "out_fmt", "line")  # int32_t in mxsim_top; the others int64_t
_OP_CONV = ("conv_h", "conv_w", "conv_fh", "conv_fw", "conv_c", "conv_s")


def _op_kind_name(kind):
    n = lib.mxsim_op_kind_name(kind)
    return n.decode() if n else f"kind {kind}"


def _check_conv(where, cv):
    """The conv_* fields as a SCALE-Sim import sets them: input H, W, filter H, W, channels >= 1,
    the filter within the input, a row stride >= 1 (and a column stride << 32, or 0: the same)."""
    s = cv["conv_s"]
    sh = s & 0xFFFFFFFF
    bad = [f for f in _OP_CONV[:5] if cv[f] < 1]
    if bad or s < 1 or sh < 1 or cv["conv_fh"] > cv["conv_h"] or cv["conv_fw"] > cv["conv_w"]:
        raise ValueError(f"{where}: conv fields {cv} are not a conv layer (H, W, FH <= H, FW <= W, C >= 1, stride "
                         ">= 1: row | column << 32)")


class Trace:
    """A workload trace (traces/FORMAT.md).  Trace.load(path), Trace.gen(model_path),
    Trace.build(ops), t.save(path), t.ops (list of dicts)."""

    def __init__(self, _handle, path=None):
        self._h = _handle
        self.path = path

    @classmethod
    def load(cls, path, config=None):
        """config (a Config or a configuration file): read the trace as a run on it reads it: a
        SCALE-Sim topology (.csv) under SCALE-Sim's model (a .cfg, or report.scalesim_compat)
        takes SCALE-Sim's rules (conv output sizes, depthwise rows; v3's row reading where the
        configuration times SCALE-Sim 3.0.0).  Without it a topology is read by mxsim's rules.
        run, memory and sweep given a path read it with their configuration."""
        ctx = _ctx()
        h = ctypes.c_void_p()
        if config is None:
            _check(ctx, lib.mxsim_trace_load(ctx, _req_path("path", path), ctypes.byref(h)))
        else:
            cfg = _config(config, "Trace.load")
            _check(ctx, lib.mxsim_trace_load_for(ctx, cfg._buf, _req_path("path", path), ctypes.byref(h)))
        return cls(_Owned(h, lib.mxsim_trace_free), os.fsdecode(path))

    @classmethod
    def gen(cls, model):
        """The trace `mxsim trace gen MODEL.model` builds from a model file (traces/FORMAT.md: a
        dense or mixture-of-experts transformer, layer lines)."""
        ctx = _ctx()
        h = ctypes.c_void_p()
        _check(ctx, lib.mxsim_trace_gen(ctx, _req_path("model", model), ctypes.byref(h)))
        return cls(_Owned(h, lib.mxsim_trace_free), os.fsdecode(model))

    @classmethod
    def build(cls, ops, source="python"):
        """ops: dicts with kind ("gemm", "dequant", "quantize"), name, m, n, k (gemm only: a
        dequant or quantize op is m x n elements, and the text format has no k for it: a nonzero k
        there is a ValueError) and optionally group_size (0: the configuration's), repeat,
        a_fmt/b_fmt/out_fmt (-1: the configuration's), line.  The conv_* fields are set only by a
        SCALE-Sim topology import (Trace.load of a .csv) and are not in the text format: here they
        must be 0 (absent), else ValueError.  Integers must fit the op's C fields (int64; kind,
        formats, line: int32): else OverflowError."""
        return cls._build(ops, source, conv=False)

    @classmethod
    def _build(cls, ops, source, conv):
        """build(); conv=True (unpickling a trace that came from a SCALE-Sim import) keeps the
        conv_* fields, checked as the import sets them."""
        ctx = _ctx()
        h = ctypes.c_void_p()
        _check(ctx, lib.mxsim_trace_create(ctx, _text("source", source), ctypes.byref(h)))
        tr = cls(_Owned(h, lib.mxsim_trace_free))
        if ops is None or isinstance(ops, (str, bytes, dict)) or not hasattr(ops, "__iter__"):
            raise TypeError(f"ops: expected a sequence of op dicts, got {type(ops).__name__}")
        for i, d in enumerate(ops):
            if not isinstance(d, dict):
                raise TypeError(f"ops[{i}]: expected a dict of op fields, got {type(d).__name__}")
            op = _lib.Top()
            op.repeat, op.a_fmt, op.b_fmt, op.out_fmt = 1, -1, -1, -1
            for k, v in d.items():
                if k not in _OP_FIELDS:
                    raise KeyError(f"trace op field '{k}': expected one of {', '.join(_OP_FIELDS)}")
                what = f"trace op field '{k}'"
                if k == "kind" and isinstance(v, (str, bytes)):
                    kind = ctypes.c_int()
                    _check(ctx, lib.mxsim_op_kind_parse(ctx, _text(what, v), ctypes.byref(kind)))
                    v = kind.value
                elif k == "name":
                    v = _text(what, v if isinstance(v, (str, bytes)) else str(v))
                    if len(v) >= 64:  # char name[64], NUL-terminated
                        raise ValueError(f"{what}: {d[k]!r} is {len(v)} bytes (UTF-8); at most 63")
                else:
                    v = _int(what, v, _I32 if k in _OP_INT32 else _I64)
                setattr(op, k, v)
            where = f"trace op {op.name.decode(errors='replace')!r}"
            if op.kind != 0 and op.k != 0:  # MXSIM_OP_GEMM
                raise ValueError(f"{where}: k={op.k}: only a gemm op has k (a {_op_kind_name(op.kind)} op is m x n "
                                 f"elements; the trace format has no k for it)")
            cv = {f: getattr(op, f) for f in _OP_CONV}
            if any(cv.values()):
                if not conv:
                    raise ValueError(f"{where}: {', '.join(f'{f}={x}' for f, x in cv.items() if x)}: the conv_* fields "
                                     "come only from a SCALE-Sim topology import (Trace.load of a .csv) and are not in "
                                     "the trace format (save() could not keep them): leave them 0")
                _check_conv(where, cv)
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
        _check(ctx, lib.mxsim_trace_save(ctx, self._h.ptr, _req_path("path", path)))

    @property
    def roles(self):
        """Per op, the role of its B operand (0 unset, 1 act, 2 weight, 3 kv: mxsim_tensor_role)."""
        return [int(lib.mxsim_trace_b_role(self._h.ptr, i)) for i in range(len(self))]

    @property
    def b_tensors(self):
        """Per op, the distinct B tensors it stores (trace key b_tensors: shared weights, idle experts;
        -1, mxsim.B_VIEW, for a view of a tensor another op counts, the text's b_tensors=0);
        0 where not given: one per execution, i.e. its repeat."""
        return [int(lib.mxsim_trace_b_tensors(self._h.ptr, i)) for i in range(len(self))]

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

    def __getstate__(self):  # picklable: every op field, the B operands' roles and tensor counts, the parameters, the source and the path
        return {"ops": self.ops, "roles": self.roles, "b_tensors": self.b_tensors, "params": self.params,
                "source": self.source, "path": self.path}

    def __setstate__(self, st):
        t = Trace._build(st["ops"], st["source"], conv=True)
        ctx = _ctx()
        for i, r in enumerate(st.get("roles", [])):
            if r:
                _check(ctx, lib.mxsim_trace_set_b_role(ctx, t._h.ptr, i, r))
        for i, n in enumerate(st.get("b_tensors", [])):
            if n:
                _check(ctx, lib.mxsim_trace_set_b_tensors(ctx, t._h.ptr, i, n))
        for p in st.get("params", []):
            _check(ctx, lib.mxsim_trace_add_param(ctx, t._h.ptr, p["name"].encode(), p["elems"], p["count"],
                                                  p["why"].encode()))
        self._h, self.path = t._h, st["path"]

    def __repr__(self):
        return f"Trace({self.source!r}, {len(self)} ops)"


def _trace(t, cfg):
    """t as a Trace; a path is read as a run on cfg reads it (a topology by SCALE-Sim's rules under
    its model), as the CLI reads it"""
    if not isinstance(t, (Trace, str, bytes, os.PathLike)):
        raise TypeError(f"trace: expected a Trace or a path, got {'None' if t is None else type(t).__name__ + f' {t!r:.40}'}")
    return t if isinstance(t, Trace) else Trace.load(t, config=cfg)


# ---- run, cost, report ----------------------------------------------------------------------

def run(config, trace, detail=False):
    """Times every op of trace on config (`mxsim run`): Records, one per op and a TOTAL row,
    with every statistic of the library's statistics table (columns read at run time).
    Ctrl-C (main thread) stops the detailed engine (detail=True) and raises KeyboardInterrupt."""
    _require("timing", "mxsim.run")
    cfg = _config(config, "mxsim.run")
    tr = _trace(trace, cfg)
    detail = _flag("detail", detail)
    ctx = _ctx()
    _check(ctx, lib.mxsim_tconfig_validate(ctx, cfg._buf))
    n = len(tr)
    # mxsim_run_table reads op_stats as an array of the library's struct: stride = its sizeof
    size = _tstats_size()
    stats = (ctypes.c_char * (size * max(n, 1)))()
    total = (ctypes.c_char * size)()
    base = ctypes.addressof(stats)

    def work():
        for i in range(n):
            op = lib.mxsim_trace_op(tr._h.ptr, i)
            _check(ctx, lib.mxsim_time_op(ctx, cfg._buf, op, lib.mxsim_trace_source(tr._h.ptr), int(bool(detail)),
                                          None, base + i * size))
            _check(ctx, lib.mxsim_tstats_add(ctx, cfg._buf, total, base + i * size, op.contents.name))
        t = ctypes.c_void_p()
        _check(ctx, lib.mxsim_run_table(ctx, cfg._buf, tr._h.ptr, stats, total, ctypes.byref(t)))
        return _Owned(t, lib.mxsim_table_free)

    return _records(ctx, _interruptible(ctx, work))


_TSTATS_SIZE = None


def _tstats_size():
    """sizeof(mxsim_tstats) in the loaded library, without laying the struct out in Python: every
    member is a statistic of the field table (mxsim.h), so the struct ends after the last byte
    that changes some field's value (mxsim_tstats_value), rounded up to its 8-byte alignment."""
    global _TSTATS_SIZE
    if _TSTATS_SIZE is None:
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


def memory(config, trace, group_sizes=None):
    """The memory footprint of trace's tensors (`mxsim memory`): Records, per group size (None: the
    configuration's group_size; else a list, as repeated --group-size) the weights, KV cache,
    activations and parameters in fp32, bf16 and MXINT8, then the TOTAL rows."""
    _require("timing", "mxsim.memory")
    cfg = _config(config, "mxsim.memory")
    tr = _trace(trace, cfg)
    if group_sizes is None:
        gs = []
    elif isinstance(group_sizes, (list, tuple)):
        gs = [_int("group_sizes", g) for g in group_sizes]
    else:
        raise TypeError(f"group_sizes: expected None or a list of integers, got {type(group_sizes).__name__}")
    ctx = _ctx()
    arr = (ctypes.c_int64 * max(len(gs), 1))(*gs)
    t = ctypes.c_void_p()
    _check(ctx, lib.mxsim_memory_table(ctx, cfg._buf, tr._h.ptr, arr, len(gs), ctypes.byref(t)))
    return _records(ctx, t)


def _cost_params(p, node=None, vdd=None, overhead=None, sram_bank_kib=None):
    """Sets the cost parameters given (None: the library's default), each checked before it meets
    its C type."""
    if node is not None:
        p.node_nm = _int("node", node, _I32)
    if vdd is not None:
        p.vdd_v = _real("vdd", vdd)
    if overhead is not None:
        p.overhead_factor = _real("overhead", overhead)
    if sram_bank_kib is not None:
        p.sram_bank_kib = _int("sram_bank_kib", sram_bank_kib)


def cost(config, node=45, vdd=0.0, overhead=1.0, sram_bank_kib=None):
    """Area and leakage per component (`mxsim cost`): Records.  config None is the default
    configuration, as `mxsim cost` without --config (run and sweep require one, as the CLI)."""
    _require("sweep", "mxsim.cost")
    cfg = _config(config)
    p = _lib.CostParams()
    lib.mxsim_cost_params_default(ctypes.byref(p))
    _cost_params(p, node, vdd, overhead, sram_bank_kib)
    ctx = _ctx()
    t = ctypes.c_void_p()
    _check(ctx, lib.mxsim_cost_area_table(ctx, cfg._buf, ctypes.byref(p), ctypes.byref(t)))
    return _records(ctx, t)


def report(results, out_dir, meta=None):
    """The HTML + Markdown report of a sweep (`mxsim report`): results is the sweep's CSV path
    (with NAME.meta.json beside it, or meta=)."""
    _require("sweep", "mxsim.report")
    ctx = _ctx()
    o = _lib.ReportOpts(_path("meta", meta))
    _check(ctx, lib.mxsim_report_build(ctx, _req_path("results", results), _req_path("out_dir", out_dir), ctypes.byref(o)))
    return os.path.join(os.fsdecode(out_dir), "index.html")


# ---- sweeps ---------------------------------------------------------------------------------

def _axis_text(key, vals):
    """An axis' values as the library's comma list: a string is taken as that list; otherwise each
    value as _value_text writes it (a value holding a comma would split: refused)."""
    what = f"sweep axis '{key}'"
    if isinstance(vals, (str, bytes)):
        return _value_text(what, vals)
    try:
        items = list(vals)
    except TypeError:
        raise TypeError(f"{what}: expected a list of values (or a comma-separated string), got "
                        f"{type(vals).__name__} {vals!r}") from None
    out = []
    for v in items:
        s = _value_text(what, v)
        if "," in s:
            raise ValueError(f"{what}: value {v!r} contains a comma (the library reads the values as a comma list)")
        out.append(s)
    return ",".join(out)


def _sweep_setup(ctx, cfg, tr, axes, opts):
    o = _lib.SweepOpts()
    lib.mxsim_sweep_opts_default(ctypes.byref(o))
    o.n_threads = _threads(opts.get("threads"))
    o.accuracy = int(_flag("accuracy", opts.get("accuracy", True)))
    for k in ("sample_rows", "sample_cols"):  # the CLI's --sample-rows/--sample-cols: 0 (all)..2^20
        if opts.get(k) is not None:
            setattr(o.acc, k, _cli_int(k, opts[k], 0, 1 << 20))
    if opts.get("seed") is not None:  # --seed: 0..2^63-1
        o.acc.seed = _cli_int("seed", opts["seed"], 0, 2 ** 63 - 1, _U64)
    if opts.get("data_dir") is not None:
        o.acc.data_dir = _path("data_dir", opts["data_dir"])
    if not o.accuracy:  # as `mxsim sweep --no-accuracy` with --data, --sample-rows/-cols or --seed
        for k in ("data_dir", "sample_rows", "sample_cols", "seed"):
            if opts.get(k) is not None:
                raise ValueError(f"{k}={opts[k]!r} has no effect with accuracy=False: give one of them")
    o.strict_group = int(_flag("strict_group", opts.get("strict_group", False)))
    if opts.get("profile") is not None:
        o.profile = _profile_id(opts["profile"])
    _cost_params(o.cost, opts.get("node"), opts.get("vdd"), opts.get("overhead"), opts.get("sram_bank_kib"))
    texts = [(_text("sweep axis key", key), _text(f"sweep axis '{key}'", _axis_text(key, vals)))
             for key, vals in axes.items()]
    sw = ctypes.c_void_p()
    _check(ctx, lib.mxsim_sweep_create(ctx, cfg._buf, ctypes.byref(sw)))
    h = _Owned(sw, lib.mxsim_sweep_free)
    for key, v in texts:
        _check(ctx, lib.mxsim_sweep_add_axis(ctx, sw, key, v))
    keep = (_path("trace", tr.path), _path("config", cfg.path), o)
    info = _lib.SweepInfo(keep[0], keep[1], ctypes.pointer(o))
    return h, o, info, keep


def _point_failures(sw):
    """(failed, first) over the points this run (or shard) holds: first = (point, status, message)
    of the first failed point, or None."""
    failed, first = 0, None
    for i in range(int(lib.mxsim_sweep_point_count(sw))):
        p = lib.mxsim_sweep_point_at(sw, i)
        if not p:
            continue  # another shard's point
        head = _lib.SweepPointHead.from_address(p)
        if head.status != 0:
            failed += 1
            if first is None:
                first = (i, int(head.status), head.err.decode(errors="replace"))
    return failed, first


def _raise_failures(points, failed, first):
    """As `mxsim sweep`, which exits 2 when points failed (the results still written): every point
    failed -> MxsimError with the first point's status and message; some -> a RuntimeWarning (their
    rows' status column says why)."""
    if not failed:
        return
    i, st, msg = first
    if failed >= points:
        raise MxsimError(st, f"all {points} sweep points failed; first (point {i}): {msg}")
    warnings.warn(f"mxsim.sweep: {failed} of {points} points failed; first (point {i}): {msg}", RuntimeWarning,
                  stacklevel=3)


def _run_shard_job(cfg, tr, axes, opts, index, count, part_path):
    """One shard of a sweep, written as a part file (runs in any executor's worker):
    (part_path, failed points, first failure)."""
    ctx = _ctx()
    sw, o, info, keep = _sweep_setup(ctx, cfg, tr, axes, opts)
    _check(ctx, lib.mxsim_sweep_set_shard(ctx, sw.ptr, index, count))

    def work():
        _check(ctx, lib.mxsim_sweep_run(ctx, sw.ptr, tr._h.ptr, ctypes.byref(o)))
        _check(ctx, lib.mxsim_sweep_save_part(ctx, sw.ptr, tr._h.ptr, ctypes.byref(info), _path("part", part_path)))

    _interruptible(ctx, work)
    return (part_path,) + _point_failures(sw.ptr)


def _run_shard(cfg, tr, axes, opts, index, count, part_path):
    """One shard of a sweep, written as a part file; returns its path."""
    return _run_shard_job(cfg, tr, axes, opts, index, count, part_path)[0]


def _format(ctx, fmt, path):
    f = ctypes.c_int()
    _check(ctx, lib.mxsim_output_format_choose(ctx, None if fmt is None else _text("format", fmt),
                                               _path("out", path), ctypes.byref(f)))
    return f.value


def _check_out(ctx, out):
    """Refuses an output the writer would refuse (mxsim_file_check) before a long run, not after."""
    if "mxsim_file_check" not in _lib.missing:
        _check(ctx, lib.mxsim_file_check(ctx, _path("out", out)))


def merge(parts, out, format=None):
    """Joins part files (`mxsim merge`) into out (format from format or out's extension); returns
    the number of failed points."""
    _require("sweep", "mxsim.merge")
    if isinstance(parts, (str, bytes, os.PathLike)):
        raise TypeError(f"parts: expected a list of part file paths, got the single path {parts!r} (pass [path])")
    try:
        parts = list(parts)
    except TypeError:
        raise TypeError(f"parts: expected a list of part file paths, got {type(parts).__name__} {parts!r}") from None
    if not parts:
        raise ValueError("parts: no part files (written by mxsim sweep --shard I/N -o PART, or sweep(executor=...))")
    ctx = _ctx()
    paths = [_path("part", p) for p in parts]
    arr = (ctypes.c_char_p * len(paths))(*paths)
    failed = ctypes.c_int64()
    _check(ctx, lib.mxsim_sweep_merge(ctx, arr, _int("number of parts", len(paths), _I32), _format(ctx, format, out),
                                      _path("out", out), ctypes.byref(failed)))
    return int(failed.value)


def sweep(config, trace, axes, out=None, format=None, threads=None, executor=None, shards=None,
          accuracy=True, sample_rows=None, sample_cols=None, seed=None, data_dir=None, profile=None,
          strict_group=False, node=None, vdd=None, overhead=None, sram_bank_kib=None, check=True):
    """The cartesian product of axes ({"mx.group_size": [16, 32], "array.size": [8, 16], ...})
    over trace on config (`mxsim sweep`): Records, one per point and op plus a TOTAL row per
    point (to_pandas() for a DataFrame).  Axis values: numbers (NumPy's too), bools or strings.
    out: also write the CLI's file (NAME.csv + NAME.meta.json, .json, .md), byte-identical to the
    CLI's.  node, vdd, overhead, sram_bank_kib: the cost model's parameters (the CLI's options).
    executor: any concurrent.futures.Executor (process pools, Dask's or Ray's): the grid is cut
    into `shards` slices (default: 4 x the executor's workers, at most the points) run as shards
    and merged; the result is identical to the local sweep.
    Failed points (check=True), as the CLI, which exits 2 then: if every point failed, MxsimError
    with the first one's status and message (out still written); if some did, a RuntimeWarning.
    The rows' status column says why in any case; check=False leaves it at that.
    Ctrl-C (main thread) cancels a local sweep: KeyboardInterrupt."""
    _require("sweep", "mxsim.sweep")
    cfg = _config(config, "mxsim.sweep")
    tr = _trace(trace, cfg)
    check = _flag("check", check)
    try:
        if axes is None or isinstance(axes, (str, bytes)):
            raise TypeError
        axes = dict(axes)
    except (TypeError, ValueError):
        raise TypeError(f"axes: expected a dict of key -> list of values, got {type(axes).__name__}") from None
    if not isinstance(trace, Trace):  # read once, by cfg's rules: an axis must not change the reading
        ctx = _ctx()
        for key in axes:
            if isinstance(key, (str, bytes)):
                kb = key.encode() if isinstance(key, str) else key
                st = lib.mxsim_trace_axis_reading(ctx, cfg._buf, _req_path("trace", trace), kb)
                if st != 0:
                    raise MxsimError(st, f"axes[{key!r}]: " + lib.mxsim_errmsg(ctx).decode(errors="replace"))
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise TypeError(f"executor: expected a concurrent.futures.Executor (with submit), got {type(executor).__name__}")
    axes = dict(axes)
    opts = dict(threads=threads, accuracy=accuracy, sample_rows=sample_rows, sample_cols=sample_cols, seed=seed,
                data_dir=data_dir, profile=profile, strict_group=strict_group, node=node, vdd=vdd,
                overhead=overhead, sram_bank_kib=sram_bank_kib)
    ctx = _ctx()
    sw, o, info, keep = _sweep_setup(ctx, cfg, tr, axes, opts)  # checks every argument before any work
    points = int(lib.mxsim_sweep_point_count(sw.ptr))
    if out is not None:
        fmt = _format(ctx, format, out)
        _check_out(ctx, out)
    if executor is None:
        def work():
            _check(ctx, lib.mxsim_sweep_run(ctx, sw.ptr, tr._h.ptr, ctypes.byref(o)))
            if out is not None:
                _check(ctx, lib.mxsim_sweep_save(ctx, sw.ptr, tr._h.ptr, ctypes.byref(info), fmt, _path("out", out)))
            t = ctypes.c_void_p()
            _check(ctx, lib.mxsim_sweep_table(ctx, sw.ptr, tr._h.ptr, ctypes.byref(info), 0, ctypes.byref(t)))
            return _Owned(t, lib.mxsim_table_free)

        r = _records(ctx, _interruptible(ctx, work))
        if check:
            _raise_failures(points, *_point_failures(sw.ptr))
        return r
    if shards is None:
        workers = getattr(executor, "_max_workers", None) or os.cpu_count() or 1
        shards = 4 * workers
    shards = _int("shards", shards)
    if shards < 1:
        raise ValueError(f"shards={shards}: expected at least 1")
    shards = min(shards, points)
    with tempfile.TemporaryDirectory(prefix="mxsim-sweep-") as tmp:
        futs = [executor.submit(_run_shard_job, cfg, tr, axes, opts, i, shards, os.path.join(tmp, f"shard{i}.part"))
                for i in range(shards)]
        try:
            done = [f.result() for f in concurrent.futures.as_completed(futs)]
        except BaseException:
            for f in futs:
                f.cancel()
            raise
        parts = [d[0] for d in done]
        if out is not None:
            merge(parts, out, format)
        j = os.path.join(tmp, "all.json")
        merge(parts, j, "json")
        with open(j) as f:
            doc = json.load(f)
    r = Records(doc["rows"])
    r.meta, r.columns = doc.get("meta", {}), doc.get("columns", [])
    firsts = [d[2] for d in done if d[2] is not None]
    if check:
        _raise_failures(points, sum(d[1] for d in done), min(firsts) if firsts else None)
    return r
