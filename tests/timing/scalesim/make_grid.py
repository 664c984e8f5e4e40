#!/usr/bin/env python3
"""make_grid.py - runs a real SCALE-Sim over the parity grid and writes grid.csv.

The grid (tests/timing/scalesim/README.md): SCALE-Sim v2's shipped configs (scale.cfg,
google.cfg, eyeriss.cfg) and small-SRAM configs, each with every dataflow (os/ws/is), in CALC
bandwidth mode, plus USER-bandwidth configs; over our own GEMM and conv topologies (stride > 1,
output sizes where SCALE-Sim's ceil formula differs from the floor one).  Every config actually
run is written to configs/grid/ and every topology to topologies/, so the committed files are
exactly SCALE-Sim's inputs; grid.csv holds SCALE-Sim's COMPUTE_REPORT.csv "Total Cycles" and
"Stall Cycles" per layer.  --set shipped runs v2's shipped configs on v2's shipped topologies
(copied verbatim to topologies/shipped/), --set v3 SCALE-Sim v3 on its scale.cfg; grid.csv is
the concatenation of the sets (README.md).

Usage: make_grid.py --python /work/venv-ss2/bin/python [--set calc|user|extra|shipped|all] [--out CSV]
                    [--repo SCALE-SIM-V2-CHECKOUT]   (--set shipped)
       make_grid.py --python /work/venv-ss3/bin/python --set v3 --repo SCALE-SIM-V3-CHECKOUT
This script is ours; it runs SCALE-Sim as a program and parses its report (no SCALE-Sim code).
"""
import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# name -> (rows, cols, ifmap KiB, filter KiB, ofmap KiB, bandwidth mode, bandwidth words/cycle)
# scale/google/eyeriss: the values of SCALE-Sim v2's shipped configs/ (see configs/v2/).
BASES = {
    "scale":   (32, 32, 64, 64, 64, "CALC", 10),
    "google":  (256, 256, 6144, 6144, 2048, "CALC", 10),
    "eyeriss": (12, 14, 36, 36, 36, "CALC", 10),
    # SRAMs far smaller than the operands
    "small8":  (8, 8, 1, 1, 1, "CALC", 10),
    "small16x12": (16, 12, 2, 1, 1, "CALC", 10),
}
# USER bandwidth mode: SCALE-Sim's stalls (exact parity as well)
USER = {
    "user32bw10": (32, 32, 64, 64, 64, "USER", 10),
    "user16bw4":  (16, 16, 8, 8, 8, "USER", 4),
}

# --set extra: non-square arrays, odd SRAM sizes and bandwidths, both modes, on a second set of
# layers (grid2_*.csv)
EXTRA = {
    "x12x20u3": (12, 20, 6, 4, 3, "USER", 3),
    "x24x8u7":  (24, 8, 4, 8, 2, "USER", 7),
    "x20x20c":  (20, 20, 2, 3, 1, "CALC", 10),
}
GEMM2 = [("h70x45x130", 70, 45, 130), ("h33x90x61", 33, 90, 61), ("h128x20x200", 128, 20, 200),
         ("h9x150x40", 9, 150, 40)]
CONV2 = [("d19f3s2", 19, 19, 3, 3, 8, 12, 2),       # 9 both ways
         ("d23x17f5x3s3", 23, 17, 5, 3, 6, 10, 3),  # 7 x 6 (SCALE-Sim) vs 7 x 5
         ("d14f1s1", 14, 14, 1, 1, 40, 24, 1),
         ("d30f7s4", 30, 30, 7, 7, 3, 8, 4)]        # 7 vs 6

GEMM = [  # name, M, N, K
    ("g64x32x100", 64, 32, 100),
    ("g100x70x50", 100, 70, 50),
    ("g37x129x300", 37, 129, 300),
    ("g256x64x512", 256, 64, 512),
    ("g16x300x24", 16, 300, 24),
    ("g200x200x200", 200, 200, 200),
]
CONV = [  # name, H, W, Fh, Fw, C, filters, stride
    ("c28s1", 28, 28, 3, 3, 16, 32, 1),
    ("c32f5s2", 32, 32, 5, 5, 3, 16, 2),     # (32-5) % 2 != 0: ceil 15 vs floor 14
    ("c26f3s3", 26, 26, 3, 3, 8, 16, 3),     # 9 vs 8
    ("c56f1s2", 56, 56, 1, 1, 32, 64, 2),    # 28 both
    ("c33f11s4", 33, 33, 11, 11, 3, 16, 4),  # 7 vs 6
    ("c20x14f3x5s2", 20, 14, 3, 5, 12, 20, 2),  # 9x5 both
]
DATAFLOWS = ["os", "ws", "is"]

# SCALE-Sim v2's shipped configs on its shipped topologies, both verbatim (--set shipped; the
# topologies are copied from a scale-sim-v2 checkout given by --repo into topologies/shipped/).
# SCALE-Sim steps about 5,000 cycles per second here, so the pairs are those of at most about a
# million cycles (mxsim's totals: e.g. Resnet18 on eyeriss.cfg would be 12 M).
SHIPPED = {
    "v2/google.cfg": ["conv_nets/test.csv", "GEMM_mnk/test_mnk_input.csv", "GEMM_mnk/NCF.csv",
                      "GEMM_mnk/transformer_partial.csv", "conv_nets/alexnet.csv", "conv_nets/Resnet18.csv"],
    "v2/eyeriss.cfg": ["conv_nets/test.csv", "GEMM_mnk/test_mnk_input.csv"],
    "v2/scale.cfg": ["conv_nets/test.csv", "GEMM_mnk/test_mnk_input.csv", "conv_nets/alexnet.csv"],
}


# SCALE-Sim v3 (--set v3, --python of a venv with scalesim 3.0.0) on its own shipped scale.cfg
# (32x32 WS, 64 KiB, CALC): its "Total Cycles" column.  v3 requires a layout file per topology
# even without a custom layout; the shipped ones are copied from a scale-sim-v3 checkout (--repo).
V3 = {"v3/scale.cfg": ["conv_nets/test.csv", "conv_nets/alexnet.csv"]}


def run_v3(py, repo):
    rows = []
    sdir = os.path.join(HERE, "topologies", "shipped")
    os.makedirs(os.path.join(sdir, "v3layouts"), exist_ok=True)
    for cfg, topos in V3.items():
        for t in topos:
            name = os.path.basename(t)
            topo = os.path.join(sdir, name)
            shutil.copyfile(os.path.join(repo, "topologies", t), topo)
            lay = os.path.join(sdir, "v3layouts", name)
            shutil.copyfile(os.path.join(repo, "layouts", t), lay)
            tmp = tempfile.mkdtemp(prefix="ssgrid3")
            try:
                subprocess.run([py, "-m", "scalesim.scale", "-c", os.path.join(HERE, "configs", cfg), "-t", topo,
                                "-l", lay, "-p", tmp, "-s", "N"], check=True, stdout=subprocess.DEVNULL, cwd=tmp)
                runs = os.listdir(tmp)
                with open(os.path.join(tmp, runs[0], "COMPUTE_REPORT.csv")) as fh:
                    rep = list(csv.reader(fh))
            finally:
                shutil.rmtree(tmp)
            col = [c.strip() for c in rep[0]].index("Total Cycles")
            stall = [c.strip() for c in rep[0]].index("Stall Cycles")
            for r, l in zip([r for r in rep[1:] if r], layer_names(topo)):
                rows.append((cfg, "shipped/" + name, int(r[0]), l, "CALC", int(r[col]), int(r[stall])))
            print("%s %s: %s" % (cfg, name, " ".join(str(r[5]) for r in rows[-len(layer_names(topo)):])), flush=True)
    return rows


# SCALE-Sim 3.0.0 under USER bandwidth (--set v3user, --python of a venv with scalesim 3.0.0):
# v3's shipped scale.cfg (configs/v3/scale.cfg) with InterfaceBandwidth USER and the listed lines
# changed, on small layers of our own (v3 needs a layout file; with the custom layouts off it reads
# only its header).  Where 3.0.0 counts its USER stalls differently from 2.0.2 (architecture.md
# section 8).  name: (replacements of lines of v3's scale.cfg, dataflows)
V3USER_GEMM = [("g256x64x512", 256, 64, 512), ("g139x17x96", 139, 17, 96), ("g64x48x100", 64, 48, 100)]
V3USER_CONV = [("c7x12", 7, 12, 5, 3, 12, 20, 2), ("c20x16", 20, 16, 3, 3, 8, 24, 1)]
V3USER = {
    "scale_user": ({}, ["os", "ws", "is"]),
    "small_user4": ({"ArrayHeight:    32": "ArrayHeight:    12", "ArrayWidth:     32": "ArrayWidth:     20",
                     "IfmapSramSzkB:   64": "IfmapSramSzkB:   1", "FilterSramSzkB:  64": "FilterSramSzkB:  4",
                     "OfmapSramSzkB:   64": "OfmapSramSzkB:   4", "Bandwidth : 10": "Bandwidth : 4",
                     "IfmapSRAMBankBandwidth: 10": "IfmapSRAMBankBandwidth: 4", "IfmapSRAMBankNum: 10": "IfmapSRAMBankNum: 2",
                     "FilterSRAMBankBandwidth: 10": "FilterSRAMBankBandwidth: 4", "FilterSRAMBankNum: 10": "FilterSRAMBankNum: 4"},
                    ["os", "ws"]),  # is: 3.0.0 stepped its 256x64x512 at ~12 rows/s (over an hour)
}


def run_v3user(py):
    rows = []
    base = open(os.path.join(HERE, "configs", "v3", "scale.cfg")).read()
    cdir = os.path.join(HERE, "configs", "v3user")
    tdir = os.path.join(HERE, "topologies")
    os.makedirs(cdir, exist_ok=True)
    lay = os.path.join(tdir, "v3user_layout.csv")
    with open(lay, "w") as fh:
        fh.write("Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\n")
    topos = {"gemm": os.path.join(tdir, "v3user_gemm.csv"), "conv": os.path.join(tdir, "v3user_conv.csv")}
    with open(topos["gemm"], "w") as fh:
        fh.write("Layer, M, N, K,\n" + "".join("%s, %d, %d, %d,\n" % g for g in V3USER_GEMM))
    with open(topos["conv"], "w") as fh:
        fh.write("Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\n")
        fh.write("".join("%s, %d, %d, %d, %d, %d, %d, %d,\n" % c for c in V3USER_CONV))
    for name, (rep, dfs) in V3USER.items():
        for df in dfs:
            text = base.replace("InterfaceBandwidth: CALC", "InterfaceBandwidth: USER").replace("Dataflow : ws", "Dataflow : " + df)
            for a, b in rep.items():
                assert a in text, a
                text = text.replace(a, b)
            cname = "v3user/%s_%s.cfg" % (name, df)
            with open(os.path.join(HERE, "configs", cname), "w") as fh:
                fh.write(text)
            for kind, topo in topos.items():
                tmp = tempfile.mkdtemp(prefix="ssgrid3u")
                try:
                    subprocess.run([py, "-m", "scalesim.scale", "-c", os.path.join(HERE, "configs", cname), "-t", topo,
                                    "-l", lay, "-p", tmp, "-i", kind], check=True, stdout=subprocess.DEVNULL, cwd=tmp)
                    runs = os.listdir(tmp)
                    with open(os.path.join(tmp, runs[0], "COMPUTE_REPORT.csv")) as fh:
                        rep_rows = list(csv.reader(fh))
                finally:
                    shutil.rmtree(tmp)
                head = [c.strip() for c in rep_rows[0]]
                col, stall = head.index("Total Cycles"), head.index("Stall Cycles")
                for r, l in zip([r for r in rep_rows[1:] if r], layer_names(topo)):
                    rows.append((cname, os.path.basename(topo), int(r[0]), l, "USER", int(r[col]), int(r[stall])))
                print("%s %s: %s" % (cname, os.path.basename(topo), " ".join(str(r[5]) for r in rows[-len(layer_names(topo)):])),
                      flush=True)
    return rows


def layer_names(path):
    """First column of every data row, as SCALE-Sim reads it (header skipped, blank rows too),
    blanks turned into '_' as mxsim names its ops."""
    with open(path) as fh:
        rows = [r.strip() for r in fh][1:]
    return ["_".join(r.split(",")[0].split()) for r in rows if r]


def run_shipped(py, repo, out):
    """Writes each topology's rows to `out` as soon as SCALE-Sim has run it."""
    rows = []
    with open(out, "w") as fh:
        fh.write("config,topology,layer_id,layer,bw_mode,total_cycles,stall_cycles\n")
    sdir = os.path.join(HERE, "topologies", "shipped")
    os.makedirs(sdir, exist_ok=True)
    for cfg, topos in SHIPPED.items():
        for t in topos:
            name = os.path.basename(t)
            dst = os.path.join(sdir, name)
            shutil.copyfile(os.path.join(repo, "topologies", t), dst)
            kind = "gemm" if t.startswith("GEMM") else "conv"
            names = layer_names(dst)
            res = run_one(py, os.path.join(HERE, "configs", cfg), dst, kind)
            assert len(res) == len(names), (cfg, t, res)
            for (lid, tot, stall), l in zip(res, names):
                rows.append((cfg, "shipped/" + name, lid, l, "CALC", tot, stall))
            with open(out, "a") as fh:
                for r in rows[-len(res):]:
                    fh.write("%s,%s,%d,%s,%s,%d,%d\n" % r)
            print("%s %s: %s" % (cfg, name, " ".join(str(r[1]) for r in res)), flush=True)
    return rows


def cfg_text(name, df, p):
    r, c, i, f, o, mode, bw = p
    return ("[general]\nrun_name = %s_%s\n\n[architecture_presets]\nArrayHeight:    %d\nArrayWidth:     %d\n"
            "IfmapSramSzkB:    %d\nFilterSramSzkB:   %d\nOfmapSramSzkB:    %d\nIfmapOffset:    0\n"
            "FilterOffset:   10000000\nOfmapOffset:    20000000\nDataflow : %s\nBandwidth : %d\n"
            "MemoryBanks: 1\n\n[run_presets]\nInterfaceBandwidth: %s\n" % (name, df, r, c, i, f, o, df, bw, mode))


def write_topologies(gemm_layers, conv_layers, prefix="grid"):
    tdir = os.path.join(HERE, "topologies")
    os.makedirs(tdir, exist_ok=True)
    with open(os.path.join(tdir, prefix + "_gemm.csv"), "w") as fh:
        fh.write("Layer, M, N, K,\n")
        for l in gemm_layers:
            fh.write("%s, %d, %d, %d,\n" % l)
    with open(os.path.join(tdir, prefix + "_conv.csv"), "w") as fh:
        fh.write("Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\n")
        for l in conv_layers:
            fh.write("%s, %d, %d, %d, %d, %d, %d, %d,\n" % l)


def run_one(py, cfg_path, topo, kind):
    tmp = tempfile.mkdtemp(prefix="ssgrid")
    try:
        cmd = [py, "-m", "scalesim.scale", "-c", cfg_path, "-t", topo, "-p", tmp, "-i", kind]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=tmp)
        runs = os.listdir(tmp)
        assert len(runs) == 1, runs
        with open(os.path.join(tmp, runs[0], "COMPUTE_REPORT.csv")) as fh:
            rows = list(csv.reader(fh))
        return [(int(r[0]), int(r[1]), int(r[2])) for r in rows[1:] if r]
    finally:
        shutil.rmtree(tmp)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", required=True, help="python of the venv holding scalesim")
    ap.add_argument("--out", default=os.path.join(HERE, "grid.csv"))
    ap.add_argument("--set", choices=["calc", "user", "extra", "shipped", "v3", "v3user", "all"], default="all")
    ap.add_argument("--repo", help="scale-sim-v2 (--set shipped) or -v3 (--set v3) checkout")
    args = ap.parse_args()
    if args.set == "shipped":
        print("%d rows -> %s" % (len(run_shipped(args.python, args.repo, args.out)), args.out))
        return 0
    if args.set in ("v3", "v3user"):
        out_rows = run_v3(args.python, args.repo) if args.set == "v3" else run_v3user(args.python)
        with open(args.out, "w") as fh:
            fh.write("config,topology,layer_id,layer,bw_mode,total_cycles,stall_cycles\n")
            for r in out_rows:
                fh.write("%s,%s,%d,%s,%s,%d,%d\n" % r)
        print("%d rows -> %s" % (len(out_rows), args.out))
        return 0
    write_topologies(GEMM, CONV)
    write_topologies(GEMM2, CONV2, "grid2")
    gdir = os.path.join(HERE, "configs", "grid")
    os.makedirs(gdir, exist_ok=True)
    bases = {}
    if args.set in ("calc", "all"):
        bases.update(BASES)
    if args.set in ("user", "all"):
        bases.update(USER)
    if args.set in ("extra", "all"):
        bases.update(EXTRA)
    ver = subprocess.run([args.python, "-c", "import importlib.metadata as m; print(m.version('scalesim'))"],
                         check=True, capture_output=True, text=True).stdout.strip()
    out_rows = []
    for name, p in bases.items():
        for df in DATAFLOWS:
            cname = "%s_%s.cfg" % (name, df)
            cpath = os.path.join(gdir, cname)
            with open(cpath, "w") as fh:
                fh.write(cfg_text(name, df, p))
            pre, g, c = ("grid2", GEMM2, CONV2) if name in EXTRA else ("grid", GEMM, CONV)
            for kind, topo, layers in (("gemm", pre + "_gemm.csv", g), ("conv", pre + "_conv.csv", c)):
                res = run_one(args.python, cpath, os.path.join(HERE, "topologies", topo), kind)
                assert len(res) == len(layers), (cname, topo, res)
                for (lid, tot, stall), l in zip(res, layers):
                    out_rows.append((cname, topo, lid, l[0], p[5], tot, stall))
                print("%s %s: %s" % (cname, topo, " ".join(str(r[1]) for r in res)), flush=True)
    with open(args.out, "w") as fh:
        fh.write("# SCALE-Sim %s COMPUTE_REPORT.csv per layer; written by make_grid.py\n" % ver)
        fh.write("config,topology,layer_id,layer,bw_mode,total_cycles,stall_cycles\n")
        for r in out_rows:
            fh.write("%s,%s,%d,%s,%s,%d,%d\n" % r)
    print("%d rows -> %s" % (len(out_rows), args.out))


if __name__ == "__main__":
    sys.exit(main())
