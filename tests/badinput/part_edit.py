#!/usr/bin/env python3
"""part_edit.py SRC DST SECTION OFFSET FORMAT VALUE [POINT_OFFSET]: a sweep part file (sweep_part.c)
with one value of one section rewritten and its CRC-32 trailer recomputed, so that the CRC passes
and only the reader's own checks stand between the edit and the merge.  SECTION is the index of
the section (2: the base configuration, 4: the options); OFFSET a byte offset in it; FORMAT a
struct format ('<q', '<d').  POINT_OFFSET, if given, is also rewritten in every point record (a
point's own copy of the value, where the reader compares the two); 'profile' names the offset of
mxsim_sweep_point.profile on x86-64: status and err[256] (264 bytes with padding), the axis values
(16 pointers), then the configuration (the size of section 2)."""
import struct
import sys
import zlib

MAGIC = b"MXSIM-SWEEP-PART\n"
src, dst, sec, off, fmt, val = sys.argv[1:7]
data = open(src, "rb").read()
assert data.startswith(MAGIC), "not a sweep part file"
body = bytearray(data[:-4])
at = len(MAGIC) + 4  # magic, version
starts, sizes = [], []
for _ in range(7):  # sections: name, then data, each with an int64 length
    n = struct.unpack_from("<q", body, at)[0]
    at += 8 + n
    n = struct.unpack_from("<q", body, at)[0]
    starts.append(at + 8)
    sizes.append(n)
    at += 8 + n
first, end = struct.unpack_from("<4q", body, at)[2:4]
at += 32
value = float(val) if fmt.endswith("d") else int(val)
struct.pack_into(fmt, body, starts[int(sec)] + int(off), value)
if len(sys.argv) > 7:
    size = (len(body) - at) // (end - first)
    for i in range(end - first):
        poff = 264 + 16 * 8 + sizes[2] if sys.argv[7] == "profile" else int(sys.argv[7])
        struct.pack_into(fmt, body, at + i * size + poff, value)
open(dst, "wb").write(bytes(body) + struct.pack("<I", zlib.crc32(bytes(body))))
