/* fuzz_api.c - the public API itself: the input is decoded into a sequence of calls on a few
** slots (4 tensors, 3 MXINT8 tensors, a trace, a table, a configuration) with arguments taken
** from the bytes: shapes small enough to allocate or large enough that their size products
** overflow (those must be refused with a message, never allocated), any profile, group, axis,
** dtype, trace op fields and configuration key/value, NULL arguments and NULL handles.
** Invariants: every call returns a known status; a failure leaves a message and never
** MXSIM_E_INTERNAL; a success leaves a consistent handle (numel is the product of the shape,
** the dequantized tensor has the quantized one's shape, a gemm result is [M,N]). */
#include "fuzz_common.h"

/* Per-input work bounds (the target ran at 276 executions/s with tensors of up to 2^20 elements,
** unbounded gemms and SCALE-Sim stepping of up to 2^27 visits): elements of a tensor made of
** small dims, multiply-adds of one gemm, buffer-column visits of one SCALE-Sim-compat timing. */
#define FZ_API_MAX_ELEMS 4096
#define FZ_API_MAX_MACS 65536.0
#define FZ_API_SCALESIM_BUDGET 8192.0

typedef struct {
    const uint8_t *p;
    size_t n;
} fz_in;

static unsigned u8(fz_in *in)
{
    if (in->n == 0) return 0;
    in->n--;
    return *in->p++;
}

/* A dimension: mostly 0..16; sometimes 2^40.. (products overflow or pass 64 GiB: refused). */
static int64_t dim(fz_in *in)
{
    unsigned b = u8(in);
    if (b >= 0xF0) return (int64_t)1 << (40 + (b & 15) + (u8(in) & 7));
    if (b == 0xEF) return -(int64_t)(u8(in) + 1);
    return b % 17;
}

static void chk(mxsim_ctx *ctx, mxsim_status st)
{
    fz_check(st >= MXSIM_OK && st < MXSIM_STATUS_COUNT_);
    if (st != MXSIM_OK) fz_check_failure(ctx, st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mxsim_ctx *ctx = fz_ctx();
    fz_in in = {data, size};
    mxsim_tensor *t[4] = {0};
    mxsim_mx *mx[3] = {0};
    mxsim_trace *tr = NULL;
    mxsim_table *tab = NULL;
    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    for (int step = 0; step < 64 && in.n > 0; step++) {
        unsigned call = u8(&in) % 12, s = u8(&in);
        mxsim_status st = MXSIM_OK;
        switch (call) {
        case 0: { /* tensor_create */
            int64_t shape[MXSIM_MAX_DIMS + 1];
            int ndim = (int)(u8(&in) % (MXSIM_MAX_DIMS + 2)) - (s & 0x80 ? 1 : 0);
            for (int i = 0; i < MXSIM_MAX_DIMS + 1; i++) shape[i] = dim(&in);
            /* small shapes stay small (the library's own 64 GiB limit is above the fuzzer's
            ** 2 GiB malloc limit, and every element costs time in quantize, dequantize and
            ** gemm): a product of small dims above FZ_API_MAX_ELEMS is cut to 1.  Huge dims
            ** (2^40 and up) are left alone: the library must refuse them */
            int64_t prod = 1;
            for (int i = 0; i < MXSIM_MAX_DIMS; i++)
                if (shape[i] >= 0 && shape[i] <= 16) {
                    if (prod * (shape[i] ? shape[i] : 1) > FZ_API_MAX_ELEMS) shape[i] = 1;
                    prod *= shape[i] ? shape[i] : 1;
                }
            mxsim_tensor **slot = &t[s % 4];
            mxsim_tensor_free(*slot);
            *slot = NULL;
            st = mxsim_tensor_create(ctx, (mxsim_dtype)(u8(&in) % (MXSIM_DTYPE_COUNT_ + 1)), ndim,
                                     s & 0x40 ? NULL : shape, slot);
            chk(ctx, st);
            if (st == MXSIM_OK) {
                int64_t n = 1;
                for (int i = 0; i < mxsim_tensor_ndim(*slot); i++) n *= mxsim_tensor_shape(*slot)[i];
                fz_check(n == mxsim_tensor_numel(*slot));
                fz_check(mxsim_tensor_data(*slot) != NULL);
            } else {
                fz_check(*slot == NULL);
            }
            break;
        }
        case 1: { /* fill a tensor from the input */
            mxsim_tensor *x = t[s % 4];
            if (x == NULL) break;
            static const size_t sz[] = {4, 2, 1, 1, 2, 8, 4};
            size_t bytes = (size_t)mxsim_tensor_numel(x) * sz[mxsim_tensor_dtype(x) % 7];
            unsigned char *d = mxsim_tensor_data(x);
            for (size_t i = 0; i < bytes && in.n > 0; i++) d[i] = (unsigned char)u8(&in);
            break;
        }
        case 2: { /* quantize */
            mxsim_mx **slot = &mx[s % 3];
            mxsim_mx_free(*slot);
            *slot = NULL;
            int64_t g = (int64_t)u8(&in) - 8;
            int axis = (int)(u8(&in) % 12) - 4;
            st = mxsim_mx_quantize(ctx, t[(s >> 2) % 4], (mxsim_profile)(u8(&in) % (MXSIM_PROFILE_COUNT_ + 1)), g,
                                   axis, slot);
            chk(ctx, st);
            fz_check((st == MXSIM_OK) == (*slot != NULL));
            break;
        }
        case 3: { /* dequantize */
            mxsim_tensor **slot = &t[s % 4];
            mxsim_tensor *out = NULL;
            st = mxsim_mx_dequantize(ctx, mx[(s >> 2) % 3], (mxsim_dtype)(u8(&in) % 3), &out);
            chk(ctx, st);
            if (st == MXSIM_OK) {
                fz_check(out != NULL);
                mxsim_tensor_free(*slot);
                *slot = out;
            }
            break;
        }
        case 4: { /* gemm */
            mxsim_tensor *out = NULL;
            mxsim_gemm_opts o;
            mxsim_gemm_opts_default(&o);
            o.out_dtype = u8(&in) & 1 ? MXSIM_DTYPE_BF16 : MXSIM_DTYPE_F32;
            /* two consistent 2-D operands of FZ_API_MAX_ELEMS elements can still ask for 2^24
            ** multiply-adds ([4096,1] x [4096,1]^T): such a call is skipped, a mismatched or
            ** smaller one goes through */
            const mxsim_tensor *ma = mx[s % 3] ? mxsim_mx_mantissa(mx[s % 3]) : NULL;
            const mxsim_tensor *mb = mx[(s >> 2) % 3] ? mxsim_mx_mantissa(mx[(s >> 2) % 3]) : NULL;
            if (mxsim_tensor_ndim(ma) == 2 && mxsim_tensor_ndim(mb) == 2 &&
                mxsim_tensor_shape(ma)[1] == mxsim_tensor_shape(mb)[1] &&
                (double)mxsim_tensor_numel(ma) * (double)mxsim_tensor_shape(mb)[0] > FZ_API_MAX_MACS)
                break;
            st = mxsim_gemm(ctx, mx[s % 3], mx[(s >> 2) % 3], s & 0x80 ? NULL : &o, &out);
            chk(ctx, st);
            if (st == MXSIM_OK) fz_check(out != NULL && mxsim_tensor_ndim(out) == 2);
            mxsim_tensor_free(out);
            break;
        }
        case 5: { /* gemm_raw: small and consistent, or with size products that overflow */
            int64_t M = dim(&in), N = dim(&in), K = dim(&in), G = (int64_t)(u8(&in) % 40);
            int small = M <= 16 && N <= 16 && K <= 16 && M >= 0 && N >= 0 && K >= 0;
            static int8_t am[256], bm[256];
            static uint8_t ae[256], be[256];
            static float c[256];
            if (!small) { /* only calls whose size products overflow int64 (or with a negative
                          ** dim): the library cannot know the buffers' sizes otherwise */
                int64_t p1, p2, p3;
                int neg = M < 0 || N < 0 || K < 0;
                int ovf = __builtin_mul_overflow(M, K, &p1) || __builtin_mul_overflow(N, K, &p2) ||
                          __builtin_mul_overflow(M, N, &p3) || __builtin_mul_overflow(p3, K, &p3);
                if (!neg && !ovf) break;
            }
            st = mxsim_gemm_raw(ctx, M, N, K, G, am, ae, bm, be, MXSIM_ACC_FP32, c);
            chk(ctx, st);
            if (!small) fz_check(st != MXSIM_OK);
            break;
        }
        case 6: { /* trace append + analytic time of the op */
            if (tr == NULL) {
                st = mxsim_trace_create(ctx, s & 1 ? "api" : NULL, &tr);
                chk(ctx, st);
                if (st != MXSIM_OK) break;
            }
            mxsim_top op;
            memset(&op, 0, sizeof op);
            op.kind = (int32_t)(u8(&in) % 4);
            snprintf(op.name, sizeof op.name, "op%u", u8(&in));
            op.m = (int64_t)1 << (u8(&in) % 12);
            op.n = (int64_t)1 << (u8(&in) % 12);
            op.k = (int64_t)1 << (u8(&in) % 12);
            op.group_size = (int64_t)(u8(&in) % 70) - 2;
            op.repeat = (int64_t)(u8(&in) % 4) - 1;
            op.a_fmt = op.b_fmt = op.out_fmt = -1;
            if (s & 0x80) op.m = -op.m;
            st = mxsim_trace_append(ctx, tr, &op);
            chk(ctx, st);
            if (st == MXSIM_OK && mxsim_tconfig_validate(ctx, &cfg) == MXSIM_OK) {
                /* the op as appended, unless SCALE-Sim compat would step it over more buffer
                ** columns than FZ_API_SCALESIM_BUDGET (fz_bound_gemm: up to 2^27 for 2^11-cubes) */
                mxsim_top tim = op;
                if (op.kind == MXSIM_OP_GEMM) fz_bound_gemm(&cfg, op.group_size, FZ_API_SCALESIM_BUDGET, &tim.m, &tim.n, &tim.k);
                mxsim_tstats ts;
                chk(ctx, mxsim_time_op(ctx, &cfg, &tim, mxsim_trace_source(tr), 0, NULL, &ts));
            }
            break;
        }
        case 7: { /* configuration key = value */
            int nf = mxsim_tconfig_field_count();
            const mxsim_tconfig_field *f = mxsim_tconfig_field_at((int)(u8(&in) % (unsigned)(nf + 1)));
            char v[24];
            size_t L = u8(&in) % sizeof v;
            for (size_t i = 0; i < L; i++) v[i] = (char)u8(&in);
            v[L] = '\0';
            if (L > 0 && v[0] == '\0') v[0] = '1';
            chk(ctx, mxsim_tconfig_set(ctx, &cfg, f ? f->name : "no.such", v, "api"));
            break;
        }
        case 8: { /* trace format round trip */
            char *text = NULL;
            size_t len = 0;
            st = mxsim_trace_format(ctx, tr, &text, &len);
            chk(ctx, st);
            if (st == MXSIM_OK) fz_check(text != NULL && strlen(text) == len);
            mxsim_free(text);
            break;
        }
        case 9: { /* table: columns, rows, cells, render */
            if (tab == NULL) {
                chk(ctx, mxsim_table_create(ctx, &tab));
                if (tab == NULL) break;
            }
            char name[12];
            size_t L = u8(&in) % sizeof name;
            for (size_t i = 0; i < L; i++) name[i] = (char)u8(&in);
            name[L] = '\0';
            unsigned w = u8(&in) % 6;
            int64_t row = -1;
            if (w == 0) chk(ctx, mxsim_table_add_column(ctx, tab, name, (mxsim_cell_type)(s % 4), "u", "doc", 0, (int)(u8(&in) % 20) - 18));
            else if (w == 1) chk(ctx, mxsim_table_add_row(ctx, tab, &row));
            else if (w == 2) chk(ctx, mxsim_table_set_text(ctx, tab, mxsim_table_row_count(tab) - 1, name, name));
            else if (w == 3) chk(ctx, mxsim_table_set_int(ctx, tab, (int64_t)u8(&in) - 1, name, (int64_t)s << 40));
            else if (w == 4) chk(ctx, mxsim_table_set_meta(ctx, tab, name, name, (int)(s & 1)));
            else {
                char *text = NULL;
                size_t len = 0;
                st = mxsim_table_render(ctx, tab, (mxsim_output_format)(s % 6), &text, &len);
                chk(ctx, st);
                if (st == MXSIM_OK) fz_check(text != NULL && strlen(text) == len);
                mxsim_free(text);
            }
            break;
        }
        case 10: { /* NULL handles and arguments */
            fz_check(mxsim_tensor_ndim(NULL) == 0 && mxsim_tensor_numel(NULL) == 0 && mxsim_tensor_shape(NULL) == NULL);
            fz_check(mxsim_tensor_data(NULL) == NULL && mxsim_trace_count(NULL) == 0 && mxsim_trace_op(NULL, 0) == NULL);
            fz_check(mxsim_table_row_count(NULL) == 0 && mxsim_table_column_name(NULL, 0) == NULL);
            fz_check(mxsim_errmsg(NULL)[0] == '\0');
            chk(ctx, mxsim_mx_quantize(ctx, NULL, MXSIM_PROFILE_OCP, 32, 0, NULL));
            chk(ctx, mxsim_mx_dequantize(ctx, NULL, MXSIM_DTYPE_F32, NULL));
            chk(ctx, mxsim_gemm(ctx, NULL, NULL, NULL, NULL));
            chk(ctx, mxsim_trace_append(ctx, NULL, NULL));
            chk(ctx, mxsim_tensor_create(ctx, MXSIM_DTYPE_F32, 2, NULL, NULL));
            break;
        }
        default: { /* free a slot */
            mxsim_tensor_free(t[s % 4]);
            t[s % 4] = NULL;
            mxsim_mx_free(mx[(s >> 2) % 3]);
            mx[(s >> 2) % 3] = NULL;
            break;
        }
        }
    }
    for (int i = 0; i < 4; i++) mxsim_tensor_free(t[i]);
    for (int i = 0; i < 3; i++) mxsim_mx_free(mx[i]);
    mxsim_trace_free(tr);
    mxsim_table_free(tab);
    return 0;
}
