/* chart.h - the report's chart kit: line charts with low/high error bars, horizontal stacked bars
** and a Pareto scatter coloured by a third value, each as a standalone SVG plus the CSV of what
** it plots.
**
** Every chart is laid out before it is drawn: the layout (mx_chart_layout) lists every text box
** (title, axis titles, tick labels, legend entries, point labels, notes) with its bounding box
** from a conservative font-metric estimate (MX_CHART_EM_W em per character of a sans-serif
** face), so tests can check that nothing leaves the canvas or overlaps without a renderer.
** Conventions, as an architecture paper's reviewer expects them:
**  - numeric axes: "nice" ticks at integer multiples of 1, 2 or 5 x 10^k (Heckbert, "Nice numbers
**    for graph labels", Graphics Gems, 1990), the axis range widened to the outer ticks; a log
**    axis when the values are positive and span more than two decades (ticks at 1, 2, 5 x 10^k
**    over up to three decades, else at powers of ten); a linear axis over large or small values
**    shows a power of ten in its title ("cycles (x10^6)") rather than long labels;
**  - a discrete axis (the swept values of a line chart's x axis, the design points of a bar
**    chart) puts its ticks at the given values, thinned when labels would collide;
**  - colours: the Okabe-Ito colour-blind-safe palette (M. Okabe and K. Ito, "Color Universal
**    Design", 2008; B. Wong, Nature Methods 8:441, 2011), and a distinct marker per series;
**    continuous colour: viridis (S. van der Walt and N. Smith, matplotlib, 2015);
**  - legends sit outside the plot area, on the right; the canvas grows to hold them.
*/
#ifndef MX_CHART_H
#define MX_CHART_H

#include "output/textbuf.h"

#define MX_CHART_FONT_PX 12.0 /* tick labels, legend, axis titles */
#define MX_CHART_TITLE_PX 14.0
#define MX_CHART_EM_W 0.62 /* estimated advance per character, em (sans-serif digits ~0.56) */
#define MX_CHART_LINE_H 1.25 /* box height per line, em */
#define MX_CHART_MAX_TICKS 64
#define MX_CHART_MAX_LEGEND 40 /* legend entries shown; beyond: "+N more (see the CSV)" */

typedef enum {
    MX_BOX_TITLE,
    MX_BOX_AXIS_TITLE,
    MX_BOX_TICK_X,
    MX_BOX_TICK_Y,
    MX_BOX_LEGEND,
    MX_BOX_LABEL,
    MX_BOX_NOTE
} mx_box_kind;

typedef struct {
    double x, y, w, h; /* top-left corner and size, px */
    mx_box_kind kind;
    char text[96];     /* the text (truncated copy, for tests and messages) */
} mx_box;

typedef struct {
    int log, discrete; /* discrete: ticks at given values (line x: the values; bars: bar index) */
    int categorical;   /* discrete and named, not placed by value (bars; an enum axis): no scale */
    int n_ticks;
    double lo, hi;     /* the axis range in data units */
    double tick[MX_CHART_MAX_TICKS];
    int exp10;         /* labels show value / 10^exp10 (linear axes; 0 otherwise) */
} mx_axis;

typedef struct {
    double w, h;               /* canvas, px */
    double px0, py0, px1, py1; /* plot area: left, top, right, bottom */
    mx_axis ax[2];             /* 0: x, 1: y */
    mx_box *box;
    int n_box, cap_box;
    int n_omitted;             /* point labels left out for lack of room */
    int oom;
} mx_chart_layout;

MX_INTERNAL void mx_chart_layout_free(mx_chart_layout *L);

/* Nice ticks over [lo, hi] (lo <= hi, finite; log: lo > 0): fills a (range and ticks). */
MX_INTERNAL void mx_chart_nice_axis(double lo, double hi, int log, mx_axis *a);

/* One series of a line chart: y[i] at the chart's x[i] (NaN: no point); lo/hi (or NULL) the band. */
typedef struct {
    const char *label;
    const double *y, *lo, *hi;
} mx_chart_series;

typedef struct {
    const char *title, *x_title, *y_title, *legend_title, *note; /* note, legend_title: may be NULL */
    int n_x;                     /* discrete x positions */
    const double *x;             /* their values (increasing) */
    const char *const *x_label;  /* their labels */
    int n_series;
    const mx_chart_series *series;
    const char *x_col, *series_col, *y_col, *lo_col, *hi_col; /* CSV column names */
    int dodge; /* offset series sideways a few px (always with a band): coinciding series stay visible */
    int x_categorical; /* the x values are names placed in order (an enum axis), not numbers */
} mx_line_chart;

typedef struct {
    const char *title, *x_title, *y_title, *legend_title, *note;
    int n_bars, n_parts;
    const char *const *bar_label;
    const char *const *part_label;
    const double *v; /* v[bar * n_parts + part] >= 0 (NaN: 0) */
    int last_is_other; /* the last part sums the rest: drawn grey */
    const char *bar_col, *part_col, *v_col;
    const int *part_hue; /* per part: its index in the chart family's component list (NULL: p) */
} mx_bar_chart;

typedef struct {
    const char *title, *x_title, *y_title, *c_title, *note;
    int n;
    const double *x, *y, *c; /* c: colour value (NaN: grey) */
    const int *front;        /* 1: on the Pareto front */
    const char *const *label; /* shown beside front points where room allows */
    const char *label_col, *x_col, *y_col, *c_col;
} mx_scatter_chart;

/* Each writes the SVG (one <svg> element, no scripts, nothing fetched) to svg, the CSV of the
** plotted values to csv, and the layout to L (freed by mx_chart_layout_free).  Allocation failure
** is sticky in the buffers and L->oom. */
MX_INTERNAL void mx_chart_lines(const mx_line_chart *c, mx_buf *svg, mx_buf *csv, mx_chart_layout *L);
MX_INTERNAL void mx_chart_bars(const mx_bar_chart *c, mx_buf *svg, mx_buf *csv, mx_chart_layout *L);
MX_INTERNAL void mx_chart_scatter(const mx_scatter_chart *c, mx_buf *svg, mx_buf *csv, mx_chart_layout *L);

#endif
