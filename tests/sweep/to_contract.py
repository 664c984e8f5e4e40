#!/usr/bin/env python3
"""to_contract.py - converts a sweep CSV of the old form ('#' comment header, mxsim-sweep 1) into
the report's input contract: IN.csv without comments plus the typed sidecar OUT.meta.json
(sim/include/mxsim.h, "Report").  For tests and the committed example until `mxsim sweep -o`
writes the sidecar itself; drop it then.

usage: to_contract.py OLD.csv NEW.csv       (writes NEW.csv and NEW.meta.json)
"""
import csv
import io
import json
import re
import sys


def typed(s):
    """'64' -> 64, '0.9' -> 0.9, else the string."""
    if re.fullmatch(r"-?\d+", s):
        return int(s)
    try:
        return float(s)
    except ValueError:
        return s


def main(src, dst):
    hdr, body = [], []
    with open(src, newline="") as f:
        for line in f:
            (hdr if line.startswith("#") else body).append(line)
    if not hdr:
        sys.exit("to_contract.py: %s has no '#' header: already in the new form?" % src)
    kv, base, base_unit = {}, {}, {}
    for h in hdr:
        h = h[1:].strip()
        m = re.fullmatch(r"base (\S+) = (\S+)(?: (.*))?", h)
        if m:
            base[m.group(1)] = typed(m.group(2))
            base_unit[m.group(1)] = m.group(3) or ""
        elif ": " in h:
            k, v = h.split(": ", 1)
            kv[k] = v
    rows = list(csv.reader(io.StringIO("".join(body))))
    cols = rows[0]
    axes_keys = kv.get("axes", "").split()
    axes = []
    for key in axes_keys:
        c = cols.index(key)
        vals = []
        for r in rows[1:]:
            if r[c] not in vals:
                vals.append(r[c])
        if all(re.fullmatch(r"-?\d+", v) for v in vals):
            t, vals = "int", [int(v) for v in vals]
        elif all(isinstance(typed(v), float) for v in vals):
            t, vals = "real", [float(v) for v in vals]
        else:
            t = "enum"
        unit = "PE" if key == "array.size" else base_unit.get(key, "")
        axes.append({"key": key, "type": t, "unit": unit, "values": vals})
    m = re.fullmatch(r"(\S+) \((\d+) ops\)", kv.get("trace", ""))
    trace, n_ops = (m.group(1), int(m.group(2))) if m else (kv.get("trace", ""), 0)
    cost = {k: typed(v) for k, v in (p.split("=", 1) for p in kv.get("cost", "").split() if "=" in p)}
    acc_text = kv.get("accuracy", "off")
    acc = None
    if acc_text != "off":
        m = re.search(r"seed (\d+)", acc_text)
        s = re.search(r"at most (\d+) rows x (\d+) cols", acc_text)
        acc = {"data": "synthetic" if acc_text.startswith("synthetic") else acc_text.split(";")[0],
               "seed": int(m.group(1)) if m else None,
               "sample_rows": int(s.group(1)) if s else None,
               "sample_cols": int(s.group(2)) if s else None,
               "reference": "float64"}
    text_cols = {"profile", "status", "op", "kind"}
    columns = []
    for i, name in enumerate(cols):
        vals = [r[i] for r in rows[1:] if i < len(r)]
        if name in text_cols or (name in axes_keys and axes[axes_keys.index(name)]["type"] == "enum"):
            t = "text"
        elif all(re.fullmatch(r"-?\d+", v) for v in vals):
            t = "int"
        else:
            t = "real"
        columns.append({"name": name, "type": t})
    meta = {"format": "mxsim-sweep", "version": 2, "mxsim_version": kv.get("version", "").replace("mxsim ", ""),
            "trace": trace, "n_ops": n_ops, "config": kv.get("config"), "points": int(kv.get("points", "0")),
            "axes": axes, "base": base, "cost": cost, "accuracy": acc,
            "group_policy": kv.get("group policy", ""), "columns": columns}
    with open(dst, "w", newline="") as f:
        f.write("".join(body))
    stem = dst[:-4] if dst.endswith(".csv") else dst
    with open(stem + ".meta.json", "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
