/* test_quantize.c - acceptance tests of mxsim_quantize_block and mxsim_fake_quant_block.
**
** Three kinds of tests, kept apart on purpose:
**   - encode_table_* : one test per row of the encode table (numerics.md section 5.2) and
**     per profile, plus the thresholds and consequences numerics.md section 3 and the reference
**     (numerics.md section 5.3) state.  Expected bytes, codes and outputs are literals taken
**     from the table text (or worked out by hand from the rule where the table says "exact"; the
**     derivation is in the comment).  They do not use the reference model.
**   - random_*       : random blocks of many kinds and sizes, compared element by element with the
**     independent reference quantizers of ref_numerics.h (numerics.md section 3, step by step).
**   - property_*     : checks that use only the library and the spec: |x - dq| <= half a grid
**     step except where the profile saturates, NaN-block representation, fake quant = decode of
**     the stored codes except the documented -0.0 cases.
** Grid step: 2^(E-133) with E the OCP exponent (MASE: byte - 1).
*/
#include <float.h>
#include <math.h>

#include "mxsim.h"
#include "mxtest.h"
#include "ref_numerics.h"

#define NMAX 65536

static const mxsim_profile k_profiles[4] = {MXSIM_PROFILE_OCP, MXSIM_PROFILE_MASE,
                                            MXSIM_PROFILE_MASE_CUDA, MXSIM_PROFILE_MICROXCALING};

/* Scratch buffers (one block at a time). */
static float g_inf32[NMAX], g_outf32[NMAX];
static uint16_t g_inb16[NMAX], g_outb16[NMAX];
static int8_t g_m[NMAX], g_mref[NMAX];
static double g_x[NMAX], g_dqref[NMAX];
static uint32_t g_bits[NMAX];

/* Runs the library on a block given as dtype bit patterns.  Returns 0 on success. */
static int lib_run(mxsim_profile p, int bf16, const uint32_t *bits, size_t n, uint8_t *scale,
                   int8_t *m, uint32_t *fq_bits)
{
    const void *in;
    void *out;
    if (bf16) {
        for (size_t i = 0; i < n; i++) g_inb16[i] = (uint16_t)bits[i];
        in = g_inb16;
        out = g_outb16;
    } else {
        for (size_t i = 0; i < n; i++) g_inf32[i] = ref_f32_from_bits(bits[i]);
        in = g_inf32;
        out = g_outf32;
    }
    const mxsim_dtype dt = bf16 ? MXSIM_DTYPE_BF16 : MXSIM_DTYPE_F32;
    *scale = 0xA5;
    memset(m, 0x5A, n);
    /* sentinels just past the block: the library must write exactly n items */
    if (n < NMAX) {
        m[n] = 0x5A;
        g_outb16[n] = 0xBEEF;
        g_outf32[n] = 12345.0f;
    }
    mxsim_status s1 = mxsim_quantize_block(p, dt, in, n, scale, m);
    mxsim_status s2 = mxsim_fake_quant_block(p, dt, in, n, out);
    mxt_checks += 3;
    if (s1 != MXSIM_OK || s2 != MXSIM_OK) {
        MXT_FAILF("%s %s n=%zu: status quantize=%d fake_quant=%d", mxsim_profile_name(p),
                  bf16 ? "bf16" : "f32", n, (int)s1, (int)s2);
        return -1;
    }
    if (n < NMAX && (m[n] != 0x5A || g_outb16[n] != 0xBEEF || g_outf32[n] != 12345.0f))
        MXT_FAILF("%s %s n=%zu: wrote past the end of the block", mxsim_profile_name(p),
                  bf16 ? "bf16" : "f32", n);
    for (size_t i = 0; i < n; i++) fq_bits[i] = bf16 ? g_outb16[i] : ref_f32_bits(g_outf32[i]);
    return 0;
}

static int same_bits(uint32_t a, uint32_t b, int bf16)
{
    return bf16 ? mxt_same_bf16((uint16_t)a, (uint16_t)b)
                : mxt_same_f32(ref_f32_from_bits(a), ref_f32_from_bits(b));
}

/* ---- encode table rows --------------------------------------------------------------------- */

static uint32_t g_fq[NMAX];

/* f32 block: checks scale, codes and fake-quant output (NaN by class, -0.0 distinct). */
static void enc_f32(mxsim_profile p, const float *x, size_t n, int want_scale,
                    const int8_t *want_m, const float *want_dq)
{
    uint8_t sc;
    for (size_t i = 0; i < n; i++) g_bits[i] = ref_f32_bits(x[i]);
    if (lib_run(p, 0, g_bits, n, &sc, g_m, g_fq)) return;
    mxt_checks++;
    if (sc != want_scale) MXT_FAILF("scale byte %d, want %d", sc, want_scale);
    for (size_t i = 0; i < n; i++) {
        mxt_checks += 2;
        if (g_m[i] != want_m[i]) MXT_FAILF("m[%zu] = %d, want %d", i, g_m[i], want_m[i]);
        const float got = ref_f32_from_bits(g_fq[i]);
        if (!mxt_same_f32(got, want_dq[i]))
            MXT_FAILF("fake_quant[%zu] = %a, want %a", i, (double)got, (double)want_dq[i]);
    }
}

static void enc_bf16(mxsim_profile p, const uint16_t *x, size_t n, int want_scale,
                     const int8_t *want_m, const uint16_t *want_dq)
{
    uint8_t sc;
    for (size_t i = 0; i < n; i++) g_bits[i] = x[i];
    if (lib_run(p, 1, g_bits, n, &sc, g_m, g_fq)) return;
    mxt_checks++;
    if (sc != want_scale) MXT_FAILF("scale byte %d, want %d", sc, want_scale);
    for (size_t i = 0; i < n; i++) {
        mxt_checks += 2;
        if (g_m[i] != want_m[i]) MXT_FAILF("m[%zu] = %d, want %d", i, g_m[i], want_m[i]);
        if (!mxt_same_bf16((uint16_t)g_fq[i], want_dq[i]))
            MXT_FAILF("fake_quant[%zu] = 0x%04x, want 0x%04x", i, (unsigned)g_fq[i], want_dq[i]);
    }
}

#define F(...) (const float[]){__VA_ARGS__}
#define M(...) (const int8_t[]){__VA_ARGS__}
#define B(...) (const uint16_t[]){__VA_ARGS__}
#define P_OCP MXSIM_PROFILE_OCP
#define P_MASE MXSIM_PROFILE_MASE
#define P_MCQ MXSIM_PROFILE_MASE_CUDA
#define P_MX MXSIM_PROFILE_MICROXCALING

/* Row "all zeros" (32 elements): MASE byte 1; mcq byte 0; OCP byte 0; mx byte 1 (Py exp -126,
** numerics.md: "microxcaling ... writes byte 1 for a zero block"). */
static void zeros_block(mxsim_profile p, int want_scale)
{
    float x[32], dq[32];
    int8_t m[32];
    for (int i = 0; i < 32; i++) {
        x[i] = 0.0f;
        dq[i] = 0.0f;
        m[i] = 0;
    }
    enc_f32(p, x, 32, want_scale, m, dq);
}
MXTEST(encode_table_ocp_all_zeros_byte_0) { zeros_block(P_OCP, 0); }
MXTEST(encode_table_mase_all_zeros_byte_1) { zeros_block(P_MASE, 1); }
MXTEST(encode_table_mase_cuda_all_zeros_byte_0) { zeros_block(P_MCQ, 0); }
MXTEST(encode_table_microxcaling_all_zeros_byte_1) { zeros_block(P_MX, 1); }

/* Row [+1.0, 0.5] */
MXTEST(encode_table_ocp_one_half) { enc_f32(P_OCP, F(1.0f, 0.5f), 2, 127, M(64, 32), F(1.0f, 0.5f)); }
MXTEST(encode_table_mase_one_half_saturates_to_127)
{
    enc_f32(P_MASE, F(1.0f, 0.5f), 2, 127, M(127, 64), F(0.9921875f, 0.5f));
}
MXTEST(encode_table_mase_cuda_one_half) { enc_f32(P_MCQ, F(1.0f, 0.5f), 2, 127, M(64, 32), F(1.0f, 0.5f)); }
MXTEST(encode_table_microxcaling_one_half) { enc_f32(P_MX, F(1.0f, 0.5f), 2, 127, M(64, 32), F(1.0f, 0.5f)); }

/* Row [-1.0, 0.5] */
MXTEST(encode_table_ocp_neg_one_half) { enc_f32(P_OCP, F(-1.0f, 0.5f), 2, 127, M(-64, 32), F(-1.0f, 0.5f)); }
MXTEST(encode_table_mase_neg_one_half_keeps_neg128)
{
    enc_f32(P_MASE, F(-1.0f, 0.5f), 2, 127, M(-128, 64), F(-1.0f, 0.5f));
}
MXTEST(encode_table_mase_cuda_neg_one_half) { enc_f32(P_MCQ, F(-1.0f, 0.5f), 2, 127, M(-64, 32), F(-1.0f, 0.5f)); }
MXTEST(encode_table_microxcaling_neg_one_half) { enc_f32(P_MX, F(-1.0f, 0.5f), 2, 127, M(-64, 32), F(-1.0f, 0.5f)); }

/* Row [1.5, 2.5/64]: 2.5 is a tie: RNE -> 2, half away -> 3 */
MXTEST(encode_table_ocp_tie_to_even)
{
    enc_f32(P_OCP, F(1.5f, 2.5f / 64), 2, 127, M(96, 2), F(1.5f, 0.03125f));
}
MXTEST(encode_table_mase_tie_to_even)
{
    enc_f32(P_MASE, F(1.5f, 2.5f / 64), 2, 128, M(96, 2), F(1.5f, 0.03125f));
}
MXTEST(encode_table_mase_cuda_tie_to_even)
{
    enc_f32(P_MCQ, F(1.5f, 2.5f / 64), 2, 127, M(96, 2), F(1.5f, 0.03125f));
}
MXTEST(encode_table_microxcaling_tie_away)
{
    enc_f32(P_MX, F(1.5f, 2.5f / 64), 2, 127, M(96, 3), F(1.5f, 0.046875f));
}

/* Row [-1.9921875] */
MXTEST(encode_table_ocp_neg_max_rounds_to_neg128)
{
    enc_f32(P_OCP, F(-1.9921875f), 1, 127, M(-128), F(-2.0f));
}
MXTEST(encode_table_mase_neg_max_rounds_to_neg128)
{
    enc_f32(P_MASE, F(-1.9921875f), 1, 128, M(-128), F(-2.0f));
}
MXTEST(encode_table_mase_cuda_neg_max_clamps_to_neg127)
{
    enc_f32(P_MCQ, F(-1.9921875f), 1, 127, M(-127), F(-1.984375f));
}
MXTEST(encode_table_microxcaling_neg_max_clamps_to_neg127)
{
    enc_f32(P_MX, F(-1.9921875f), 1, 127, M(-127), F(-1.984375f));
}

/* Row [+1.9921875] */
MXTEST(encode_table_ocp_pos_max_saturates) { enc_f32(P_OCP, F(1.9921875f), 1, 127, M(127), F(1.984375f)); }
MXTEST(encode_table_mase_pos_max_saturates) { enc_f32(P_MASE, F(1.9921875f), 1, 128, M(127), F(1.984375f)); }
MXTEST(encode_table_mase_cuda_pos_max_saturates) { enc_f32(P_MCQ, F(1.9921875f), 1, 127, M(127), F(1.984375f)); }
MXTEST(encode_table_microxcaling_pos_max_saturates) { enc_f32(P_MX, F(1.9921875f), 1, 127, M(127), F(1.984375f)); }

/* Row [1 + 2^-7 + 2^-9]: mase-cuda double-rounds through bf16 */
MXTEST(encode_table_ocp_1p0078_to_65) { enc_f32(P_OCP, F(1.0f + 0x1p-7f + 0x1p-9f), 1, 127, M(65), F(1.015625f)); }
MXTEST(encode_table_mase_1p0078_to_65) { enc_f32(P_MASE, F(1.0f + 0x1p-7f + 0x1p-9f), 1, 128, M(65), F(1.015625f)); }
MXTEST(encode_table_mase_cuda_1p0078_double_rounds_to_64)
{
    enc_f32(P_MCQ, F(1.0f + 0x1p-7f + 0x1p-9f), 1, 127, M(64), F(1.0f));
}
MXTEST(encode_table_microxcaling_1p0078_to_65)
{
    enc_f32(P_MX, F(1.0f + 0x1p-7f + 0x1p-9f), 1, 127, M(65), F(1.015625f));
}

/* Row [16 * (1 + 2^-23)]: MASE's fp32 log2 rounds to 4 (mx: byte 131, m 64 derived: se = 4) */
MXTEST(encode_table_ocp_16_plus_ulp) { enc_f32(P_OCP, F(0x1.000002p4f), 1, 131, M(64), F(16.0f)); }
MXTEST(encode_table_mase_16_plus_ulp_log2_rounds_to_4)
{
    enc_f32(P_MASE, F(0x1.000002p4f), 1, 131, M(127), F(15.875f));
}
MXTEST(encode_table_mase_cuda_16_plus_ulp) { enc_f32(P_MCQ, F(0x1.000002p4f), 1, 131, M(64), F(16.0f)); }
MXTEST(encode_table_microxcaling_16_plus_ulp) { enc_f32(P_MX, F(0x1.000002p4f), 1, 131, M(64), F(16.0f)); }

/* Row [largest float < 16] (mx Py: floor(log2) = 4 -> se 4, byte 131; q = 64(1-2^-24),
** q + 0.5 rounds (tie, even) to 64.5 in f32 -> m 64 -> 16.0) */
MXTEST(encode_table_ocp_below_16) { enc_f32(P_OCP, F(0x1.fffffep3f), 1, 130, M(127), F(15.875f)); }
MXTEST(encode_table_mase_below_16) { enc_f32(P_MASE, F(0x1.fffffep3f), 1, 131, M(127), F(15.875f)); }
MXTEST(encode_table_mase_cuda_below_16_bf16_rounds_to_16)
{
    enc_f32(P_MCQ, F(0x1.fffffep3f), 1, 131, M(64), F(16.0f));
}
MXTEST(encode_table_microxcaling_below_16_log2_rounds_to_4)
{
    enc_f32(P_MX, F(0x1.fffffep3f), 1, 131, M(64), F(16.0f));
}

/* Row bf16 [0x3B81 = 2^-8 * 1.0078125]:
**   MASE 119, 127 -> 0.0038757 = 127 * 2^-15 = bf16 0x3B7E;  mcq / OCP 119, 64 -> 2^-8 = 0x3B80;
**   mx 65 -> 0.0039673 = 65 * 2^-14 = 0x3B82 (byte 119 derived: se = floor(bf16(log2)) = -8). */
MXTEST(encode_table_bf16_ocp_0x3b81) { enc_bf16(P_OCP, B(0x3B81), 1, 119, M(64), B(0x3B80)); }
MXTEST(encode_table_bf16_mase_0x3b81_log2_one_too_small)
{
    enc_bf16(P_MASE, B(0x3B81), 1, 119, M(127), B(0x3B7E));
}
MXTEST(encode_table_bf16_mase_cuda_0x3b81) { enc_bf16(P_MCQ, B(0x3B81), 1, 119, M(64), B(0x3B80)); }
MXTEST(encode_table_bf16_microxcaling_0x3b81_ties_away)
{
    enc_bf16(P_MX, B(0x3B81), 1, 119, M(65), B(0x3B82));
}
/* numerics.md section 5.3: "the same data in f32 gives byte 120, mantissa 64, 0.00390625" */
MXTEST(encode_table_mase_f32_same_data_as_0x3b81)
{
    enc_f32(P_MASE, F(0x1.02p-8f), 1, 120, M(64), F(0.00390625f));
}

/* Row [2^-130, 2^-133] (fp32 subnormals; mx: se = -130 clamped to -127 -> byte 0, exact) */
MXTEST(encode_table_ocp_subnormals_exact)
{
    enc_f32(P_OCP, F(0x1p-130f, 0x1p-133f), 2, 0, M(8, 1), F(0x1p-130f, 0x1p-133f));
}
MXTEST(encode_table_mase_subnormals_exact)
{
    enc_f32(P_MASE, F(0x1p-130f, 0x1p-133f), 2, 1, M(8, 1), F(0x1p-130f, 0x1p-133f));
}
MXTEST(encode_table_mase_cuda_subnormals_flushed)
{
    enc_f32(P_MCQ, F(0x1p-130f, 0x1p-133f), 2, 0, M(0, 0), F(0.0f, 0.0f));
}
MXTEST(encode_table_microxcaling_subnormals_exact)
{
    enc_f32(P_MX, F(0x1p-130f, 0x1p-133f), 2, 0, M(8, 1), F(0x1p-130f, 0x1p-133f));
}

/* Row [1.5 * 2^127]: MASE S = 128 -> byte 255, m 0, NaN; others 254, 96 (mx "exact") */
MXTEST(encode_table_ocp_1p5_2p127) { enc_f32(P_OCP, F(0x1.8p127f), 1, 254, M(96), F(0x1.8p127f)); }
MXTEST(encode_table_mase_1p5_2p127_nan_block) { enc_f32(P_MASE, F(0x1.8p127f), 1, 255, M(0), F(NAN)); }
MXTEST(encode_table_mase_cuda_1p5_2p127) { enc_f32(P_MCQ, F(0x1.8p127f), 1, 254, M(96), F(0x1.8p127f)); }
MXTEST(encode_table_microxcaling_1p5_2p127) { enc_f32(P_MX, F(0x1.8p127f), 1, 254, M(96), F(0x1.8p127f)); }

/* Row [x, -0.001] with amax 1.5: MASE and mx keep -0.0, mcq and OCP give +0 */
MXTEST(encode_table_ocp_small_negative_is_pos_zero)
{
    enc_f32(P_OCP, F(1.5f, -0.001f), 2, 127, M(96, 0), F(1.5f, 0.0f));
}
MXTEST(encode_table_mase_small_negative_is_neg_zero)
{
    enc_f32(P_MASE, F(1.5f, -0.001f), 2, 128, M(96, 0), F(1.5f, -0.0f));
}
MXTEST(encode_table_mase_cuda_small_negative_is_pos_zero)
{
    enc_f32(P_MCQ, F(1.5f, -0.001f), 2, 127, M(96, 0), F(1.5f, 0.0f));
}
MXTEST(encode_table_microxcaling_small_negative_is_neg_zero)
{
    enc_f32(P_MX, F(1.5f, -0.001f), 2, 127, M(96, 0), F(1.5f, -0.0f));
}

/* Rows "contains NaN" / "contains +-Inf": every profile: byte 0xFF, all m 0, all outputs NaN. */
static void nan_block(mxsim_profile p, float special)
{
    enc_f32(p, F(1.0f, special, -2.0f, 0.0f, 1e-30f), 5, 255, M(0, 0, 0, 0, 0),
            F(NAN, NAN, NAN, NAN, NAN));
    /* and in bf16 */
    enc_bf16(p, B(0x3F80, ref_f32_to_bf16(special), 0xC000, 0x0000, 0x0001), 5, 255,
             M(0, 0, 0, 0, 0), B(0x7FC0, 0x7FC0, 0x7FC0, 0x7FC0, 0x7FC0));
}
MXTEST(encode_table_ocp_contains_nan) { nan_block(P_OCP, NAN); }
MXTEST(encode_table_mase_contains_nan) { nan_block(P_MASE, NAN); }
MXTEST(encode_table_mase_cuda_contains_nan) { nan_block(P_MCQ, NAN); }
MXTEST(encode_table_microxcaling_contains_nan) { nan_block(P_MX, NAN); }
MXTEST(encode_table_ocp_contains_inf) { nan_block(P_OCP, INFINITY); nan_block(P_OCP, -INFINITY); }
MXTEST(encode_table_mase_contains_inf) { nan_block(P_MASE, INFINITY); nan_block(P_MASE, -INFINITY); }
MXTEST(encode_table_mase_cuda_contains_inf) { nan_block(P_MCQ, INFINITY); nan_block(P_MCQ, -INFINITY); }
MXTEST(encode_table_microxcaling_contains_inf)
{
    nan_block(P_MX, INFINITY);
    nan_block(P_MX, -INFINITY);
}
MXTEST(encode_nan_block_only_nan_element)
{
    for (int pi = 0; pi < 4; pi++) enc_f32(k_profiles[pi], F(NAN), 1, 255, M(0), F(NAN));
}

/* ---- further consequences stated by numerics.md section 3 and the reference ------------------ */

/* Signed zero inputs: MASE returns -0.0 for an input of -0.0 (numerics.md section 3); microxcaling
** gives +0.0 for -0.0 (numerics.md section 3, fake quantization); OCP and mase-cuda give +0 (codes).  The block is
** all-zero, so the bytes are the zero-block bytes. */
MXTEST(encode_neg_zero_inputs)
{
    enc_f32(P_MASE, F(-0.0f, 0.0f, -0.0f), 3, 1, M(0, 0, 0), F(-0.0f, 0.0f, -0.0f));
    enc_f32(P_MX, F(-0.0f, 0.0f, -0.0f), 3, 1, M(0, 0, 0), F(0.0f, 0.0f, 0.0f));
    enc_f32(P_OCP, F(-0.0f, 0.0f, -0.0f), 3, 0, M(0, 0, 0), F(0.0f, 0.0f, 0.0f));
    enc_f32(P_MCQ, F(-0.0f, 0.0f, -0.0f), 3, 0, M(0, 0, 0), F(0.0f, 0.0f, 0.0f));
    enc_bf16(P_MASE, B(0x8000, 0x0000), 2, 1, M(0, 0), B(0x8000, 0x0000));
    enc_bf16(P_MX, B(0x8000, 0x0000), 2, 1, M(0, 0), B(0x0000, 0x0000));
}

/* microxcaling: -0.0 only when the quotient x * 2^-se is nonzero in the dtype (numerics.md
** section 3).  Block [1.0, -2^-149]: se = 0, the quotient -2^-149 is nonzero in f32 -> -0.0.
** Block [2^127, -2^-149]: se = 127, the quotient -2^-276 underflows to -0 -> +0.0.  MASE keeps
** -0.0 in both (its round keeps the sign).  In bf16: [1.0, -2^-133]: quotient nonzero -> -0.0. */
MXTEST(encode_microxcaling_neg_zero_needs_nonzero_quotient)
{
    enc_f32(P_MX, F(1.0f, -0x1p-149f), 2, 127, M(64, 0), F(1.0f, -0.0f));
    enc_f32(P_MX, F(0x1p127f, -0x1p-149f), 2, 254, M(64, 0), F(0x1p127f, 0.0f));
    enc_f32(P_MASE, F(0x1p127f, -0x1p-149f), 2, 254, M(127, 0), F(0x1.fcp126f, -0.0f));
    enc_bf16(P_MX, B(0x3F80, 0x8001), 2, 127, M(64, 0), B(0x3F80, 0x8000));
    enc_bf16(P_MX, B(0x7F00, 0x8001), 2, 254, M(64, 0), B(0x7F00, 0x0000));
}

/* MASE S = 128 thresholds (numerics.md section 5.3): bf16 amax >= 0x7F19 -> byte 255, m 0, NaN;
** 0x7F18 -> byte 254 with saturation (q = 1.1875 * 128 = 152 -> 127; dq 127 * 2^120 = 0x7EFE).
** fp32: amax a few ulps above 2^127 have log2 rounding to exactly 127 -> byte 254, saturated;
** FLT_MAX -> S = 128 -> NaN. */
MXTEST(encode_mase_top_of_range)
{
    enc_bf16(P_MASE, B(0x7F19), 1, 255, M(0), B(0x7FC0));
    enc_bf16(P_MASE, B(0xFF19, 0x3F80), 2, 255, M(0, 0), B(0x7FC0, 0x7FC0));
    enc_bf16(P_MASE, B(0x7F18), 1, 254, M(127), B(0x7EFE));
    enc_bf16(P_MASE, B(0xFF18), 1, 254, M(-128), B(0xFF00));
    enc_f32(P_MASE, F(0x1.000002p127f), 1, 254, M(127), F(0x1.fcp126f));
    enc_f32(P_MASE, F(FLT_MAX), 1, 255, M(0), F(NAN));
    enc_f32(P_MASE, F(0x1p127f), 1, 254, M(127), F(0x1.fcp126f));
    enc_f32(P_MASE, F(-0x1p127f), 1, 254, M(-128), F(-0x1p127f));
}

/* microxcaling se > 127 -> NaN block (numerics.md section 5.3): fp32 FLT_MAX; bf16 amax >= 0x7F58.
** bf16 0x7F57 = 1.6796875 * 2^127: se = 127, q = 107.5, q + 0.5 = 108 -> m 108 -> 0x7F58. */
MXTEST(encode_microxcaling_top_of_range)
{
    enc_f32(P_MX, F(FLT_MAX), 1, 255, M(0), F(NAN));
    enc_f32(P_MX, F(-FLT_MAX, 1.0f), 2, 255, M(0, 0), F(NAN, NAN));
    enc_bf16(P_MX, B(0x7F58), 1, 255, M(0), B(0x7FC0));
    enc_bf16(P_MX, B(0x7F57), 1, 254, M(108), B(0x7F58));
}

/* microxcaling: "floor(RN_dtype(q + 0.5)) (the add rounds in the input dtype)".  f32 q = 0.5 -
** 2^-25 (x = (0.5 - 2^-25) * 2^-6 in a block of max 1.0): q + 0.5 = 1 - 2^-25 is a tie in f32
** and rounds to 1.0 -> m = 1.  bf16: q = 0.5 - 2^-9 -> 1 - 2^-9 ties to 1.0 -> m = 1. */
MXTEST(encode_microxcaling_add_rounds_in_dtype)
{
    enc_f32(P_MX, F(1.0f, 0x1.fffffep-8f), 2, 127, M(64, 1), F(1.0f, 0x1p-6f));
    enc_f32(P_MX, F(1.0f, -0x1.fffffep-8f), 2, 127, M(64, -1), F(1.0f, -0x1p-6f));
    enc_bf16(P_MX, B(0x3F80, 0x3BFF), 2, 127, M(64, 1), B(0x3F80, 0x3C80));
    /* a genuine value below one half of the grid rounds to zero (x = 0.25 * 2^-6) */
    enc_f32(P_MX, F(1.0f, 0x1p-8f), 2, 127, M(64, 0), F(1.0f, 0.0f));
}

/* OCP: numerics.md section 2 decodes (254, -128) to -Inf and section 3 says fake quant equals the
** decode of the codes; a block whose max is -FLT_MAX rounds to -128 at E = 254. */
MXTEST(encode_ocp_neg_flt_max_fake_quant_is_neg_inf)
{
    enc_f32(P_OCP, F(-FLT_MAX), 1, 254, M(-128), F(-INFINITY));
    enc_f32(P_OCP, F(FLT_MAX), 1, 254, M(127), F(0x1.fcp127f));
    enc_bf16(P_OCP, B(0xFF7F), 1, 254, M(-128), B(0xFF80));
}

/* mase-cuda: the bf16 pre-rounding happens first, so a float that rounds to bf16 Inf makes a
** NaN block (numerics.md section 3: pre-rounding row, then the NaN/Inf row); and a subnormal
** float that rounds up to 2^-126 in bf16 is not flushed (the flush applies after rounding). */
MXTEST(encode_mase_cuda_prerounding_order)
{
    enc_f32(P_MCQ, F(FLT_MAX, 1.0f), 2, 255, M(0, 0), F(NAN, NAN));
    enc_f32(P_MCQ, F(0x1.fffffcp-127f), 1, 1, M(64), F(0x1p-126f));
    enc_f32(P_MCQ, F(0x1.fcp-127f), 1, 0, M(0), F(0.0f)); /* bf16 0x007F, flushed */
    /* bf16 input: subnormals are flushed too */
    enc_bf16(P_MCQ, B(0x007F, 0x8001), 2, 0, M(0, 0), B(0x0000, 0x0000));
    /* bf16 input is not re-rounded: 0x3F81 = 1 + 2^-7 -> q 64.5 -> 64 (RNE) */
    enc_bf16(P_MCQ, B(0x3F81), 1, 127, M(64), B(0x3F80));
}

/* MASE: "S = ceil(bf16(RN_f32(log2 amax)))" for bf16 differs from fp32 on the same value
** (numerics.md section 3); OCP never depends on the dtype for representable inputs. */
MXTEST(encode_mase_bf16_positive_power_of_two)
{
    enc_bf16(P_MASE, B(0x3F80, 0xBF00), 2, 127, M(127, -64), B(0x3F7E, 0xBF00));
    enc_bf16(P_MASE, B(0xBF80, 0x3F00), 2, 127, M(-128, 64), B(0xBF80, 0x3F00));
}

/* ---- argument checking (mxsim.h: MXSIM_E_ARG on bad arguments only) ----------------------- */
MXTEST(quantize_block_bad_arguments)
{
    float x[4] = {1, 2, 3, 4}, out[4];
    uint8_t sc;
    int8_t m[4];
    MXT_EQ_INT(mxsim_quantize_block(P_OCP, MXSIM_DTYPE_F32, x, 0, &sc, m), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_quantize_block(P_OCP, MXSIM_DTYPE_F32, x, MXSIM_MAX_GROUP + 1, &sc, m),
               MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_quantize_block(P_OCP, MXSIM_DTYPE_F32, NULL, 4, &sc, m), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_quantize_block(P_OCP, MXSIM_DTYPE_F32, x, 4, NULL, m), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_quantize_block(P_OCP, MXSIM_DTYPE_F32, x, 4, &sc, NULL), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_quantize_block(P_OCP, MXSIM_DTYPE_I8, x, 4, &sc, m), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_quantize_block((mxsim_profile)4, MXSIM_DTYPE_F32, x, 4, &sc, m), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_fake_quant_block(P_OCP, MXSIM_DTYPE_F32, x, 0, out), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_fake_quant_block(P_OCP, MXSIM_DTYPE_F32, x, 4, NULL), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_fake_quant_block(P_OCP, MXSIM_DTYPE_F32, NULL, 4, out), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_fake_quant_block(P_OCP, MXSIM_DTYPE_U8, x, 4, out), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_fake_quant_block((mxsim_profile)-1, MXSIM_DTYPE_F32, x, 4, out), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_quantize_block(P_OCP, MXSIM_DTYPE_F32, x, 4, &sc, m), MXSIM_OK);
    MXT_EQ_INT(mxsim_fake_quant_block(P_OCP, MXSIM_DTYPE_F32, x, 4, out), MXSIM_OK);
}

/* ---- random blocks against the reference ------------------------------------------------- */

enum {
    K_GAUSS,
    K_HEAVY,
    K_ZERO,
    K_SUBNORMAL,
    K_NANINF,
    K_POW2,
    K_NEARPOW2,
    K_TIES,
    K_BF16MID,
    K_HUGE,
    K_BITS,
    K_COUNT
};
static const char *const k_kind_names[K_COUNT] = {"gauss", "heavy", "zero", "subnormal",
                                                  "naninf", "pow2", "nearpow2", "ties",
                                                  "bf16mid", "huge", "bits"};

/* A float value as dtype bits (bf16: RNE of the float, NaN kept as NaN). */
static uint32_t to_dtype_bits(float v, int bf16) { return bf16 ? ref_f32_to_bf16(v) : ref_f32_bits(v); }

/* g * 2^s as a float, saturating to +-FLT_MAX-ish range is not needed: s is kept in range. */
static float scaled(double g, int s)
{
    double v = ldexp(g, s);
    if (fabs(v) > 0x1.fffffep127) v = copysign(0x1.fffffep127, v);
    return (float)v; /* in range: a defined conversion */
}

static int rnd_int(mxt_rng *r, int lo, int hi) { return lo + (int)(mxt_next(r) % (uint64_t)(hi - lo + 1)); }

static void gen_block(mxt_rng *r, int kind, int bf16, size_t n, uint32_t *bits)
{
    const int s = rnd_int(r, -140, 120);
    switch (kind) {
    case K_GAUSS:
        for (size_t i = 0; i < n; i++) bits[i] = to_dtype_bits(scaled(mxt_gauss(r), s), bf16);
        break;
    case K_HEAVY:
        for (size_t i = 0; i < n; i++) bits[i] = to_dtype_bits(scaled(mxt_gauss(r), s), bf16);
        for (int j = rnd_int(r, 1, 3); j > 0; j--)
            bits[mxt_next(r) % n] = to_dtype_bits(scaled(mxt_gauss(r), s + rnd_int(r, 6, 20)), bf16);
        break;
    case K_ZERO:
        for (size_t i = 0; i < n; i++) bits[i] = to_dtype_bits((mxt_next(r) & 1) ? -0.0f : 0.0f, bf16);
        break;
    case K_SUBNORMAL:
        for (size_t i = 0; i < n; i++) {
            const uint64_t u = mxt_next(r);
            if (bf16) bits[i] = (uint32_t)((u & 0x8000) | ((u >> 16) & 0x7F));
            else bits[i] = (uint32_t)((u & 0x80000000u) | ((u >> 32) & 0x7FFFFF));
            if ((u >> 60) == 0) bits[i] = 0; /* a few zeros */
        }
        break;
    case K_NANINF: {
        for (size_t i = 0; i < n; i++) bits[i] = to_dtype_bits(scaled(mxt_gauss(r), s), bf16);
        const int which = rnd_int(r, 0, 3);
        uint32_t sp;
        if (which == 0) sp = bf16 ? 0x7F80u : 0x7F800000u;
        else if (which == 1) sp = bf16 ? 0xFF80u : 0xFF800000u;
        else if (which == 2) sp = bf16 ? 0x7FC0u : 0x7FC00000u;
        else sp = bf16 ? (0xFF81u | (uint32_t)(mxt_next(r) & 0x3F)) : (0xFF800001u | (uint32_t)(mxt_next(r) & 0x3FFFFF));
        bits[mxt_next(r) % n] = sp;
        break;
    }
    case K_POW2: {
        const int base = rnd_int(r, -149, 127);
        for (size_t i = 0; i < n; i++) {
            int k = base - rnd_int(r, 0, 10);
            if (k < -149) k = -149;
            double v = ldexp((mxt_next(r) & 1) ? -1.0 : 1.0, k);
            bits[i] = to_dtype_bits((float)v, bf16);
        }
        break;
    }
    case K_NEARPOW2: {
        /* max element = +-2^k * (1 + j ulp), j in [-4, 4]; others smaller */
        const int k = rnd_int(r, -126, 127);
        for (size_t i = 0; i < n; i++) bits[i] = to_dtype_bits(scaled(mxt_gauss(r) * 0.25, k), bf16);
        uint32_t pb = bf16 ? (uint32_t)((k + 127) << 7) : (uint32_t)((k + 127) << 23);
        pb = (uint32_t)((int64_t)pb + rnd_int(r, -4, 4));
        if ((mxt_next(r) & 1)) pb |= bf16 ? 0x8000u : 0x80000000u;
        if ((pb & (bf16 ? 0x7F80u : 0x7F800000u)) == (bf16 ? 0x7F80u : 0x7F800000u)) pb -= 8; /* stay finite */
        bits[mxt_next(r) % n] = pb;
        break;
    }
    case K_TIES: {
        /* values (2j+1) * 2^(e-7), j random, with a max 2^e * 1.x so e is the OCP exponent */
        const int e = rnd_int(r, -126, 126);
        for (size_t i = 0; i < n; i++) {
            const int j = rnd_int(r, -64, 63);
            bits[i] = to_dtype_bits((float)ldexp(2.0 * j + 1.0, e - 7), bf16);
        }
        bits[mxt_next(r) % n] = to_dtype_bits((float)ldexp(1.0 + rnd_int(r, 0, 127) / 128.0, e), bf16);
        break;
    }
    case K_BF16MID:
        /* floats at or next to a bf16 rounding midpoint (double-rounding cases for mase-cuda) */
        for (size_t i = 0; i < n; i++) {
            uint32_t u = (uint32_t)(mxt_next(r) & 0x807FFFFFu) | ((uint32_t)rnd_int(r, 100, 140) << 23);
            u = (u & 0xFFFF0000u) | 0x8000u;
            u += (uint32_t)rnd_int(r, -1, 1);
            bits[i] = bf16 ? (u >> 16) : u;
        }
        break;
    case K_HUGE:
        for (size_t i = 0; i < n; i++) {
            const double g = 1.0 + mxt_uniform(r);
            bits[i] = to_dtype_bits(scaled((mxt_next(r) & 1) ? -g : g, rnd_int(r, 120, 127)), bf16);
        }
        break;
    default: /* K_BITS: random finite bit patterns */
        for (size_t i = 0; i < n; i++) {
            uint32_t u;
            do {
                u = (uint32_t)mxt_next(r);
                if (bf16) u &= 0xFFFF;
            } while ((u & (bf16 ? 0x7F80u : 0x7F800000u)) == (bf16 ? 0x7F80u : 0x7F800000u));
            bits[i] = u;
        }
        break;
    }
}

static const size_t k_sizes[5] = {1, 7, 32, 64, 128};

static void print_block(mxsim_profile p, int bf16, int kind, const uint32_t *bits, size_t n)
{
    if (mxt_failures > MXT_MAX_MSGS) return;
    fprintf(stderr, "    block (%s, %s, %s, n=%zu):", mxsim_profile_name(p), bf16 ? "bf16" : "f32",
            k_kind_names[kind], n);
    for (size_t i = 0; i < n && i < 8; i++) fprintf(stderr, bf16 ? " 0x%04x" : " 0x%08x", bits[i]);
    fprintf(stderr, n > 8 ? " ...\n" : "\n");
}

/* Compares one block with the reference.  Returns the number of mismatching items. */
static int check_block_vs_ref(mxsim_profile p, int bf16, int kind, const uint32_t *bits, size_t n)
{
    uint8_t sc, sref;
    if (lib_run(p, bf16, bits, n, &sc, g_m, g_fq)) return 1;
    for (size_t i = 0; i < n; i++) g_x[i] = ref_bits_value(bits[i], bf16);
    ref_quantize(p, bf16, g_x, n, &sref, g_mref, g_dqref);
    int bad = 0;
    mxt_checks++;
    if (sc != sref) {
        MXT_FAILF("scale byte %d, want %d", sc, sref);
        bad++;
    }
    for (size_t i = 0; i < n; i++) {
        const uint32_t want = ref_round_double(g_dqref[i], bf16);
        mxt_checks += 2;
        if (g_m[i] != g_mref[i]) {
            MXT_FAILF("m[%zu] = %d, want %d (x = %a)", i, g_m[i], g_mref[i], g_x[i]);
            bad++;
        }
        if (!same_bits(g_fq[i], want, bf16)) {
            MXT_FAILF("fake_quant[%zu] = 0x%0*x, want 0x%0*x (x = %a)", i, bf16 ? 4 : 8, g_fq[i],
                      bf16 ? 4 : 8, want, g_x[i]);
            bad++;
        }
    }
    if (bad) print_block(p, bf16, kind, bits, n);
    return bad;
}

static void random_vs_ref(mxsim_profile p, int bf16, uint64_t seed, int blocks_per_case)
{
    mxt_rng r = {seed};
    for (int kind = 0; kind < K_COUNT; kind++)
        for (int si = 0; si < 5; si++)
            for (int b = 0; b < blocks_per_case; b++) {
                gen_block(&r, kind, bf16, k_sizes[si], g_bits);
                check_block_vs_ref(p, bf16, kind, g_bits, k_sizes[si]);
            }
}

MXTEST(random_ocp_f32) { random_vs_ref(P_OCP, 0, 0x1001, 300); }
MXTEST(random_ocp_bf16) { random_vs_ref(P_OCP, 1, 0x1002, 300); }
MXTEST(random_mase_f32) { random_vs_ref(P_MASE, 0, 0x1003, 300); }
MXTEST(random_mase_bf16) { random_vs_ref(P_MASE, 1, 0x1004, 300); }
MXTEST(random_mase_cuda_f32) { random_vs_ref(P_MCQ, 0, 0x1005, 300); }
MXTEST(random_mase_cuda_bf16) { random_vs_ref(P_MCQ, 1, 0x1006, 300); }
MXTEST(random_microxcaling_f32) { random_vs_ref(P_MX, 0, 0x1007, 300); }
MXTEST(random_microxcaling_bf16) { random_vs_ref(P_MX, 1, 0x1008, 300); }

/* Single-element blocks over every bf16 pattern (all exponents, both log2 quirks) and over
** floats near every power of two (+-8 ulps), each profile. */
MXTEST(single_element_all_bf16_patterns)
{
    for (int pi = 0; pi < 4; pi++)
        for (uint32_t b = 0; b < 65536; b++) {
            g_bits[0] = b;
            check_block_vs_ref(k_profiles[pi], 1, K_BITS, g_bits, 1);
        }
}

MXTEST(single_element_f32_near_powers_of_two)
{
    for (int pi = 0; pi < 4; pi++)
        for (uint32_t ex = 0; ex < 255; ex++)
            for (int d = -8; d <= 8; d++) {
                const int64_t u = ((int64_t)ex << 23) + d;
                if (u <= 0 || u >= 0x7F800000) continue;
                for (int sgn = 0; sgn < 2; sgn++) {
                    g_bits[0] = (uint32_t)u | (sgn ? 0x80000000u : 0);
                    g_bits[1] = ref_f32_bits(0.3f) | (sgn ? 0 : 0x80000000u);
                    check_block_vs_ref(k_profiles[pi], 0, K_NEARPOW2, g_bits, 1);
                    check_block_vs_ref(k_profiles[pi], 0, K_NEARPOW2, g_bits, 2);
                }
            }
}

/* The largest block (MXSIM_MAX_GROUP) once per profile and dtype. */
MXTEST(random_max_group)
{
    mxt_rng r = {0x2001};
    for (int pi = 0; pi < 4; pi++)
        for (int bf16 = 0; bf16 < 2; bf16++) {
            for (size_t i = 0; i < NMAX; i++) g_bits[i] = to_dtype_bits(scaled(mxt_gauss(&r), -3), bf16);
            check_block_vs_ref(k_profiles[pi], bf16, K_GAUSS, g_bits, NMAX);
        }
}

/* ---- properties (library + spec only) ------------------------------------------------------ */

static int ocp_exponent(mxsim_profile p, uint8_t scale) { return p == P_MASE ? (int)scale - 1 : scale; }

/* The value the profile quantizes: the input, or for mase-cuda its bf16 rounding, flushed. */
static double quantized_value(mxsim_profile p, int bf16, double x)
{
    if (p != P_MCQ) return x;
    double xr = bf16 ? x : ref_rn(x, 1);
    if (fabs(xr) < 0x1p-126) xr = 0.0;
    return xr;
}

/* Property checks on one block.  Saturation exceptions (documented):
**   all profiles : the code 127 (x beyond 127 steps);
**   OCP          : -128 is a regular code (|x| <= 128 steps); (254, -128) decodes to -Inf;
**   MASE         : -128 for x below -128 steps (the log2 quirk gives up to ~132 steps);
**   mase-cuda    : -127 (symmetric clamp); flushed elements (|bf16(x)| < 2^-126) decode to +0;
**                  the bound holds for bf16(x), not for the f32 input;
**   microxcaling : -127 (symmetric clamp); |m| = 1 where RN_dtype(q + 0.5) rounds up to 1
**                  (error at most half a step plus half a dtype ulp of q + 0.5).
** A NaN block (NaN/Inf input, MASE S = 128, microxcaling se > 127) is all NaN with m = 0. */
static void property_block(mxsim_profile p, int bf16, int kind, const uint32_t *bits, size_t n)
{
    uint8_t sc;
    if (lib_run(p, bf16, bits, n, &sc, g_m, g_fq)) return;
    int nonfinite = 0, bad = 0;
    for (size_t i = 0; i < n; i++) {
        g_x[i] = ref_bits_value(bits[i], bf16);
        if (!isfinite(quantized_value(p, bf16, g_x[i]))) nonfinite = 1;
    }
    /* fake quant vs decode of the codes */
    for (size_t i = 0; i < n; i++) {
        const uint32_t dec = bf16 ? mxsim_decode_bf16(p, sc, g_m[i])
                                  : ref_f32_bits(mxsim_decode_f32(p, sc, g_m[i]));
        const uint32_t negz = bf16 ? 0x8000u : 0x80000000u;
        mxt_checks++;
        if (same_bits(g_fq[i], dec, bf16)) continue;
        if ((p == P_MASE || p == P_MX) && dec == 0 && g_fq[i] == negz && signbit(g_x[i])) continue;
        MXT_FAILF("fake_quant[%zu] 0x%x != decode(%d, %d) 0x%x (x = %a)", i, g_fq[i], sc, g_m[i],
                  dec, g_x[i]);
        bad++;
    }
    if (p == P_MCQ || p == P_MX)
        for (size_t i = 0; i < n; i++) {
            mxt_checks++;
            if (g_m[i] == -128) {
                MXT_FAILF("%s emitted -128", mxsim_profile_name(p));
                bad++;
            }
        }
    if (nonfinite || sc == 255) {
        mxt_checks++;
        if (sc != 255) {
            MXT_FAILF("NaN/Inf block: scale %d, want 255", sc);
            bad++;
        }
        for (size_t i = 0; i < n; i++) {
            mxt_checks += 2;
            if (g_m[i] != 0) {
                MXT_FAILF("NaN block: m[%zu] = %d", i, g_m[i]);
                bad++;
            }
            if (!isnan(ref_bits_value(g_fq[i], bf16))) {
                MXT_FAILF("NaN block: fake_quant[%zu] = 0x%x not NaN", i, g_fq[i]);
                bad++;
            }
        }
        if (!nonfinite) {
            /* only MASE (S = 128) and microxcaling (se > 127) make NaN blocks of finite data,
            ** and only for amax >= 2^127 */
            double amax = 0;
            for (size_t i = 0; i < n; i++) amax = fmax(amax, fabs(g_x[i]));
            mxt_checks++;
            if (!((p == P_MASE || p == P_MX) && amax >= 0x1p127)) {
                MXT_FAILF("finite block (amax %a) made a NaN block", amax);
                bad++;
            }
        }
        if (bad) print_block(p, bf16, kind, bits, n);
        return;
    }
    const int E = ocp_exponent(p, sc);
    const long double step = ldexpl(1.0L, E - 133), half = step / 2;
    for (size_t i = 0; i < n; i++) {
        const double xv = quantized_value(p, bf16, g_x[i]);
        const double dq = ref_bits_value(g_fq[i], bf16);
        const int m = g_m[i];
        mxt_checks++;
        if (p == P_OCP && sc == 254 && m == -128) {
            if (!(isinf(dq) && dq < 0 && xv < 0)) {
                MXT_FAILF("OCP (254,-128) element: dq %a (x = %a)", dq, xv);
                bad++;
            }
            continue;
        }
        if (p == P_MCQ && xv == 0.0) {
            if (!(dq == 0.0 && !signbit(dq))) {
                MXT_FAILF("mase-cuda flushed/zero element: dq %a (x = %a)", dq, g_x[i]);
                bad++;
            }
            continue;
        }
        const long double err = fabsl((long double)xv - (long double)dq);
        if (err <= half) continue;
        /* saturation: the code is at the clamp and x lies beyond it, same sign */
        const int sat_hi = m == 127 && xv > 0 && (long double)xv > (long double)dq;
        const int neg_clamp = (p == P_MASE) ? -128 : (p == P_OCP ? -129 : -127);
        const int sat_lo = m == neg_clamp && xv < 0 && (long double)xv < (long double)dq;
        if (sat_hi || sat_lo) continue;
        if (p == P_MX && (m == 1 || m == -1) && err <= half * (1.0L + 0x1p-7L)) continue;
        MXT_FAILF("|x - dq| = %La > half step %La: x = %a, dq = %a, m = %d, scale %d", err, half, xv,
                  dq, m, sc);
        bad++;
    }
    if (bad) print_block(p, bf16, kind, bits, n);
}

static void property_random(mxsim_profile p, uint64_t seed)
{
    mxt_rng r = {seed};
    for (int bf16 = 0; bf16 < 2; bf16++)
        for (int kind = 0; kind < K_COUNT; kind++)
            for (int si = 0; si < 5; si++)
                for (int b = 0; b < 200; b++) {
                    gen_block(&r, kind, bf16, k_sizes[si], g_bits);
                    property_block(p, bf16, kind, g_bits, k_sizes[si]);
                }
}

MXTEST(property_ocp) { property_random(P_OCP, 0x3001); }
MXTEST(property_mase) { property_random(P_MASE, 0x3002); }
MXTEST(property_mase_cuda) { property_random(P_MCQ, 0x3003); }
MXTEST(property_microxcaling) { property_random(P_MX, 0x3004); }

/* mase-cuda against the original f32 input: error <= half step + the bf16 rounding error, except
** saturated and flushed elements (numerics.md section 3: f32 input is rounded to bf16 first). */
MXTEST(property_mase_cuda_f32_double_rounding_bound)
{
    mxt_rng r = {0x3005};
    for (int b = 0; b < 20000; b++) {
        const size_t n = k_sizes[b % 5];
        gen_block(&r, b % 2 ? K_GAUSS : K_BF16MID, 0, n, g_bits);
        uint8_t sc;
        if (lib_run(P_MCQ, 0, g_bits, n, &sc, g_m, g_fq)) return;
        if (sc == 255) continue;
        const long double half = ldexpl(1.0L, sc - 134);
        for (size_t i = 0; i < n; i++) {
            const double x = ref_bits_value(g_bits[i], 0), xr = ref_rn(x, 1);
            const double dq = ref_bits_value(g_fq[i], 0);
            if (fabs(xr) < 0x1p-126 || g_m[i] == 127 || g_m[i] == -127) continue;
            const long double err = fabsl((long double)x - dq), bound = half + fabsl((long double)x - xr);
            mxt_checks++;
            if (err > bound) MXT_FAILF("x %a dq %a err %La > %La", x, dq, err, bound);
        }
    }
}

/* ---- self-checks of the reference's log2 against facts the reference document measured by
** running the upstream code (they guard ref_numerics.h, not the library) ------------------- */

/* Section 2.3: fp32 log2(2^k (1 + 2^-23)) rounds to exactly k for every k outside [-4, 3]. */
MXTEST(ref_selfcheck_log2_mase_f32_quirk)
{
    int n_exact_k = 0;
    for (int k = -126; k <= 127; k++) {
        const int S = (int)ceil(ref_log2_dtype(ldexp(1.0 + 0x1p-23, k), 0));
        MXT_EQ_INT(S, (k >= -4 && k <= 3) ? k + 1 : k);
        n_exact_k += S == k;
    }
    MXT_EQ_INT(n_exact_k, 246);
}

/* Section 2.3: for 3,928 of the 32,639 positive finite bf16 values, S is one too small. */
MXTEST(ref_selfcheck_log2_mase_bf16_count)
{
    int too_small = 0;
    for (uint32_t b = 1; b <= 0x7F7F; b++) {
        double a = ref_bits_value(b, 1);
        if (a < 0x1p-126) a = 0x1p-126; /* MASE's tiny clamp */
        const int S = (int)ceil(ref_log2_dtype(a, 1));
        int ex;
        const double f = frexp(a, &ex);
        const int exact = f == 0.5 ? ex - 1 : ex; /* exact ceil(log2 a) */
        MXT_TRUE(S == exact || S == exact - 1);
        too_small += S == exact - 1;
    }
    MXT_EQ_INT(too_small, 3928);
}

/* Section 4: fp32 floor(log2(2^k (1 - 2^-24))) gives k for every k outside [-1, 2]. */
MXTEST(ref_selfcheck_log2_microxcaling_f32_quirk)
{
    for (int k = -125; k <= 128; k++) {
        const int se = (int)floor(ref_log2_dtype(ldexp(1.0 - 0x1p-24, k), 0));
        MXT_EQ_INT(se, (k >= -1 && k <= 2) ? k - 1 : k);
    }
}

/* Sections 2.4 and 4: the top-of-range thresholds. */
MXTEST(ref_selfcheck_log2_thresholds)
{
    MXT_EQ_INT((int)ceil(ref_log2_dtype(ref_bits_value(0x7F19, 1), 1)), 128);
    MXT_EQ_INT((int)ceil(ref_log2_dtype(ref_bits_value(0x7F18, 1), 1)), 127);
    MXT_EQ_INT((int)floor(ref_log2_dtype(ref_bits_value(0x7F58, 1), 1)), 128);
    MXT_EQ_INT((int)floor(ref_log2_dtype(ref_bits_value(0x7F57, 1), 1)), 127);
    MXT_EQ_INT((int)floor(ref_log2_dtype(0x1.fffffep127, 0)), 128);
}

MXTEST_MAIN()
