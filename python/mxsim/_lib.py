"""Loads libmxsim and declares the C ABI (sim/include/mxsim.h) for ctypes.

Only structs the header makes caller-allocated and ABI-stable are declared here (their layout
changes bump MXSIM_ABI_VERSION, which is checked at load).  The statistics struct (mxsim_tstats)
and the configuration struct (mxsim_tconfig) are never laid out in Python: they live in opaque
buffers and are read through the library's field tables.  ctypes releases the GIL around every
foreign call, so long calls (gemm, sweeps) run while other Python threads proceed.
"""
import ctypes
import ctypes.util
import os
import shutil
import subprocess

ABI_VERSION = 7  # MXSIM_ABI_VERSION of the header these declarations follow

_HERE = os.path.dirname(os.path.abspath(__file__))


def _candidates():
    env = os.environ.get("MXSIM_LIBRARY")
    if env:
        yield env
        return
    for sub in ("lib", "lib64"):
        p = os.path.join(_HERE, sub, "libmxsim.so")
        if os.path.exists(p):
            yield p
    if shutil.which("pkg-config"):
        try:
            libdir = subprocess.run(["pkg-config", "--variable=libdir", "mxsim"], capture_output=True,
                                    text=True, check=True).stdout.strip()
            if libdir:
                yield os.path.join(libdir, "libmxsim.so")
        except (subprocess.CalledProcessError, OSError):
            pass
    found = ctypes.util.find_library("mxsim")
    if found:
        yield found


def _load():
    tried = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append(f"{path}: {e}")
    raise ImportError("mxsim: libmxsim.so not found (install with `pip install ./python`, set "
                      "MXSIM_LIBRARY, or install the library with its mxsim.pc for pkg-config); tried: "
                      + ("; ".join(tried) or "nothing"))


lib, path = _load()

c_i64 = ctypes.c_int64
c_i32 = ctypes.c_int32
c_int = ctypes.c_int
c_char_p = ctypes.c_char_p
c_void_p = ctypes.c_void_p
c_double = ctypes.c_double
c_size_t = ctypes.c_size_t
P = ctypes.POINTER


class GemmOpts(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("acc", c_i32), ("out_dtype", c_i32)]


class ErrorStats(ctypes.Structure):
    _fields_ = [("n", c_i64), ("n_bit_mismatch", c_i64), ("n_nan_mismatch", c_i64), ("sqnr_db", c_double),
                ("max_abs_err", c_double), ("max_rel_err", c_double), ("mean_abs_err", c_double)]


class Top(ctypes.Structure):  # mxsim_top
    _fields_ = [("kind", c_i32), ("name", ctypes.c_char * 64), ("m", c_i64), ("n", c_i64), ("k", c_i64),
                ("group_size", c_i64), ("repeat", c_i64), ("a_fmt", c_i32), ("b_fmt", c_i32),
                ("out_fmt", c_i32), ("line", c_i32), ("conv_h", c_i64), ("conv_w", c_i64),
                ("conv_fh", c_i64), ("conv_fw", c_i64), ("conv_c", c_i64), ("conv_s", c_i64)]


class TconfigField(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("type", c_char_p), ("unit", c_char_p), ("doc", c_char_p),
                ("choices", c_char_p), ("lo", c_double), ("hi", c_double), ("default", c_double)]


class CostParams(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("node_nm", c_int), ("vdd_v", c_double),
                ("overhead_factor", c_double), ("sram_bank_kib", c_i64)]


class AccuracyOpts(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("profile", c_i32), ("acc", c_i32), ("group_size", c_i64),
                ("sample_rows", c_i64), ("sample_cols", c_i64), ("seed", ctypes.c_uint64),
                ("data_dir", c_char_p)]


PROGRESS = ctypes.CFUNCTYPE(None, c_void_p, c_i64, c_i64)
CANCEL = ctypes.CFUNCTYPE(c_int, c_void_p)  # mxsim_cancel_fn


class SweepOpts(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("n_threads", ctypes.c_uint), ("accuracy", c_int),
                ("acc", AccuracyOpts), ("cost", CostParams), ("strict_group", c_int), ("profile", c_i32),
                ("progress", c_void_p), ("progress_user", c_void_p)]


class SweepInfo(ctypes.Structure):
    _fields_ = [("trace_path", c_char_p), ("config_path", c_char_p), ("opts", P(SweepOpts))]


class SweepPointHead(ctypes.Structure):
    """The leading members of mxsim_sweep_point (library-owned; read through a pointer from
    mxsim_sweep_point_at, never allocated here): its status and message."""
    _fields_ = [("status", c_i32), ("err", ctypes.c_char * 256)]


class ReportOpts(ctypes.Structure):
    _fields_ = [("meta_path", c_char_p)]


ST = c_int  # mxsim_status
_protos = {
    "mxsim_strerror": (c_char_p, [c_int]),
    "mxsim_version": (c_char_p, []),
    "mxsim_abi_version": (c_int, []),
    "mxsim_profile_name": (c_char_p, [c_int]),
    "mxsim_profile_parse": (ST, [c_char_p, P(c_int)]),
    "mxsim_ctx_create": (ST, [P(c_void_p)]),
    "mxsim_ctx_destroy": (None, [c_void_p]),
    "mxsim_errmsg": (c_char_p, [c_void_p]),
    "mxsim_ctx_notes": (c_char_p, [c_void_p]),
    "mxsim_ctx_notes_lost": (ctypes.c_uint, [c_void_p]),
    "mxsim_ctx_clear_notes": (None, [c_void_p]),
    "mxsim_ctx_set_threads": (ST, [c_void_p, ctypes.c_uint]),
    "mxsim_ctx_set_cancel": (ST, [c_void_p, CANCEL, c_void_p]),
    "mxsim_file_check": (ST, [c_void_p, c_char_p]),
    "mxsim_tensor_create": (ST, [c_void_p, c_int, c_int, P(c_i64), P(c_void_p)]),
    "mxsim_tensor_free": (None, [c_void_p]),
    "mxsim_tensor_dtype": (c_int, [c_void_p]),
    "mxsim_tensor_ndim": (c_int, [c_void_p]),
    "mxsim_tensor_shape": (P(c_i64), [c_void_p]),
    "mxsim_tensor_numel": (c_i64, [c_void_p]),
    "mxsim_tensor_data": (c_void_p, [c_void_p]),
    "mxsim_tensor_cdata": (c_void_p, [c_void_p]),
    "mxsim_tensor_set_dtype": (ST, [c_void_p, c_void_p, c_int]),
    "mxsim_dtype_size": (c_size_t, [c_int]),
    "mxsim_mx_quantize": (ST, [c_void_p, c_void_p, c_int, c_i64, c_int, P(c_void_p)]),
    "mxsim_mx_dequantize": (ST, [c_void_p, c_void_p, c_int, P(c_void_p)]),
    "mxsim_mx_create": (ST, [c_void_p, c_void_p, c_void_p, c_i64, c_int, c_int, P(c_void_p)]),
    "mxsim_mx_free": (None, [c_void_p]),
    "mxsim_mx_mantissa": (c_void_p, [c_void_p]),
    "mxsim_mx_scale": (c_void_p, [c_void_p]),
    "mxsim_mx_group_size": (c_i64, [c_void_p]),
    "mxsim_mx_axis": (c_int, [c_void_p]),
    "mxsim_mx_profile": (c_int, [c_void_p]),
    "mxsim_mx_load": (ST, [c_void_p, c_char_p, P(c_void_p)]),
    "mxsim_mx_save": (ST, [c_void_p, c_void_p, c_char_p, c_int]),
    "mxsim_gemm_opts_default": (None, [P(GemmOpts)]),
    "mxsim_gemm": (ST, [c_void_p, c_void_p, c_void_p, P(GemmOpts), P(c_void_p)]),
    "mxsim_compare": (ST, [c_void_p, c_void_p, c_void_p, P(ErrorStats)]),
    "mxsim_compare_table": (ST, [c_void_p, P(ErrorStats), c_char_p, c_char_p, P(c_void_p)]),
    "mxsim_output_format_parse": (ST, [c_void_p, c_char_p, P(c_int)]),
    "mxsim_output_format_choose": (ST, [c_void_p, c_char_p, c_char_p, P(c_int)]),
    "mxsim_table_free": (None, [c_void_p]),
    "mxsim_table_render": (ST, [c_void_p, c_void_p, c_int, P(c_void_p), P(c_size_t)]),
    "mxsim_free": (None, [c_void_p]),
    "mxsim_report_build": (ST, [c_void_p, c_char_p, c_char_p, P(ReportOpts)]),
    "mxsim_tconfig_field_count": (c_int, []),
    "mxsim_tconfig_field_at": (P(TconfigField), [c_int]),
    "mxsim_tconfig_default": (None, [c_void_p]),
    "mxsim_tconfig_set": (ST, [c_void_p, c_void_p, c_char_p, c_char_p, c_char_p]),
    "mxsim_tconfig_load": (ST, [c_void_p, c_void_p, c_char_p]),
    "mxsim_tconfig_validate": (ST, [c_void_p, c_void_p]),
    "mxsim_tconfig_table": (ST, [c_void_p, c_void_p, P(c_void_p)]),
    "mxsim_tconfig_format": (c_char_p, [c_void_p, c_int, ctypes.c_char_p, c_size_t]),
    "mxsim_trace_create": (ST, [c_void_p, c_char_p, P(c_void_p)]),
    "mxsim_trace_free": (None, [c_void_p]),
    "mxsim_trace_append": (ST, [c_void_p, c_void_p, P(Top)]),
    "mxsim_trace_count": (c_i64, [c_void_p]),
    "mxsim_trace_op": (P(Top), [c_void_p, c_i64]),
    "mxsim_trace_source": (c_char_p, [c_void_p]),
    "mxsim_trace_load": (ST, [c_void_p, c_char_p, P(c_void_p)]),
    "mxsim_trace_load_for": (ST, [c_void_p, c_void_p, c_char_p, P(c_void_p)]),
    "mxsim_trace_axis_reading": (ST, [c_void_p, c_void_p, c_char_p, c_char_p]),
    "mxsim_trace_gen": (ST, [c_void_p, c_char_p, P(c_void_p)]),
    "mxsim_trace_save": (ST, [c_void_p, c_void_p, c_char_p]),
    "mxsim_trace_b_role": (c_int, [c_void_p, c_i64]),
    "mxsim_trace_set_b_role": (ST, [c_void_p, c_void_p, c_i64, c_int]),
    "mxsim_trace_b_tensors": (c_i64, [c_void_p, c_i64]),
    "mxsim_trace_set_b_tensors": (ST, [c_void_p, c_void_p, c_i64, c_i64]),
    "mxsim_trace_param_count": (c_i64, [c_void_p]),
    "mxsim_trace_param": (ST, [c_void_p, c_i64, P(c_char_p), P(c_i64), P(c_i64), P(c_char_p)]),
    "mxsim_trace_add_param": (ST, [c_void_p, c_void_p, c_char_p, c_i64, c_i64, c_char_p]),
    "mxsim_op_kind_name": (c_char_p, [c_int]),
    "mxsim_op_kind_parse": (ST, [c_void_p, c_char_p, P(c_int)]),
    "mxsim_tstats_field_count": (c_int, []),
    "mxsim_tstats_value": (c_double, [c_void_p, c_int]),
    "mxsim_time_op": (ST, [c_void_p, c_void_p, P(Top), c_char_p, c_int, c_char_p, c_void_p]),
    "mxsim_run_table": (ST, [c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, P(c_void_p)]),
    "mxsim_memory_table": (ST, [c_void_p, c_void_p, c_void_p, P(c_i64), c_int, P(c_void_p)]),
    "mxsim_tstats_add": (ST, [c_void_p, c_void_p, c_void_p, c_void_p, c_char_p]),
    "mxsim_cost_params_default": (None, [P(CostParams)]),
    "mxsim_cost_area_table": (ST, [c_void_p, c_void_p, P(CostParams), P(c_void_p)]),
    "mxsim_sweep_opts_default": (None, [P(SweepOpts)]),
    "mxsim_sweep_create": (ST, [c_void_p, c_void_p, P(c_void_p)]),
    "mxsim_sweep_free": (None, [c_void_p]),
    "mxsim_sweep_add_axis": (ST, [c_void_p, c_void_p, c_char_p, c_char_p]),
    "mxsim_sweep_point_count": (c_i64, [c_void_p]),
    "mxsim_sweep_run": (ST, [c_void_p, c_void_p, c_void_p, P(SweepOpts)]),
    "mxsim_sweep_point_at": (c_void_p, [c_void_p, c_i64]),
    "mxsim_sweep_table": (ST, [c_void_p, c_void_p, c_void_p, P(SweepInfo), c_int, P(c_void_p)]),
    "mxsim_sweep_save": (ST, [c_void_p, c_void_p, c_void_p, P(SweepInfo), c_int, c_char_p]),
    "mxsim_sweep_set_shard": (ST, [c_void_p, c_void_p, c_i64, c_i64]),
    "mxsim_sweep_save_part": (ST, [c_void_p, c_void_p, c_void_p, P(SweepInfo), c_char_p]),
    "mxsim_sweep_merge": (ST, [c_void_p, P(c_char_p), c_int, c_int, c_char_p, P(c_i64)]),
}
# Functions of modules the library was built without (-DMXSIM_WITH_SWEEP=OFF, -DMXSIM_WITH_TIMING=OFF):
# the package imports without them; mxsim/__init__.py replaces each by a stub that raises
# MxsimError(E_UNSUPPORTED) naming the function and the module when it is called.
missing = []
for _name, (_res, _args) in _protos.items():
    try:
        _f = getattr(lib, _name)
    except AttributeError:
        missing.append(_name)
        continue
    _f.restype = _res
    _f.argtypes = _args

if "mxsim_abi_version" in missing:  # MXSIM_LIBRARY names some other shared library
    raise ImportError(f"mxsim: {path} is not libmxsim (it has no mxsim_abi_version): set MXSIM_LIBRARY to libmxsim")
if lib.mxsim_abi_version() != ABI_VERSION:
    raise ImportError(f"mxsim: {path} has ABI version {lib.mxsim_abi_version()}, these bindings follow "
                      f"version {ABI_VERSION}")


def _check_sizes():
    """The caller-allocated structs declared above must have the size the library sets (those of
    modules the library lacks are skipped: nothing uses them)."""
    for cls, name in ((GemmOpts, "mxsim_gemm_opts_default"), (SweepOpts, "mxsim_sweep_opts_default"),
                      (CostParams, "mxsim_cost_params_default")):
        if name in missing:
            continue
        fn = getattr(lib, name)
        buf = (ctypes.c_char * 4096)()
        fn(ctypes.cast(buf, P(cls)))
        size = c_size_t.from_buffer(buf).value
        if size != ctypes.sizeof(cls):
            raise ImportError(f"mxsim: {cls.__name__} is {size} bytes in {path}, {ctypes.sizeof(cls)} here")


_check_sizes()

# Opaque storage for structs read only through field tables: generously sized, since fields are
# appended over time (the library writes sizeof of its own struct).
TCONFIG_BYTES = 4096
TSTATS_BYTES = 16384
