#!/usr/bin/env python3
"""pe_area_svg.py - draws the PE array's area curves (reports/rtl/pe_area.svg) from pe_area.csv and
the model figures rtl_pe_area_check prints (reports/rtl/pe_area_check.txt).

usage: pe_area_svg.py PE_AREA_CSV PE_AREA_CHECK_TXT OUT_SVG
Four panels, um2 at 45 nm: synthesis with yosys + ge.lib (GE x 0.798 um2), the same blocks mapped to
OSU 0.18 um (chip area / 24 um2 = GE, x 0.798 um2), and the cost model (mxsim_cost_blocks: nominal
line, low..high band shaded).  (a) PE vs L at G 32, log-log; (b) PE vs G at L 8; (c) exponent unit
vs G serving one PE, and serving 8; (d) the exponent units' share of the array's area vs G: a unit
per PE (L 8) and a unit per row of an 8 x 8 array (8 units of 8 PEs, L 8)."""
import csv
import math
import sys

NM2 = 0.798
rows = list(csv.DictReader(open(sys.argv[1])))
model = {}
for line in open(sys.argv[2]):
    p = line.split()
    if len(p) >= 11 and p[0] in ("pe", "exp"):
        syn, nom, lo, hi = float(p[6]), float(p[7]), float(p[9]), float(p[10])
        model[(p[0], int(p[1]), int(p[2]), int(p[3]))] = (nom, lo * syn, hi * syn)


def synth(blk, l, g, n):
    for r in rows:
        if r["block"] == blk and int(r["lanes"]) == l and int(r["group"]) == g and int(r["nsh"]) == n:
            osu = float(r["osu018_ge"]) * NM2 if r.get("osu018_ge") else None
            return float(r["ge_nand2"]) * NM2, osu
    return None, None


def curve(blk, pts):
    """pts: [(x, l, g, n)] -> dict of series lists"""
    s = {"ge": [], "osu": [], "nom": [], "lo": [], "hi": []}
    for _, l, g, n in pts:
        ge, osu = synth(blk, l, g, n)
        m = model.get((blk, l, g, n), (None, None, None))
        for k, v in zip(("ge", "osu", "nom", "lo", "hi"), (ge, osu) + m):
            s[k].append(v)
    return s


PW, PH = 380, 250
GAP = 160 # below a panel: its axis label and legend
W, H = 2 * PW + 230, 2 * (PH + GAP) + 20
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       '<rect width="100%" height="100%" fill="white"/>']
COL = {"ge": "#1f77b4", "osu": "#2ca02c", "nom": "#d62728"}
NAME = {"ge": "synthesis, yosys + ge.lib", "osu": "synthesis, OSU018 cells", "nom": "cost model"}


def panel(x0, y0, title, xs, series, xlabel, ylabel, ylog, pct=False):
    xv = [math.log2(x) for x in xs]
    vals = [v for ser in series for k in ("ge", "osu", "nom", "lo", "hi") for v in ser[1].get(k, []) if v]
    lo, hi = (math.log10(min(vals) * 0.8), math.log10(max(vals) * 1.25)) if ylog else (0, max(vals) * 1.15)
    fx = lambda v: x0 + (v - xv[0]) / ((xv[-1] - xv[0]) or 1) * PW
    fy = lambda v: y0 + PH - ((math.log10(v) if ylog else v) - lo) / (hi - lo) * PH
    out.append(f'<text x="{x0 + PW / 2}" y="{y0 - 12}" text-anchor="middle" font-weight="bold">{title}</text>')
    out.append(f'<rect x="{x0}" y="{y0}" width="{PW}" height="{PH}" fill="none" stroke="#444"/>')
    for x, v in zip(xs, xv):
        out.append(f'<text x="{fx(v):.1f}" y="{y0 + PH + 16}" text-anchor="middle">{x}</text>')
    if ylog:
        ticks = [10 ** e * m for e in range(2, 6) for m in (1, 2, 5)]
    else:
        step = 10 ** math.floor(math.log10(hi / 4))
        step *= 2 if hi / step > 8 else 1
        ticks = [k * step for k in range(0, int(hi / step) + 1)]
    for t in ticks:
        if ylog and not lo <= math.log10(t) <= hi:
            continue
        out.append(f'<line x1="{x0}" x2="{x0 + PW}" y1="{fy(t):.1f}" y2="{fy(t):.1f}" stroke="#e4e4e4"/>')
        lab = f"{t:.0f} %" if pct else f"{t:,.0f}"
        out.append(f'<text x="{x0 - 4}" y="{fy(t) + 4:.1f}" text-anchor="end">{lab}</text>')
    out.append(f'<text x="{x0 + PW / 2}" y="{y0 + PH + 34}" text-anchor="middle">{xlabel}</text>')
    out.append(f'<text x="{x0 - 52}" y="{y0 + PH / 2}" text-anchor="middle" '
               f'transform="rotate(-90 {x0 - 52} {y0 + PH / 2})">{ylabel}</text>')
    k = 0
    for label, ser, dash in series:
        band = bool(ser.get("lo")) and all(ser["lo"]) and all(ser["hi"])
        if band:
            poly = [(fx(v), fy(y)) for v, y in zip(xv, ser["lo"])] + \
                   [(fx(v), fy(y)) for v, y in reversed(list(zip(xv, ser["hi"])))]
            out.append('<polygon points="' + " ".join(f"{a:.1f},{b:.1f}" for a, b in poly) +
                       '" fill="#d62728" fill-opacity="0.10" stroke="none"/>')
        for key in ("ge", "osu", "nom"):
            ys = ser.get(key, [])
            if not ys or not any(ys):
                continue
            pts = [(fx(v), fy(y)) for v, y in zip(xv, ys) if y]
            da = ' stroke-dasharray="6,3"' if dash else ""
            out.append('<polyline points="' + " ".join(f"{a:.1f},{b:.1f}" for a, b in pts) +
                       f'" fill="none" stroke="{COL[key]}" stroke-width="2"{da}/>')
            for a, b in pts:
                out.append(f'<circle cx="{a:.1f}" cy="{b:.1f}" r="3" fill="{COL[key]}"/>')
            ly = y0 + PH + 52 + 14 * k
            out.append(f'<line x1="{x0}" x2="{x0 + 24}" y1="{ly - 4}" y2="{ly - 4}" stroke="{COL[key]}" '
                       f'stroke-width="2"{da}/>')
            extra = " (low..high band shaded)" if key == "nom" and band else ""
            out.append(f'<text x="{x0 + 30}" y="{ly}" fill="{COL[key]}">{NAME[key]}{label}{extra}</text>')
            k += 1


Ls = [1, 2, 4, 8, 16, 32]
Gs = [8, 16, 32, 64]
pe_l = curve("pe", [(l, l, 32, 1) for l in Ls])
pe_g = curve("pe", [(g, 8, g, 1) for g in Gs])
eu1 = curve("exp", [(g, 1, g, 1) for g in Gs])
eu8 = curve("exp", [(g, 1, g, 8) for g in Gs])


def share(pe, eu, n_pe, n_eu, key):
    res = []
    for p, e in zip(pe[key], eu[key]):
        res.append(100 * n_eu * e / (n_pe * p + n_eu * e) if p and e else None)
    return res


sh_pe = {k: share(pe_g, eu1, 1, 1, k) for k in ("ge", "osu", "nom")}
sh_row = {k: share(pe_g, eu8, 64, 8, k) for k in ("ge", "osu", "nom")}
X0, Y0 = 90, 40
panel(X0, Y0, "(a) PE vs lanes L (G 32)", Ls, [("", pe_l, False)], "L", "um2 (45 nm)", True)
panel(X0 + PW + 130, Y0, "(b) PE vs group size G (L 8)", Gs, [("", pe_g, False)], "G", "um2 (45 nm)", False)
panel(X0, Y0 + PH + GAP, "(c) exponent unit vs G: 1 PE (solid), 8 PEs (dashed)", Gs,
      [("", eu1, False), (", 8 PEs", eu8, True)], "G", "um2 (45 nm)", False)
panel(X0 + PW + 130, Y0 + PH + GAP, "(d) units' share of the array vs G (L 8)", Gs,
      [(", unit per PE", sh_pe, False), (", per row, 8 x 8", sh_row, True)], "G", "share of PE + unit area", False,
      pct=True)
out.append("</svg>")
open(sys.argv[3], "w").write("\n".join(out) + "\n")
