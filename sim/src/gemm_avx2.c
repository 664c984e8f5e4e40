/* gemm_avx2.c - AVX2 back end of the functional MXINT8 GEMM (fp32 accumulator, even G <= 1024).
**
** Integer part: mantissas are widened to int16 and packed in k-pairs, so one vpmaddwd gives
** eight exact int32 partial sums of two products each (|m_a*m_b| <= 2^14: no saturation, unlike
** vpmaddubsw).  A 6x16 register tile of int32 group sums is built per group of G/2 k-pairs.
**
** Scaling: with |d| <= 2^24 (G <= 1024), (float)d is exact; when 7 <= E_B <= 236, multiplying
** it by the normal float 2^(E_B-133) is exact too (no underflow, no overflow), and when
** 7 <= E_A <= 260 the second multiply by the normal float 2^(E_A-133) is one IEEE rounding of
** the exact d * 2^(E_A+E_B-266), with gradual underflow and overflow to Inf: the contract.
** Groups of a tile with an exponent outside those ranges (or a NaN scale) take a scalar slow path.
** The float accumulators live in C; every output adds its terms in ascending group order, since
** K blocks are visited in order and C is only ever touched by one thread.
*/
#include <immintrin.h>
#include <stdlib.h>
#include <string.h>

#include "gemm.h"

#define MR 6   /* rows of A per micro tile: 12 accumulators + 2 B + 1 A = 15 ymm */
#define NR 16  /* columns of B per micro tile */
#define MCP 12 /* A panels per L2 block (72 rows) */
#define KC_TARGET 512

int mx_cpu_has_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

/* Packed operand: panels of `w` rows (4 for A, 16 for B), per k-pair one int32 per row holding
** (m[k], m[k+1]) as int16; per group one int32 exponent per row (A: E - 139, B: E) and the
** panel's min/max exponent over real rows (MX_E_NAN makes max huge, forcing the slow path). */
typedef struct {
    int64_t n_panels, w, kp, ng;
    int32_t *m;      /* [panel][kp][w] */
    float *f;        /* [panel][g][w]: 2^(E - 133), exact when `fast` */
    uint8_t *fast;   /* [panel][g]: every real row's E in the range where the fast scaling is exact */
    int16_t *e_raw;  /* [panel][g][w]: OCP exponent or MX_E_NAN, for the slow path */
} packed;

static void packed_free(packed *p)
{
    free(p->m);
    free(p->f);
    free(p->fast);
    free(p->e_raw);
}

typedef struct {
    packed *dst;
    const int8_t *m;
    const int16_t *e;
    int64_t rows, K, ng;
    int32_t e_hi; /* largest E allowed on the fast path */
    int64_t p_off; /* global index of local panel 0 */
} pack_job;

/* 8x8 transpose of 32-bit lanes: row r of the input holds 8 consecutive k-pairs of one operand
** row; out[k] holds k-pair k of the 8 rows.  Each row's bytes widen to int16 first, so one 256-bit
** register carries 8 k-pairs and the transpose yields the [k-pair][row] packed layout. */
static void transpose8x8(const __m256i r[8], __m256i out[8])
{
    __m256i t[8], u[8];
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
        u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
        u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
        u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
        u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    for (int k = 0; k < 4; k++) {
        out[k] = _mm256_permute2x128_si256(u[k], u[k + 4], 0x20);
        out[k + 4] = _mm256_permute2x128_si256(u[k], u[k + 4], 0x31);
    }
}

/* Loads 16 bytes of each of `rows` operand rows (the rest zero) widened to int16. */
static void load_rows(__m256i r[8], const int8_t *src, int64_t K, int rows)
{
    for (int i = 0; i < 8; i++)
        r[i] = i < rows ? _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(src + i * K)))
                        : _mm256_setzero_si256();
}

/* Packs the k-pairs [0, 8*(K/16)) of a full 16-row panel, as two 8-row halves. */
static void pack16_fast(int32_t *pm, const int8_t *src, int64_t K)
{
    for (int64_t c = 0; c < K / 16; c++)
        for (int half = 0; half < 2; half++) {
            __m256i r[8], o[8];
            load_rows(r, src + half * 8 * K + c * 16, K, 8);
            transpose8x8(r, o);
            for (int k = 0; k < 8; k++)
                _mm256_storeu_si256((__m256i *)(pm + (c * 8 + k) * 16 + half * 8), o[k]);
        }
}

/* Packs the k-pairs [0, 8*(K/16)) of a full 6-row panel: two zero rows fill the 8x8 block and a
** masked store keeps the six real lanes (a plain store would spill into the next panel). */
static void pack6_fast(int32_t *pm, const int8_t *src, int64_t K)
{
    const __m256i keep6 = _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, 0, 0);
    for (int64_t c = 0; c < K / 16; c++) {
        __m256i r[8], o[8];
        load_rows(r, src + c * 16, K, 6);
        transpose8x8(r, o);
        for (int k = 0; k < 8; k++) _mm256_maskstore_epi32(pm + (c * 8 + k) * 6, keep6, o[k]);
    }
}

static void pack_panels(void *arg, int64_t p0, int64_t p1)
{
    const pack_job *j = arg;
    packed *d = j->dst;
    for (int64_t p = p0; p < p1; p++) {
        int32_t *pm = d->m + p * d->kp * d->w;
        int64_t gpn = p + j->p_off, kp_done = 0;
        if (d->w == 16 && (gpn + 1) * 16 <= j->rows) {
            kp_done = (j->K / 16) * 8;
            pack16_fast(pm, j->m + gpn * 16 * j->K, j->K);
        } else if (d->w == 6 && (gpn + 1) * 6 <= j->rows) {
            kp_done = (j->K / 16) * 8;
            pack6_fast(pm, j->m + gpn * 6 * j->K, j->K);
        }
        for (int64_t r = 0; r < d->w; r++) {
            int64_t row = gpn * d->w + r;
            const int8_t *src = row < j->rows ? j->m + row * j->K : NULL;
            for (int64_t kp = kp_done; kp < d->kp; kp++) {
                uint16_t lo = src ? (uint16_t)(int16_t)src[2 * kp] : 0;
                uint16_t hi = src ? (uint16_t)(int16_t)src[2 * kp + 1] : 0;
                pm[kp * d->w + r] = (int32_t)((uint32_t)lo | ((uint32_t)hi << 16));
            }
        }
        for (int64_t g = 0; g < d->ng; g++) {
            int fast = 1;
            for (int64_t r = 0; r < d->w; r++) {
                int64_t row = gpn * d->w + r;
                int16_t e = row < j->rows ? j->e[row * j->ng + g] : 133; /* pad rows: 2^0 */
                d->e_raw[(p * d->ng + g) * d->w + r] = e;
                /* Fast-path scaling is (float(d) * 2^(E_B-133)) * 2^(E_A-133): both factors must
                ** be normal floats and the first product exact (|d| <= 2^24, so E_B <= 236). */
                fast &= e >= 7 && e <= j->e_hi;
                d->f[(p * d->ng + g) * d->w + r] =
                    (e >= 7 && e <= 260) ? __builtin_ldexpf(1.0f, e - 133) : 0.0f;
            }
            d->fast[p * d->ng + g] = (uint8_t)fast;
        }
    }
}

/* Allocates room for cap panels of w rows. */
static int packed_alloc(packed *d, int64_t cap, int64_t w, int64_t K, int64_t ng)
{
    memset(d, 0, sizeof *d);
    d->w = w;
    d->kp = K / 2;
    d->ng = ng;
    size_t np = (size_t)cap;
    d->m = mx_malloc(np * (size_t)d->kp, (size_t)w * sizeof(int32_t));
    d->f = mx_malloc(np * (size_t)ng, (size_t)w * sizeof(float));
    d->e_raw = mx_malloc(np * (size_t)ng, (size_t)w * sizeof(int16_t));
    d->fast = mx_malloc(np * (size_t)ng, 1);
    if (!d->m || !d->f || !d->e_raw || !d->fast) {
        packed_free(d);
        return -1;
    }
    return 0;
}

/* Packs global panels [p_off, p_off + n) of a [rows][K] operand into d's panels [0, n). */
static void pack_range(packed *d, const int8_t *m, const int16_t *e, int64_t rows, int64_t K,
                       int32_t e_hi, int64_t p_off, int64_t n, unsigned n_threads)
{
    pack_job job = {d, m, e, rows, K, d->ng, e_hi, p_off};
    d->n_panels = n;
    mx_parallel_for(n_threads, n, 1, pack_panels, &job);
}

/* Slow path for one group of one tile: the contract computed per output in scalar code. */
static void tile_group_slow(const int32_t d[MR][NR], const int16_t *ea, const int16_t *eb,
                            float *ct, int64_t ldc)
{
    for (int r = 0; r < MR; r++)
        for (int c = 0; c < NR; c++) {
            float t = (ea[r] == MX_E_NAN || eb[c] == MX_E_NAN)
                          ? __builtin_nanf("")
                          : mx_gemm_term(d[r][c], ea[r] + eb[c] - 266);
            ct[r * ldc + c] += t;
        }
}

/* One MR x NR tile over groups [g0, g1) of its panels; ct is the tile's corner in C (or in a
** scratch tile for ragged edges) with row stride ldc. */
static void tile_kernel(const mx_gemm_prob *p, const packed *A, const packed *B, int64_t pa,
                        int64_t pb, int64_t g0, int64_t g1, float *ct, int64_t ldc)
{
    const int64_t gp = p->G / 2; /* k-pairs per group */
    const int32_t *am = A->m + (pa * A->kp + g0 * gp) * MR;
    const int32_t *bm = B->m + (pb * B->kp + g0 * gp) * NR;
    for (int64_t g = g0; g < g1; g++) {
        /* Named accumulators: GCC keeps an indexed array of them in memory. */
        __m256i c00 = _mm256_setzero_si256(), c01 = c00, c10 = c00, c11 = c00;
        __m256i c20 = c00, c21 = c00, c30 = c00, c31 = c00, c40 = c00, c41 = c00, c50 = c00,
                c51 = c00;
        for (int64_t k = 0; k < gp; k++) {
            __m256i b0 = _mm256_loadu_si256((const __m256i *)bm);
            __m256i b1 = _mm256_loadu_si256((const __m256i *)(bm + 8));
            __m256i a = _mm256_set1_epi32(am[0]);
            c00 = _mm256_add_epi32(c00, _mm256_madd_epi16(a, b0));
            c01 = _mm256_add_epi32(c01, _mm256_madd_epi16(a, b1));
            a = _mm256_set1_epi32(am[1]);
            c10 = _mm256_add_epi32(c10, _mm256_madd_epi16(a, b0));
            c11 = _mm256_add_epi32(c11, _mm256_madd_epi16(a, b1));
            a = _mm256_set1_epi32(am[2]);
            c20 = _mm256_add_epi32(c20, _mm256_madd_epi16(a, b0));
            c21 = _mm256_add_epi32(c21, _mm256_madd_epi16(a, b1));
            a = _mm256_set1_epi32(am[3]);
            c30 = _mm256_add_epi32(c30, _mm256_madd_epi16(a, b0));
            c31 = _mm256_add_epi32(c31, _mm256_madd_epi16(a, b1));
            a = _mm256_set1_epi32(am[4]);
            c40 = _mm256_add_epi32(c40, _mm256_madd_epi16(a, b0));
            c41 = _mm256_add_epi32(c41, _mm256_madd_epi16(a, b1));
            a = _mm256_set1_epi32(am[5]);
            c50 = _mm256_add_epi32(c50, _mm256_madd_epi16(a, b0));
            c51 = _mm256_add_epi32(c51, _mm256_madd_epi16(a, b1));
            am += MR;
            bm += NR;
        }
        if (!(A->fast[pa * A->ng + g] & B->fast[pb * B->ng + g])) {
            __m256i acc[MR][2] = {{c00, c01}, {c10, c11}, {c20, c21},
                                  {c30, c31}, {c40, c41}, {c50, c51}};
            int32_t d[MR][NR];
            for (int r = 0; r < MR; r++) {
                _mm256_storeu_si256((__m256i *)&d[r][0], acc[r][0]);
                _mm256_storeu_si256((__m256i *)&d[r][8], acc[r][1]);
            }
            tile_group_slow(d, A->e_raw + (pa * A->ng + g) * MR, B->e_raw + (pb * B->ng + g) * NR,
                            ct, ldc);
            continue;
        }
        const float *fa = A->f + (pa * A->ng + g) * MR; /* 2^(E_A - 133) */
        const float *fb = B->f + (pb * B->ng + g) * NR; /* 2^(E_B - 133) */
        __m256 fb0 = _mm256_loadu_ps(fb), fb1 = _mm256_loadu_ps(fb + 8);
        /* float(d) * 2^(E_B-133) is exact (a normal float times a power of two, no overflow), so
        ** the second multiply is the contract's single rounding of d * 2^(E_A+E_B-266). */
#define MX_SCALE_ROW(r, x0, x1)                                                                  \
    do {                                                                                         \
        __m256 far = _mm256_broadcast_ss(fa + (r));                                              \
        __m256 t0 = _mm256_mul_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(x0), fb0), far);              \
        __m256 t1 = _mm256_mul_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(x1), fb1), far);              \
        float *cr = ct + (r) * ldc;                                                              \
        _mm256_storeu_ps(cr, _mm256_add_ps(_mm256_loadu_ps(cr), t0));                            \
        _mm256_storeu_ps(cr + 8, _mm256_add_ps(_mm256_loadu_ps(cr + 8), t1));                    \
    } while (0)
        MX_SCALE_ROW(0, c00, c01);
        MX_SCALE_ROW(1, c10, c11);
        MX_SCALE_ROW(2, c20, c21);
        MX_SCALE_ROW(3, c30, c31);
        MX_SCALE_ROW(4, c40, c41);
        MX_SCALE_ROW(5, c50, c51);
#undef MX_SCALE_ROW
    }
}

#define NCP 16 /* B panels packed per chunk (256 columns): the chunk stays in L2/L3 */

typedef struct {
    const mx_gemm_prob *p;
    const packed *a;
    int64_t n_bpanels;
    int split_rows;    /* 1: threads split A panels; 0: threads split B panels */
    int16_t failed[1]; /* set by a thread that could not allocate its B chunk */
} run_job;

static void run_range(void *arg, int64_t lo, int64_t hi)
{
    run_job *j = arg;
    const mx_gemm_prob *p = j->p;
    const packed *A = j->a;
    int64_t a0 = 0, a1 = A->n_panels, b0 = 0, b1 = j->n_bpanels;
    if (j->split_rows) {
        a0 = lo;
        a1 = hi;
    } else {
        b0 = lo;
        b1 = hi;
    }
    packed B;
    if (packed_alloc(&B, NCP, NR, p->K, p->ng) != 0) {
        j->failed[0] = 1; /* reported by the caller; C is then discarded */
        return;
    }
    int64_t gpk = KC_TARGET / p->G > 0 ? KC_TARGET / p->G : 1; /* groups per K block */
    float ct[MR][NR];
    for (int64_t cb = b0; cb < b1; cb += NCP) {
        int64_t nb = cb + NCP < b1 ? NCP : b1 - cb;
        pack_range(&B, p->bm, p->be, p->N, p->K, 236, cb, nb, 1);
        for (int64_t g0 = 0; g0 < p->ng; g0 += gpk) {
            int64_t g1 = g0 + gpk < p->ng ? g0 + gpk : p->ng;
            for (int64_t ib = a0; ib < a1; ib += MCP) {
                int64_t ie = ib + MCP < a1 ? ib + MCP : a1;
                for (int64_t lb = 0; lb < nb; lb++)
                    for (int64_t pa = ib; pa < ie; pa++) {
                        int64_t pb = cb + lb;
                        int64_t rows = p->M - pa * MR < MR ? p->M - pa * MR : MR;
                        int64_t cols = p->N - pb * NR < NR ? p->N - pb * NR : NR;
                        float *c = p->c + pa * MR * p->N + pb * NR;
                        if (rows == MR && cols == NR) { /* full tile: accumulate in C itself */
                            tile_kernel(p, A, &B, pa, lb, g0, g1, c, p->N);
                            continue;
                        }
                        memset(ct, 0, sizeof ct);
                        for (int64_t r = 0; r < rows; r++)
                            memcpy(ct[r], c + r * p->N, (size_t)cols * sizeof(float));
                        tile_kernel(p, A, &B, pa, lb, g0, g1, &ct[0][0], NR);
                        for (int64_t r = 0; r < rows; r++)
                            memcpy(c + r * p->N, ct[r], (size_t)cols * sizeof(float));
                    }
            }
        }
    }
    packed_free(&B);
}

mxsim_status mx_gemm_avx2(mxsim_ctx *ctx, const mx_gemm_prob *p, unsigned n_threads)
{
    packed a;
    int64_t a_panels = (p->M + MR - 1) / MR, b_panels = (p->N + NR - 1) / NR;
    if (packed_alloc(&a, a_panels, MR, p->K, p->ng) != 0)
        return mx_fail(ctx, MXSIM_E_NOMEM, "gemm: out of memory packing A");
    pack_range(&a, p->am, p->ae, p->M, p->K, 260, 0, a_panels, n_threads);
    memset(p->c, 0, (size_t)p->M * (size_t)p->N * sizeof(float)); /* acc starts at +0.0 */
    run_job job = {p, &a, b_panels, 0, {0}};
    /* Split B panels unless there are too few of them to keep every thread busy; splitting A
    ** makes each thread pack all of B (cheap) but keeps small-N shapes parallel. */
    job.split_rows = b_panels < 2 * (int64_t)n_threads && a_panels > b_panels;
    int64_t n = job.split_rows ? a_panels : b_panels;
    mx_parallel_for(n_threads, n, job.split_rows ? MCP : 1, run_range, &job);
    packed_free(&a);
    if (job.failed[0]) return mx_fail(ctx, MXSIM_E_NOMEM, "gemm: out of memory packing B");
    return MXSIM_OK;
}
