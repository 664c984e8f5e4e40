#!/usr/bin/env python3
"""NumPy side of the .npy/.npz interoperability test (driven by test_npy_interop.c).

    npz_interop.py gen DIR    NumPy writes .npy/.npz files that mxsim must read
    npz_interop.py check DIR  NumPy loads the files mxsim wrote and checks every value

The values are closed-form functions of the element index; test_npy_interop.c computes the
same formulas, so each side checks the other without sharing any file.  Exits non-zero with a
message naming the file and the field on the first mismatch.
"""
import os
import sys
import zipfile

import numpy as np

MEMBERS = {"mantissa", "scale", "group_size", "axis", "profile"}


def f32_values():
    return (np.arange(24, dtype=np.float32) * np.float32(0.5) - np.float32(3)).reshape(2, 3, 4)


def i8_values():
    return (np.arange(300) % 256 - 128).astype(np.int8).reshape(3, 100)


def u8_values():
    return ((np.arange(50) * 7) % 256).astype(np.uint8)


def u16_values():
    return ((np.arange(40) * 1657) % 65536).astype(np.uint16).reshape(5, 8)


def i64_values():
    return np.array([-5, 2**40, 7], dtype=np.int64)


def mx_values(rows, cols, g, axis):
    """Mantissa and scale of the reference MXINT8 tensors."""
    n = rows * cols
    mant = ((np.arange(n) * 7 + 3) % 256 - 128).astype(np.int8).reshape(rows, cols)
    sshape = (rows, cols // g) if axis == 1 else (rows // g, cols)
    scale = (100 + np.arange(sshape[0] * sshape[1]) % 50).astype(np.uint8).reshape(sshape)
    return mant, scale


# (file stem, rows, cols, group_size, axis, profile, compressed)
NPZ_CASES = [
    ("A_stored", 4, 64, 32, 1, "mase-cuda", False),
    ("A_deflate", 4, 64, 32, 1, "mase-cuda", True),
    ("B_axis0", 64, 3, 16, 0, "microxcaling", True),
    # group_size and axis as int32, as NumPy on Windows stores a Python int
    ("C_i4meta", 4, 64, 16, 1, "ocp", False),
]


def gen(d):
    j = lambda name: os.path.join(d, name)
    np.save(j("np_f32.npy"), f32_values())
    np.save(j("np_f32_be.npy"), f32_values().astype(">f4"))
    np.save(j("np_i8.npy"), i8_values())
    np.save(j("np_u8.npy"), u8_values())
    np.save(j("np_u16.npy"), u16_values())
    np.save(j("np_u16_be.npy"), u16_values().astype(">u2"))
    np.save(j("np_i64_be.npy"), i64_values().astype(">i8"))
    np.save(j("np_0d_i64.npy"), np.int64(-42))
    np.save(j("np_0d_f32.npy"), np.float32(2.5))
    np.save(j("np_empty.npy"), np.zeros((0, 3), np.float32))
    np.save(j("np_fortran.npy"), np.asfortranarray(f32_values()[0]))
    for stem, rows, cols, g, axis, prof, comp in NPZ_CASES:
        mant, scale = mx_values(rows, cols, g, axis)
        save = np.savez_compressed if comp else np.savez
        # Plain Python int and str, as a user would pass them.
        if stem.endswith("_i4meta"):
            g, axis = np.int32(g), np.int32(axis)
        save(j(stem + ".npz"), mantissa=mant, scale=scale, group_size=g, axis=axis, profile=prof)


def expect(cond, what):
    if not cond:
        sys.exit("npz_interop.py: " + what)


def check_npy(path, want, dtype):
    a = np.load(path)
    name = os.path.basename(path)
    expect(a.dtype == np.dtype(dtype), "%s: dtype %s, expected %s" % (name, a.dtype.str, dtype))
    expect(a.shape == want.shape, "%s: shape %s, expected %s" % (name, a.shape, want.shape))
    expect(np.array_equal(a, want), "%s: values differ" % name)
    with open(path, "rb") as f:
        head = f.read(10)
    hlen = head[8] | head[9] << 8
    expect(head[6] == 1 and (10 + hlen) % 64 == 0, "%s: header not v1.0 / 64-byte aligned" % name)


def check_npz(path, rows, cols, g, axis, prof, comp):
    name = os.path.basename(path)
    with zipfile.ZipFile(path) as zf:
        expect(zf.testzip() is None, "%s: zipfile CRC check failed" % name)
        methods = {i.compress_type for i in zf.infolist()}
        want = zipfile.ZIP_DEFLATED if comp else zipfile.ZIP_STORED
        expect(methods == {want}, "%s: compression methods %s, expected %s" % (name, methods, want))
    mant, scale = mx_values(rows, cols, g, axis)
    with np.load(path) as z:
        expect(set(z.files) == MEMBERS, "%s: members %s" % (name, sorted(z.files)))
        m, s = z["mantissa"], z["scale"]
        expect(m.dtype == np.int8 and m.shape == mant.shape,
               "%s: mantissa %s %s" % (name, m.dtype, m.shape))
        expect(np.array_equal(m, mant), "%s: mantissa values differ" % name)
        expect(s.dtype == np.uint8 and s.shape == scale.shape,
               "%s: scale %s %s" % (name, s.dtype, s.shape))
        expect(np.array_equal(s, scale), "%s: scale values differ" % name)
        for key, val in (("group_size", g), ("axis", axis)):
            v = z[key]
            expect(v.dtype == np.int64 and v.shape == () and int(v) == val,
                   "%s: %s is %r (%s, shape %s), expected int64 %d"
                   % (name, key, v, v.dtype, v.shape, val))
        p = z["profile"]
        expect(p.dtype.kind == "U" and p.shape == () and str(p) == prof,
               "%s: profile is %r (%s, shape %s), expected %r" % (name, p, p.dtype, p.shape, prof))


def check(d):
    j = lambda name: os.path.join(d, name)
    check_npy(j("c_f32.npy"), f32_values(), "<f4")
    check_npy(j("c_i8.npy"), i8_values(), "|i1")
    check_npy(j("c_u8.npy"), u8_values(), "|u1")
    check_npy(j("c_u16.npy"), u16_values(), "<u2")
    check_npy(j("c_bf16.npy"), u16_values(), "<u2")
    check_npy(j("c_i64.npy"), i64_values(), "<i8")
    check_npy(j("c_0d_i64.npy"), np.array(-42, np.int64), "<i8")
    check_npy(j("c_0d_f32.npy"), np.array(2.5, np.float32), "<f4")
    check_npy(j("c_empty.npy"), np.zeros((0, 3), np.float32), "<f4")
    for stem, rows, cols, g, axis, prof, comp in NPZ_CASES:
        check_npz(j("c_" + stem + ".npz"), rows, cols, g, axis, prof, comp)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("gen", "check"):
        sys.exit("usage: npz_interop.py gen|check DIR")
    (gen if sys.argv[1] == "gen" else check)(sys.argv[2])
