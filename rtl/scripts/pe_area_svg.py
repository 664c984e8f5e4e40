#!/usr/bin/env python3
"""pe_area_svg.py - draws the PE array's area curves (reports/rtl/pe_area.svg) from pe_area.csv and
the model figures that rtl_pe_area_check prints (reports/rtl/pe_run.txt, section "area check").

usage: pe_area_svg.py PE_AREA_CSV PE_RUN_TXT OUT_SVG
Left: PE area vs L (G 32), synthesis (ge.lib GE x 0.798 um2) and the cost model, log-log axes.
Right: exponent-unit area vs G (one PE served) and the units' share of a per-PE array (L 8)."""
import csv
import math
import sys

NM2 = 0.798
rows = list(csv.DictReader(open(sys.argv[1])))
model = {}
for line in open(sys.argv[2]):
    p = line.split()
    if len(p) >= 9 and p[0] in ("pe", "exp"):
        model[(p[0], p[1], p[2], p[3])] = float(p[7])

pe = sorted((int(r["lanes"]), float(r["ge_nand2"]) * NM2, model.get(("pe", r["lanes"], r["group"], "1")))
            for r in rows if r["block"] == "pe" and r["group"] == "32")
eu = sorted((int(r["group"]), float(r["ge_nand2"]) * NM2, model.get(("exp", r["lanes"], r["group"], "1")))
            for r in rows if r["block"] == "exp" and r["nsh"] == "1")
pe8 = {int(r["group"]): float(r["ge_nand2"]) * NM2 for r in rows if r["block"] == "pe" and r["lanes"] == "8"}

W, H, PW, PH, M = 1010, 380, 360, 260, 60
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       '<rect width="100%" height="100%" fill="white"/>']


def panel(x0, title, xs, series, xlabel, ylabel, ylog, y2=None):
    y0 = 40
    xv = [math.log2(x) for x in xs]
    ys = [v for _, pts, _ in series for v in pts if v]
    lo, hi = (math.log10(min(ys) * 0.8), math.log10(max(ys) * 1.25)) if ylog else (0, max(ys) * 1.3)
    fx = lambda v: x0 + (v - xv[0]) / ((xv[-1] - xv[0]) or 1) * PW
    fy = lambda v: y0 + PH - ((math.log10(v) if ylog else v) - lo) / (hi - lo) * PH
    out.append(f'<text x="{x0 + PW / 2}" y="20" text-anchor="middle" font-weight="bold">{title}</text>')
    out.append(f'<rect x="{x0}" y="{y0}" width="{PW}" height="{PH}" fill="none" stroke="#444"/>')
    for x, v in zip(xs, xv):
        out.append(f'<text x="{fx(v)}" y="{y0 + PH + 16}" text-anchor="middle">{x}</text>')
    ticks = [10 ** e * m for e in range(2, 6) for m in (1, 2, 5)] if ylog else list(range(0, int(hi) + 1, 1000))
    for t in ticks:
        if ylog and not lo <= math.log10(t) <= hi:
            continue
        out.append(f'<line x1="{x0}" x2="{x0 + PW}" y1="{fy(t):.1f}" y2="{fy(t):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{x0 - 4}" y="{fy(t) + 4:.1f}" text-anchor="end">{t:,.0f}</text>')
    out.append(f'<text x="{x0 + PW / 2}" y="{y0 + PH + 34}" text-anchor="middle">{xlabel}</text>')
    out.append(f'<text x="{x0 - 48}" y="{y0 + PH / 2}" text-anchor="middle" transform="rotate(-90 {x0 - 48} {y0 + PH / 2})">{ylabel}</text>')
    for k, (name, pts, col) in enumerate(series):
        p = " ".join(f"{fx(v):.1f},{fy(y):.1f}" for v, y in zip(xv, pts) if y)
        out.append(f'<polyline points="{p}" fill="none" stroke="{col}" stroke-width="2"/>')
        for v, y in zip(xv, pts):
            if y:
                out.append(f'<circle cx="{fx(v):.1f}" cy="{fy(y):.1f}" r="3" fill="{col}"/>')
        out.append(f'<text x="{x0 + 10}" y="{y0 + 16 + 15 * k}" fill="{col}">{name}</text>')
    if y2:
        name, pts, col = y2
        f2 = lambda s: y0 + PH - s / 100 * PH
        p = " ".join(f"{fx(v):.1f},{f2(s):.1f}" for v, s in zip(xv, pts))
        out.append(f'<polyline points="{p}" fill="none" stroke="{col}" stroke-width="2" stroke-dasharray="5,3"/>')
        for t in (0, 25, 50, 75, 100):
            out.append(f'<text x="{x0 + PW + 4}" y="{f2(t) + 4:.1f}">{t} %</text>')
        out.append(f'<text x="{x0 + 10}" y="{y0 + 16 + 15 * 2}" fill="{col}">{name} (right axis)</text>')


panel(M + 20, "PE area vs lanes L (G 32)", [l for l, _, _ in pe],
      [("synthesis, yosys + ge.lib", [s for _, s, _ in pe], "#1f77b4"),
       ("cost model", [m for _, _, m in pe], "#d62728")], "L", "um2 (45 nm)", True)
panel(M + 20 + PW + 110, "exponent unit vs G (one PE served)", [g for g, _, _ in eu],
      [("synthesis, yosys + ge.lib", [s for _, s, _ in eu], "#1f77b4"),
       ("cost model", [m for _, _, m in eu], "#d62728")], "G", "um2 (45 nm)", False,
      ("units' share of a per-PE array, L 8", [100 * s / (s + pe8[g]) for g, s, _ in eu], "#2ca02c"))
out.append("</svg>")
open(sys.argv[3], "w").write("\n".join(out) + "\n")
