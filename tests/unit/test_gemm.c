/* test_gemm.c - the functional MXINT8 GEMM (mxsim_gemm, mxsim_gemm_raw) against an
** independently written scalar reference of the arithmetic contract, sim/doc/numerics.md §4.
**
** Reference, fp32 mode: for each output and each group g ascending,
**   d = exact int32 dot of the group's mantissas,
**   t = RN_f32(d * 2^s), s = E_A + E_B - 266, computed as (float)ldexp((double)d, s).
**       This is ONE rounding: |d| <= 2^30 needs at most 31 significant bits (< 53) and
**       s is in [-268, 242] (E in [-1, 254]: MASE byte 0 gives E = -1), so d * 2^s lies in
**       [2^-268, 2^273], far inside the normal double range: the ldexp is exact, and the
**       double -> float conversion is the single RNE rounding (gradual underflow to float
**       subnormals, overflow to +-Inf), as the contract requires.
**   acc = acc + t in float (FLT_EVAL_METHOD == 0 is checked below), acc starting at +0.0f.
** Reference, exact mode: every group term d * 2^s is summed exactly in a signed 128-bit
**   integer with LSB weight 2^smin (smin = the smallest s of a nonzero term of that output),
**   then rounded once to float32 by ref_round_f32 (RNE, gradual underflow, overflow to Inf,
**   written from the bit level, not through the FPU).  An exactly zero sum is +0.0; a nonzero
**   sum that rounds to zero keeps its sign (IEEE).  Tests that check exact mode keep their
**   scale bytes in windows that make the sum fit (ref_exact_one says when it would not).
** bf16 output: ref_bf16, RNE from the float32 bits (written here, not mxsim_f32_to_bf16).
**
** Every case runs on every path: threads 1, 2, 3, 7 x SIMD scalar and AVX2 (when available),
** plus threads 0 (all CPUs) with SIMD AUTO; all must equal the reference bit for bit (NaN by
** class).  Failures print the path, the output index and that output's group terms. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mxsim.h"
#include "mxtest.h"

#if !defined(__SIZEOF_INT128__)
#error "test_gemm needs __int128 for its exact-mode reference"
#endif
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "the fp32 reference needs float arithmetic evaluated in float (FLT_EVAL_METHOD == 0)"
#endif

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

#define E_NAN INT_MIN /* exponent marker of a NaN scale */

/* ============================================================================================
** Independent reference
** ========================================================================================== */

static uint32_t f32_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}
static float bits_f32(uint32_t u)
{
    float x;
    memcpy(&x, &u, 4);
    return x;
}

/* Scale byte of profile p -> OCP exponent E (value m * 2^(E-133)), or E_NAN. */
static int ref_scale_e(mxsim_profile p, uint8_t byte)
{
    if (byte == 0xFF) return E_NAN;
    return p == MXSIM_PROFILE_MASE ? (int)byte - 1 : (int)byte;
}

/* float32 -> bf16 bits, RNE, subnormals kept; NaN -> a quiet NaN. */
static uint16_t ref_bf16(float x)
{
    uint32_t u = f32_bits(x);
    if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu)) return (uint16_t)((u >> 16) | 0x0040u);
    uint32_t lsb = (u >> 16) & 1u;
    return (uint16_t)((u + 0x7FFFu + lsb) >> 16); /* no wrap: max non-NaN is 0xFF800000 */
}

static int msb128(u128 x) /* x != 0 */
{
    uint64_t hi = (uint64_t)(x >> 64), lo = (uint64_t)x;
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(lo);
}

/* RN_f32(+-mag * 2^e0) for mag > 0, built from bits: RNE, gradual underflow, overflow to Inf. */
static float ref_round_f32(int neg, u128 mag, int e0)
{
    uint32_t sign = neg ? 0x80000000u : 0u;
    int p = msb128(mag);
    int e = p + e0; /* 2^e <= value < 2^(e+1) */
    if (e > 127) return bits_f32(sign | 0x7F800000u);
    int ulp = e - 23;
    if (ulp < -149) ulp = -149;
    int sh = ulp - e0; /* bits of mag below the float's last place */
    u128 q;
    if (sh <= 0) {
        q = mag << (-sh); /* exact, q < 2^24 */
    } else if (sh >= 128) {
        q = 0; /* mag < 2^127 < half an ulp */
    } else {
        q = mag >> sh;
        u128 rem = mag - (q << sh), half = (u128)1 << (sh - 1);
        if (rem > half || (rem == half && (q & 1))) q++;
    }
    if (q >> 24) { /* rounded up to the next binade */
        q >>= 1;
        ulp++;
    }
    uint32_t bits;
    if (q >> 23) {
        int field = ulp + 150;
        if (field >= 255) return bits_f32(sign | 0x7F800000u);
        bits = ((uint32_t)field << 23) | ((uint32_t)q & 0x007FFFFFu);
    } else {
        bits = (uint32_t)q; /* subnormal (ulp == -149) or zero */
    }
    return bits_f32(sign | bits);
}

/* ---- a GEMM case and its reference ------------------------------------------------------ */

typedef struct {
    int64_t M, N, K, G;
    int8_t *am, *bm;  /* [M*K], [N*K] row-major */
    uint8_t *ae, *be; /* [M*(K/G)], [N*(K/G)]: bytes in the profile's own convention */
    mxsim_profile pa, pb;
} gcase;

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

static gcase case_new(int64_t M, int64_t N, int64_t K, int64_t G)
{
    gcase c;
    c.M = M, c.N = N, c.K = K, c.G = G;
    c.am = xcalloc((size_t)(M * K), 1);
    c.bm = xcalloc((size_t)(N * K), 1);
    c.ae = xcalloc((size_t)(M * (K / G)), 1);
    c.be = xcalloc((size_t)(N * (K / G)), 1);
    memset(c.ae, 133, (size_t)(M * (K / G)));
    memset(c.be, 133, (size_t)(N * (K / G)));
    c.pa = c.pb = MXSIM_PROFILE_OCP;
    return c;
}
static void case_free(gcase *c)
{
    free(c->am), free(c->bm), free(c->ae), free(c->be);
}

/* Exact group dot products and exponents s (E_NAN for a NaN scale), [M][N][ng]. */
typedef struct {
    int64_t ng;
    int32_t *d;
    int *s;
} gterms;

static gterms terms_new(const gcase *c)
{
    gterms t;
    t.ng = c->K / c->G;
    size_t n = (size_t)(c->M * c->N * t.ng);
    t.d = xcalloc(n, sizeof *t.d);
    t.s = xcalloc(n, sizeof *t.s);
    for (int64_t i = 0; i < c->M; i++)
        for (int64_t j = 0; j < c->N; j++)
            for (int64_t g = 0; g < t.ng; g++) {
                const int8_t *a = c->am + i * c->K + g * c->G, *b = c->bm + j * c->K + g * c->G;
                int32_t d = 0;
                for (int64_t k = 0; k < c->G; k++) d += (int32_t)a[k] * (int32_t)b[k];
                int ea = ref_scale_e(c->pa, c->ae[i * t.ng + g]);
                int eb = ref_scale_e(c->pb, c->be[j * t.ng + g]);
                size_t idx = (size_t)((i * c->N + j) * t.ng + g);
                t.d[idx] = d;
                t.s[idx] = (ea == E_NAN || eb == E_NAN) ? E_NAN : ea + eb - 266;
            }
    return t;
}
static void terms_free(gterms *t)
{
    free(t->d), free(t->s);
}

static float ref_term(int32_t d, int s)
{
    return (float)ldexp((double)d, s); /* exact in double, one rounding to float */
}

static float ref_fp32_one(const int32_t *d, const int *s, int64_t ng)
{
    float acc = 0.0f;
    int nan = 0;
    for (int64_t g = 0; g < ng; g++) {
        if (s[g] == E_NAN) {
            nan = 1;
            continue;
        }
        float t = ref_term(d[g], s[g]);
        acc = acc + t;
    }
    return nan ? NAN : acc;
}

/* Returns 0 when the exact sum might not fit the 128-bit reference (a test-design limit). */
static int ref_exact_one(const int32_t *d, const int *s, int64_t ng, float *out)
{
    int nan = 0, smin = INT_MAX, smax = INT_MIN;
    int64_t nt = 0;
    for (int64_t g = 0; g < ng; g++) {
        if (s[g] == E_NAN) {
            nan = 1;
        } else if (d[g] != 0) {
            if (s[g] < smin) smin = s[g];
            if (s[g] > smax) smax = s[g];
            nt++;
        }
    }
    if (nan) {
        *out = NAN;
        return 1;
    }
    if (nt == 0) {
        *out = 0.0f;
        return 1;
    }
    int lg = 0;
    while (((int64_t)1 << lg) < nt) lg++;
    if ((smax - smin) + 32 + lg > 126) return 0;
    i128 x = 0;
    for (int64_t g = 0; g < ng; g++)
        if (s[g] != E_NAN && d[g] != 0) x += (i128)((u128)(i128)d[g] << (s[g] - smin));
    if (x == 0) {
        *out = 0.0f;
        return 1;
    }
    int neg = x < 0;
    u128 mag = neg ? (u128)0 - (u128)x : (u128)x;
    *out = ref_round_f32(neg, mag, smin);
    return 1;
}

/* ============================================================================================
** Running a case on every path
** ========================================================================================== */

typedef struct {
    unsigned threads;
    mxsim_simd simd;
    char name[32];
} path_t;

static path_t g_paths[16];
static int g_n_paths;

static void init_paths(void)
{
    if (g_n_paths) return;
    static const unsigned th[] = {1, 2, 3, 7};
    mxsim_simd simds[2] = {MXSIM_SIMD_SCALAR, MXSIM_SIMD_AVX2};
    int n_simd = mxsim_simd_available(MXSIM_SIMD_AVX2) ? 2 : 1;
    for (int s = 0; s < n_simd; s++)
        for (int t = 0; t < 4; t++) {
            path_t *p = &g_paths[g_n_paths++];
            p->threads = th[t];
            p->simd = simds[s];
            snprintf(p->name, sizeof p->name, "threads=%u simd=%s", th[t], s ? "avx2" : "scalar");
        }
    path_t *p = &g_paths[g_n_paths++];
    p->threads = 0;
    p->simd = MXSIM_SIMD_AUTO;
    snprintf(p->name, sizeof p->name, "threads=0 simd=auto");
}

static mxsim_ctx *new_ctx(void)
{
    mxsim_ctx *ctx = NULL;
    if (mxsim_ctx_create(&ctx) != MXSIM_OK || !ctx) {
        fprintf(stderr, "mxsim_ctx_create failed\n");
        exit(1);
    }
    return ctx;
}

static int set_path(mxsim_ctx *ctx, const path_t *p)
{
    mxsim_status st = mxsim_ctx_set_threads(ctx, p->threads);
    if (st != MXSIM_OK) {
        MXT_FAILF("mxsim_ctx_set_threads(%u): %s: %s", p->threads, mxsim_strerror(st),
                  mxsim_errmsg(ctx));
        return 0;
    }
    st = mxsim_ctx_set_simd(ctx, p->simd);
    if (st != MXSIM_OK) {
        MXT_FAILF("mxsim_ctx_set_simd(%d): %s: %s", (int)p->simd, mxsim_strerror(st),
                  mxsim_errmsg(ctx));
        return 0;
    }
    return 1;
}

static void dump_terms(const gcase *c, const gterms *t, int64_t i, int64_t j)
{
    const size_t base = (size_t)((i * c->N + j) * t->ng);
    int64_t shown = t->ng <= 16 ? t->ng : 8;
    for (int64_t g = 0; g < shown; g++) {
        int s = t->s[base + g];
        if (s == E_NAN)
            fprintf(stderr, "      g=%lld: d=%d scale NaN (A byte %u, B byte %u)\n", (long long)g,
                    t->d[base + g], c->ae[i * t->ng + g], c->be[j * t->ng + g]);
        else
            fprintf(stderr, "      g=%lld: d=%d A byte %u B byte %u s=%d term=%a\n", (long long)g,
                    t->d[base + g], c->ae[i * t->ng + g], c->be[j * t->ng + g], s,
                    (double)ref_term(t->d[base + g], s));
    }
    if (shown < t->ng) fprintf(stderr, "      ... (%lld groups)\n", (long long)t->ng);
}

/* Compares float outputs; mask (may be NULL) selects outputs to check.  Returns mismatches. */
static long cmp_f32(const char *label, const char *what, const path_t *p, const gcase *c,
                    const gterms *t, const float *got, const float *ref, const unsigned char *mask)
{
    long bad = 0, n = 0;
    for (int64_t i = 0; i < c->M; i++)
        for (int64_t j = 0; j < c->N; j++) {
            int64_t idx = i * c->N + j;
            if (mask && !mask[idx]) continue;
            n++;
            mxt_checks++;
            if (mxt_same_f32(got[idx], ref[idx])) continue;
            if (bad++ < 2) {
                MXT_FAILF("%s [%s] %s (M=%lld N=%lld K=%lld G=%lld): C[%lld,%lld] = %a (0x%08x), "
                          "reference %a (0x%08x)",
                          label, what, p ? p->name : "-", (long long)c->M, (long long)c->N,
                          (long long)c->K, (long long)c->G, (long long)i, (long long)j,
                          (double)got[idx], f32_bits(got[idx]), (double)ref[idx], f32_bits(ref[idx]));
                if (t) dump_terms(c, t, i, j);
            } else {
                mxt_failures++;
            }
        }
    if (bad)
        fprintf(stderr, "    %s [%s] %s: %ld of %ld outputs differ\n", label, what,
                p ? p->name : "-", bad, n);
    return bad;
}

static long cmp_bf16(const char *label, const char *what, const path_t *p, const gcase *c,
                     const uint16_t *got, const float *ref32, const unsigned char *mask)
{
    long bad = 0;
    for (int64_t idx = 0; idx < c->M * c->N; idx++) {
        if (mask && !mask[idx]) continue;
        mxt_checks++;
        uint16_t want = ref_bf16(ref32[idx]);
        if (mxt_same_bf16(got[idx], want)) continue;
        if (bad++ < 2)
            MXT_FAILF("%s [%s] %s: C[%lld,%lld] bf16 0x%04x, reference 0x%04x (from f32 %a)", label,
                      what, p->name, (long long)(idx / c->N), (long long)(idx % c->N), got[idx], want,
                      (double)ref32[idx]);
        else
            mxt_failures++;
    }
    return bad;
}

static mxsim_mx *make_mx(mxsim_ctx *ctx, int64_t rows, int64_t K, int64_t G, const int8_t *m,
                         const uint8_t *e, mxsim_profile p)
{
    mxsim_tensor *tm = NULL, *ts = NULL;
    mxsim_mx *mx = NULL;
    int64_t shm[2] = {rows, K}, shs[2] = {rows, K / G};
    if (mxsim_tensor_create(ctx, MXSIM_DTYPE_I8, 2, shm, &tm) != MXSIM_OK ||
        mxsim_tensor_create(ctx, MXSIM_DTYPE_U8, 2, shs, &ts) != MXSIM_OK) {
        MXT_FAILF("mxsim_tensor_create: %s", mxsim_errmsg(ctx));
        goto done;
    }
    memcpy(mxsim_tensor_data(tm), m, (size_t)(rows * K));
    memcpy(mxsim_tensor_data(ts), e, (size_t)(rows * (K / G)));
    mxsim_status st = mxsim_mx_create(ctx, tm, ts, G, 1, p, &mx);
    if (st != MXSIM_OK) {
        MXT_FAILF("mxsim_mx_create(rows=%lld K=%lld G=%lld profile=%s): %s: %s", (long long)rows,
                  (long long)K, (long long)G, mxsim_profile_name(p), mxsim_strerror(st),
                  mxsim_errmsg(ctx));
        mx = NULL;
    }
done:
    mxsim_tensor_free(tm);
    mxsim_tensor_free(ts);
    return mx;
}

/* Scale bytes re-expressed as OCP bytes for mxsim_gemm_raw; 0 if some E is outside 0..254. */
static int ocp_bytes(mxsim_profile p, const uint8_t *in, size_t n, uint8_t *out)
{
    for (size_t k = 0; k < n; k++) {
        int e = ref_scale_e(p, in[k]);
        if (e == E_NAN)
            out[k] = 0xFF;
        else if (e < 0 || e > 254)
            return 0;
        else
            out[k] = (uint8_t)e;
    }
    return 1;
}

enum {
    X_SKIP = 0,    /* don't check exact mode */
    X_WHERE_FITS,  /* check exact mode on outputs the 128-bit reference covers */
    X_REQUIRE,     /* every output must be covered (the test is designed so) */
};

typedef struct {
    float *ref32, *refx;
    unsigned char *xok;
    long n_exact_checked;
} case_refs;

/* Runs case c on every path, both accumulator modes, raw and tensor APIs, f32 and bf16.
** Optionally returns the references (caller frees) for further checks. */
static long run_case(const char *label, const gcase *c, int xmode, case_refs *refs_out)
{
    init_paths();
    const int64_t M = c->M, N = c->N, K = c->K, G = c->G, ng = K / G, MN = M * N;
    long bad = 0;
    gterms t = terms_new(c);
    float *ref32 = xcalloc((size_t)MN, sizeof(float)), *refx = xcalloc((size_t)MN, sizeof(float));
    unsigned char *xok = xcalloc((size_t)MN, 1);
    long n_xok = 0;
    for (int64_t o = 0; o < MN; o++) {
        ref32[o] = ref_fp32_one(t.d + o * ng, t.s + o * ng, ng);
        if (xmode != X_SKIP) {
            xok[o] = (unsigned char)ref_exact_one(t.d + o * ng, t.s + o * ng, ng, &refx[o]);
            n_xok += xok[o];
        }
    }
    if (xmode == X_REQUIRE && n_xok != MN)
        MXT_FAILF("%s: test design: %lld outputs exceed the 128-bit exact reference", label,
                  (long long)(MN - n_xok));
    const int do_exact = xmode != X_SKIP && n_xok > 0;

    mxsim_ctx *ctx = new_ctx();
    mxsim_mx *A = make_mx(ctx, M, K, G, c->am, c->ae, c->pa);
    mxsim_mx *B = make_mx(ctx, N, K, G, c->bm, c->be, c->pb);
    uint8_t *rae = xcalloc((size_t)(M * ng), 1), *rbe = xcalloc((size_t)(N * ng), 1);
    const int raw_ok = ocp_bytes(c->pa, c->ae, (size_t)(M * ng), rae) &&
                       ocp_bytes(c->pb, c->be, (size_t)(N * ng), rbe);
    /* output with guard words on both sides, pre-filled with a signalling pattern */
    const int64_t GUARD = 16;
    float *cbuf = xcalloc((size_t)(MN + 2 * GUARD), sizeof(float)), *cout = cbuf + GUARD;

    for (int pi = 0; pi < g_n_paths && A && B; pi++) {
        const path_t *p = &g_paths[pi];
        if (!set_path(ctx, p)) {
            bad++;
            continue;
        }
        for (int acc = 0; acc < 2; acc++) {
            if (acc == MXSIM_ACC_EXACT && !do_exact) continue;
            const float *ref = acc == MXSIM_ACC_EXACT ? refx : ref32;
            const unsigned char *mask = acc == MXSIM_ACC_EXACT ? xok : NULL;
            const char *accn = acc == MXSIM_ACC_EXACT ? "exact" : "fp32";
            char what[64];
            if (raw_ok) {
                for (int64_t k = 0; k < MN + 2 * GUARD; k++) cbuf[k] = bits_f32(0x7FA5A5A5u);
                mxsim_status st = mxsim_gemm_raw(ctx, M, N, K, G, c->am, rae, c->bm, rbe,
                                                 (mxsim_acc)acc, cout);
                snprintf(what, sizeof what, "raw %s", accn);
                if (st != MXSIM_OK) {
                    MXT_FAILF("%s [%s] %s: mxsim_gemm_raw: %s: %s", label, what, p->name,
                              mxsim_strerror(st), mxsim_errmsg(ctx));
                    bad++;
                } else {
                    bad += cmp_f32(label, what, p, c, &t, cout, ref, mask);
                    for (int64_t k = 0; k < GUARD; k++) {
                        if (f32_bits(cbuf[k]) != 0x7FA5A5A5u ||
                            f32_bits(cout[MN + k]) != 0x7FA5A5A5u) {
                            MXT_FAILF("%s [%s] %s: mxsim_gemm_raw wrote outside c[M*N]", label, what,
                                      p->name);
                            bad++;
                            break;
                        }
                    }
                }
            }
            /* tensor API: f32 output, and bf16 output */
            for (int od = 0; od < 2; od++) {
                mxsim_gemm_opts opts;
                mxsim_gemm_opts_default(&opts);
                opts.acc = (mxsim_acc)acc;
                opts.out_dtype = od ? MXSIM_DTYPE_BF16 : MXSIM_DTYPE_F32;
                mxsim_tensor *out = NULL;
                snprintf(what, sizeof what, "mxsim_gemm %s %s", accn, od ? "bf16" : "f32");
                mxsim_status st = mxsim_gemm(ctx, A, B, &opts, &out);
                if (st != MXSIM_OK || !out) {
                    MXT_FAILF("%s [%s] %s: %s: %s", label, what, p->name, mxsim_strerror(st),
                              mxsim_errmsg(ctx));
                    bad++;
                    mxsim_tensor_free(out);
                    continue;
                }
                const int64_t *sh = mxsim_tensor_shape(out);
                if (mxsim_tensor_ndim(out) != 2 || sh[0] != M || sh[1] != N ||
                    (int32_t)mxsim_tensor_dtype(out) != opts.out_dtype) {
                    MXT_FAILF("%s [%s] %s: output has ndim %d dtype %d, expected [%lld,%lld] %d",
                              label, what, p->name, mxsim_tensor_ndim(out),
                              (int)mxsim_tensor_dtype(out), (long long)M, (long long)N,
                              (int)opts.out_dtype);
                    bad++;
                } else if (od) {
                    bad += cmp_bf16(label, what, p, c, mxsim_tensor_cdata(out), ref, mask);
                } else {
                    bad += cmp_f32(label, what, p, c, &t, mxsim_tensor_cdata(out), ref, mask);
                }
                mxsim_tensor_free(out);
            }
        }
    }
    mxsim_mx_free(A);
    mxsim_mx_free(B);
    mxsim_ctx_destroy(ctx);
    free(cbuf), free(rae), free(rbe);
    terms_free(&t);
    if (refs_out) {
        refs_out->ref32 = ref32;
        refs_out->refx = refx;
        refs_out->xok = xok;
        refs_out->n_exact_checked = do_exact ? n_xok : 0;
    } else {
        free(ref32), free(refx), free(xok);
    }
    return bad;
}

static void refs_free(case_refs *r)
{
    free(r->ref32), free(r->refx), free(r->xok);
}

/* ---- data generators -------------------------------------------------------------------- */

static int rnd_int(mxt_rng *r, int lo, int hi) /* uniform in [lo, hi] */
{
    return (int)((int64_t)lo + (int64_t)(mxt_next(r) % (uint64_t)((int64_t)hi - lo + 1)));
}

enum { MANT_UNIFORM, MANT_SPARSE, MANT_MIN128, MANT_BIGPOS, MANT_SMALL };

static void fill_mant(mxt_rng *r, int8_t *m, int64_t n, int mode)
{
    for (int64_t k = 0; k < n; k++) {
        switch (mode) {
        case MANT_SPARSE: m[k] = (int8_t)(rnd_int(r, 0, 3) ? 0 : rnd_int(r, -128, 127)); break;
        case MANT_MIN128: m[k] = -128; break;
        case MANT_BIGPOS: m[k] = (int8_t)rnd_int(r, 100, 127); break;
        case MANT_SMALL: m[k] = (int8_t)rnd_int(r, -3, 3); break;
        default: m[k] = (int8_t)rnd_int(r, -128, 127); break;
        }
    }
}

/* bytes uniform in [lo, hi]; with nan_pct percent chance of 0xFF */
static void fill_scale(mxt_rng *r, uint8_t *e, int64_t n, int lo, int hi, int nan_pct)
{
    for (int64_t k = 0; k < n; k++)
        e[k] = (nan_pct && rnd_int(r, 0, 99) < nan_pct) ? 0xFF : (uint8_t)rnd_int(r, lo, hi);
}

static gcase random_case(mxt_rng *r, int64_t M, int64_t N, int64_t K, int64_t G, int mant_mode,
                         int lo, int hi, int nan_pct)
{
    gcase c = case_new(M, N, K, G);
    fill_mant(r, c.am, M * K, mant_mode);
    fill_mant(r, c.bm, N * K, mant_mode);
    fill_scale(r, c.ae, M * (K / G), lo, hi, nan_pct);
    fill_scale(r, c.be, N * (K / G), lo, hi, nan_pct);
    return c;
}

static void set_terms_g1(gcase *c, int64_t row_a, int64_t row_b, int64_t g, int ma, int mb, int ea,
                         int eb)
{ /* for G == 1 cases: element/group g of A row row_a and B row row_b */
    c->am[row_a * c->K + g] = (int8_t)ma;
    c->bm[row_b * c->K + g] = (int8_t)mb;
    c->ae[row_a * c->K + g] = (uint8_t)ea;
    c->be[row_b * c->K + g] = (uint8_t)eb;
}

/* Runs c in one accumulator mode on the default path through mxsim_gemm_raw. */
static float raw_one(const gcase *c, mxsim_acc acc, int64_t i, int64_t j)
{
    mxsim_ctx *ctx = new_ctx();
    float *out = xcalloc((size_t)(c->M * c->N), sizeof(float));
    mxsim_status st = mxsim_gemm_raw(ctx, c->M, c->N, c->K, c->G, c->am, c->ae, c->bm, c->be, acc, out);
    if (st != MXSIM_OK) MXT_FAILF("mxsim_gemm_raw: %s: %s", mxsim_strerror(st), mxsim_errmsg(ctx));
    float v = out[i * c->N + j];
    free(out);
    mxsim_ctx_destroy(ctx);
    return st == MXSIM_OK ? v : NAN;
}

/* ============================================================================================
** Tests of the reference itself (no library code involved)
** ========================================================================================== */

MXTEST(reference_selfcheck)
{
    mxt_rng r = {0x5EEDu};
    /* ref_round_f32 against the FPU's double -> float conversion, where a double holds the
    ** value exactly (mag < 2^53, exponent well inside double range). */
    for (int it = 0; it < 200000; it++) {
        int bitsn = rnd_int(&r, 1, 53);
        uint64_t mag = mxt_next(&r) >> (64 - bitsn);
        if (!mag) mag = 1;
        if (rnd_int(&r, 0, 2) == 0) /* an exact tie: 24 kept bits, then binary 1 */
            mag = ((((mxt_next(&r) >> 40) | (1ull << 23)) << 1) | 1u) << rnd_int(&r, 0, 27);
        int e0 = rnd_int(&r, -230, 120);
        int neg = rnd_int(&r, 0, 1);
        double dv = ldexp((double)mag, e0);
        float want = (float)(neg ? -dv : dv);
        float got = ref_round_f32(neg, (u128)mag, e0);
        mxt_checks++;
        if (!mxt_same_f32(got, want) && mxt_failures++ < 5)
            fprintf(stderr, "  ref_round_f32(%d, %llu, %d) = %a, FPU %a\n", neg,
                    (unsigned long long)mag, e0, (double)got, (double)want);
    }
    /* a few fixed points */
    MXT_EQ_F32(ref_round_f32(0, 1, -150), 0.0f);                                    /* tie -> even 0 */
    MXT_EQ_F32(ref_round_f32(1, 1, -150), -0.0f);
    MXT_EQ_F32(ref_round_f32(0, 3, -150), bits_f32(2));                             /* 1.5 ulp -> 2 */
    MXT_EQ_F32(ref_round_f32(0, ((u128)1 << 24) - 1, 104), FLT_MAX);
    MXT_EQ_F32(ref_round_f32(0, ((u128)1 << 25) - 1, 103), INFINITY);               /* tie -> Inf */
    MXT_EQ_F32(ref_round_f32(0, (((u128)1 << 25) - 1) << 53 | 0, 50), INFINITY);
    MXT_EQ_F32(ref_round_f32(0, ((((u128)1 << 25) - 1) << 53) - 1, 50), FLT_MAX);
    MXT_EQ_F32(ref_round_f32(0, ((u128)1 << 23), -149), FLT_MIN);
    MXT_EQ_F32(ref_round_f32(0, ((u128)1 << 24) - 1, -150), FLT_MIN); /* rounds up into normal */
    MXT_EQ_F32(ref_round_f32(0, (u128)1 << 100, -368), 0.0f);        /* 2^-268 */
    /* ref_bf16 */
    MXT_EQ_HEX(ref_bf16(1.0f), 0x3F80);
    MXT_EQ_HEX(ref_bf16(1.0f + 0x1p-8f), 0x3F80);        /* tie -> even */
    MXT_EQ_HEX(ref_bf16(1.0f + 3 * 0x1p-8f), 0x3F82);    /* tie -> even (up) */
    MXT_EQ_HEX(ref_bf16(1.0f + 0x1p-8f + 0x1p-20f), 0x3F81);
    MXT_EQ_HEX(ref_bf16(-1.0f - 0x1p-8f - 0x1p-20f), 0xBF81);
    MXT_EQ_HEX(ref_bf16(FLT_MAX), 0x7F80);
    MXT_EQ_HEX(ref_bf16(-FLT_MAX), 0xFF80);
    MXT_EQ_HEX(ref_bf16(-0.0f), 0x8000);
    MXT_EQ_HEX(ref_bf16(bits_f32(0x00008000u)), 0x0000);
    MXT_EQ_HEX(ref_bf16(bits_f32(0x00018000u)), 0x0002);
    MXT_EQ_HEX(ref_bf16(bits_f32(0x00008001u)), 0x0001);
    MXT_EQ_HEX(ref_bf16(bits_f32(0x007FFFFFu)), 0x0080); /* largest subnormal -> FLT_MIN */
    MXT_EQ_HEX(ref_bf16(INFINITY), 0x7F80);
    MXT_TRUE(mxt_same_bf16(ref_bf16(NAN), 0x7FC0));
    MXT_TRUE(mxt_same_bf16(ref_bf16(bits_f32(0x7F800001u)), 0x7FC0)); /* payload in low bits */
    /* the exact reference agrees with the fp32 one for a single nonzero group */
    for (int it = 0; it < 100000; it++) {
        int32_t d = (int32_t)rnd_int(&r, -(1 << 30), 1 << 30);
        if (!d) d = 1;
        int s = rnd_int(&r, -268, 242);
        float x;
        MXT_TRUE(ref_exact_one(&d, &s, 1, &x));
        mxt_checks++;
        if (!mxt_same_f32(x, ref_fp32_one(&d, &s, 1)) && !(x == 0.0f) && mxt_failures++ < 5)
            fprintf(stderr, "  d=%d s=%d exact %a fp32 %a\n", d, s, (double)x,
                    (double)ref_fp32_one(&d, &s, 1));
    }
}

/* ============================================================================================
** API-level checks
** ========================================================================================== */

MXTEST(scale_to_ocp_mapping)
{
    for (int p = 0; p < MXSIM_PROFILE_COUNT_; p++)
        for (int b = 0; b < 256; b++) {
            int e = 12345, nan = 12345;
            mxsim_scale_to_ocp((mxsim_profile)p, (uint8_t)b, &e, &nan);
            int want = ref_scale_e((mxsim_profile)p, (uint8_t)b);
            if (want == E_NAN) {
                MXT_EQ_INT(nan, 1);
            } else {
                MXT_EQ_INT(nan, 0);
                MXT_EQ_INT(e, want);
            }
        }
}

MXTEST(simd_selection)
{
    mxsim_ctx *ctx = new_ctx();
    MXT_TRUE(mxsim_simd_available(MXSIM_SIMD_SCALAR));
    MXT_TRUE(mxsim_simd_available(MXSIM_SIMD_AUTO));
    MXT_EQ_INT(mxsim_ctx_set_simd(ctx, MXSIM_SIMD_SCALAR), MXSIM_OK);
    MXT_EQ_INT(mxsim_ctx_set_simd(ctx, MXSIM_SIMD_AUTO), MXSIM_OK);
    if (mxsim_simd_available(MXSIM_SIMD_AVX2)) {
        MXT_EQ_INT(mxsim_ctx_set_simd(ctx, MXSIM_SIMD_AVX2), MXSIM_OK);
    } else {
        MXT_EQ_INT(mxsim_ctx_set_simd(ctx, MXSIM_SIMD_AVX2), MXSIM_E_UNSUPPORTED);
        MXT_TRUE(mxsim_errmsg(ctx)[0] != '\0');
    }
    MXT_TRUE(mxsim_ctx_set_simd(ctx, (mxsim_simd)99) != MXSIM_OK);
    MXT_TRUE(mxsim_ctx_set_threads(ctx, 1025) != MXSIM_OK);
    MXT_TRUE(mxsim_errmsg(ctx)[0] != '\0');
    MXT_EQ_INT(mxsim_ctx_set_threads(ctx, 1024), MXSIM_OK);
    MXT_EQ_INT(mxsim_ctx_set_threads(ctx, 0), MXSIM_OK);
    MXT_TRUE(mxsim_ctx_set_threads(NULL, 1) != MXSIM_OK);
    MXT_TRUE(mxsim_ctx_set_simd(NULL, MXSIM_SIMD_SCALAR) != MXSIM_OK);
    printf("    avx2 %savailable; %d paths per case\n",
           mxsim_simd_available(MXSIM_SIMD_AVX2) ? "" : "not ", (init_paths(), g_n_paths));
    mxsim_ctx_destroy(ctx);
}

/* ============================================================================================
** Shapes
** ========================================================================================== */

MXTEST(small_and_odd_shapes)
{
    mxt_rng r = {101};
    static const int64_t shapes[][4] = {
        /* M, N, K, G */
        {1, 1, 1, 1},    {1, 1, 32, 32},  {1, 7, 24, 8},   {5, 1, 24, 8},   {3, 4, 96, 96},
        {1, 13, 96, 96}, {9, 2, 5, 1},    {2, 9, 7, 1},    {4, 4, 6, 2},    {3, 5, 12, 4},
        {7, 3, 48, 16},  {1, 1, 4096, 1}, {1, 33, 40, 8},  {17, 1, 160, 32}, {2, 3, 384, 128},
        {6, 6, 768, 256}, {1, 9, 2, 2},   {11, 1, 64, 64},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        char label[96];
        gcase c = random_case(&r, shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3],
                              MANT_UNIFORM, 118, 148, 0);
        snprintf(label, sizeof label, "shape %lldx%lldx%lld G=%lld", (long long)c.M, (long long)c.N,
                 (long long)c.K, (long long)c.G);
        run_case(label, &c, X_REQUIRE, NULL);
        case_free(&c);
    }
}

MXTEST(random_shapes_all_group_sizes)
{
    mxt_rng r = {202};
    static const int64_t gs[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
    for (size_t gi = 0; gi < sizeof gs / sizeof gs[0]; gi++)
        for (int rep = 0; rep < 3; rep++) {
            int64_t G = gs[gi];
            int64_t ngmax = 1024 / G < 1 ? 1 : (1024 / G > 40 ? 40 : 1024 / G);
            int64_t M = rnd_int(&r, 1, 19), N = rnd_int(&r, 1, 37), K = G * rnd_int(&r, 1, (int)ngmax);
            if (rep == 0) M = 1;
            if (rep == 1) N = 1;
            int mode = rep == 2 ? MANT_SPARSE : MANT_UNIFORM;
            gcase c = random_case(&r, M, N, K, G, mode, 118, 148, 0);
            char label[96];
            snprintf(label, sizeof label, "random %lldx%lldx%lld G=%lld", (long long)M, (long long)N,
                     (long long)K, (long long)G);
            run_case(label, &c, X_REQUIRE, NULL);
            case_free(&c);
            /* the same shape with the full scale range (fp32 mode; exact where it fits) */
            c = random_case(&r, M, N, K, G, MANT_UNIFORM, 0, 254, 2);
            snprintf(label, sizeof label, "random full-range %lldx%lldx%lld G=%lld", (long long)M,
                     (long long)N, (long long)K, (long long)G);
            run_case(label, &c, X_WHERE_FITS, NULL);
            case_free(&c);
        }
}

MXTEST(blocking_and_ragged_shapes)
{
    mxt_rng r = {303};
    static const int64_t shapes[][4] = {
        {67, 131, 512, 32}, {5, 300, 4096, 128}, {33, 17, 96, 32}, {129, 65, 256, 16},
        {1, 1000, 64, 64},  {257, 3, 32, 32},    {31, 33, 1024, 256}, {16, 64, 160, 32},
        {8, 9, 2048, 8},    {65, 63, 8192, 32},  {128, 129, 1024, 64}, {3, 517, 640, 32},
        {100, 1, 4096, 16}, {1, 100, 4096, 4},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        gcase c = random_case(&r, shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3],
                              MANT_UNIFORM, 120, 146, 0);
        char label[96];
        snprintf(label, sizeof label, "blocking %lldx%lldx%lld G=%lld", (long long)c.M,
                 (long long)c.N, (long long)c.K, (long long)c.G);
        run_case(label, &c, X_REQUIRE, NULL);
        case_free(&c);
    }
}

/* ============================================================================================
** Special values
** ========================================================================================== */

MXTEST(extreme_scale_bytes)
{
    mxt_rng r = {404};
    static const uint8_t ext[] = {0, 1, 254, 255};
    for (int rep = 0; rep < 6; rep++) {
        int64_t G = rep < 3 ? 8 : 32, M = 9, N = 11, K = G * 6;
        gcase c = random_case(&r, M, N, K, G, rep % 2 ? MANT_UNIFORM : MANT_SMALL, 0, 0, 0);
        for (int64_t k = 0; k < M * (K / G); k++) c.ae[k] = ext[rnd_int(&r, 0, rep == 5 ? 3 : 2)];
        for (int64_t k = 0; k < N * (K / G); k++) c.be[k] = ext[rnd_int(&r, 0, rep == 5 ? 3 : 2)];
        char label[64];
        snprintf(label, sizeof label, "extreme scales rep %d", rep);
        run_case(label, &c, X_WHERE_FITS, NULL);
        case_free(&c);
    }
    /* windows where exact mode must be covered: {0,1} x {0,1} and {254,255} x {254,255} */
    for (int w = 0; w < 2; w++) {
        gcase c = random_case(&r, 6, 7, 64, 8, MANT_UNIFORM, w ? 254 : 0, w ? 254 : 1, 0);
        for (int64_t k = 0; k < 6 * 8; k++)
            if (w && rnd_int(&r, 0, 9) == 0) c.ae[k] = 255;
        run_case(w ? "scales 254/255" : "scales 0/1", &c, X_REQUIRE, NULL);
        case_free(&c);
    }
    /* single terms at the extremes: s = -266 .. 242, checked against hand values */
    {
        gcase c = case_new(1, 1, 1, 1);
        c.am[0] = 1, c.bm[0] = 1, c.ae[0] = 254, c.be[0] = 254; /* 2^242 -> +Inf */
        run_case("1*2^242", &c, X_REQUIRE, NULL);
        MXT_EQ_F32(raw_one(&c, MXSIM_ACC_FP32, 0, 0), INFINITY);
        MXT_EQ_F32(raw_one(&c, MXSIM_ACC_EXACT, 0, 0), INFINITY);
        c.am[0] = -128, c.bm[0] = 127, c.ae[0] = 0, c.be[0] = 1; /* -16256*2^-265 -> -0 / -0 */
        run_case("-16256*2^-265", &c, X_REQUIRE, NULL);
        MXT_EQ_F32(raw_one(&c, MXSIM_ACC_FP32, 0, 0), 0.0f); /* +0 + (-0) = +0 */
        MXT_EQ_F32(raw_one(&c, MXSIM_ACC_EXACT, 0, 0), -0.0f); /* RN of a negative tiny value */
        c.am[0] = 1, c.bm[0] = 1, c.ae[0] = 117, c.be[0] = 0; /* 2^-149, smallest subnormal */
        MXT_EQ_F32(raw_one(&c, MXSIM_ACC_FP32, 0, 0), bits_f32(1));
        c.ae[0] = 116; /* 2^-150: tie -> +0 */
        MXT_EQ_F32(raw_one(&c, MXSIM_ACC_FP32, 0, 0), 0.0f);
        c.am[0] = 3; /* 1.5 * 2^-149: tie -> 2^-148 */
        MXT_EQ_F32(raw_one(&c, MXSIM_ACC_FP32, 0, 0), bits_f32(2));
        case_free(&c);
    }
}

MXTEST(all_mantissas_minus128)
{
    mxt_rng r = {505};
    static const int64_t gs[] = {1, 8, 32, 256, 4096};
    for (size_t gi = 0; gi < sizeof gs / sizeof gs[0]; gi++) {
        int64_t G = gs[gi], K = G * (G >= 4096 ? 2 : 5);
        gcase c = random_case(&r, 3, 5, K, G, MANT_MIN128, 125, 141, 0);
        char label[64];
        snprintf(label, sizeof label, "all -128 G=%lld", (long long)G);
        run_case(label, &c, X_REQUIRE, NULL);
        /* every term is G * 2^14 * 2^s, positive */
        case_free(&c);
    }
    /* the maximal group: G = 65536, d = 2^30 exactly */
    {
        gcase c = random_case(&r, 2, 3, 131072, 65536, MANT_MIN128, 100, 140, 0);
        run_case("all -128 G=65536", &c, X_REQUIRE, NULL);
        c.ae[0] = c.ae[1] = 133, c.be[0] = c.be[1] = 133; /* C[0,0] = 2 * 2^30 */
        MXT_EQ_F32(raw_one(&c, MXSIM_ACC_FP32, 0, 0), 0x1p31f);
        MXT_EQ_F32(raw_one(&c, MXSIM_ACC_EXACT, 0, 0), 0x1p31f);
        case_free(&c);
    }
    /* -128 x -128 with huge scales: overflow to +Inf in both modes */
    {
        gcase c = random_case(&r, 4, 4, 64, 32, MANT_MIN128, 190, 200, 0);
        run_case("all -128 overflow", &c, X_REQUIRE, NULL);
        MXT_EQ_F32(raw_one(&c, MXSIM_ACC_FP32, 0, 0), INFINITY);
        case_free(&c);
    }
    /* -128 on one side, 127 on the other */
    {
        gcase c = random_case(&r, 5, 6, 256, 32, MANT_MIN128, 110, 150, 0);
        memset(c.bm, 127, (size_t)(6 * 256));
        run_case("-128 x 127", &c, X_REQUIRE, NULL);
        case_free(&c);
    }
}

MXTEST(overflow_to_inf)
{
    /* G = 1; terms chosen so fp32 and exact overflow differently. */
    gcase c = case_new(1, 4, 3, 1);
    /* C[0,0]: 2^14*2^114 = 2^128 (a term that overflows) + (-1)*2^103 + 0:
    **   fp32: +Inf.  exact: 2^128 - 2^103 = the midpoint FLT_MAX..2^128 -> tie to even -> +Inf. */
    set_terms_g1(&c, 0, 0, 0, -128, -128, 254, 126);
    set_terms_g1(&c, 0, 0, 1, -1, 1, 243, 126);
    set_terms_g1(&c, 0, 0, 2, 0, 0, 133, 133);
    /* C[0,1]: as above plus (-1)*2^50: exact is just below the midpoint -> FLT_MAX. Row 0 of A
    ** is shared, so use B's bytes for the differences: A bytes (254, 243, 190). */
    c.ae[2] = 190, c.am[2] = -1;
    set_terms_g1(&c, 0, 1, 0, -128, -128, 254, 126);
    set_terms_g1(&c, 0, 1, 1, -1, 1, 243, 126);
    set_terms_g1(&c, 0, 1, 2, -1, 1, 190, 126);
    /* C[0,2]: two finite terms 2^127 + 2^127 -> acc overflows to Inf in both modes */
    c.bm[2 * 3 + 0] = -128, c.be[2 * 3 + 0] = 125; /* -128*-128 * 2^(254+125-266=113) = 2^127 */
    c.bm[2 * 3 + 1] = -128, c.be[2 * 3 + 1] = 136; /* -1*-128*2^(243+136-266=113) = 2^120 */
    c.bm[2 * 3 + 2] = 0, c.be[2 * 3 + 2] = 126;
    /* C[0,3]: negative overflow: -(2^14 * 2^114) */
    c.bm[3 * 3 + 0] = 127, c.be[3 * 3 + 0] = 127; /* -128*127*2^115 = -127*2^122 -> -Inf */
    c.bm[3 * 3 + 1] = 0, c.be[3 * 3 + 1] = 0;
    c.bm[3 * 3 + 2] = 0, c.be[3 * 3 + 2] = 0;
    case_refs rf;
    run_case("overflow", &c, X_REQUIRE, &rf);
    MXT_EQ_F32(rf.ref32[0], INFINITY);
    MXT_EQ_F32(rf.refx[0], INFINITY);
    MXT_EQ_F32(rf.ref32[1], INFINITY);
    MXT_EQ_F32(rf.refx[1], FLT_MAX);
    MXT_EQ_F32(rf.ref32[2], 0x1p127f + 0x1p120f);
    MXT_EQ_F32(rf.ref32[3], -INFINITY);
    MXT_EQ_F32(rf.refx[3], -INFINITY);
    MXT_EQ_F32(raw_one(&c, MXSIM_ACC_EXACT, 0, 1), FLT_MAX);
    MXT_EQ_F32(raw_one(&c, MXSIM_ACC_FP32, 0, 1), INFINITY);
    refs_free(&rf);
    /* a finite acc that overflows from two finite terms */
    c.bm[2 * 3 + 1] = -128, c.be[2 * 3 + 1] = 136 + 7; /* 2^127 */
    run_case("overflow by accumulation", &c, X_REQUIRE, &rf);
    MXT_EQ_F32(rf.ref32[2], INFINITY);
    MXT_EQ_F32(rf.refx[2], INFINITY);
    refs_free(&rf);
    case_free(&c);
    /* random: scales near the top */
    mxt_rng r = {606};
    c = random_case(&r, 13, 21, 256, 32, MANT_UNIFORM, 185, 200, 0);
    run_case("random near overflow", &c, X_REQUIRE, NULL);
    case_free(&c);
}

MXTEST(inf_minus_inf_is_nan)
{
    gcase c = case_new(2, 2, 4, 1);
    /* C[0,0] = +Inf + -Inf -> NaN (fp32); exact: 2^242 - 2^242 + 0 = +0 */
    set_terms_g1(&c, 0, 0, 0, 1, 1, 254, 254);
    set_terms_g1(&c, 0, 0, 1, -1, 1, 254, 254);
    set_terms_g1(&c, 0, 0, 2, 0, 0, 254, 254);
    set_terms_g1(&c, 0, 0, 3, 0, 0, 254, 254);
    /* B row 1: C[0,1] = (+1 + +1) * 2^242 -> +Inf (fp32: Inf + Inf), exact: 2^243 -> +Inf */
    c.bm[1 * 4 + 0] = 1, c.be[1 * 4 + 0] = 254;
    c.bm[1 * 4 + 1] = -1, c.be[1 * 4 + 1] = 254; /* A row 0 elt1 is -1 -> +1 */
    c.bm[1 * 4 + 2] = 0, c.be[1 * 4 + 2] = 0;
    c.bm[1 * 4 + 3] = 0, c.be[1 * 4 + 3] = 0;
    /* A row 1: Inf then finite then nothing: stays +Inf */
    c.am[1 * 4 + 0] = 2, c.ae[1 * 4 + 0] = 254;
    c.am[1 * 4 + 1] = 0, c.ae[1 * 4 + 1] = 254;
    c.am[1 * 4 + 2] = 5, c.ae[1 * 4 + 2] = 133;
    c.am[1 * 4 + 3] = 0, c.ae[1 * 4 + 3] = 133;
    case_refs rf;
    run_case("inf - inf", &c, X_REQUIRE, &rf);
    MXT_TRUE(isnan(rf.ref32[0]));
    MXT_EQ_F32(rf.refx[0], 0.0f);
    MXT_EQ_F32(rf.ref32[1], INFINITY);
    MXT_EQ_F32(rf.ref32[2], INFINITY);
    MXT_TRUE(isnan(raw_one(&c, MXSIM_ACC_FP32, 0, 0)));
    MXT_EQ_F32(raw_one(&c, MXSIM_ACC_EXACT, 0, 0), 0.0f);
    refs_free(&rf);
    case_free(&c);
    /* random: many infinite terms of both signs */
    mxt_rng r = {707};
    c = random_case(&r, 7, 9, 128, 16, MANT_UNIFORM, 245, 254, 0);
    run_case("random inf terms", &c, X_REQUIRE, NULL);
    case_free(&c);
}

MXTEST(nan_scales)
{
    mxt_rng r = {808};
    for (int rep = 0; rep < 4; rep++) {
        gcase c = random_case(&r, 11, 23, 128, 32, MANT_UNIFORM, 120, 146, 6);
        char label[64];
        snprintf(label, sizeof label, "nan scales rep %d", rep);
        case_refs rf;
        run_case(label, &c, X_REQUIRE, &rf);
        long nn = 0;
        for (int64_t k = 0; k < c.M * c.N; k++) nn += isnan(rf.ref32[k]) != 0;
        MXT_TRUE(nn > 0 && nn < c.M * c.N); /* the test exercises both */
        refs_free(&rf);
        case_free(&c);
    }
    /* NaN scale with all-zero mantissas in that group is still NaN; NaN in the last group */
    gcase c = random_case(&r, 2, 2, 64, 32, MANT_UNIFORM, 130, 136, 0);
    memset(c.am + 32, 0, 32);
    c.ae[1] = 0xFF;
    c.be[1 * 2 + 1] = 0xFF;
    case_refs rf;
    run_case("nan scale, zero mantissas", &c, X_REQUIRE, &rf);
    MXT_TRUE(isnan(rf.ref32[0]) && isnan(rf.ref32[1]) && isnan(rf.ref32[3]) && !isnan(rf.ref32[2]));
    refs_free(&rf);
    case_free(&c);
}

MXTEST(subnormal_terms_and_results)
{
    mxt_rng r = {909};
    /* s around -150..-120: terms and sums that are subnormal or just normal; no FTZ anywhere */
    for (int rep = 0; rep < 4; rep++) {
        int64_t G = rep < 2 ? 8 : 32;
        gcase c = random_case(&r, 12, 19, G * 8, G, rep % 2 ? MANT_SMALL : MANT_UNIFORM, 52, 72, 0);
        char label[64];
        snprintf(label, sizeof label, "subnormal rep %d", rep);
        case_refs rf;
        run_case(label, &c, X_REQUIRE, &rf);
        long sub = 0;
        for (int64_t k = 0; k < c.M * c.N; k++)
            sub += rf.ref32[k] != 0.0f && fabsf(rf.ref32[k]) < FLT_MIN;
        MXT_TRUE(sub > 0);
        refs_free(&rf);
        case_free(&c);
    }
    /* the whole range down to the MASE-only E = -1 is covered by the mase test */
}

MXTEST(large_group_term_rounding)
{
    /* |d| > 2^24: the term itself rounds; with subnormal results a two-step (float)d * 2^s
    ** would round twice.  d ~ G * 127 * 110 ~ 2^25..2^26 for G = 4096. */
    mxt_rng r = {1010};
    for (int rep = 0; rep < 3; rep++) {
        int64_t G = rep == 2 ? 65536 : 4096, K = G * 2;
        gcase c = random_case(&r, 3, 4, K, G, MANT_BIGPOS, rep == 0 ? 120 : 40, rep == 0 ? 140 : 60, 0);
        for (int64_t k = 0; k < 4 * K; k += 7) c.bm[k] = (int8_t)(-c.bm[k]); /* odd d values */
        char label[64];
        snprintf(label, sizeof label, "large G=%lld rep %d", (long long)G, rep);
        run_case(label, &c, X_REQUIRE, NULL);
        case_free(&c);
    }
    /* a targeted double-rounding trap: d = 2^25 + 2^24 + 1... constructed as G = 4096 terms:
    ** d = 4095 * 127*127 + 1*x; we search x so that RN(d * 2^s) != RN(RN_f32(d) * 2^s) */
    gcase c = case_new(1, 1, 4096, 4096);
    int found = 0;
    for (int x = -128; x <= 127 && !found; x++) {
        int32_t d = 4095 * 127 * 127 + x;
        for (int s = -175; s <= -150 && !found; s++) {
            float one = (float)ldexp((double)d, s);
            float two = (float)ldexp((double)(float)d, s);
            if (f32_bits(one) != f32_bits(two)) {
                memset(c.am, 127, 4096);
                memset(c.bm, 127, 4095);
                c.bm[4095] = (int8_t)x;
                c.am[4095] = 1;
                c.ae[0] = 0;
                c.be[0] = (uint8_t)(s + 266);
                found = 1;
                gterms t = terms_new(&c);
                MXT_EQ_INT(t.d[0], d);
                terms_free(&t);
                run_case("double-rounding trap", &c, X_REQUIRE, NULL);
                MXT_EQ_F32(raw_one(&c, MXSIM_ACC_FP32, 0, 0), one);
            }
        }
    }
    MXT_TRUE(found);
    case_free(&c);
}

MXTEST(fp32_and_exact_modes_differ)
{
    /* crafted: terms 2^30, 1, -2^30 -> fp32 +0, exact 1 */
    gcase c = case_new(1, 1, 3, 1);
    set_terms_g1(&c, 0, 0, 0, 1, 1, 163, 133);
    set_terms_g1(&c, 0, 0, 1, 1, 1, 133, 133);
    set_terms_g1(&c, 0, 0, 2, -1, 1, 163, 133);
    case_refs rf;
    run_case("cancellation", &c, X_REQUIRE, &rf);
    MXT_EQ_F32(rf.ref32[0], 0.0f);
    MXT_EQ_F32(rf.refx[0], 1.0f);
    float f = raw_one(&c, MXSIM_ACC_FP32, 0, 0), x = raw_one(&c, MXSIM_ACC_EXACT, 0, 0);
    MXT_EQ_F32(f, 0.0f);
    MXT_EQ_F32(x, 1.0f);
    MXT_TRUE(!mxt_same_f32(f, x));
    refs_free(&rf);
    case_free(&c);
    /* random, wide scale window: many outputs must differ between the modes, and the library
    ** must differ exactly where the references do (run_case checks both against them). */
    mxt_rng r = {1111};
    c = random_case(&r, 16, 24, 64 * 8, 8, MANT_UNIFORM, 106, 146, 0);
    run_case("random wide cancellation", &c, X_REQUIRE, &rf);
    long differ = 0;
    for (int64_t k = 0; k < c.M * c.N; k++) differ += !mxt_same_f32(rf.ref32[k], rf.refx[k]);
    printf("    fp32 and exact references differ on %ld of %lld outputs\n", differ,
           (long long)(c.M * c.N));
    MXT_TRUE(differ > c.M * c.N / 4);
    /* and directly: the library's two modes differ at the same outputs */
    mxsim_ctx *ctx = new_ctx();
    float *o1 = xcalloc((size_t)(c.M * c.N), sizeof(float)), *o2 = xcalloc((size_t)(c.M * c.N), sizeof(float));
    MXT_EQ_INT(mxsim_gemm_raw(ctx, c.M, c.N, c.K, c.G, c.am, c.ae, c.bm, c.be, MXSIM_ACC_FP32, o1), MXSIM_OK);
    MXT_EQ_INT(mxsim_gemm_raw(ctx, c.M, c.N, c.K, c.G, c.am, c.ae, c.bm, c.be, MXSIM_ACC_EXACT, o2), MXSIM_OK);
    for (int64_t k = 0; k < c.M * c.N; k++)
        MXT_EQ_INT(!mxt_same_f32(o1[k], o2[k]), !mxt_same_f32(rf.ref32[k], rf.refx[k]));
    free(o1), free(o2);
    mxsim_ctx_destroy(ctx);
    refs_free(&rf);
    case_free(&c);
}

MXTEST(bf16_output_rounding)
{
    /* float32 results at bf16 ties and just off them; G = 1, d = a*b, s = 0 -> exact ints */
    gcase c = case_new(1, 6, 2, 1);
    /* C = 256 + 1 = 257: bf16 has 8 bits, 257 is a tie between 256 and 258 -> 256 */
    c.am[0] = 16, c.am[1] = 1, c.ae[0] = 133, c.ae[1] = 133;
    int bm[6][2] = {{16, 1}, {16, 3}, {-16, -1}, {16, 0}, {-16, -3}, {0, 1}};
    for (int j = 0; j < 6; j++) {
        c.bm[j * 2] = (int8_t)bm[j][0], c.bm[j * 2 + 1] = (int8_t)bm[j][1];
        c.be[j * 2] = 133, c.be[j * 2 + 1] = 133;
    }
    case_refs rf;
    run_case("bf16 ties", &c, X_REQUIRE, &rf);
    MXT_EQ_F32(rf.ref32[0], 257.0f);
    MXT_EQ_HEX(ref_bf16(rf.ref32[0]), 0x4380); /* 256 */
    MXT_EQ_HEX(ref_bf16(rf.ref32[1]), 0x4382); /* 259 -> 260 */
    MXT_EQ_HEX(ref_bf16(rf.ref32[2]), 0xC380); /* -257 -> -256 */
    refs_free(&rf);
    case_free(&c);
    /* bf16 overflow from a finite float32 (>= 2^128 - 2^119 rounds to Inf) */
    mxt_rng r = {1212};
    c = random_case(&r, 9, 10, 64, 32, MANT_UNIFORM, 185, 197, 0);
    run_case("bf16 near overflow", &c, X_REQUIRE, NULL);
    case_free(&c);
}

/* ============================================================================================
** Profiles: MASE bytes are OCP + 1; the others are OCP bytes
** ========================================================================================== */

MXTEST(profiles_mase_and_others)
{
    mxt_rng r = {1313};
    struct {
        mxsim_profile pa, pb;
        int lo, hi;
    } cfg[] = {
        {MXSIM_PROFILE_MASE, MXSIM_PROFILE_MASE, 119, 149},
        {MXSIM_PROFILE_MASE, MXSIM_PROFILE_OCP, 119, 149},
        {MXSIM_PROFILE_OCP, MXSIM_PROFILE_MASE, 119, 149},
        {MXSIM_PROFILE_MICROXCALING, MXSIM_PROFILE_MASE_CUDA, 118, 148},
        {MXSIM_PROFILE_MASE, MXSIM_PROFILE_MASE, 0, 2},     /* E = -1 (byte 0): s down to -268 */
        {MXSIM_PROFILE_MASE, MXSIM_PROFILE_MASE, 253, 255}, /* byte 255 NaN, 254 -> E 253 */
        {MXSIM_PROFILE_MASE, MXSIM_PROFILE_OCP, 0, 255},
    };
    for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; k++) {
        gcase c = random_case(&r, 7, 12, 96, 32, MANT_UNIFORM, cfg[k].lo, cfg[k].hi, 0);
        c.pa = cfg[k].pa, c.pb = cfg[k].pb;
        char label[96];
        snprintf(label, sizeof label, "profiles %s x %s bytes %d..%d", mxsim_profile_name(c.pa),
                 mxsim_profile_name(c.pb), cfg[k].lo, cfg[k].hi);
        run_case(label, &c, cfg[k].hi - cfg[k].lo > 40 ? X_WHERE_FITS : X_REQUIRE, NULL);
        case_free(&c);
    }
    /* one hand value: MASE byte 134 is E = 133: 1 * 1 * 2^(133+133-266) = 1; and MASE byte 0
    ** on both sides with d = -1: exact sum -2^-268 -> -0.0; fp32: +0 + (-0) = +0 */
    gcase c = case_new(1, 2, 1, 1);
    c.pa = c.pb = MXSIM_PROFILE_MASE;
    c.am[0] = 1, c.ae[0] = 134;
    c.bm[0] = 1, c.be[0] = 134;
    c.bm[1] = 3, c.be[1] = 135;
    case_refs rf;
    run_case("mase hand values", &c, X_REQUIRE, &rf);
    MXT_EQ_F32(rf.ref32[0], 1.0f);
    MXT_EQ_F32(rf.ref32[1], 6.0f);
    refs_free(&rf);
    c.am[0] = -1, c.ae[0] = 0, c.be[0] = 0;
    run_case("mase byte 0 (E=-1)", &c, X_REQUIRE, &rf);
    MXT_EQ_F32(rf.ref32[0], 0.0f);
    MXT_EQ_F32(rf.refx[0], -0.0f);
    refs_free(&rf);
    case_free(&c);
}

/* ============================================================================================
** Errors
** ========================================================================================== */

static mxsim_mx *mx_shape(mxsim_ctx *ctx, int ndim, const int64_t *shape, int64_t G, int axis)
{
    mxsim_tensor *tm = NULL, *ts = NULL;
    mxsim_mx *mx = NULL;
    int64_t shs[MXSIM_MAX_DIMS];
    for (int d = 0; d < ndim; d++) shs[d] = d == axis ? shape[d] / G : shape[d];
    if (mxsim_tensor_create(ctx, MXSIM_DTYPE_I8, ndim, shape, &tm) == MXSIM_OK &&
        mxsim_tensor_create(ctx, MXSIM_DTYPE_U8, ndim, shs, &ts) == MXSIM_OK) {
        memset(mxsim_tensor_data(ts), 133, (size_t)mxsim_tensor_numel(ts));
        if (mxsim_mx_create(ctx, tm, ts, G, axis, MXSIM_PROFILE_OCP, &mx) != MXSIM_OK) mx = NULL;
    }
    mxsim_tensor_free(tm);
    mxsim_tensor_free(ts);
    MXT_TRUE(mx != NULL);
    return mx;
}

#define EXPECT_FAIL(call, what)                                                              \
    do {                                                                                     \
        mxsim_status st_ = (call);                                                           \
        mxt_checks++;                                                                        \
        if (st_ == MXSIM_OK || st_ >= MXSIM_STATUS_COUNT_ || st_ == MXSIM_E_INTERNAL)        \
            MXT_FAILF("%s: status %d (%s), expected an argument/input error", what, (int)st_, \
                      mxsim_strerror(st_));                                                  \
        else if (!mxsim_errmsg(ctx)[0])                                                      \
            MXT_FAILF("%s: empty mxsim_errmsg", what);                                       \
        else                                                                                 \
            printf("    %-28s -> %s: %s\n", what, mxsim_strerror(st_), mxsim_errmsg(ctx));   \
    } while (0)

MXTEST(errors)
{
    mxsim_ctx *ctx = new_ctx();
    const int64_t sa[2] = {4, 64}, sb[2] = {3, 64}, sb96[2] = {3, 96}, s32[2] = {32, 64},
                  s1[1] = {64}, s3[3] = {2, 3, 64};
    mxsim_mx *A = mx_shape(ctx, 2, sa, 32, 1), *B = mx_shape(ctx, 2, sb, 32, 1);
    mxsim_mx *Bk = mx_shape(ctx, 2, sb96, 32, 1), *Bg = mx_shape(ctx, 2, sb, 16, 1);
    mxsim_mx *Aax = mx_shape(ctx, 2, s32, 32, 0), *Bax = mx_shape(ctx, 2, s32, 32, 0);
    mxsim_mx *A1 = mx_shape(ctx, 1, s1, 32, 0), *A3 = mx_shape(ctx, 3, s3, 32, 2);
    mxsim_gemm_opts opts;
    mxsim_gemm_opts_default(&opts);
    mxsim_tensor *out = NULL;
    if (!(A && B && Bk && Bg && Aax && Bax && A1 && A3)) goto done;

    /* sanity: the good pair works */
    MXT_EQ_INT(mxsim_gemm(ctx, A, B, &opts, &out), MXSIM_OK);
    mxsim_tensor_free(out), out = NULL;

    EXPECT_FAIL(mxsim_gemm(ctx, A, Bk, &opts, &out), "K mismatch (64 vs 96)");
    mxsim_tensor_free(out), out = NULL;
    EXPECT_FAIL(mxsim_gemm(ctx, A, Bg, &opts, &out), "G mismatch (32 vs 16)");
    mxsim_tensor_free(out), out = NULL;
    EXPECT_FAIL(mxsim_gemm(ctx, Aax, B, &opts, &out), "A grouped along axis 0");
    mxsim_tensor_free(out), out = NULL;
    EXPECT_FAIL(mxsim_gemm(ctx, A, Bax, &opts, &out), "B grouped along axis 0");
    mxsim_tensor_free(out), out = NULL;
    EXPECT_FAIL(mxsim_gemm(ctx, A1, B, &opts, &out), "A 1-D");
    mxsim_tensor_free(out), out = NULL;
    EXPECT_FAIL(mxsim_gemm(ctx, A3, B, &opts, &out), "A 3-D");
    mxsim_tensor_free(out), out = NULL;
    EXPECT_FAIL(mxsim_gemm(ctx, NULL, B, &opts, &out), "A NULL");
    EXPECT_FAIL(mxsim_gemm(ctx, A, NULL, &opts, &out), "B NULL");
    EXPECT_FAIL(mxsim_gemm(ctx, A, B, &opts, NULL), "out NULL");
    opts.acc = (mxsim_acc)7;
    EXPECT_FAIL(mxsim_gemm(ctx, A, B, &opts, &out), "acc mode 7");
    mxsim_tensor_free(out), out = NULL;
    opts.acc = MXSIM_ACC_FP32, opts.out_dtype = MXSIM_DTYPE_I8;
    EXPECT_FAIL(mxsim_gemm(ctx, A, B, &opts, &out), "out dtype i8");
    mxsim_tensor_free(out), out = NULL;
    opts.out_dtype = MXSIM_DTYPE_F32;
    MXT_TRUE(mxsim_gemm(NULL, A, B, &opts, &out) != MXSIM_OK);
    mxsim_tensor_free(out), out = NULL;

    /* NULL opts: either the defaults (fp32 acc, f32 output) or a clean error */
    {
        mxsim_status st = mxsim_gemm(ctx, A, B, NULL, &out);
        if (st == MXSIM_OK) {
            MXT_TRUE(out && mxsim_tensor_dtype(out) == MXSIM_DTYPE_F32);
            printf("    NULL opts accepted (defaults)\n");
        } else {
            MXT_TRUE(mxsim_errmsg(ctx)[0] != '\0');
            printf("    NULL opts rejected: %s: %s\n", mxsim_strerror(st), mxsim_errmsg(ctx));
        }
        mxsim_tensor_free(out), out = NULL;
    }

    /* raw form */
    {
        int8_t am[4 * 64] = {0}, bm[3 * 64] = {0};
        uint8_t ae[4 * 2], be[3 * 2];
        memset(ae, 133, sizeof ae), memset(be, 133, sizeof be);
        float c[12];
        MXT_EQ_INT(mxsim_gemm_raw(ctx, 4, 3, 64, 32, am, ae, bm, be, MXSIM_ACC_FP32, c), MXSIM_OK);
        EXPECT_FAIL(mxsim_gemm_raw(ctx, 4, 3, 64, 24, am, ae, bm, be, MXSIM_ACC_FP32, c),
                    "raw K % G != 0");
        EXPECT_FAIL(mxsim_gemm_raw(ctx, 4, 3, 64, 0, am, ae, bm, be, MXSIM_ACC_FP32, c), "raw G 0");
        {
            /* arrays sized for the call, so a missing check reads nothing out of bounds */
            int8_t *bam = xcalloc(4 * 262144, 1), *bbm = xcalloc(3 * 262144, 1);
            uint8_t bae[4 * 2], bbe[3 * 2];
            memset(bae, 133, sizeof bae), memset(bbe, 133, sizeof bbe);
            EXPECT_FAIL(mxsim_gemm_raw(ctx, 4, 3, 262144, 131072, bam, bae, bbm, bbe, MXSIM_ACC_FP32, c),
                        "raw G 131072 (> MAX_GROUP)");
            free(bam), free(bbm);
        }
        EXPECT_FAIL(mxsim_gemm_raw(ctx, -1, 3, 64, 32, am, ae, bm, be, MXSIM_ACC_FP32, c), "raw M -1");
        EXPECT_FAIL(mxsim_gemm_raw(ctx, 4, -3, 64, 32, am, ae, bm, be, MXSIM_ACC_FP32, c), "raw N -3");
        EXPECT_FAIL(mxsim_gemm_raw(ctx, 4, 3, -64, 32, am, ae, bm, be, MXSIM_ACC_FP32, c), "raw K -64");
        EXPECT_FAIL(mxsim_gemm_raw(ctx, 4, 3, 64, 32, NULL, ae, bm, be, MXSIM_ACC_FP32, c), "raw a_m NULL");
        EXPECT_FAIL(mxsim_gemm_raw(ctx, 4, 3, 64, 32, am, NULL, bm, be, MXSIM_ACC_FP32, c), "raw a_e NULL");
        EXPECT_FAIL(mxsim_gemm_raw(ctx, 4, 3, 64, 32, am, ae, NULL, be, MXSIM_ACC_FP32, c), "raw b_m NULL");
        EXPECT_FAIL(mxsim_gemm_raw(ctx, 4, 3, 64, 32, am, ae, bm, NULL, MXSIM_ACC_FP32, c), "raw b_e NULL");
        EXPECT_FAIL(mxsim_gemm_raw(ctx, 4, 3, 64, 32, am, ae, bm, be, MXSIM_ACC_FP32, NULL), "raw c NULL");
        EXPECT_FAIL(mxsim_gemm_raw(ctx, 4, 3, 64, 32, am, ae, bm, be, (mxsim_acc)9, c), "raw acc 9");
        MXT_TRUE(mxsim_gemm_raw(NULL, 4, 3, 64, 32, am, ae, bm, be, MXSIM_ACC_FP32, c) != MXSIM_OK);
        /* the context still works after errors */
        MXT_EQ_INT(mxsim_gemm_raw(ctx, 4, 3, 64, 32, am, ae, bm, be, MXSIM_ACC_EXACT, c), MXSIM_OK);
        for (int k = 0; k < 12; k++) MXT_EQ_F32(c[k], 0.0f);
    }
done:
    mxsim_mx_free(A), mxsim_mx_free(B), mxsim_mx_free(Bk), mxsim_mx_free(Bg);
    mxsim_mx_free(Aax), mxsim_mx_free(Bax), mxsim_mx_free(A1), mxsim_mx_free(A3);
    mxsim_ctx_destroy(ctx);
}

/* Dimensions each under the documented cap whose products describe arrays that cannot exist
** (a crash before the check); the call must refuse them without touching the pointers. */
MXTEST(gemm_raw_refuses_impossible_array_sizes)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    int8_t m[1] = {0};
    uint8_t e[1] = {127};
    float c[1];
    const int64_t dims[][3] = {{(int64_t)1 << 40, (int64_t)1 << 24, (int64_t)1 << 40},
                               {1, (int64_t)1 << 37, 32},
                               {(int64_t)1 << 20, (int64_t)1 << 20, 32},
                               {(int64_t)1 << 31, 1, (int64_t)1 << 31}};
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        MXT_EQ_INT(mxsim_gemm_raw(ctx, dims[i][0], dims[i][1], dims[i][2], 32, m, e, m, e,
                                  MXSIM_ACC_FP32, c),
                   MXSIM_E_LIMIT);
        MXT_TRUE(strstr(mxsim_errmsg(ctx), "exceeds") != NULL);
    }
    mxsim_ctx_destroy(ctx);
}

MXTEST_MAIN()
