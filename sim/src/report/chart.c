/* chart.c - the report's chart kit (chart.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart.h"
#include "report/grow.h"

/* Okabe & Ito (2008), ordered for contrast on white; yellow last. */
static const char *const k_okabe_ito[8] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                           "#E69F00", "#56B4E9", "#000000", "#F0E442"};
/* Stacked parts: Okabe-Ito, then four of Paul Tol's "muted" scheme (Tol, "Colour Schemes", SRON
** technical note, 2021) far from them, so that the 11 cost components have a colour each. */
#define N_HUES 12
static const char *const k_hue[N_HUES] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
                                          "#000000", "#F0E442", "#882255", "#332288", "#999933", "#661100"};
#define N_MARKERS 7
#define PLOT_W 460.0
#define PLOT_H 280.0
#define PAD 10.0      /* canvas edge */
#define GAP 8.0       /* between a label and what it labels */
#define ROW_H 18.0    /* legend entry, bar pitch */
#define BAR_H 12.0

/* ---- text and boxes -------------------------------------------------------------------- */

static size_t n_chars(const char *s) /* UTF-8 code points */
{
    size_t n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static double text_w(const char *s, double fs) { return (double)n_chars(s) * MX_CHART_EM_W * fs; }
static double line_h(double fs) { return MX_CHART_LINE_H * fs; }

static void add_box(mx_chart_layout *L, mx_box_kind k, double x, double y, double w, double h, const char *s)
{
    mx_box *nb = mx_grow(L->box, &L->cap_box, L->n_box, sizeof *nb);
    if (nb == NULL) {
        L->oom = 1;
        return;
    }
    L->box = nb;
    mx_box *b = &L->box[L->n_box++];
    *b = (mx_box){x, y, w, h, k, ""};
    size_t n = strlen(s) < sizeof b->text ? strlen(s) : sizeof b->text - 1;
    memcpy(b->text, s, n);
    b->text[n] = '\0';
}

void mx_chart_layout_free(mx_chart_layout *L)
{
    free(L->box);
    memset(L, 0, sizeof *L);
}

/* A text centred vertically on y; anchor 's'tart, 'm'iddle or 'e'nd at x.  Records its box. */
static void text_at(mx_chart_layout *L, mx_buf *b, mx_box_kind k, double x, double y, char anchor,
                    double fs, int bold, const char *s)
{
    double w = text_w(s, fs) * (bold ? 1.06 : 1.0), h = line_h(fs);
    double x0 = anchor == 's' ? x : anchor == 'm' ? x - w / 2 : x - w;
    add_box(L, k, x0, y - h / 2, w, h, s);
    mx_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%g\"%s text-anchor=\"%s\" dominant-baseline=\"central\">",
                  x, y, fs, bold ? " font-weight=\"bold\"" : "",
                  anchor == 's' ? "start" : anchor == 'm' ? "middle" : "end");
    mx_buf_html(b, s);
    mx_buf_puts(b, "</text>\n");
}

/* A text rotated by -90 degrees, centred on (x, y). */
static void text_up(mx_chart_layout *L, mx_buf *b, double x, double y, double fs, const char *s)
{
    double w = text_w(s, fs), h = line_h(fs);
    add_box(L, MX_BOX_AXIS_TITLE, x - h / 2, y - w / 2, h, w, s);
    mx_buf_printf(b, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" font-size=\"%g\" text-anchor=\"middle\" "
                     "dominant-baseline=\"central\">", x, y, fs);
    mx_buf_html(b, s);
    mx_buf_puts(b, "</text>\n");
}

/* ---- axes ------------------------------------------------------------------------------ */

/* The 1-2-5 value nearest to raw (Heckbert's nicenum, rounding): 4 to 8 ticks over a range / 5. */
static double nice_step(double raw)
{
    double e = floor(log10(raw)), f = raw / pow(10, e);
    return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * pow(10, e);
}

/* The 1-2-5 value at or below (dir -1) / at or above (dir +1) v > 0. */
static double snap125(double v, int dir)
{
    static const double m[3] = {1, 2, 5};
    double e = floor(log10(v)), best = dir < 0 ? 0 : INFINITY;
    for (int k = -1; k <= 1; k++)
        for (int i = 0; i < 3; i++) {
            double c = m[i] * pow(10, e + k);
            if (dir < 0 && c <= v * (1 + 1e-12) && c > best) best = c;
            if (dir > 0 && c >= v * (1 - 1e-12) && c < best) best = c;
        }
    return best;
}

void mx_chart_nice_axis(double lo, double hi, int log, mx_axis *a)
{
    memset(a, 0, sizeof *a);
    a->log = log;
    if (log) {
        double alo = snap125(lo, -1), ahi = snap125(hi, +1);
        if (ahi <= alo * 1.0001) { /* one value: the 1-2-5 values either side */
            alo = snap125(alo * 0.99, -1);
            ahi = snap125(ahi * 1.01, +1);
        }
        double dec = log10(ahi / alo);
        if (dec > 3) { /* powers of ten only, every k-th past 12 decades */
            alo = pow(10, floor(log10(alo) + 1e-9));
            ahi = pow(10, ceil(log10(ahi) - 1e-9));
            int e0 = (int)lround(log10(alo)), e1 = (int)lround(log10(ahi)), k = 1 + (e1 - e0) / 12;
            for (int e = e0; e <= e1 && a->n_ticks < MX_CHART_MAX_TICKS; e += k) a->tick[a->n_ticks++] = pow(10, e);
        } else {
            static const double m[3] = {1, 2, 5};
            for (int e = (int)floor(log10(alo)) - 1; e <= (int)ceil(log10(ahi)); e++)
                for (int i = 0; i < 3; i++) {
                    double t = m[i] * pow(10, e);
                    if (t >= alo * (1 - 1e-9) && t <= ahi * (1 + 1e-9) && a->n_ticks < MX_CHART_MAX_TICKS)
                        a->tick[a->n_ticks++] = t;
                }
        }
        a->lo = alo;
        a->hi = ahi;
        return;
    }
    if (!(hi > lo)) { /* one value: a band around it, relative so it survives any magnitude */
        double d = lo == 0 ? 1 : fabs(lo) * 0.1;
        lo -= d;
        hi += d;
    }
    double step = nice_step((hi - lo) / 5);
    double k0 = floor(lo / step + 1e-9), k1 = ceil(hi / step - 1e-9);
    a->lo = k0 * step;
    a->hi = k1 * step;
    for (double k = k0; k <= k1 && a->n_ticks < MX_CHART_MAX_TICKS; k++) a->tick[a->n_ticks++] = k * step;
    double M = fmax(fabs(a->lo), fabs(a->hi));
    if (M >= 1e5 || (M > 0 && M < 1e-2)) a->exp10 = 3 * (int)floor(log10(M) / 3);
}

/* Axis over the finite values of v[0..n) (and v2, v3 when non-NULL); log when allowed and the
** values are positive and span more than two decades.  0 when no value is finite. */
static int auto_axis(const double *v, const double *v2, const double *v3, int n, int allow_log, int from_zero,
                     mx_axis *a)
{
    double lo = INFINITY, hi = -INFINITY;
    const double *vs[3] = {v, v2, v3};
    for (int s = 0; s < 3; s++)
        for (int i = 0; vs[s] && i < n; i++)
            if (isfinite(vs[s][i])) {
                lo = fmin(lo, vs[s][i]);
                hi = fmax(hi, vs[s][i]);
            }
    if (!(lo <= hi)) return 0;
    int log = allow_log && lo > 0 && hi / lo > 100;
    if (!log && from_zero) lo = fmin(lo, 0);
    mx_chart_nice_axis(lo, hi, log, a);
    return 1;
}

static const char *const k_sup[10] = {"\u2070", "\u00b9", "\u00b2", "\u00b3", "\u2074",
                                      "\u2075", "\u2076", "\u2077", "\u2078", "\u2079"};

static void sup_int(char *out, size_t n, int e) /* e as superscript digits */
{
    char d[16];
    mx_snprintf(d, sizeof d, "%d", e);
    size_t k = strlen(out);
    for (const char *p = d; *p && k + 4 < n; p++) {
        const char *s = *p == '-' ? "\u207b" : k_sup[*p - '0'];
        size_t L = strlen(s);
        memcpy(out + k, s, L);
        k += L;
    }
    out[k] = '\0';
}

static void fmt_num(double v, char *out, size_t n)
{
    if (fabs(v) < 1e-12) v = 0; /* no "-0" nor rounding dust */
    mx_snprintf(out, n, "%.6g", v);
}

static void tick_label(const mx_axis *a, double v, char *out, size_t n)
{
    if (a->log && (v >= 1e5 || v < 1e-3)) {
        int e = (int)floor(log10(v) + 1e-9);
        double m = v / pow(10, e);
        out[0] = '\0';
        if (fabs(m - 1) > 1e-6) mx_snprintf(out, n, "%g\u00d7", m);
        mx_snprintf(out + strlen(out), n - strlen(out), "10");
        sup_int(out, n, e);
        return;
    }
    fmt_num(a->exp10 ? v / pow(10, a->exp10) : v, out, n);
}

/* "cycles" -> "cycles (x10^6)" when the axis scales its labels, "..., log scale" when it is
** logarithmic (equal spacing is otherwise read as equal steps), "..., linear scale" for a linear
** axis placed by value, continuous or the swept values of a line chart (so that neither is left to
** guess); nothing for named positions (bars, an enum axis). */
static void axis_title(const mx_axis *a, const char *title, char *out, size_t n)
{
    mx_snprintf(out, n, "%s", title);
    if (a->exp10) {
        mx_snprintf(out + strlen(out), n - strlen(out), " (\u00d710");
        sup_int(out, n, a->exp10);
        mx_snprintf(out + strlen(out), n - strlen(out), ")");
    }
    if (a->log) mx_snprintf(out + strlen(out), n - strlen(out), ", log scale");
    else if (!a->categorical) mx_snprintf(out + strlen(out), n - strlen(out), ", linear scale");
}

static double map_v(const mx_axis *a, double v, double p0, double p1)
{
    double t = a->log ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) : (v - a->lo) / (a->hi - a->lo);
    return p0 + t * (p1 - p0);
}

/* x position of a discrete axis' value i: values spread over the plot, log-spaced when the
** axis is log; 24 px of padding either side so end markers and offset error bars clear the frame. */
static double map_disc(const mx_axis *a, const double *x, int n, int i, double p0, double p1)
{
    if (n <= 1 || !(a->hi > a->lo)) return (p0 + p1) / 2;
    return map_v(a, x[i], p0 + 24, p1 - 24);
}

static double max_label_w(const mx_axis *a, double fs)
{
    double w = 0;
    char s[64];
    for (int i = 0; i < a->n_ticks; i++) {
        tick_label(a, a->tick[i], s, sizeof s);
        w = fmax(w, text_w(s, fs));
    }
    return w;
}

static void svg_open(mx_buf *b, const mx_chart_layout *L)
{
    mx_buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                     "font-family=\"Helvetica, Arial, 'DejaVu Sans', sans-serif\">\n"
                     "<rect width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", L->w, L->h, L->w, L->h, L->w, L->h);
}

/* The frame of a plot: grid at the y ticks (and x ticks when numeric), axis lines, tick marks
** and labels, axis titles.  xs, ys: pixel positions of a discrete axis' ticks (NULL: numeric). */
static void draw_axes(mx_chart_layout *L, mx_buf *b, const char *x_title, const char *y_title,
                      const double *xs, const char *const *xlab, const double *ys, const char *const *ylab)
{
    double fs = MX_CHART_FONT_PX, lh = line_h(fs);
    char s[160];
    const mx_axis *ax = &L->ax[0], *ay = &L->ax[1];
    /* y ticks */
    for (int i = 0; i < ay->n_ticks; i++) {
        double y = ys ? ys[i] : map_v(ay, ay->tick[i], L->py1, L->py0);
        if (!ys)
            mx_buf_printf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n", L->px0, L->px1, y, y);
        mx_buf_printf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#222\"/>\n", L->px0 - 5, L->px0, y, y);
        if (ylab) mx_snprintf(s, sizeof s, "%s", ylab[i]);
        else tick_label(ay, ay->tick[i], s, sizeof s);
        text_at(L, b, MX_BOX_TICK_Y, L->px0 - GAP, y, 'e', fs, 0, s);
    }
    /* x ticks: labels thinned (every k-th) until no two collide */
    int k = 1;
    for (; k < ax->n_ticks; k++) {
        double prev_r = -INFINITY;
        int ok = 1;
        for (int i = 0; i < ax->n_ticks && ok; i += k) {
            double x = xs ? xs[i] : map_v(ax, ax->tick[i], L->px0, L->px1);
            if (xlab) mx_snprintf(s, sizeof s, "%s", xlab[i]);
            else tick_label(ax, ax->tick[i], s, sizeof s);
            double w = text_w(s, fs);
            ok = x - w / 2 > prev_r + 4;
            prev_r = x + w / 2;
        }
        if (ok) break;
    }
    for (int i = 0; i < ax->n_ticks; i++) {
        double x = xs ? xs[i] : map_v(ax, ax->tick[i], L->px0, L->px1);
        if (!xs) mx_buf_printf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n", x, x, L->py0, L->py1);
        mx_buf_printf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#222\"/>\n", x, x, L->py1, L->py1 + 5);
        if (i % k) continue;
        if (xlab) mx_snprintf(s, sizeof s, "%s", xlab[i]);
        else tick_label(ax, ax->tick[i], s, sizeof s);
        text_at(L, b, MX_BOX_TICK_X, x, L->py1 + GAP + lh / 2, 'm', fs, 0, s);
    }
    mx_buf_printf(b, "<path d=\"M%.1f %.1fV%.1fH%.1f\" fill=\"none\" stroke=\"#222\"/>\n", L->px0, L->py0, L->py1, L->px1);
    axis_title(ax, x_title, s, sizeof s);
    text_at(L, b, MX_BOX_AXIS_TITLE, (L->px0 + L->px1) / 2, L->py1 + GAP + lh + 6 + lh / 2, 'm', fs, 0, s);
    axis_title(ay, y_title, s, sizeof s);
    text_up(L, b, PAD + lh / 2, (L->py0 + L->py1) / 2, fs, s);
}

/* Left edge of the plot: room for the rotated y title and the widest y label. */
static double plot_left(double label_w) { return PAD + line_h(MX_CHART_FONT_PX) + GAP + label_w + GAP; }
static double plot_top(void) { return PAD + line_h(MX_CHART_TITLE_PX) + 14; }
/* Bottom of the x title below a plot ending at py1. */
static double below_axes(double py1) { return py1 + GAP + 2 * line_h(MX_CHART_FONT_PX) + 6; }

static void marker(mx_buf *b, int shape, double x, double y, double r, const char *fill, const char *stroke)
{
    char st[64] = "";
    if (stroke) mx_snprintf(st, sizeof st, " stroke=\"%s\" stroke-width=\"1.2\"", stroke);
    switch (shape % N_MARKERS) {
    case 0: mx_buf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"%s/>\n", x, y, r, fill, st); return;
    case 1: mx_buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"%s/>\n", x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7, fill, st); return;
    case 2: mx_buf_printf(b, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"%s/>\n", x, y - r * 1.15, x + r, y + r * 0.7, x - r, y + r * 0.7, fill, st); return;
    case 3: mx_buf_printf(b, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"%s/>\n", x, y - r * 1.2, x + r, y, x, y + r * 1.2, x - r, y, fill, st); return;
    case 4: mx_buf_printf(b, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"%s/>\n", x, y + r * 1.15, x + r, y - r * 0.7, x - r, y - r * 0.7, fill, st); return;
    case 5: /* x */
        mx_buf_printf(b, "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n", x - r, y - r, x + r, y + r, x - r, y + r, x + r, y - r, fill);
        return;
    default: /* + */
        mx_buf_printf(b, "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n", x - r * 1.2, y, x + r * 1.2, y, x, y - r * 1.2, x, y + r * 1.2, fill);
        return;
    }
}

/* Legend entries from (x, y): title (optional) then one row per label; kind 0: line + marker,
** 1: filled square.  Returns the bottom edge; *w gets its width. */
static double legend(mx_chart_layout *L, mx_buf *b, double x, double y, const char *title, int n,
                     const char *const *label, int kind, int last_grey, const char *(*colour)(const void *, int),
                     const void *cc, double *w)
{
    double fs = MX_CHART_FONT_PX;
    *w = 0;
    if (title) {
        text_at(L, b, MX_BOX_LEGEND, x, y + ROW_H / 2, 's', fs, 1, title);
        *w = text_w(title, fs) * 1.06;
        y += ROW_H;
    }
    int shown = n > MX_CHART_MAX_LEGEND ? MX_CHART_MAX_LEGEND - 1 : n;
    for (int i = 0; i < shown; i++) {
        const char *c = colour ? colour(cc, i) : last_grey && i == n - 1 ? "#999999" : k_okabe_ito[i % 8];
        double cy = y + ROW_H / 2;
        if (kind == 0) {
            mx_buf_printf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.8\"/>\n", x, x + 22, cy, cy, c);
            marker(b, i, x + 11, cy, 4, c, NULL);
        } else {
            mx_buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"12\" fill=\"%s\"/>\n", x + 4, cy - 6, c);
        }
        text_at(L, b, MX_BOX_LEGEND, x + 28, cy, 's', fs, 0, label[i]);
        *w = fmax(*w, 28 + text_w(label[i], fs));
        y += ROW_H;
    }
    if (shown < n) {
        char s[64];
        mx_snprintf(s, sizeof s, "+%d more (see the CSV)", n - shown);
        text_at(L, b, MX_BOX_LEGEND, x, y + ROW_H / 2, 's', fs, 0, s);
        *w = fmax(*w, text_w(s, fs));
        y += ROW_H;
    }
    return y;
}

/* Canvas size from the parts' extents; the SVG is written into a side buffer first and spliced
** after the opening tag, which needs the final size. */
static void finish(mx_chart_layout *L, mx_buf *out, mx_buf *body, double right, double bottom)
{
    /* a text centred on the plot but wider than it (a long axis title) may start left of or above
    ** the canvas: everything is then shifted right/down so that every box stays inside */
    double min_x = 0, min_y = 0;
    for (int i = 0; i < L->n_box; i++) {
        min_x = fmin(min_x, L->box[i].x);
        min_y = fmin(min_y, L->box[i].y);
    }
    double dx = min_x < 0 ? ceil(PAD - min_x) : 0, dy = min_y < 0 ? ceil(PAD - min_y) : 0;
    for (int i = 0; i < L->n_box; i++) {
        L->box[i].x += dx;
        L->box[i].y += dy;
    }
    L->w = ceil(right + dx + PAD);
    L->h = ceil(bottom + dy + PAD);
    for (int i = 0; i < L->n_box; i++) { /* a title or note may be wider than the plot */
        L->w = fmax(L->w, ceil(L->box[i].x + L->box[i].w + PAD));
        L->h = fmax(L->h, ceil(L->box[i].y + L->box[i].h + PAD));
    }
    svg_open(out, L);
    if (dx > 0 || dy > 0) mx_buf_printf(out, "<g transform=\"translate(%.0f,%.0f)\">\n", dx, dy);
    mx_buf_put(out, body->p ? body->p : "", body->n);
    if (dx > 0 || dy > 0) mx_buf_puts(out, "</g>\n");
    mx_buf_puts(out, "</svg>\n");
    if (body->oom) out->oom = 1;
    mx_buf_free(body);
}

static double title_and_note(mx_chart_layout *L, mx_buf *b, const char *title, const char *note, double y_note)
{
    text_at(L, b, MX_BOX_TITLE, PAD, PAD + line_h(MX_CHART_TITLE_PX) / 2, 's', MX_CHART_TITLE_PX, 1, title);
    if (!note || !note[0]) return y_note;
    text_at(L, b, MX_BOX_NOTE, PAD, y_note + line_h(MX_CHART_FONT_PX) / 2, 's', MX_CHART_FONT_PX, 0, note);
    return y_note + line_h(MX_CHART_FONT_PX);
}

static void no_data(mx_chart_layout *L, mx_buf *svg, const char *title, const char *why)
{
    mx_buf body = {0};
    double y = title_and_note(L, &body, title, why, plot_top());
    finish(L, svg, &body, 0, y);
}

static void csv_row(mx_buf *csv, int n, const char *const *f)
{
    for (int i = 0; i < n; i++) {
        if (i) mx_buf_puts(csv, ",");
        mx_buf_csv_field(csv, f[i]);
    }
    mx_buf_puts(csv, "\r\n");
}

static const char *real_str(double v, char *buf, size_t n) { return mx_fmt_real(v, buf, n); }

/* ---- line chart ------------------------------------------------------------------------- */

void mx_chart_lines(const mx_line_chart *c, mx_buf *svg, mx_buf *csv, mx_chart_layout *L)
{
    memset(L, 0, sizeof *L);
    /* the CSV: one row per series and x */
    const char *hdr[5] = {c->series_col, c->x_col, c->y_col, c->lo_col, c->hi_col};
    int band = c->n_series > 0 && c->series[0].lo && c->series[0].hi;
    csv_row(csv, band ? 5 : 3, hdr);
    for (int s = 0; s < c->n_series; s++)
        for (int i = 0; i < c->n_x; i++) {
            char b1[40], b2[40], b3[40];
            const mx_chart_series *se = &c->series[s];
            const char *f[5] = {se->label, c->x_label[i], real_str(se->y[i], b1, sizeof b1),
                                band ? real_str(se->lo[i], b2, sizeof b2) : "", band ? real_str(se->hi[i], b3, sizeof b3) : ""};
            csv_row(csv, band ? 5 : 3, f);
        }
    /* y axis over every value and band edge */
    mx_axis ay;
    double lo = INFINITY, hi = -INFINITY;
    for (int s = 0; s < c->n_series; s++) {
        const mx_chart_series *se = &c->series[s];
        for (int i = 0; i < c->n_x; i++) {
            const double v[3] = {se->y[i], band ? se->lo[i] : NAN, band ? se->hi[i] : NAN};
            for (int k = 0; k < 3; k++)
                if (isfinite(v[k])) {
                    lo = fmin(lo, v[k]);
                    hi = fmax(hi, v[k]);
                }
        }
    }
    if (!(lo <= hi) || c->n_x == 0) {
        no_data(L, svg, c->title, "no finite values to plot (see the CSV)");
        return;
    }
    const double ends[2] = {lo, hi};
    auto_axis(ends, NULL, NULL, 2, 1, 0, &ay);
    /* x: discrete positions, log-spaced when positive and spanning a factor 8 or more */
    mx_axis *ax = &L->ax[0];
    ax->discrete = 1;
    ax->categorical = c->x_categorical;
    ax->lo = c->x[0];
    ax->hi = c->x[c->n_x - 1];
    ax->log = !ax->categorical && ax->lo > 0 && ax->hi / ax->lo >= 8;
    int every = 1 + (c->n_x - 1) / MX_CHART_MAX_TICKS; /* past 64 values, every k-th is a tick */
    ax->n_ticks = (c->n_x + every - 1) / every;
    for (int t = 0; t < ax->n_ticks; t++) ax->tick[t] = c->x[t * every];
    L->ax[1] = ay;
    L->px0 = plot_left(max_label_w(&ay, MX_CHART_FONT_PX));
    L->py0 = plot_top();
    L->px1 = L->px0 + PLOT_W;
    L->py1 = L->py0 + fmax(PLOT_H, text_w(c->y_title, MX_CHART_FONT_PX) + 40);
    double *xs = malloc((size_t)c->n_x * sizeof *xs), txs[MX_CHART_MAX_TICKS];
    const char *tlab[MX_CHART_MAX_TICKS];
    if (xs == NULL) {
        L->oom = 1;
        return;
    }
    for (int i = 0; i < c->n_x; i++) xs[i] = map_disc(ax, c->x, c->n_x, i, L->px0, L->px1);
    for (int t = 0; t < ax->n_ticks; t++) txs[t] = xs[t * every], tlab[t] = c->x_label[t * every];
    mx_buf body = {0};
    draw_axes(L, &body, c->x_title, c->y_title, txs, tlab, NULL, NULL);
    /* error bars (the band), then lines, then markers on top; with a band, series are offset
    ** sideways a few pixels so that their bars do not hide one another */
    double step = (band || c->dodge) && c->n_series > 1 ? fmin(6, 36.0 / c->n_series) : 0;
    for (int pass = 0; pass < 3; pass++)
        for (int s = 0; s < c->n_series; s++) {
            const mx_chart_series *se = &c->series[s];
            const char *col = k_okabe_ito[s % 8];
            double dx = (s - (c->n_series - 1) / 2.0) * step;
            if (pass == 0 && band) {
                mx_buf_printf(&body, "<path stroke=\"%s\" stroke-width=\"1.2\" fill=\"none\" d=\"", col);
                for (int i = 0; i < c->n_x; i++) {
                    if (!isfinite(se->lo[i]) || !isfinite(se->hi[i])) continue;
                    double x = xs[i] + dx, y0 = map_v(&ay, se->lo[i], L->py1, L->py0), y1 = map_v(&ay, se->hi[i], L->py1, L->py0);
                    mx_buf_printf(&body, "M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f", x, y0, y1, x - 3, y0, x + 3, x - 3, y1, x + 3);
                }
                mx_buf_puts(&body, "\"/>\n");
            } else if (pass == 1) {
                mx_buf_printf(&body, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" d=\"", col);
                for (int i = 0; i < c->n_x; i++)
                    if (isfinite(se->y[i]))
                        mx_buf_printf(&body, "%c%.1f %.1f", i == 0 || !isfinite(se->y[i - 1]) ? 'M' : 'L', xs[i] + dx,
                                      map_v(&ay, se->y[i], L->py1, L->py0));
                mx_buf_puts(&body, "\"/>\n");
            } else if (pass == 2) {
                for (int i = 0; i < c->n_x; i++)
                    if (isfinite(se->y[i])) marker(&body, s, xs[i] + dx, map_v(&ay, se->y[i], L->py1, L->py0), 4, col, "white");
            }
        }
    /* legend right of the plot, clear of the last x label */
    double last_half = 0;
    for (int i = 0; i < L->n_box; i++)
        if (L->box[i].kind == MX_BOX_TICK_X) last_half = fmax(last_half, L->box[i].x + L->box[i].w - L->px1);
    double lx = L->px1 + fmax(20, last_half + 12), lw = 0, ly = L->py0;
    const char **labels = malloc((size_t)(c->n_series ? c->n_series : 1) * sizeof *labels);
    if (labels == NULL) L->oom = 1;
    else {
        for (int s = 0; s < c->n_series; s++) labels[s] = c->series[s].label;
        ly = legend(L, &body, lx, L->py0, c->legend_title, c->n_series, labels, 0, 0, NULL, NULL, &lw);
        free(labels);
    }
    free(xs);
    double y = title_and_note(L, &body, c->title, c->note, below_axes(L->py1));
    finish(L, svg, &body, lx + lw, fmax(y, ly));
}

/* ---- stacked horizontal bars ---------------------------------------------------------- */

/* a part's colour follows its hue index (the same component, the same colour in every chart) */
static const char *part_colour(const void *cv, int p)
{
    const mx_bar_chart *c = cv;
    if (c->last_is_other && p == c->n_parts - 1) return "#999999";
    return k_hue[(c->part_hue ? c->part_hue[p] : p) % N_HUES];
}

void mx_chart_bars(const mx_bar_chart *c, mx_buf *svg, mx_buf *csv, mx_chart_layout *L)
{
    memset(L, 0, sizeof *L);
    const char *hdr[3] = {c->bar_col, c->part_col, c->v_col};
    csv_row(csv, 3, hdr);
    double *tot = calloc((size_t)(c->n_bars ? c->n_bars : 1), sizeof *tot);
    if (tot == NULL) {
        L->oom = 1;
        return;
    }
    for (int i = 0; i < c->n_bars; i++)
        for (int p = 0; p < c->n_parts; p++) {
            double v = c->v[i * c->n_parts + p];
            char b1[40];
            const char *f[3] = {c->bar_label[i], c->part_label[p], real_str(v, b1, sizeof b1)};
            csv_row(csv, 3, f);
            if (isfinite(v) && v > 0) tot[i] += v;
        }
    mx_axis ax;
    if (!auto_axis(tot, NULL, NULL, c->n_bars, 0, 1, &ax) || c->n_parts == 0 || ax.hi <= 0) {
        free(tot);
        no_data(L, svg, c->title, "no data to plot (see the CSV)");
        return;
    }
    free(tot);
    L->ax[0] = ax;
    mx_axis *ay = &L->ax[1];
    ay->discrete = 1;
    ay->categorical = 1;
    double lw = 0;
    for (int i = 0; i < c->n_bars; i++) lw = fmax(lw, text_w(c->bar_label[i], MX_CHART_FONT_PX));
    L->px0 = plot_left(lw);
    L->py0 = plot_top();
    L->px1 = L->px0 + PLOT_W;
    double ph = fmax(c->n_bars * ROW_H + 8, text_w(c->y_title, MX_CHART_FONT_PX) + 20);
    L->py1 = L->py0 + ph;
    double pitch = (ph - 8) / (c->n_bars ? c->n_bars : 1);
    /* the bars are the y ticks (tick[] = bar index); past the tick array every k-th is labelled */
    int label_every = 1 + (c->n_bars - 1) / MX_CHART_MAX_TICKS;
    ay->n_ticks = (c->n_bars + label_every - 1) / label_every;
    ay->lo = 0;
    ay->hi = c->n_bars;
    const char *ylab[MX_CHART_MAX_TICKS];
    double ys[MX_CHART_MAX_TICKS];
    for (int t = 0; t < ay->n_ticks; t++) {
        int i = t * label_every;
        ay->tick[t] = i;
        ys[t] = L->py0 + 4 + (i + 0.5) * pitch;
        ylab[t] = c->bar_label[i];
    }
    mx_buf body = {0};
    draw_axes(L, &body, c->x_title, c->y_title, NULL, NULL, ys, ylab);
    for (int i = 0; i < c->n_bars; i++) {
        double acc = 0, yc = L->py0 + 4 + (i + 0.5) * pitch, h = fmin(BAR_H, pitch * 0.75);
        for (int p = 0; p < c->n_parts; p++) {
            double v = c->v[i * c->n_parts + p];
            if (!(isfinite(v) && v > 0)) continue;
            double xa = map_v(&ax, acc, L->px0, L->px1), xb = map_v(&ax, acc + v, L->px0, L->px1);
            mx_buf_printf(&body, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"/>\n", xa,
                          yc - h / 2, xb - xa, h, part_colour(c, p));
            acc += v;
        }
    }
    double lw2, ly = legend(L, &body, L->px1 + 24, L->py0, c->legend_title, c->n_parts, c->part_label, 1, c->last_is_other,
                                 part_colour, c, &lw2);
    double y = title_and_note(L, &body, c->title, c->note, below_axes(L->py1));
    finish(L, svg, &body, L->px1 + 24 + lw2, fmax(y, ly));
}

/* ---- Pareto scatter -------------------------------------------------------------------- */

/* viridis at 9 evenly spaced stops (van der Walt & Smith, matplotlib _cm_listed.py). */
static void viridis(double t, char *out, size_t n)
{
    static const unsigned char s[9][3] = {{68, 1, 84},   {71, 44, 122}, {59, 81, 139},  {44, 113, 142}, {33, 144, 141},
                                          {39, 173, 129}, {92, 200, 99}, {170, 220, 50}, {253, 231, 37}};
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double f = t * 8;
    int i = f >= 8 ? 7 : (int)f;
    double u = f - i;
    int rgb[3];
    for (int k = 0; k < 3; k++) rgb[k] = (int)lround(s[i][k] + u * (s[i + 1][k] - s[i][k]));
    mx_snprintf(out, n, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

static int overlaps(const mx_box *a, double x, double y, double w, double h)
{
    return x < a->x + a->w && a->x < x + w && y < a->y + a->h && a->y < y + h;
}

void mx_chart_scatter(const mx_scatter_chart *c, mx_buf *svg, mx_buf *csv, mx_chart_layout *L)
{
    memset(L, 0, sizeof *L);
    const char *hdr[5] = {c->label_col, c->x_col, c->y_col, c->c_col, "pareto_front"};
    csv_row(csv, 5, hdr);
    for (int i = 0; i < c->n; i++) {
        char b1[40], b2[40], b3[40];
        const char *f[5] = {c->label[i], real_str(c->x[i], b1, sizeof b1), real_str(c->y[i], b2, sizeof b2),
                            real_str(c->c[i], b3, sizeof b3), c->front[i] ? "1" : "0"};
        csv_row(csv, 5, f);
    }
    mx_axis ax, ay, ac;
    if (!auto_axis(c->x, NULL, NULL, c->n, 1, 0, &ax) || !auto_axis(c->y, NULL, NULL, c->n, 1, 0, &ay)) {
        no_data(L, svg, c->title, "no data to plot (see the CSV)");
        return;
    }
    int has_c = auto_axis(c->c, NULL, NULL, c->n, 0, 0, &ac);
    L->ax[0] = ax;
    L->ax[1] = ay;
    L->px0 = plot_left(max_label_w(&ay, MX_CHART_FONT_PX));
    L->py0 = plot_top();
    L->px1 = L->px0 + PLOT_W;
    L->py1 = L->py0 + PLOT_H;
    mx_buf body = {0};
    draw_axes(L, &body, c->x_title, c->y_title, NULL, NULL, NULL, NULL);
    /* the front as a line in x order (points are given sorted by x, then y) */
    mx_buf_puts(&body, "<path fill=\"none\" stroke=\"#222\" stroke-width=\"1.2\" stroke-dasharray=\"5 3\" d=\"");
    for (int i = 0, first = 1; i < c->n; i++)
        if (c->front[i] && isfinite(c->x[i]) && isfinite(c->y[i])) {
            mx_buf_printf(&body, "%c%.1f %.1f", first ? 'M' : 'L', map_v(&ax, c->x[i], L->px0, L->px1),
                          map_v(&ay, c->y[i], L->py1, L->py0));
            first = 0;
        }
    mx_buf_puts(&body, "\"/>\n");
    int n_fin = 0;
    double *px = malloc((size_t)(c->n ? c->n : 1) * 2 * sizeof *px);
    if (px == NULL) {
        mx_buf_free(&body);
        L->oom = 1;
        return;
    }
    for (int pass = 0; pass < 2; pass++) /* dominated points first, the front on top */
        for (int i = 0; i < c->n; i++) {
            if (!(isfinite(c->x[i]) && isfinite(c->y[i])) || c->front[i] != pass) continue;
            double x = map_v(&ax, c->x[i], L->px0, L->px1), y = map_v(&ay, c->y[i], L->py1, L->py0);
            char col[16] = "#999999";
            if (has_c && isfinite(c->c[i])) viridis((c->c[i] - ac.lo) / (ac.hi - ac.lo), col, sizeof col);
            marker(&body, 0, x, y, pass ? 5.5 : 3.5, col, pass ? "#000" : NULL);
            px[2 * n_fin] = x;
            px[2 * n_fin + 1] = y;
            n_fin++;
        }
    /* labels of front points: right, left, above or below, where they fit in the plot and clear
    ** every marker and label placed so far; the rest are counted as omitted */
    double fs = MX_CHART_FONT_PX - 1, lh = line_h(fs);
    int first_label = L->n_box;
    for (int i = 0; i < c->n; i++) {
        if (!c->front[i] || !(isfinite(c->x[i]) && isfinite(c->y[i]))) continue;
        double x = map_v(&ax, c->x[i], L->px0, L->px1), y = map_v(&ay, c->y[i], L->py1, L->py0);
        double w = text_w(c->label[i], fs);
        int placed = 0;
        for (int ring = 0; ring < 2 && !placed; ring++) { /* beside the marker, then farther with a leader */
            double r = ring ? 24 : 7;
            const double cand[8][2] = {{x + r + 1, y - lh / 2}, {x - r - 1 - w, y - lh / 2}, {x - w / 2, y - r - lh},
                                       {x - w / 2, y + r},      {x + r, y - r - lh},        {x + r, y + r},
                                       {x - r - w, y - r - lh}, {x - r - w, y + r}};
            for (int k = 0; k < 8 && !placed; k++) {
                double bx = cand[k][0], by = cand[k][1];
                if (bx < L->px0 + 2 || bx + w > L->px1 - 2 || by < L->py0 + 2 || by + lh > L->py1 - 2) continue;
                int clash = 0;
                for (int q = first_label; q < L->n_box && !clash; q++) clash = overlaps(&L->box[q], bx, by, w, lh);
                for (int q = 0; q < n_fin && !clash; q++) {
                    mx_box m = {px[2 * q] - 6, px[2 * q + 1] - 6, 12, 12, MX_BOX_LABEL, ""};
                    clash = overlaps(&m, bx, by, w, lh);
                }
                if (clash) continue;
                if (ring) { /* leader from the marker's edge to the label's nearest point */
                    double tx = fmin(fmax(x, bx), bx + w), ty = fmin(fmax(y, by), by + lh), d = hypot(tx - x, ty - y);
                    mx_buf_printf(&body, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#666\" stroke-width=\"0.8\"/>\n",
                                  x + (tx - x) * 6 / d, y + (ty - y) * 6 / d, tx, ty);
                }
                text_at(L, &body, MX_BOX_LABEL, bx, by + lh / 2, 's', fs, 0, c->label[i]);
                placed = 1;
            }
        }
        L->n_omitted += !placed;
    }
    free(px);
    /* right column: legend, then the colour bar */
    double lx = L->px1 + 24, lw = 0, y = L->py0, cy;
    mx_buf_printf(&body, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5.5\" fill=\"#bbbbbb\" stroke=\"#000\" stroke-width=\"1.2\"/>\n"
                         "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#222\" stroke-dasharray=\"5 3\"/>\n",
                  lx + 11, y + ROW_H / 2, lx, lx + 22, y + ROW_H / 2, y + ROW_H / 2);
    text_at(L, &body, MX_BOX_LEGEND, lx + 28, y + ROW_H / 2, 's', MX_CHART_FONT_PX, 0, "Pareto front");
    mx_buf_printf(&body, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#bbbbbb\"/>\n", lx + 11, y + 1.5 * ROW_H);
    text_at(L, &body, MX_BOX_LEGEND, lx + 28, y + 1.5 * ROW_H, 's', MX_CHART_FONT_PX, 0, "dominated");
    lw = 28 + text_w("Pareto front", MX_CHART_FONT_PX);
    y += 2 * ROW_H + 12;
    text_at(L, &body, MX_BOX_LEGEND, lx, y + ROW_H / 2, 's', MX_CHART_FONT_PX, 1, c->c_title);
    lw = fmax(lw, text_w(c->c_title, MX_CHART_FONT_PX) * 1.06);
    y += ROW_H + line_h(MX_CHART_FONT_PX) / 2 + 2; /* the top tick label reaches above the bar */
    if (has_c) {
        double bh = fmin(160, L->py1 - y - 8);
        if (bh < 60) bh = 60;
        for (int k = 0; k < 32; k++) { /* bottom = low */
            char col[16];
            viridis((k + 0.5) / 32, col, sizeof col);
            mx_buf_printf(&body, "<rect x=\"%.1f\" y=\"%.2f\" width=\"14\" height=\"%.2f\" fill=\"%s\"/>\n", lx,
                          y + bh - (k + 1) * bh / 32, bh / 32 + 0.3, col);
        }
        mx_buf_printf(&body, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"%.1f\" fill=\"none\" stroke=\"#222\"/>\n", lx, y, bh);
        for (int t = 0; t < ac.n_ticks; t++) {
            char s[64];
            double ty = map_v(&ac, ac.tick[t], y + bh, y);
            tick_label(&ac, ac.tick[t], s, sizeof s);
            mx_buf_printf(&body, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#222\"/>\n", lx + 14, lx + 18, ty, ty);
            text_at(L, &body, MX_BOX_LEGEND, lx + 21, ty, 's', MX_CHART_FONT_PX, 0, s);
            lw = fmax(lw, 21 + text_w(s, MX_CHART_FONT_PX));
        }
        cy = y + bh + line_h(MX_CHART_FONT_PX) / 2;
    } else {
        text_at(L, &body, MX_BOX_LEGEND, lx, y + ROW_H / 2, 's', MX_CHART_FONT_PX, 0, "not measured (grey)");
        lw = fmax(lw, text_w("not measured (grey)", MX_CHART_FONT_PX));
        cy = y + ROW_H;
    }
    char note[256];
    mx_snprintf(note, sizeof note, "%s", c->note ? c->note : "");
    if (L->n_omitted)
        mx_snprintf(note + strlen(note), sizeof note - strlen(note), "%s%d front label%s left out for room (see the CSV).",
                 note[0] ? " " : "", L->n_omitted, L->n_omitted > 1 ? "s" : "");
    double yb = title_and_note(L, &body, c->title, note, below_axes(L->py1));
    finish(L, svg, &body, lx + lw, fmax(yb, cy));
}
