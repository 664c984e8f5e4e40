#!/usr/bin/python3
"""Regenerates the binary fixtures of the bad-input catalogue (tests/badinput/files/).

The files are committed, so running the catalogue needs no Python; run this (with NumPy) only
to change them: /usr/bin/python3 tests/badinput/make-files.py.  Text fixtures are written by
run.sh itself.  Each file is malformed in exactly one way, named by the file name."""
import io, os, struct, zipfile
import numpy as np

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "files")
os.makedirs(out, exist_ok=True)

def put(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)

def npy(arr):
    b = io.BytesIO(); np.lib.format.write_array(b, arr, allow_pickle=False); return b.getvalue()

def raw_npy(header, data=b"", version=1):
    """A .npy image with a hand-written header dict (padded to 64 bytes as NumPy does)."""
    h = header.encode()
    pre = 10 if version == 1 else 12
    pad = (64 - (pre + len(h) + 1) % 64) % 64
    h = h + b" " * pad + b"\n"
    ln = struct.pack("<H", len(h)) if version == 1 else struct.pack("<I", len(h))
    return b"\x93NUMPY" + bytes([version, 0]) + ln + h + data

# ---- .npy -------------------------------------------------------------------------------------
good = npy(np.arange(64, dtype="<f4").reshape(4, 16))
put("truncated.npy", good[:len(good) - 20])
put("trailing.npy", good + b"\0\0\0\0")
put("garbage.npy", bytes((i * 37 + 11) % 256 for i in range(300)))
put("f64.npy", npy(np.arange(32, dtype="<f8")))
put("int8_for_quantize.npy", npy(np.arange(32, dtype="i1")))
put("overflow_shape.npy", raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776, 1099511627776), }"))
put("overflow_shape_with_zero.npy", raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 4611686018427387904, 4611686018427387904), }"))
put("over_64gib.npy", raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (68719476736,), }"))
put("nine_dims.npy", raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1), }", b"\0" * 4))
put("fortran.npy", npy(np.asfortranarray(np.arange(64, dtype="<f4").reshape(4, 16))))
put("version9.npy", b"\x93NUMPY\x09\x00" + good[8:])
put("header_len_past_end.npy", b"\x93NUMPY\x01\x00\xff\xff{'descr'")
put("unknown_key.npy", raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'extra': 1, }", b"\0" * 4))

# ---- .npz (MXINT8 layout: mantissa, scale, group_size, axis, profile) ---------------------------
m = (np.arange(64) - 32).astype("i1").reshape(2, 32)
s = np.array([[127], [130]], dtype="u1")
def npz(name, compress=False, **members):
    b = io.BytesIO()
    (np.savez_compressed if compress else np.savez)(b, **members)
    put(name, b.getvalue())
    return b.getvalue()
base = dict(mantissa=m, scale=s, group_size=np.array(32), axis=np.array(1), profile=np.array("ocp"))
img = npz("ok.npz", **base)
put("truncated.npz", img[:len(img) // 2])
# flip one byte inside the stored mantissa member: CRC-32 mismatch
zf = zipfile.ZipFile(io.BytesIO(img))
info = zf.getinfo("mantissa.npy")
hdr = img[info.header_offset:info.header_offset + 30]
data_at = info.header_offset + 30 + struct.unpack("<H", hdr[26:28])[0] + struct.unpack("<H", hdr[28:30])[0]
bad = bytearray(img); bad[data_at + 130] ^= 0x40
put("crc_mismatch.npz", bytes(bad))
npz("missing_profile.npz", **{k: v for k, v in base.items() if k != "profile"})
npz("extra_member.npz", extra=np.zeros(1, "u1"), **base)
npz("unknown_profile.npz", **dict(base, profile=np.array("fp8")))
npz("scale_shape.npz", **dict(base, scale=np.zeros((2, 2), "u1")))
npz("group_not_dividing.npz", **dict(base, group_size=np.array(5)))
npz("mantissa_float.npz", **dict(base, mantissa=m.astype("<f4")))
npz("axis_out_of_range.npz", **dict(base, axis=np.array(7)))
