/* scalesim.c - SCALE-Sim compatibility mode (report.scalesim_compat; implied by a .cfg).
**
** Modelled (sim/doc/architecture.md section 8): SCALE-Sim v2's timing of one layer (Samajdar et
** al., "A Systematic Methodology for Characterizing Scalability of DNN Accelerators using
** SCALE-Sim", ISPASS 2020; github.com/scalesim-project/scale-sim-v2, PyPI scalesim 2.0.2):
**   - the array time does not depend on the SRAM sizes: the whole GEMM is one tile (no K split);
**   - CALC interface bandwidth never stalls and the first fill of the SRAMs is free;
**   - USER bandwidth: SCALE-Sim's double-buffered read buffers (residency tracked in sets of
**     1/100 of the buffer, refills of half a buffer back to back at the bandwidth) and its output
**     buffer (drained in lines of `bandwidth` words) are stepped demand row by demand row, in the
**     operand layouts of its compute/systolic_compute_*.py (written from their description, no
**     code copied), up to SS_MAX_VISITS buffer-column visits and SS_MAX_ELEMS operand elements
**     per op; mx_tscalesim_prepare refuses a larger op (MXSIM_E_LIMIT, suggesting CALC).  A
**     caller that skips prepare gets, above the limits, the closed-form estimate of
**     ss_user_estimate (2.0.2's: several percent off it, more under v3); mxsim_time_op calls prepare;
**   - the reported total is the index of the last cycle: one less than the cycle count;
**   - report.scalesim_version v3: SCALE-Sim 3.0.0's USER accounting, which differs from 2.0.2's in
**     three places (ss_read, ss_user_sim): a positive refill stall counts twice, an output row's
**     write stall is one cycle more, and the total is the latest row's write, not the last's.
** Ignored: nothing of SCALE-Sim v2's total; v3's layout, sparsity and Ramulator models are
** refused when switched on (tconfig.c).
** Invariant: total = array cycles - 1 + the stall above (which, as SCALE-Sim's, can be
** negative) + the last output row's write (ss_user_sim: SCALE-Sim's total ends when that row is
** written, its stall sum does not count the write; mxsim adds it to the fill/drain column);
** tests/timing/scalesim: 0 differences from SCALE-Sim in total and stall cycles on 267 CALC and
** 158 USER layer runs (25 of them SCALE-Sim 3.0.0's).
*/
#include <stdlib.h>
#include <string.h>

#include "tinternal.h"

void mx_tscalesim_tiling(const mx_tarch *a, const mx_top_resolved *op, mx_ttiling *t)
{
    *t = (mx_ttiling){op->m, op->n, op->k, 1, 1, 1};
    /* one tile: every tile class is that tile, run at the beat the controller picks for it */
    mx_tfold f;
    mx_tpe_tile(a, op->mx, op->g, op->m, op->n, op->k, &f);
    for (int cls = 0; cls < 8; cls++) t->tg[cls] = f.tg;
}

/* Latest stall of one operand's refill stream: U elements demanded `passes` times in order over
** the tc array cycles, an SRAM of s bytes (half active, half being refilled), bw whole bytes per
** cycle.  The first half is loaded before cycle 0; refill j (j >= 1) brings elements
** [h + (j-1) p, h + j p) of the demand stream and is complete at cycle j (ceil(p / bw) + 1) - 1,
** one request line per cycle plus the port's cycle of latency.  Demand is taken as uniform over the array time, so the
** lateness of refill j is linear in j: its maximum is at the first or the last refill. */
static int64_t stream_stall(int64_t u, int64_t passes, int64_t s, int64_t bw, int64_t tc)
{
    int64_t h = (s + 1) / 2, p = s - h, total = u * passes;
    if (u <= h || p <= 0 || tc <= 0) return 0;
    int64_t n = mx_t_ceil_div(total - h, p);
    int64_t lc = mx_t_ceil_div(p, bw) + 1;
    int64_t worst = 0;
    int64_t js[2] = {1, n};
    for (int i = 0; i < 2; i++) {
        int64_t j = js[i];
        int64_t ready = j * lc - 1;
        int64_t need = (int64_t)((double)(h + (j - 1) * p) / (double)total * (double)tc);
        worst = mx_t_max(worst, ready - need - 1);
    }
    return worst;
}

/* ---- USER bandwidth, simulated: SCALE-Sim's read and write buffers, line by line -------- */

/* The operands as SCALE-Sim lays them out (its compute/systolic_compute_*.py, read, not copied):
** per fold (column folds outer, row folds inner) each operand has a block of `h` rows of `w`
** columns, after `pre` empty rows, optionally flipped (last row first) and skewed (column c one
** row later than column c-1); one row of the skewed or plain block is one cycle.  The same
** operand's prefetch order is its fold blocks stacked, read row by row or (`roll`) along
** anti-diagonals.  Element ids: A(m,k) = m K + k, B(k,n) = k N + n, O(m,n) = m N + n; -1: none. */
typedef struct {
    int64_t M, N, K, R, C, df;
    int64_t H, W, Fw, Ch, Sh, Sw, Ew; /* conv layer (H = 0: a GEMM, A's addresses are its ids);
                                       ** Sh, Sw: row and column strides */
} ss_dims;

/* SCALE-Sim's address of A(m, k) of a conv layer (its compute/operand_matrix.py): output pixel
** m, window element k; -1 where the window overhangs the input (rule 4). */
static int64_t ss_conv_addr(const ss_dims *d, int64_t m, int64_t k)
{
    int64_t ir = m / d->Ew * d->Sh, ic = m % d->Ew * d->Sw;
    int64_t cr = k / (d->Fw * d->Ch), cc = k % (d->Fw * d->Ch) / d->Ch, ch = k % d->Ch;
    if (cr + ir >= d->H || cc + ic >= d->W) return -1;
    return ((cr + ir) * d->W + cc + ic) * d->Ch + ch;
}

enum { SS_A, SS_B, SS_O };

/* Element of operand `op` at row r, column c of the fold (fr, fc) demand block (r unflipped). */
static int64_t ss_elem(const ss_dims *d, int op, int64_t fr, int64_t fc, int64_t r, int64_t c)
{
    int64_t m = -1, n = -1, k = -1;
    if (d->df == MXSIM_DF_OS) {
        if (op == SS_A) m = fr * d->R + c, k = r;
        else if (op == SS_B) k = r, n = fc * d->C + c;
        else m = fr * d->R + r, n = fc * d->C + c;
    } else if (d->df == MXSIM_DF_WS) {
        if (op == SS_A) m = r, k = fr * d->R + c;
        else if (op == SS_B) k = fr * d->R + r, n = fc * d->C + c;
        else m = r, n = fc * d->C + c;
    } else {
        if (op == SS_A) m = fc * d->C + c, k = fr * d->R + r;
        else if (op == SS_B) k = fr * d->R + c, n = r;
        else m = fc * d->C + c, n = r;
    }
    if (op == SS_A) return m >= d->M || k >= d->K ? -1 : d->H ? ss_conv_addr(d, m, k) : m * d->K + k;
    if (op == SS_B) return k < d->K && n < d->N ? k * d->N + n : -1;
    return m < d->M && n < d->N ? m * d->N + n : -1;
}

/* Demand block shape of operand op: rows before the data, data rows, width, flip, skew. */
static void ss_block(const ss_dims *d, int op, int64_t *pre, int64_t *h, int64_t *w, int *flip, int *skew)
{
    const int64_t R = d->R, C = d->C;
    static const int fl[3][3] = {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}}; /* [df][op] */
    *flip = fl[d->df][op];
    *skew = !*flip || (d->df == MXSIM_DF_OS && op == SS_O);
    *w = (op == SS_A && d->df != MXSIM_DF_IS) || (op == SS_B && d->df == MXSIM_DF_IS) ? R : C;
    if (d->df == MXSIM_DF_OS) *pre = op == SS_O ? d->K - 1 : 0, *h = op == SS_O ? R : d->K;
    else if (d->df == MXSIM_DF_WS) *pre = op == SS_A ? R : op == SS_O ? 2 * R - 1 : 0, *h = op == SS_B ? R : d->M;
    else *pre = op == SS_B ? R : op == SS_O ? 2 * R - 1 : 0, *h = op == SS_A ? R : d->N;
}

/* One read buffer: for every address the sets (1/100 of the buffer each, in prefetch order)
** that hold it, and the resident window of sets [a0, a1) (circular). */
typedef struct {
    uint32_t *first; /* sets of address x: set[first[x] .. first[x + 1]), ascending (< 2^32
                     ** positions: SS_MAX_ELEMS) */
    int32_t *set;
    int64_t n_sets, n_act, n_pre, a0, a1, last, lc;
} ss_rbuf;

/* Address at position (y, c) of operand op's prefetch matrix: its fold blocks stacked. */
static int64_t ss_prefetch_at(const ss_dims *d, int op, int64_t bh, int64_t y, int64_t c)
{
    int64_t f = y / bh, t = y % bh;
    if (d->df == MXSIM_DF_OS) return op == SS_A ? ss_elem(d, op, f, 0, t, c) : ss_elem(d, op, 0, f, t, c);
    if (d->df == MXSIM_DF_WS) return op == SS_A ? ss_elem(d, op, f, 0, t, c) : ss_elem(d, op, t / d->R, f, t % d->R, c);
    return op == SS_A ? ss_elem(d, op, t / d->R, f, t % d->R, c) : ss_elem(d, op, f, 0, t, c);
}

static int ss_rbuf_init(const ss_dims *d, int op, int64_t size, int64_t bw, ss_rbuf *b)
{
    /* prefetch blocks: OS A per row fold (K x R), B per column fold (K x C); WS A per row fold
    ** (M x R), B per column fold (K x C); IS A per column fold (K x C), B per row fold (N x R);
    ** read along anti-diagonals except WS's B and IS's A */
    int by_row = (d->df != MXSIM_DF_IS && op == SS_A) || (d->df == MXSIM_DF_IS && op == SS_B);
    int roll = !((d->df == MXSIM_DF_WS && op == SS_B) || (d->df == MXSIM_DF_IS && op == SS_A));
    int64_t nf = d->df == MXSIM_DF_OS && op == SS_A ? mx_t_ceil_div(d->M, d->R)
                 : by_row ? mx_t_ceil_div(d->K, d->R)
                 : mx_t_ceil_div(d->df == MXSIM_DF_IS ? d->M : d->N, d->C);
    int64_t bh = d->df == MXSIM_DF_WS && op == SS_A ? d->M : d->df == MXSIM_DF_IS && op == SS_B ? d->N : d->K;
    int64_t bw_ = by_row ? d->R : d->C, rows = nf * bh;
    int64_t n_addr = op == SS_B ? d->K * d->N : d->H ? d->H * d->W * d->Ch : d->M * d->K;
    int64_t eps = mx_t_ceil_div(size, 100);
    b->first = calloc((size_t)n_addr + 1, sizeof *b->first);
    if (b->first == NULL) return -1;
    /* two passes over the prefetch order: count the positions of each address, then place
    ** their set indices (ascending, as positions come in prefetch order) */
    for (int pass = 0; pass < 2; pass++) {
        int64_t rank = 0;
        for (int64_t dg = 0; dg < (roll ? rows + bw_ - 1 : rows); dg++) {
            int64_t hi = roll ? mx_t_min(dg, rows - 1) : dg, lo = roll ? mx_t_max(0, dg - bw_ + 1) : dg;
            for (int64_t y = hi; y >= lo; y--)
                for (int64_t c = roll ? dg - y : 0; c < (roll ? dg - y + 1 : bw_); c++) {
                    int64_t e = ss_prefetch_at(d, op, bh, y, c);
                    if (e < 0) continue;
                    int32_t st = (int32_t)(rank++ / eps);
                    if (pass == 0) b->first[e + 1]++;
                    else b->set[b->first[e + 1]++] = st; /* first[e + 1]: e's fill cursor */
                }
        }
        if (pass == 0) {
            for (int64_t x = 0; x < n_addr; x++) b->first[x + 1] += b->first[x];
            b->set = malloc((size_t)mx_t_max(1, (int64_t)b->first[n_addr]) * sizeof *b->set);
            if (b->set == NULL) return -1;
            /* shift: first[x + 1] becomes x's cursor, starting at x's first slot */
            for (int64_t x = n_addr; x > 0; x--) b->first[x] = b->first[x - 1];
            b->first[0] = 0;
        } else {
            int64_t act = (size + 1) / 2, pf = size - act;
            b->n_sets = rank / eps + 1;
            b->n_act = mx_t_min(mx_t_ceil_div(act, eps), b->n_sets);
            b->n_pre = mx_t_min(mx_t_ceil_div(pf, eps), b->n_sets - b->n_act);
            b->lc = mx_t_ceil_div(pf, bw) + 1; /* one refill: a request line per cycle, +1 latency */
        }
    }
    b->a0 = 0, b->a1 = b->n_act;
    b->last = -1; /* the first active half arrives before cycle 0 */
    return 0;
}

/* Is one of the sets of address e resident?  After init, e's sets are set[first[e] ..
** first[e + 1]): each cursor stopped where the next address's slots begin. */
static int ss_hit(const ss_rbuf *b, int64_t e)
{
    const int32_t *lo = b->set + b->first[e], *hi = b->set + b->first[e + 1];
    if (lo == hi) return 1; /* never prefetched (cannot happen): no stall */
    /* the first set >= a0 */
    const int32_t *p = lo, *q = hi;
    while (p < q) {
        const int32_t *mid = p + (q - p) / 2;
        if (*mid < b->a0) p = mid + 1;
        else q = mid;
    }
    if (b->a0 < b->a1) return p < hi && *p < b->a1;
    return p < hi || *lo < b->a1;
}

/* Services one demand row of a read buffer at `cycle`; returns its stall (may be negative).  Each
** refill moves the row's offset by the refill's potential stall p = arrival - (cycle + offset):
** 2.0.2 adds p whatever its sign; 3.0.0 (memory/read_buffer.py, service_reads without a custom
** layout) adds it and then, when p > 0, adds it again. */
static int64_t ss_read(const ss_dims *d, ss_rbuf *b, int op, int64_t fr, int64_t fc, int64_t j, int64_t cycle, int v3)
{
    int64_t pre, h, w, off = 1;
    int flip, skew;
    ss_block(d, op, &pre, &h, &w, &flip, &skew);
    for (int64_t c = 0; c < w; c++) {
        int64_t r = j - pre - (skew ? c : 0);
        if (r < 0 || r >= h) continue;
        int64_t e = ss_elem(d, op, fr, fc, flip ? h - 1 - r : r, c);
        if (e < 0) continue;
        while (!ss_hit(b, e)) {
            if (b->n_pre == 0) break; /* cannot happen: every set is resident */
            b->a0 = (b->a0 + b->n_pre) % b->n_sets;
            b->a1 = (b->a0 + b->n_act) % b->n_sets;
            b->last += b->lc;
            const int64_t p = b->last - (cycle + off);
            off += p;
            if (v3 && p > 0) off += p;
        }
    }
    return off - 1;
}

/* The output buffer: elements are written into lines of bw; when more than the drain half is
** held and no drain is running, the held lines (the last one partial) are drained, one line per
** cycle, and their space is free at once; with the buffer full, writes wait for the drain. */
typedef struct {
    int64_t size, drain, bw, free, line, start, n, cap, end;
    int32_t *cnt;
} ss_wbuf;

static int ss_wpush(ss_wbuf *b, int64_t cnt)
{
    if (b->n == b->cap && b->start > 0 && b->start >= b->cap / 2) {
        /* drained lines are never read again: drop them, so that the memory follows the lines
        ** held (about size / bw), not every line the op writes */
        memmove(b->cnt, b->cnt + b->start, (size_t)(b->n - b->start) * sizeof *b->cnt);
        b->n -= b->start, b->start = 0;
    }
    if (b->n == b->cap) {
        int64_t cap = b->cap ? 2 * b->cap : 1024;
        int32_t *p = realloc(b->cnt, (size_t)cap * sizeof *p);
        if (p == NULL) return -1;
        b->cnt = p, b->cap = cap;
    }
    b->cnt[b->n++] = (int32_t)cnt;
    return 0;
}

static int64_t ss_write(const ss_dims *d, ss_wbuf *b, int64_t fr, int64_t fc, int64_t j, int64_t cycle, int *oom)
{
    int64_t pre, h, w, cur = cycle;
    int flip, skew;
    ss_block(d, SS_O, &pre, &h, &w, &flip, &skew);
    for (int64_t c = 0; c < w; c++) {
        int64_t r = j - pre - (skew ? c : 0);
        if (r < 0 || r >= h || ss_elem(d, SS_O, fr, fc, flip ? h - 1 - r : r, c) < 0) continue;
        b->free--;
        if (++b->line == b->bw) {
            if (ss_wpush(b, b->bw)) *oom = 1;
            b->line = 0;
        }
        if (cur < b->end) {
            if (b->free <= 0) cur = b->end;
        } else if (b->free < b->size - b->drain) {
            if (b->line > 0 && ss_wpush(b, b->line)) *oom = 1;
            b->line = 0;
            int64_t stop = mx_t_min(b->start + mx_t_ceil_div(b->drain, b->bw), b->n);
            int64_t lines = stop - b->start;
            if (lines > 0) {
                b->free += lines * b->bw - (b->bw - b->cnt[stop - 1]);
                b->end = cur + lines - 1;
            }
            b->start = stop;
        }
    }
    return cur - cycle - 1;
}

/* The stepping limits.  Its cost is about 4-8 ns per buffer-column visit (one demand row of
** R + 2C columns per array cycle): 2^32 visits take 20-40 s (a 256x256 array: 5.6 M array cycles;
** SCALE-Sim steps about 5,000 cycles per second, so such an op takes it hours).  Its memory is
** 8 bytes per operand element and input address (the sets of each): 2^26 of them, 512 MiB. */
#define SS_MAX_VISITS ((double)((int64_t)1 << 32))
#define SS_MAX_ELEMS ((double)((int64_t)1 << 26))

static void ss_folds(const ss_dims *d, int64_t *rf, int64_t *cf, int64_t *fl)
{
    *rf = mx_t_ceil_div(d->df == MXSIM_DF_OS ? d->M : d->K, d->R);
    *cf = mx_t_ceil_div(d->df == MXSIM_DF_IS ? d->M : d->N, d->C);
    *fl = d->df == MXSIM_DF_OS ? d->K + d->R + d->C - 2 : 2 * d->R + d->C + (d->df == MXSIM_DF_WS ? d->M : d->N) - 2;
}

/* The visits and the elements the stepping of d costs (doubles: they may pass 2^63). */
static void ss_cost(const ss_dims *d, double *visits, double *elems)
{
    int64_t rf, cf, fl;
    ss_folds(d, &rf, &cf, &fl);
    *visits = (double)rf * (double)cf * (double)fl * (double)(d->R + 2 * d->C);
    *elems = (double)d->M * (double)d->K + (double)d->K * (double)d->N +
             (d->H ? (double)d->H * (double)d->W * (double)d->Ch : 0);
}

/* SCALE-Sim's USER-mode stall, stepped over every demand row: its "Stall Cycles", the sum over
** every row of the row's worst stall (a read refill, or the output buffer's write delay), and
** *last_out, what its total adds beyond array cycles - 1 and that sum: its total is the cycle at
** which the last output row is written, the stalls of the rows before it plus that row's write
** delay + 1, where the sum has the last row's worst stall (9x10 IS, 3 KiB, 4 words/cycle, conv
** 19x40, 4x2 filter, 4 -> 32 channels, stride 2: total 5,308, stall 1,132, write 1).  The stall
** can be negative, as SCALE-Sim's is (151x104x78 on 25x28 OS, 5 KiB, 64 words/cycle: -3 in SCALE-Sim
** 2.0.2 and here; mxsim used to replace such values by the estimate, 0, 3 cycles above SCALE-Sim's
** total).  Returns 0 with *stall_out and *last_out set, -1 when the op is beyond the stepping
** limits, -2 when memory runs out. */
static int ss_user_sim(const ss_dims *d, int64_t sa, int64_t sb, int64_t so, int64_t bw, int v3, int64_t *stall_out,
                       int64_t *last_out)
{
    int64_t rf, cf, fl;
    double visits, elems;
    ss_folds(d, &rf, &cf, &fl);
    ss_cost(d, &visits, &elems);
    if (visits > SS_MAX_VISITS || elems > SS_MAX_ELEMS) return -1;
    ss_rbuf a = {0}, b = {0};
    ss_wbuf o = {so, so - (so + 1) / 2, bw, so, 0, 0, 0, 0, 0, NULL};
    int oom = ss_rbuf_init(d, SS_A, sa, bw, &a) || ss_rbuf_init(d, SS_B, sb, bw, &b);
    int64_t stall = 0, i = 0, n = rf * cf * fl, end = INT64_MIN;
    for (int64_t fc = 0; fc < cf && !oom; fc++)
        for (int64_t fr = 0; fr < rf && !oom; fr++)
            for (int64_t j = 0; j < fl; j++, i++) {
                int64_t cyc = i + stall;
                int64_t s = ss_read(d, &a, SS_A, fr, fc, j, cyc, v3);
                s = mx_t_max(s, ss_read(d, &b, SS_B, fr, fc, j, cyc, v3));
                /* the cycle the row's outputs are written: 2.0.2's total is the last row's, 3.0.0's
                ** the latest row's; 2.0.2's write stall is that cycle - cyc - 1, 3.0.0's one more */
                const int64_t ws = ss_write(d, &o, fr, fc, j, cyc, &oom), wcyc = cyc + ws + 1;
                if (v3 ? wcyc > end : i == n - 1) end = wcyc;
                stall += mx_t_max(s, v3 ? ws + 1 : ws);
            }
    free(a.first);
    free(a.set);
    free(b.first);
    free(b.set);
    free(o.cnt);
    *stall_out = stall;
    *last_out = end - (n - 1) - stall;
    return oom ? -2 : 0;
}

/* The estimate of the USER stall when the op is too large to step (see stream_stall). */
static int64_t ss_user_estimate(const mx_tarch *a, const mx_top_resolved *op, int64_t bw, int64_t tc)
{
    const int64_t R = a->R, C = a->C, M = op->m, N = op->n, K = op->k;
    int64_t pa = 1, pb = 1, writes = M * N;
    int64_t sa = a->half_a_bytes * 2, sb = a->half_b_bytes * 2, so = a->half_c_bytes * 2;
    if (a->df == MXSIM_DF_OS) {
        /* column folds outer, row folds inner: A is streamed once per column fold; a B column
        ** fold is reused by the row folds when it fits the active half */
        pa = mx_t_ceil_div(N, C);
        pb = K * mx_t_min(C, N) <= (sb + 1) / 2 ? 1 : mx_t_ceil_div(M, R);
    } else if (a->df == MXSIM_DF_WS) {
        pa = mx_t_ceil_div(N, C);                 /* A once per column fold of B */
        writes = M * N * mx_t_ceil_div(K, R);     /* a partial sum per reduction fold */
    } else {
        pb = mx_t_ceil_div(M, C);                 /* B once per column fold of A */
        writes = M * N * mx_t_ceil_div(K, R);
    }
    int64_t st = mx_t_max(stream_stall(M * K, pa, sa, bw, tc), stream_stall(K * N, pb, sb, bw, tc));
    /* the output SRAM absorbs so bytes; the rest drains at the interface bandwidth (in whole
    ** words: (writes - so) * 1024 could pass 2^63) */
    if (writes > so) st = mx_t_max(st, mx_t_ceil_div(writes - so, bw) - tc);
    return st;
}

/* The op as SCALE-Sim steps it: a conv layer imported under SCALE-Sim's rules keeps its geometry
** (its im2col rows are A's rows, A's addresses repeat), anything else is a GEMM. */
static void ss_dims_of(const mx_tarch *a, const mx_top_resolved *op, ss_dims *d)
{
    *d = (ss_dims){op->m, op->n, op->k, a->R, a->C, a->df, 0, 0, 0, 0, 0, 0, 0};
    const mxsim_top *o = op->src;
    int64_t sh = o != NULL ? mx_t_conv_sh(o) : 0, sw = o != NULL ? mx_t_conv_sw(o) : 0;
    if (o != NULL && o->conv_h > 0 && sh > 0 && sw > 0) {
        int64_t ho = (o->conv_h - o->conv_fh + 2 * sh - 1) / sh;
        int64_t wo = (o->conv_w - o->conv_fw + 2 * sw - 1) / sw;
        if (ho * wo == op->m && o->conv_fh * o->conv_fw * o->conv_c == op->k)
            d->H = o->conv_h, d->W = o->conv_w, d->Fw = o->conv_fw, d->Ch = o->conv_c, d->Sh = sh, d->Sw = sw, d->Ew = wo;
    }
}

/* SCALE-Sim's bandwidth is whole words per cycle; mxsim_tconfig_validate refuses any other in
** this mode, so the division is exact (the max only guards an unvalidated caller). */
static int64_t ss_bw(const mx_tarch *a) { return mx_t_max(1, a->bw_q / MX_T_BW_FRAC); }

mxsim_status mx_tscalesim_prepare(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const mx_tarch *a, mx_top_resolved *op,
                                  const char *where)
{
    op->ss_ready = 0;
    if (!cfg->scalesim_compat || cfg->scalesim_bw == MXSIM_SCALESIM_BW_CALC) return MXSIM_OK;
    ss_dims d;
    ss_dims_of(a, op, &d);
    double visits, elems;
    ss_cost(&d, &visits, &elems);
    if (visits > SS_MAX_VISITS || elems > SS_MAX_ELEMS)
        return mx_fail(ctx, MXSIM_E_LIMIT,
                       "%s: SCALE-Sim's USER bandwidth (InterfaceBandwidth: USER) is stepped demand row by demand "
                       "row, at most 2^32 buffer-column visits and 2^26 operand elements per op; this op takes "
                       "%.3g visits and %.3g elements: time it with InterfaceBandwidth: CALC "
                       "(--set report.scalesim_bw=calc), or split the layer", where, visits, elems);
    int64_t st = 0, last = 0;
    if (ss_user_sim(&d, a->half_a_bytes * 2, a->half_b_bytes * 2, a->half_c_bytes * 2, ss_bw(a),
                    cfg->scalesim_version == MXSIM_SCALESIM_V3, &st, &last) != 0)
        return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory stepping SCALE-Sim's USER buffers (%.3g operand "
                       "elements)", where, elems);
    op->ss_stall = st;
    op->ss_last = last;
    op->ss_ready = 1;
    return MXSIM_OK;
}

/* The USER stall of a caller that did not call mx_tscalesim_prepare: stepped within the same
** limits; beyond them (or out of memory) the closed-form estimate of ss_user_estimate, which can
** be several percent off 2.0.2 (and, as 2.0.2's, up to about 2x off 3.0.0).  mxsim_time_op calls prepare, which
** refuses those ops instead. */
static int64_t ss_stall_unprepared(const mx_tarch *a, const mx_top_resolved *op, int64_t tc, int v3, int64_t *last)
{
    ss_dims d;
    ss_dims_of(a, op, &d);
    int64_t st = 0;
    if (ss_user_sim(&d, a->half_a_bytes * 2, a->half_b_bytes * 2, a->half_c_bytes * 2, ss_bw(a), v3, &st, last) == 0) return st;
    *last = 0; /* the estimate has no last-row write of its own */
    return ss_user_estimate(a, op, ss_bw(a), tc);
}

void mx_tscalesim_finish(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op,
                         mxsim_tstats *st)
{
    int64_t array = st->cycles_compute + st->cycles_fill_drain + st->cycles_exp_stall + st->cycles_lane_limit;
    int64_t last = 0;
    st->cycles_mem_stall = cfg->scalesim_bw == MXSIM_SCALESIM_BW_CALC ? 0
                           : op->ss_ready                             ? (last = op->ss_last, op->ss_stall)
                                                                      : ss_stall_unprepared(a, op, array,
                                                                            cfg->scalesim_version == MXSIM_SCALESIM_V3, &last);
    st->cycles_dram_bw = st->cycles_mem_stall; /* SCALE-Sim's stalls are bandwidth stalls */
    st->cycles_dram_latency = 0;
    /* SCALE-Sim prints the index of the last cycle; the last output row's write ends its total */
    st->cycles_fill_drain += last - 1;
    st->cycles_total = array - 1 + last + st->cycles_mem_stall;
}
