#!/usr/bin/env python3
"""make-report-seeds.py - writes the seed corpus and crash reproducers of fuzz_report.

A fuzz_report input is the sidecar (NAME.meta.json), a line "----", then the CSV (fuzz_report.c).
Seeds: three small sweeps (group sizes; a failed point; array widths without accuracy).
Reproducers, rebuilt for the sidecar contract from the crashes of the old comment-header reader:
a point with energy 1e21 (chart scales), time_us declared as an axis (it is also a metric), and
sixteen one-value axes (the widest totals table).

usage: tests/fuzz/make-report-seeds.py OLD_SEED_DIR    (the three old '#'-header seed CSVs)
"""
import copy
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "sweep"))
import to_contract  # noqa: E402


def pair(old_csv):
    tmp = "/tmp/make-report-seeds.csv"
    to_contract.main(old_csv, tmp)
    meta = json.load(open(tmp[:-4] + ".meta.json"))
    return meta, open(tmp).read()


def write(path, meta, csv_text):
    with open(path, "w") as f:
        f.write(json.dumps(meta, indent=1) + "\n----\n" + csv_text)


def main(old):
    corpus = os.path.join(here, "corpus", "report")
    crashes = os.path.join(here, "crashes", "report")
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(crashes, exist_ok=True)
    for name in ("group_sweep", "failed_point", "width_no_accuracy"):
        meta, text = pair(os.path.join(old, name + ".csv"))
        write(os.path.join(corpus, name + ".txt"), meta, text)
    meta, text = pair(os.path.join(old, "width_no_accuracy.csv"))
    rows = text.splitlines()
    hdr = rows[0].split(",")
    e = hdr.index("energy_mj")
    out = [rows[0]]
    for r in rows[1:]:
        f = r.split(",")
        if f[hdr.index("op")] == "TOTAL":
            f[e] = "1e21"
        out.append(",".join(f))
    write(os.path.join(crashes, "energy-1e21-chart-scale.txt"), meta, "\n".join(out) + "\n")
    m2 = copy.deepcopy(meta)
    t = hdr.index("time_us")
    times = sorted({float(r.split(",")[t]) for r in rows[1:] if r.split(",")[hdr.index("op")] == "TOTAL"})
    m2["axes"].append({"key": "time_us", "type": "real", "unit": "us", "values": times})
    write(os.path.join(crashes, "time-us-as-axis.txt"), m2, text)
    m3 = copy.deepcopy(meta)
    extra = ["x%02d" % i for i in range(15)]
    m3["axes"] += [{"key": k, "type": "enum", "unit": "", "values": ["v"]} for k in extra]
    out = [",".join(hdr[:2] + extra + hdr[2:])]
    for r in rows[1:]:
        f = r.split(",")
        out.append(",".join(f[:2] + ["v"] * len(extra) + f[2:]))
    write(os.path.join(crashes, "sixteen-axes-totals-table.txt"), m3, "\n".join(out) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
