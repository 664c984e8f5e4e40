/* test_decode.c - acceptance tests of the scalar numerics: bf16 conversions and MXINT8 decode.
**
** Expected values come from two places, kept apart on purpose:
**   - the exhaustive tests compare the library with the independent reference in ref_numerics.h
**     (values built exactly with ldexp in double, rounded to bf16/f32 by integer arithmetic;
**     mase-cuda by its documented bit recipe, numerics.md section 2);
**   - the decode_table_* tests hold literal values copied from the decode tables (numerics.md
**     sections 2 and 5.1); they do not use the reference at all.
** NaN results are compared by class (MXT_EQ_BF16 / MXT_EQ_F32), as numerics.md section 2 says.
*/
#include <float.h>
#include <math.h>

#include "mxsim.h"
#include "mxtest.h"
#include "ref_numerics.h"

static const mxsim_profile k_profiles[4] = {MXSIM_PROFILE_OCP, MXSIM_PROFILE_MASE,
                                            MXSIM_PROFILE_MASE_CUDA, MXSIM_PROFILE_MICROXCALING};

/* ---- exhaustive decode against the reference -------------------------------------------- */

static void decode_exhaustive(mxsim_profile p)
{
    for (int E = 0; E < 256; E++) {
        for (int mi = -128; mi < 128; mi++) {
            const uint8_t e8 = (uint8_t)E;
            const int8_t m = (int8_t)mi;
            const uint16_t want_b = ref_decode_bf16(p, e8, m), got_b = mxsim_decode_bf16(p, e8, m);
            const float want_f = ref_decode_f32(p, e8, m), got_f = mxsim_decode_f32(p, e8, m);
            mxt_checks += 2;
            if (!mxt_same_bf16(got_b, want_b))
                MXT_FAILF("%s decode_bf16(E=%d, m=%d) = 0x%04x, want 0x%04x", mxsim_profile_name(p),
                          E, mi, got_b, want_b);
            if (!mxt_same_f32(got_f, want_f))
                MXT_FAILF("%s decode_f32(E=%d, m=%d) = %a, want %a", mxsim_profile_name(p), E, mi,
                          (double)got_f, (double)want_f);
        }
    }
}

MXTEST(decode_exhaustive_ocp) { decode_exhaustive(MXSIM_PROFILE_OCP); }
MXTEST(decode_exhaustive_mase) { decode_exhaustive(MXSIM_PROFILE_MASE); }
MXTEST(decode_exhaustive_mase_cuda) { decode_exhaustive(MXSIM_PROFILE_MASE_CUDA); }
MXTEST(decode_exhaustive_microxcaling) { decode_exhaustive(MXSIM_PROFILE_MICROXCALING); }

/* decode_f32 of mase-cuda is its bf16 result widened (mxsim.h); for the other profiles the f32
** result rounded to bf16 must be the bf16 result (both are one rounding of the same exact value,
** which is exact in f32 except OCP/microxcaling (254,-128), -Inf in both). */
MXTEST(decode_f32_and_bf16_agree)
{
    for (int pi = 0; pi < 4; pi++) {
        const mxsim_profile p = k_profiles[pi];
        for (int E = 0; E < 256; E++) {
            for (int mi = -128; mi < 128; mi++) {
                const float f = mxsim_decode_f32(p, (uint8_t)E, (int8_t)mi);
                const uint16_t b = mxsim_decode_bf16(p, (uint8_t)E, (int8_t)mi);
                mxt_checks++;
                if (p == MXSIM_PROFILE_MASE_CUDA) {
                    if (!mxt_same_f32(f, ref_bf16_value_f32(b)))
                        MXT_FAILF("mase-cuda (E=%d, m=%d): f32 %a is not bf16 0x%04x widened", E,
                                  mi, (double)f, b);
                } else if (!mxt_same_bf16(ref_f32_to_bf16(f), b)) {
                    MXT_FAILF("%s (E=%d, m=%d): bf16(f32 %a) != bf16 0x%04x",
                              mxsim_profile_name(p), E, mi, (double)f, b);
                }
            }
        }
    }
}

/* ---- decode table rows: literal values from numerics.md sections 2 and 5.1 ----
** Columns: OCP v1.0, mase-cuda dequant (bf16 hex as evaluated on an H200), MASE compose (the byte
** is MASE's own: value = m/128 * 2^(byte-127)), microxcaling (= OCP, numerics.md section 2; the
** m = -128 rows are "never emitted" by its quantizer but decode as OCP).  Each row checks the bf16
** bits and the f32 value.  MASE's bf16 column is bf16(value) (numerics.md: rounds only for byte 0):
** those bf16 hex values are derived by hand from the table's value, as commented. */
#define DROW(name, prof, E, m, bf16_hex, f32_val)                                    \
    MXTEST(decode_table_##name)                                                      \
    {                                                                                \
        MXT_EQ_BF16(mxsim_decode_bf16(MXSIM_PROFILE_##prof, (uint8_t)(E), (int8_t)(m)), \
                    bf16_hex);                                                       \
        MXT_EQ_F32(mxsim_decode_f32(MXSIM_PROFILE_##prof, (uint8_t)(E), (int8_t)(m)),   \
                   (float)(f32_val));                                                \
    }

/* OCP column (numerics.md section 5.1; (254,-128) -> -Inf from numerics.md section 2). */
DROW(ocp_e127_m0_is_0x0000, OCP, 127, 0, 0x0000, 0.0f)
DROW(ocp_e127_m1_is_0x3c80, OCP, 127, 1, 0x3C80, 0x1p-6f)
DROW(ocp_e127_m64_is_0x3f80, OCP, 127, 64, 0x3F80, 1.0f)
DROW(ocp_e127_m127_is_0x3ffe, OCP, 127, 127, 0x3FFE, 1.984375f)
DROW(ocp_e127_mneg64_is_0xbf80, OCP, 127, -64, 0xBF80, -1.0f)
DROW(ocp_e127_mneg128_is_0xc000, OCP, 127, -128, 0xC000, -2.0f)
DROW(ocp_e0_m1_is_0x0001, OCP, 0, 1, 0x0001, 0x1p-133f)
DROW(ocp_e0_m63_is_0x003f, OCP, 0, 63, 0x003F, 63 * 0x1p-133f)
DROW(ocp_e0_m64_is_0x0040, OCP, 0, 64, 0x0040, 0x1p-127f)
DROW(ocp_e0_mneg64_is_0x8040, OCP, 0, -64, 0x8040, -0x1p-127f)
DROW(ocp_e0_m127_is_0x007f, OCP, 0, 127, 0x007F, 127 * 0x1p-133f)
DROW(ocp_e0_mneg128_is_0x8080, OCP, 0, -128, 0x8080, -0x1p-126f)
DROW(ocp_e1_m1_is_0x0002, OCP, 1, 1, 0x0002, 0x1p-132f)
DROW(ocp_e254_m127_is_0x7f7e, OCP, 254, 127, 0x7F7E, 127 * 0x1p121f)
DROW(ocp_e254_mneg128_is_neg_inf, OCP, 254, -128, 0xFF80, -INFINITY)
DROW(ocp_e255_m0_is_nan, OCP, 255, 0, 0x7FC0, NAN)
DROW(ocp_e255_m64_is_nan, OCP, 255, 64, 0x7FC0, NAN)
DROW(ocp_e255_mneg64_is_nan, OCP, 255, -64, 0x7FC0, NAN)
DROW(ocp_e255_m65_is_nan, OCP, 255, 65, 0x7FC0, NAN)
DROW(ocp_e255_mneg1_is_nan, OCP, 255, -1, 0x7FC0, NAN)

/* microxcaling column: "as ocp" (numerics.md sections 2 and 5.1). */
DROW(microxcaling_e127_m0_is_0x0000, MICROXCALING, 127, 0, 0x0000, 0.0f)
DROW(microxcaling_e127_m1_is_0x3c80, MICROXCALING, 127, 1, 0x3C80, 0x1p-6f)
DROW(microxcaling_e127_m64_is_0x3f80, MICROXCALING, 127, 64, 0x3F80, 1.0f)
DROW(microxcaling_e127_m127_is_0x3ffe, MICROXCALING, 127, 127, 0x3FFE, 1.984375f)
DROW(microxcaling_e127_mneg64_is_0xbf80, MICROXCALING, 127, -64, 0xBF80, -1.0f)
DROW(microxcaling_e127_mneg128_is_0xc000, MICROXCALING, 127, -128, 0xC000, -2.0f)
DROW(microxcaling_e0_m1_is_0x0001, MICROXCALING, 0, 1, 0x0001, 0x1p-133f)
DROW(microxcaling_e0_m63_is_0x003f, MICROXCALING, 0, 63, 0x003F, 63 * 0x1p-133f)
DROW(microxcaling_e0_m64_is_0x0040, MICROXCALING, 0, 64, 0x0040, 0x1p-127f)
DROW(microxcaling_e0_mneg64_is_0x8040, MICROXCALING, 0, -64, 0x8040, -0x1p-127f)
DROW(microxcaling_e0_m127_is_0x007f, MICROXCALING, 0, 127, 0x007F, 127 * 0x1p-133f)
DROW(microxcaling_e0_mneg128_is_0x8080, MICROXCALING, 0, -128, 0x8080, -0x1p-126f)
DROW(microxcaling_e1_m1_is_0x0002, MICROXCALING, 1, 1, 0x0002, 0x1p-132f)
DROW(microxcaling_e254_m127_is_0x7f7e, MICROXCALING, 254, 127, 0x7F7E, 127 * 0x1p121f)
DROW(microxcaling_e254_mneg128_is_neg_inf, MICROXCALING, 254, -128, 0xFF80, -INFINITY)
DROW(microxcaling_e255_m0_is_nan, MICROXCALING, 255, 0, 0x7FC0, NAN)
DROW(microxcaling_e255_m64_is_nan, MICROXCALING, 255, 64, 0x7FC0, NAN)
DROW(microxcaling_e255_mneg64_is_nan, MICROXCALING, 255, -64, 0x7FC0, NAN)
DROW(microxcaling_e255_m65_is_nan, MICROXCALING, 255, 65, 0x7FC0, NAN)
DROW(microxcaling_e255_mneg1_is_nan, MICROXCALING, 255, -1, 0x7FC0, NAN)

/* mase-cuda column (hex as evaluated on an H200); f32 = the bf16 result widened. */
DROW(mase_cuda_e127_m0_is_0x0000, MASE_CUDA, 127, 0, 0x0000, 0.0f)
DROW(mase_cuda_e127_m1_is_0x3c80, MASE_CUDA, 127, 1, 0x3C80, 0x1p-6f)
DROW(mase_cuda_e127_m64_is_0x3f80, MASE_CUDA, 127, 64, 0x3F80, 1.0f)
DROW(mase_cuda_e127_m127_is_0x3ffe, MASE_CUDA, 127, 127, 0x3FFE, 1.984375f)
DROW(mase_cuda_e127_mneg64_is_0xbf80, MASE_CUDA, 127, -64, 0xBF80, -1.0f)
DROW(mase_cuda_e127_mneg128_is_0x0000, MASE_CUDA, 127, -128, 0x0000, 0.0f)
DROW(mase_cuda_e0_m1_is_0x0002, MASE_CUDA, 0, 1, 0x0002, 0x1p-132f)
DROW(mase_cuda_e0_m63_is_0x007e, MASE_CUDA, 0, 63, 0x007E, 63 * 0x1p-132f)
DROW(mase_cuda_e0_m64_is_0x0000, MASE_CUDA, 0, 64, 0x0000, 0.0f)
DROW(mase_cuda_e0_mneg64_is_0x8000, MASE_CUDA, 0, -64, 0x8000, -0.0f)
DROW(mase_cuda_e0_m127_is_0x007e, MASE_CUDA, 0, 127, 0x007E, 63 * 0x1p-132f)
DROW(mase_cuda_e0_mneg128_is_0x0000, MASE_CUDA, 0, -128, 0x0000, 0.0f)
DROW(mase_cuda_e1_m1_is_0x0002, MASE_CUDA, 1, 1, 0x0002, 0x1p-132f)
DROW(mase_cuda_e254_m127_is_0x7f7e, MASE_CUDA, 254, 127, 0x7F7E, 127 * 0x1p121f)
DROW(mase_cuda_e254_mneg128_is_0x0000, MASE_CUDA, 254, -128, 0x0000, 0.0f)
DROW(mase_cuda_e255_m0_is_nan, MASE_CUDA, 255, 0, 0x7FC0, NAN)
DROW(mase_cuda_e255_m64_is_0x7f80, MASE_CUDA, 255, 64, 0x7F80, INFINITY)
DROW(mase_cuda_e255_mneg64_is_0xff80, MASE_CUDA, 255, -64, 0xFF80, -INFINITY)
DROW(mase_cuda_e255_m65_is_nan, MASE_CUDA, 255, 65, 0x7F82, NAN)
DROW(mase_cuda_e255_mneg1_is_nan, MASE_CUDA, 255, -1, 0x7FC0, NAN)

/* MASE column: value = m/128 * 2^(byte-127) = m * 2^(byte-134).
** bf16 hex derived by hand: byte 0 rounds to the bf16 grid 2^-133 (ties to even):
**   m=1: 2^-134 = 0.5 * 2^-133 -> tie -> 0x0000;  m=63: 31.5 * 2^-133 -> 32 -> 0x0020;
**   m=64: 2^-128 = 32 * 2^-133 -> 0x0020;  m=-64 -> 0x8020;  m=127: 63.5 -> 64 -> 0x0040;
**   m=-128: -2^-127 = -64 * 2^-133 -> 0x8040.  byte 1, m=1: 2^-133 -> 0x0001.
**   byte 254: 127 * 2^120 = 1.984375 * 2^126 -> 0x7EFE;  -2^127 -> 0xFF00.
**   byte 255: m=0 -> 0*Inf = NaN, else sign(m) * Inf. */
DROW(mase_e127_m0_is_0x0000, MASE, 127, 0, 0x0000, 0.0f)
DROW(mase_e127_m1_is_0x3c00, MASE, 127, 1, 0x3C00, 0x1p-7f)
DROW(mase_e127_m64_is_0x3f00, MASE, 127, 64, 0x3F00, 0.5f)
DROW(mase_e127_m127_is_0x3f7e, MASE, 127, 127, 0x3F7E, 0.9921875f)
DROW(mase_e127_mneg64_is_0xbf00, MASE, 127, -64, 0xBF00, -0.5f)
DROW(mase_e127_mneg128_is_0xbf80, MASE, 127, -128, 0xBF80, -1.0f)
DROW(mase_e0_m1_is_0x0000, MASE, 0, 1, 0x0000, 0x1p-134f)
DROW(mase_e0_m63_is_0x0020, MASE, 0, 63, 0x0020, 63 * 0x1p-134f)
DROW(mase_e0_m64_is_0x0020, MASE, 0, 64, 0x0020, 0x1p-128f)
DROW(mase_e0_mneg64_is_0x8020, MASE, 0, -64, 0x8020, -0x1p-128f)
DROW(mase_e0_m127_is_0x0040, MASE, 0, 127, 0x0040, 127 * 0x1p-134f)
DROW(mase_e0_mneg128_is_0x8040, MASE, 0, -128, 0x8040, -0x1p-127f)
DROW(mase_e1_m1_is_0x0001, MASE, 1, 1, 0x0001, 0x1p-133f)
DROW(mase_e254_m127_is_0x7efe, MASE, 254, 127, 0x7EFE, 127 * 0x1p120f)
DROW(mase_e254_mneg128_is_0xff00, MASE, 254, -128, 0xFF00, -0x1p127f)
DROW(mase_e255_m0_is_nan, MASE, 255, 0, 0x7FC0, NAN)
DROW(mase_e255_m64_is_pos_inf, MASE, 255, 64, 0x7F80, INFINITY)
DROW(mase_e255_mneg64_is_neg_inf, MASE, 255, -64, 0xFF80, -INFINITY)
DROW(mase_e255_m65_is_pos_inf, MASE, 255, 65, 0x7F80, INFINITY)
DROW(mase_e255_mneg1_is_neg_inf, MASE, 255, -1, 0xFF80, -INFINITY)
DROW(mase_e255_mneg128_is_neg_inf, MASE, 255, -128, 0xFF80, -INFINITY)

/* mase-cuda closed form (numerics.md section 2), one check per clause over all E. */
MXTEST(decode_mase_cuda_closed_form)
{
    for (int E = 1; E <= 254; E++) {
        /* 1: OCP value for m != -128; 2: m = -128 -> +0 */
        for (int mi = -127; mi < 128; mi++)
            MXT_EQ_BF16(mxsim_decode_bf16(MXSIM_PROFILE_MASE_CUDA, (uint8_t)E, (int8_t)mi),
                        mxsim_decode_bf16(MXSIM_PROFILE_OCP, (uint8_t)E, (int8_t)mi));
        MXT_EQ_HEX(mxsim_decode_bf16(MXSIM_PROFILE_MASE_CUDA, (uint8_t)E, (int8_t)-128), 0x0000);
    }
    /* 3: E = 0 -> s | ((a & 63) << 1) */
    for (int mi = -128; mi < 128; mi++) {
        const unsigned a = mi < 0 ? (unsigned)-mi : (unsigned)mi;
        unsigned want = (mi < 0 ? 0x8000u : 0u) | ((a & 63u) << 1);
        if (mi == -128) want = 0x0000; /* (-0) - (-0) = +0 */
        MXT_EQ_HEX(mxsim_decode_bf16(MXSIM_PROFILE_MASE_CUDA, 0, (int8_t)mi), want);
    }
    /* 4: E = 255 -> +-Inf for a = 64, NaN otherwise; payload s|0x7F80|((a-64)<<1) for a in 65..127 */
    for (int mi = -128; mi < 128; mi++) {
        const unsigned a = mi < 0 ? (unsigned)-mi : (unsigned)mi;
        const uint16_t got = mxsim_decode_bf16(MXSIM_PROFILE_MASE_CUDA, 255, (int8_t)mi);
        if (a == 64) {
            MXT_EQ_HEX(got, mi < 0 ? 0xFF80u : 0x7F80u);
        } else {
            MXT_TRUE((got & 0x7F80) == 0x7F80 && (got & 0x7F) != 0);
        }
    }
}

/* ---- mxsim_scale_to_ocp (numerics.md section 4 mapping, mxsim.h) ------------------------ */
MXTEST(scale_to_ocp_mapping)
{
    for (int pi = 0; pi < 4; pi++) {
        const mxsim_profile p = k_profiles[pi];
        for (int b = 0; b < 256; b++) {
            int e = 12345, is_nan = -1;
            mxsim_scale_to_ocp(p, (uint8_t)b, &e, &is_nan);
            if (b == 255) {
                MXT_EQ_INT(is_nan, 1);
            } else {
                MXT_EQ_INT(is_nan, 0);
                MXT_EQ_INT(e, p == MXSIM_PROFILE_MASE ? b - 1 : b);
            }
        }
    }
}

/* ---- float32 <-> bf16 -------------------------------------------------------------------- */

static void check_f2b(uint32_t fbits)
{
    const float x = ref_f32_from_bits(fbits);
    const uint16_t got = mxsim_f32_to_bf16(x), want = ref_f32_to_bf16(x);
    mxt_checks++;
    if (!mxt_same_bf16(got, want))
        MXT_FAILF("f32_to_bf16(0x%08x = %a) = 0x%04x, want 0x%04x", fbits, (double)x, got, want);
}

/* Every upper half with low halves around the rounding boundary, plus random low halves. */
MXTEST(f32_to_bf16_all_upper_halves)
{
    static const uint32_t lows[] = {0x0000, 0x0001, 0x3FFF, 0x7FFF, 0x8000,
                                    0x8001, 0xBFFF, 0xC000, 0xFFFE, 0xFFFF};
    mxt_rng r = {0x5eed0001};
    for (uint32_t hi = 0; hi < 65536; hi++) {
        for (size_t j = 0; j < sizeof lows / sizeof lows[0]; j++) check_f2b(hi << 16 | lows[j]);
        check_f2b(hi << 16 | (uint32_t)(mxt_next(&r) & 0xFFFF));
    }
}

MXTEST(f32_to_bf16_random)
{
    mxt_rng r = {0x5eed0002};
    for (int i = 0; i < 3000000; i++) check_f2b((uint32_t)mxt_next(&r));
}

/* Literal edge cases (expected bits written by hand). */
MXTEST(f32_to_bf16_edges)
{
    struct {
        uint32_t in;
        uint16_t out;
    } t[] = {
        {0x00000000, 0x0000}, /* +0 */
        {0x80000000, 0x8000}, /* -0 */
        {0x3F800000, 0x3F80}, /* 1.0 */
        {0x3F808000, 0x3F80}, /* tie, even stays */
        {0x3F818000, 0x3F82}, /* tie, odd rounds up */
        {0x3F808001, 0x3F81}, /* above the tie */
        {0x3F807FFF, 0x3F80}, /* below the tie */
        {0xBF818000, 0xBF82}, /* negative tie */
        {0x3FFF8000, 0x4000}, /* tie carries into the exponent */
        {0x00000001, 0x0000}, /* smallest f32 subnormal */
        {0x00008000, 0x0000}, /* subnormal tie to even 0 */
        {0x00018000, 0x0002}, /* subnormal tie to even 2 */
        {0x00010000, 0x0001}, /* bf16 smallest subnormal, exact */
        {0x80008001, 0x8001}, /* negative subnormal above tie */
        {0x007FFFFF, 0x0080}, /* largest subnormal rounds to the smallest normal */
        {0x007F7FFF, 0x007F}, /* stays subnormal */
        {0x7F7FFFFF, 0x7F80}, /* FLT_MAX rounds to +Inf */
        {0xFF7FFFFF, 0xFF80}, /* -FLT_MAX rounds to -Inf */
        {0x7F7F8000, 0x7F80}, /* tie above the bf16 max (odd) -> Inf */
        {0x7F7F7FFF, 0x7F7F}, /* just below the tie: bf16 max */
        {0x7F7E8000, 0x7F7E}, /* tie below the max, even stays */
        {0x7F800000, 0x7F80}, /* +Inf */
        {0xFF800000, 0xFF80}, /* -Inf */
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        const uint16_t got = mxsim_f32_to_bf16(ref_f32_from_bits(t[i].in));
        mxt_checks++;
        if (got != t[i].out) MXT_FAILF("f32_to_bf16(0x%08x) = 0x%04x, want 0x%04x", t[i].in, got, t[i].out);
        /* and the reference agrees with the hand-written table */
        MXT_EQ_HEX(ref_f32_to_bf16(ref_f32_from_bits(t[i].in)), t[i].out);
    }
}

/* mxsim.h: "NaN -> quiet NaN with the same sign (payload top bits kept, quiet bit set)". */
MXTEST(f32_to_bf16_nan_keeps_sign_and_top_payload)
{
    static const uint32_t nans[] = {0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001, 0x7FA00000,
                                    0x7F810000, 0xFFFFFFFF, 0x7FFFFFFF, 0x7F8FFFFF, 0xFFBF0000};
    for (size_t i = 0; i < sizeof nans / sizeof nans[0]; i++) {
        const uint16_t got = mxsim_f32_to_bf16(ref_f32_from_bits(nans[i]));
        const uint16_t want = (uint16_t)((nans[i] >> 16) | 0x0040);
        mxt_checks++;
        if (got != want) MXT_FAILF("f32_to_bf16(NaN 0x%08x) = 0x%04x, want 0x%04x", nans[i], got, want);
    }
}

MXTEST(bf16_to_f32_exhaustive)
{
    for (uint32_t b = 0; b < 65536; b++) {
        const float got = mxsim_bf16_to_f32((uint16_t)b), want = ref_bf16_value_f32((uint16_t)b);
        mxt_checks++;
        if (!mxt_same_f32(got, want))
            MXT_FAILF("bf16_to_f32(0x%04x) = %a, want %a", b, (double)got, (double)want);
        /* NaN keeps its sign (an exact widening) */
        if (isnan(want) && !signbit(got) != !(b & 0x8000))
            MXT_FAILF("bf16_to_f32(0x%04x): NaN sign lost", b);
        /* round trip of every non-NaN pattern */
        if (!isnan(want)) MXT_EQ_HEX(mxsim_f32_to_bf16(got), b);
    }
}

MXTEST(bf16_to_f32_literals)
{
    MXT_EQ_F32(mxsim_bf16_to_f32(0x3F80), 1.0f);
    MXT_EQ_F32(mxsim_bf16_to_f32(0xC000), -2.0f);
    MXT_EQ_F32(mxsim_bf16_to_f32(0x0001), 0x1p-133f);
    MXT_EQ_F32(mxsim_bf16_to_f32(0x8000), -0.0f);
    MXT_EQ_F32(mxsim_bf16_to_f32(0x7F7F), 0x1.fep127f);
    MXT_EQ_F32(mxsim_bf16_to_f32(0xFF80), -INFINITY);
    MXT_EQ_F32(mxsim_bf16_to_f32(0x7FC0), NAN);
}

/* Self-check of the reference rounding against double->float conversion by the FPU (a different
** mechanism), on random doubles in the float range: guards the reference, not the library. */
MXTEST(ref_selfcheck_rounding_vs_fpu)
{
    mxt_rng r = {0x5eed0003};
    for (int i = 0; i < 300000; i++) {
        uint64_t u = mxt_next(&r);
        /* exponent in [-160, 127] so the cast below is defined */
        const int ex = (int)(mxt_next(&r) % 288) - 160;
        u = (u & 0x800FFFFFFFFFFFFFull) | ((uint64_t)(ex + 1023) << 52);
        double d;
        memcpy(&d, &u, 8);
        if (fabs(d) >= 0x1.fffffep127) continue;
        const float f = (float)d;
        MXT_EQ_HEX(ref_round_double(d, 0), ref_f32_bits(f));
    }
}

MXTEST_MAIN()

/* ---- the bias identity of the GPU bf16 pre-pass (kernels/src/gemm_bf16.cu, cfg 11) -------------- */

/* The pre-pass forms the bf16 of m * 2^(E-133) without a conversion unit: the byte m + 128 goes into
** the low mantissa bits of 2^23 (x = 2^23 + m + 128) and ONE fused multiply-add, x f - (2^23 + 128) f
** with f = 2^(E-133), must give m f exactly, with a zero lower half (so the fp32's upper 16 bits are
** the bf16).  Enumerated here for every mantissa and every E of the kernel's window [70, 186], against
** m 2^(E-133) built with ldexp in double; the same steps as the kernel (xor, byte placement, fmaf). */
MXTEST(gpu_prescale_bias_identity_window)
{
    for (int E = 70; E <= 186; E++) {
        const float f = ldexpf(1.0f, E - 133), c0 = -8388736.0f * f;
        for (int mi = -128; mi < 128; mi++) {
            const uint32_t byte = ((uint32_t)(uint8_t)(int8_t)mi) ^ 0x80u;
            uint32_t xb = 0x4B000000u | byte, rb;
            float x, r;
            memcpy(&x, &xb, 4);
            r = fmaf(x, f, c0);
            memcpy(&rb, &r, 4);
            mxt_checks++;
            if ((double)r != ldexp((double)mi, E - 133) || (rb & 0xFFFFu) != 0)
                MXT_FAILF("E=%d m=%d: fma gives %a (bits 0x%08x), want %a with a zero lower half", E, mi, (double)r,
                          rb, ldexp((double)mi, E - 133));
        }
    }
}
