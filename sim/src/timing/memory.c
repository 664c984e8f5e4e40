/* memory.c - the table of `mxsim memory`: the footprint of a trace's tensors in fp32, bf16 and
** MXINT8 at each group size G (sim/doc/memory.md).
**
** Rows, per G: every GEMM's B operand (weight, KV cache or activation, from the trace's b_role)
** and A operand (activation), every non-GEMM parameter (`param` lines), then TOTAL rows.
** Counting: a weight or KV tensor is k x n per execution and each of the op's `repeat` executions
** has its own (repeat = layers, or layers x heads x batch for KV), unless the trace gives the op's
** b_tensors (shared weights; a mixture-of-experts layer's idle experts); activations are transient, one
** execution's tensor, and their TOTAL is the largest one.  MXINT8 groups run along k: a tensor of
** rows x k holds rows * ceil(k/G) * G mantissa bytes (zero-padded groups, as the kernels and the
** engine store them) plus rows * ceil(k/G) scale bytes.  An int8 operand (a=/b= int8) is 1 byte
** per element; non-GEMM parameters stay bf16 in the MXINT8 model (2 bytes). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tinternal.h"

typedef struct {
    int64_t elems, fp32, bf16, mx, mant, scale, pad;
} mx_mem;

/* Sums and products saturate at INT64_MAX (dims up to 2^31 and repeat up to 2^40 overflow int64:
** k*n*repeat); a saturated count is refused by mxsim_memory_table naming the item. */
static int64_t smul(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
static int64_t sadd(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

static void mem_add(mx_mem *s, const mx_mem *x)
{
    s->elems = sadd(s->elems, x->elems), s->fp32 = sadd(s->fp32, x->fp32), s->bf16 = sadd(s->bf16, x->bf16);
    s->mx = sadd(s->mx, x->mx), s->mant = sadd(s->mant, x->mant), s->scale = sadd(s->scale, x->scale);
    s->pad = sadd(s->pad, x->pad);
}

/* count tensors of rows x k elements, grouped along k; q: 0 bf16 (unquantized), 1 MXINT8, 2 int8 */
static mx_mem mem_of(int64_t rows, int64_t k, int64_t count, int64_t g, int q)
{
    mx_mem m;
    int64_t ng = k / g + (k % g != 0);
    m.elems = smul(smul(rows, k), count);
    m.fp32 = smul(4, m.elems);
    m.bf16 = smul(2, m.elems);
    m.mant = q == 1 ? smul(smul(smul(rows, ng), g), count) : q == 2 ? m.elems : 0;
    m.scale = q == 1 ? smul(smul(rows, ng), count) : 0;
    m.pad = q == 1 && m.mant < INT64_MAX ? m.mant - m.elems : 0;
    m.mx = q ? sadd(m.mant, m.scale) : m.bf16;
    return m;
}

/* distinct B tensors of a stored (weight or kv) operand: b_tensors where the trace gives it (shared
** weights, idle experts; none for a view of another op's tensor), else one per execution */
static int64_t b_count(const mxsim_trace *tr, int64_t i)
{
    const int64_t n = mxsim_trace_b_tensors(tr, i);
    return n > 0 ? n : n == MXSIM_B_VIEW ? 0 : mxsim_trace_op(tr, i)->repeat;
}

int64_t mx_mem_weight_bytes(const mxsim_trace *tr, int64_t i, int fmt, int64_t g)
{
    const mxsim_top *op = mxsim_trace_op(tr, i);
    if (op == NULL || op->kind != MXSIM_OP_GEMM || mxsim_trace_b_role(tr, i) != MXSIM_ROLE_WEIGHT || g < 1) return 0;
    return mem_of(op->n, op->k, b_count(tr, i), g, fmt == MXSIM_FMT_INT8 ? 2 : 1).mx;
}

int64_t mx_mem_param_bytes(const mxsim_trace *tr)
{
    mx_mem s;
    memset(&s, 0, sizeof s);
    for (int64_t i = 0; i < mxsim_trace_param_count(tr); i++) {
        int64_t e = 0, c = 0;
        mxsim_trace_param(tr, i, NULL, &e, &c, NULL);
        mx_mem p = mem_of(1, e, c, 1, 0);
        mem_add(&s, &p);
    }
    return s.mx;
}

static const char *const k_mem_cols[] = {"group_size", "item", "role", "rows", "k", "tensors", "elems",
                                         "fp32_bytes", "bf16_bytes", "mxint8_bytes", "mxint8_mantissa_bytes",
                                         "mxint8_scale_bytes", "mxint8_pad_elems", "saving_vs_fp32_pct",
                                         "saving_vs_bf16_pct", "stored_as", "why", "formula"};
enum { C_G, C_ITEM, C_ROLE, C_ROWS, C_K, C_TENS, C_ELEMS, C_FP32, C_BF16, C_MX, C_MANT, C_SCALE, C_PAD,
       C_S32, C_S16, C_AS, C_WHY, C_FORM, N_COLS };

/* where: the trace (file:line for an op read from a file); big: what multiplies past int64 */
static mxsim_status mem_row(mxsim_ctx *ctx, const char *where, const char *big, mxsim_table *t, int64_t g, const char *item,
                            const char *role, int64_t rows, int64_t k, int64_t tensors, const mx_mem *m, const char *as,
                            const char *why, const char *formula)
{
    if (m->fp32 == INT64_MAX || m->mx == INT64_MAX)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: memory: '%s': its byte count overflows int64 (%s)", where, item, big);
    int64_t r = 0;
    mxsim_status st = mxsim_table_add_row(ctx, t, &r);
    const char *const *c = k_mem_cols;
    if (st == MXSIM_OK) st = mxsim_table_set_int(ctx, t, r, c[C_G], g);
    if (st == MXSIM_OK) st = mxsim_table_set_text(ctx, t, r, c[C_ITEM], item);
    if (st == MXSIM_OK) st = mxsim_table_set_text(ctx, t, r, c[C_ROLE], role);
    if (st == MXSIM_OK) st = rows > 0 ? mxsim_table_set_int(ctx, t, r, c[C_ROWS], rows) : mxsim_table_set_null(ctx, t, r, c[C_ROWS]);
    if (st == MXSIM_OK) st = k > 0 ? mxsim_table_set_int(ctx, t, r, c[C_K], k) : mxsim_table_set_null(ctx, t, r, c[C_K]);
    /* 0: a view of another op's tensor (b_tensors=0); -1: a total, where a count has no meaning */
    if (st == MXSIM_OK) st = tensors >= 0 ? mxsim_table_set_int(ctx, t, r, c[C_TENS], tensors) : mxsim_table_set_null(ctx, t, r, c[C_TENS]);
    const int64_t iv[] = {m->elems, m->fp32, m->bf16, m->mx, m->mant, m->scale, m->pad};
    for (int i = 0; st == MXSIM_OK && i < 7; i++) st = mxsim_table_set_int(ctx, t, r, c[C_ELEMS + i], iv[i]);
    if (st == MXSIM_OK)
        st = m->fp32 ? mxsim_table_set_real(ctx, t, r, c[C_S32], 100.0 * (1.0 - (double)m->mx / (double)m->fp32))
                     : mxsim_table_set_null(ctx, t, r, c[C_S32]);
    if (st == MXSIM_OK)
        st = m->bf16 ? mxsim_table_set_real(ctx, t, r, c[C_S16], 100.0 * (1.0 - (double)m->mx / (double)m->bf16))
                     : mxsim_table_set_null(ctx, t, r, c[C_S16]);
    if (st == MXSIM_OK) st = mxsim_table_set_text(ctx, t, r, c[C_AS], as);
    if (st == MXSIM_OK) st = mxsim_table_set_text(ctx, t, r, c[C_WHY], why);
    if (st == MXSIM_OK) st = mxsim_table_set_text(ctx, t, r, c[C_FORM], formula);
    return st;
}

MXSIM_API mxsim_status mxsim_memory_table(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const mxsim_trace *tr,
                                          const int64_t *groups, int n_groups, mxsim_table **out)
{
    mx_clear_err(ctx);
    if (out) *out = NULL;
    if (cfg == NULL || tr == NULL || out == NULL || n_groups < 0 || (n_groups > 0 && groups == NULL))
        return mx_fail(ctx, MXSIM_E_ARG, "memory_table: NULL argument");
    int64_t gdef = cfg->group_size;
    if (n_groups == 0) groups = &gdef, n_groups = 1;
    for (int i = 0; i < n_groups; i++) {
        if (groups[i] < 1 || groups[i] > MXSIM_MAX_GROUP)
            return mx_fail(ctx, MXSIM_E_INPUT, "memory: group size %lld must be in 1..%d", (long long)groups[i], MXSIM_MAX_GROUP);
        for (int j = 0; j < i; j++) /* a repeat printed every row twice */
            if (groups[j] == groups[i])
                return mx_fail(ctx, MXSIM_E_INPUT, "memory: group size %lld given twice", (long long)groups[i]);
    }
    /* the footprint is that of GEMM operands and parameters: a trace of neither has nothing to
    ** size (its totals were 0 bytes that "saved 100%") */
    int sized = mxsim_trace_param_count(tr) > 0;
    for (int64_t i = 0; !sized && i < mxsim_trace_count(tr); i++) sized = mxsim_trace_op(tr, i)->kind == MXSIM_OP_GEMM;
    if (!sized)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: no GEMM op and no param line: nothing to size (the memory footprint "
                       "counts GEMM operands and parameters)", mxsim_trace_source(tr));
    mxsim_table *t = NULL;
    mxsim_status st = mxsim_table_create(ctx, &t);
    static const char *const docs[N_COLS] = {
        "MXINT8 group size G (elements per scale byte)",
        "op (its A or B operand), non-GEMM parameter, or TOTAL",
        "weight, kv, act (A operands and unmarked B), param (non-GEMM parameter) or total",
        "rows of the tensor (n of a B operand, m of an A operand)",
        "elements along the reduction, the grouped dimension",
        "distinct tensors counted (weight/kv: the op's repeat; act: 1; param: its count)",
        "elements of all its tensors",
        "bytes as fp32 (4 per element)", "bytes as bf16 (2 per element)",
        "bytes in the MXINT8 model: mantissas + scale bytes (unquantized tensors: bf16)",
        "MXINT8 mantissa bytes, padded to whole groups along k",
        "MXINT8 scale bytes (one per group)", "zero elements padding the last group of each row",
        "100 * (1 - mxint8_bytes / fp32_bytes)", "100 * (1 - mxint8_bytes / bf16_bytes)",
        "format in the MXINT8 model: mxint8, int8 or bf16",
        "why the tensor is stored that way, or what a TOTAL sums",
        "the ideal per-element formula the bytes are compared with (TOTAL rows)"};
    static const char *const units[N_COLS] = {"elements", "", "", "elements", "elements", "", "elements", "bytes",
                                              "bytes", "bytes", "bytes", "bytes", "elements", "%", "%", "", "", ""};
    for (int c = 0; st == MXSIM_OK && c < N_COLS; c++) {
        mxsim_cell_type ty = c == C_S32 || c == C_S16 ? MXSIM_CELL_REAL
                           : c == C_ITEM || c == C_ROLE || c >= C_AS ? MXSIM_CELL_TEXT : MXSIM_CELL_INT;
        int brief = c == C_G || c == C_ITEM || c == C_ROLE || c == C_TENS || c == C_ELEMS || c == C_FP32 || c == C_BF16 ||
                    c == C_MX || c == C_S32 || c == C_S16 || c == C_AS || c == C_FORM;
        st = mxsim_table_add_column(ctx, t, k_mem_cols[c], ty, units[c], docs[c], brief ? MXSIM_COL_BRIEF : 0,
                                    ty == MXSIM_CELL_REAL ? 2 : -1);
    }
    if (st == MXSIM_OK) st = mxsim_table_set_meta(ctx, t, "mxsim_version", mxsim_version(), 0);
    if (st == MXSIM_OK) st = mxsim_table_set_meta(ctx, t, "trace", mxsim_trace_source(tr), 0);
    int64_t n = mxsim_trace_count(tr), np = mxsim_trace_param_count(tr);
    for (int gi = 0; st == MXSIM_OK && gi < n_groups; gi++) {
        int64_t g = groups[gi];
        mx_mem tw, tk, tp, ta, zero;
        memset(&zero, 0, sizeof zero);
        tw = tk = tp = ta = zero;
        char form[256];
        for (int64_t i = 0; st == MXSIM_OK && i < n; i++) {
            const mxsim_top *op = mxsim_trace_op(tr, i);
            if (op->kind != MXSIM_OP_GEMM) continue;
            int64_t og = op->group_size > 0 ? op->group_size : g;
            int af = op->a_fmt >= 0 ? op->a_fmt : (int)cfg->operand_format;
            int bf = op->b_fmt >= 0 ? op->b_fmt : (int)cfg->operand_format;
            mxsim_tensor_role role = mxsim_trace_b_role(tr, i);
            int stored = role == MXSIM_ROLE_WEIGHT || role == MXSIM_ROLE_KV;
            char item[80];
            mx_snprintf(item, sizeof item, "%s.B", op->name);
            const int64_t nb = stored ? b_count(tr, i) : 1, own = mxsim_trace_b_tensors(tr, i) != 0;
            mx_mem b = mem_of(op->n, op->k, nb, og, bf == MXSIM_FMT_INT8 ? 2 : 1);
            const char *why = own && nb == 0 ? "a view of a tensor another op's B counts (b_tensors=0): none of its own"
                            : role == MXSIM_ROLE_WEIGHT ? (own ? "matmul weight, b_tensors distinct tensors (shared, or not all executed)"
                                                               : "matmul weight, one per execution (layer)")
                            : role == MXSIM_ROLE_KV ? (own ? "KV cache (attention keys/values), b_tensors distinct tensors"
                                                           : "KV cache (attention keys/values), one per execution")
                            : "activation operand of an activation-only matmul (one execution)";
            char where[560];
            if (op->line > 0) mx_snprintf(where, sizeof where, "%s:%d", mxsim_trace_source(tr), op->line);
            else mx_snprintf(where, sizeof where, "%s", mxsim_trace_source(tr));
            st = mem_row(ctx, where, own ? "field 'b_tensors' x n x k" : stored ? "field 'repeat' x n x k" : "n x k", t, og, item,
                         role == MXSIM_ROLE_UNSET ? "act" : mxsim_role_name(role), op->n, op->k,
                         nb, &b, bf == MXSIM_FMT_INT8 ? "int8" : "mxint8", why, "");
            if (role == MXSIM_ROLE_WEIGHT) mem_add(&tw, &b);
            else if (role == MXSIM_ROLE_KV) mem_add(&tk, &b);
            else if (b.mx > ta.mx) ta = b;
            mx_snprintf(item, sizeof item, "%s.A", op->name);
            mx_mem a = mem_of(op->m, op->k, 1, og, af == MXSIM_FMT_INT8 ? 2 : 1);
            if (st == MXSIM_OK)
                st = mem_row(ctx, where, "m x k", t, og, item, "act", op->m, op->k, 1, &a, af == MXSIM_FMT_INT8 ? "int8" : "mxint8",
                             "activation (one execution; transient)", "");
            if (a.mx > ta.mx) ta = a;
        }
        for (int64_t i = 0; st == MXSIM_OK && i < np; i++) {
            const char *name, *why;
            int64_t e, c;
            mxsim_trace_param(tr, i, &name, &e, &c, &why);
            mx_mem p = mem_of(1, e, c, g, 0);
            char w[96];
            mx_snprintf(w, sizeof w, "%s: not a matmul operand, kept bf16", why);
            st = mem_row(ctx, mxsim_trace_source(tr), "field 'count' x elems", t, g, name, "param", 0, e, c, &p, "bf16", w, "");
            mem_add(&tp, &p);
        }
        mx_mem all = tw, stored = tw;
        mem_add(&all, &tp);
        mem_add(&stored, &tp);
        mem_add(&stored, &tk);
        double ideal = 8.0 + 8.0 / (double)g;
        mx_snprintf(form, sizeof form, "(8+8/%lld) bits/elem: saves 1-%.4g/32 = %.2f%% vs fp32, 1-%.4g/16 = %.2f%% vs bf16",
                 (long long)g, ideal, 100.0 * (1.0 - ideal / 32.0), ideal, 100.0 * (1.0 - ideal / 16.0));
        char pform[160];
        mx_snprintf(pform, sizeof pform, "bf16: 16 bits/elem: saves 50%% vs fp32, 0%% vs bf16");
        /* mixed rows: quantized elements at 8 + 8/G bits, parameters at 16 */
        char wform[320], sform[320];
        mx_mem q = tw;
        for (int w = 0; w < 2; w++) {
            double qe = (double)q.elems, pe = (double)tp.elems, bits = qe + pe > 0 ? (ideal * qe + 16.0 * pe) / (qe + pe) : 0;
            if (qe + pe == 0) /* 0/0: no saving to state (a trace of KV operands only has no weights) */
                mx_snprintf(w ? sform : wform, 320, "no elements");
            else
                mx_snprintf(w ? sform : wform, 320, "(%.4g*%lld + 16*%lld)/%lld = %.4g bits/elem: saves %.2f%% vs fp32, %.2f%% vs bf16",
                            ideal, (long long)q.elems, (long long)tp.elems, (long long)sadd(q.elems, tp.elems), bits,
                            100.0 * (1.0 - bits / 32.0), 100.0 * (1.0 - bits / 16.0));
            mem_add(&q, &tk);
        }
        if (st == MXSIM_OK) st = mem_row(ctx, mxsim_trace_source(tr), "the sum of the rows above", t, g, "TOTAL gemm weights", "total", 0, 0, -1, &tw, "mxint8", "weights of every GEMM", form);
        if (st == MXSIM_OK) st = mem_row(ctx, mxsim_trace_source(tr), "the sum of the rows above", t, g, "TOTAL params", "total", 0, 0, -1, &tp, "bf16", "embeddings, norms, biases, ... (unquantized)", pform);
        if (st == MXSIM_OK) st = mem_row(ctx, mxsim_trace_source(tr), "the sum of the rows above", t, g, "TOTAL weights", "total", 0, 0, -1, &all, "mixed", "model parameters: gemm weights + params", wform);
        if (st == MXSIM_OK) st = mem_row(ctx, mxsim_trace_source(tr), "the sum of the rows above", t, g, "TOTAL kv", "total", 0, 0, -1, &tk, "mxint8", "KV cache", form);
        if (st == MXSIM_OK) st = mem_row(ctx, mxsim_trace_source(tr), "the sum of the rows above", t, g, "TOTAL weights+kv", "total", 0, 0, -1, &stored, "mixed", "what stays in memory", sform);
        if (st == MXSIM_OK) st = mem_row(ctx, mxsim_trace_source(tr), "the sum of the rows above", t, g, "TOTAL act (largest)", "total", 0, 0, -1, &ta, "mxint8", "largest single activation tensor (transient: not summed)", form);
    }
    return mx_table_handover(t, st, out);
}
