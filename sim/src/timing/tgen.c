/* tgen.c - builds traces from model definitions (workloads/models/NAME.model).
**
** A model file is `key = value` lines plus explicit `layer = ...` lines.  Transformer keys
** (hidden, layers, heads, kv_heads, head_dim, ffn, ffn_gated, seq, batch, mode = prefill|decode,
** ctx, vocab, kv_cache, pad) generate per block: QKV projection, attention scores and attention x V
** per KV head, the softmax-probability quantize, the output projection, the FFN (gated: gate+up
** fused), the MXINT8 -> bf16 dequant of the block output; `vocab` adds an LM head on the last token.
** Grouped-query attention (kv_heads < heads, heads a multiple of kv_heads): the heads/kv_heads query
** heads that share a KV head are stacked along M of one GEMM per KV head (as GQA kernels pack them),
** so the K and V of a KV head are loaded, and counted as KV cache, once.  kv_cache (0 or 1) says
** whether attention's B operands (K, V) stay in memory as a KV cache: 1 in decode (required), by
** default 0 in prefill (an encoder's K and V are transient activations); a causal LM's prefill
** that fills the cache for the decode after it says kv_cache = 1.
** `layer = gemm NAME M N K [REPEAT]` and `layer = conv NAME H W FH FW CIN COUT STRIDE PAD [REPEAT]`
** (im2col: M = Ho*Wo, K = FH*FW*CIN rounded up to `pad`, N = COUT) are emitted in file order; the
** transformer blocks (and the LM head) stand where the `layers` key is: layer lines before it come
** before the blocks, those after it after them (ViT: patch embedding, blocks, classifier).
** experts (with experts_per_token, optional shared_ffn) makes the FFN a mixture of experts, routed
** evenly (emit_moe); dense_layers of them may keep a dense FFN of width dense_ffn (DeepSeek).
** window_layers of the layers use the sliding window, the others attend to every key (Gemma-2/3).
** kv_lora_rank (with rope_head_dim, v_head_dim, optional q_lora_rank) is multi-head latent
** attention (emit_mla_in: absorbed in decode, decompressed in prefill).
** Every key is an integer >= 1 but ffn_gated (0 or 1) and vocab (0: no LM head); seq (the query
** length) belongs to prefill and ctx (the KV length) to decode: the other mode refuses it.
** Ignored: elementwise ops other than (de)quantization, layer norms, embeddings.
** Trace format version 2 (memory footprint, sim/doc/memory.md): the B operand of projections,
** FFN, LM head and `layer` lines is a weight, that of attention scores and attention x V the KV
** cache; `param = NAME ELEMS COUNT WHY` lines become `param` lines (non-GEMM parameters).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "lines.h"
#include "tinternal.h"

/* Layer numbers are any int64 and transformer keys up to 2^31, so their products and sums could
** overflow int64 (undefined behaviour: a fuzz finding for conv layers, then found in review for
** the transformer products; tests/fuzz/crashes/model).  They saturate at INT64_MAX instead,
** which mxsim_trace_append then refuses naming the field ('m', 'n', 'k', 'repeat'). */
static int64_t sat_mul(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
static int64_t sat_add(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

static int64_t round_up(int64_t x, int64_t p)
{
    return p > 1 ? (x > INT64_MAX - p ? INT64_MAX : (x + p - 1) / p * p) : x;
}

static mxsim_status emit_role(mxsim_ctx *ctx, mxsim_trace *t, int kind, const char *name, int64_t m,
                              int64_t n, int64_t k, int64_t rep, int line, mxsim_tensor_role role)
{
    mxsim_top op;
    memset(&op, 0, sizeof op);
    op.kind = kind;
    mx_snprintf(op.name, sizeof op.name, "%s", name);
    op.m = m;
    op.n = n;
    op.k = kind == MXSIM_OP_GEMM ? k : 0;
    op.repeat = rep;
    op.a_fmt = op.b_fmt = op.out_fmt = -1;
    op.line = line;
    mxsim_status st = mxsim_trace_append(ctx, t, &op);
    if (st == MXSIM_OK && role != MXSIM_ROLE_UNSET) st = mxsim_trace_set_b_role(ctx, t, mxsim_trace_count(t) - 1, role);
    return st;
}

/* GEMMs of `layer` lines and projections: B is a weight */
static mxsim_status emit(mxsim_ctx *ctx, mxsim_trace *t, int kind, const char *name, int64_t m,
                         int64_t n, int64_t k, int64_t rep, int line)
{
    return emit_role(ctx, t, kind, name, m, n, k, rep, line, kind == MXSIM_OP_GEMM ? MXSIM_ROLE_WEIGHT : MXSIM_ROLE_UNSET);
}

/* op names with their index, sorted by name then index (the duplicate-name check) */
struct named {
    const char *name;
    int64_t i;
};
static int cmp_named(const void *x, const void *y)
{
    const struct named *a = x, *b = y;
    const int c = strcmp(a->name, b->name);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* a `layer` line, emitted once the whole file is read (so that `pad` reaches a conv layer wherever
** it is given) */
struct layer_line {
    char name[64];
    int64_t m, n, k;
    int64_t rep;
    int64_t tensors; /* b_tensors, 0: one per repeat */
    int line, conv, post;
    mxsim_tensor_role role;
};

static mxsim_status emit_layer(mxsim_ctx *ctx, mxsim_trace *t, const struct layer_line *l)
{
    mxsim_status st = emit_role(ctx, t, MXSIM_OP_GEMM, l->name, l->m, l->n, l->k, l->rep, l->line, l->role);
    if (st == MXSIM_OK && l->tensors) st = mxsim_trace_set_b_tensors(ctx, t, mxsim_trace_count(t) - 1, l->tensors);
    return st;
}

/* Experts that run for T tokens of k experts each among E: balanced routing spreads the T k pairs
** over as many as it can, min(E, T k); uniform routing (each token an independent uniform choice
** of k of the E) runs E (1 - (1 - k/E)^T) on average, the nearest integer, at least k. */
static int64_t moe_active(int64_t T, int64_t E, int64_t k, int uniform)
{
    const int64_t A = sat_mul(T, k), most = A < E ? A : E;
    if (!uniform) return most;
    int64_t act = llround((double)E * -expm1((double)T * log1p(-(double)k / (double)E)));
    return act < k ? k : act > most ? most : act;
}

/* A mixture-of-experts FFN (sim/doc/architecture.md section 7): the router, then T tokens x k
** experts, the T k pairs spread as evenly as the counts allow over the act experts that run (each on
** floor or ceil of T k / act tokens; the others are idle; moe_active), each expert a (gated) FFN of
** width ffn, then the shared expert (width shf, every token) if any.  Every expert's weights are
** stored: where experts are idle, the first op's b_tensors counts them in the memory footprint
** (its own experts and the idle ones; a second op's are its repeats), so that the ops' b_tensors
** add up to L E. */
static mxsim_status emit_moe(mxsim_ctx *ctx, mxsim_trace *t, int64_t T, int64_t L, int64_t hid, int64_t ffn, int64_t gated,
                             int64_t E, int64_t k, int64_t shf, int uniform)
{
    const int64_t A = sat_mul(T, k), act = moe_active(T, E, k, uniform), q = A / act, r = A % act,
                  up_n = gated ? sat_mul(2, ffn) : ffn;
    const char *up = gated ? "expert_gate_up" : "expert_up";
    mxsim_status st = emit(ctx, t, MXSIM_OP_GEMM, "moe_router", T, E, hid, L, 0);
    /* r experts take q + 1 tokens, act - r take q: two ops when r > 0, named by their rows */
    for (int part = 0; st == MXSIM_OK && part < (r ? 2 : 1); part++) {
        const int64_t m = r && part == 0 ? q + 1 : q, n_exp = r ? (part == 0 ? r : act - r) : act;
        char nu[64], nd[64];
        if (r) {
            mx_snprintf(nu, sizeof nu, "%s_m%lld", up, (long long)m);
            mx_snprintf(nd, sizeof nd, "expert_down_m%lld", (long long)m);
        } else {
            mx_snprintf(nu, sizeof nu, "%s", up);
            mx_snprintf(nd, sizeof nd, "expert_down");
        }
        const int64_t rep = sat_mul(L, n_exp), stored = sat_mul(L, n_exp + E - act);
        const int idle = part == 0 && act < E;
        st = emit(ctx, t, MXSIM_OP_GEMM, nu, m, up_n, hid, rep, 0);
        if (st == MXSIM_OK && idle) st = mxsim_trace_set_b_tensors(ctx, t, mxsim_trace_count(t) - 1, stored);
        if (st == MXSIM_OK) st = emit(ctx, t, MXSIM_OP_GEMM, nd, m, hid, ffn, rep, 0);
        if (st == MXSIM_OK && idle) st = mxsim_trace_set_b_tensors(ctx, t, mxsim_trace_count(t) - 1, stored);
    }
    if (st == MXSIM_OK && shf > 0)
        st = emit(ctx, t, MXSIM_OP_GEMM, gated ? "shared_gate_up" : "shared_up", T, gated ? sat_mul(2, shf) : shf, hid, L, 0);
    if (st == MXSIM_OK && shf > 0) st = emit(ctx, t, MXSIM_OP_GEMM, "shared_down", T, hid, shf, L, 0);
    return st;
}

/* attention of one kind of layer (sim/doc/architecture.md section 7): per GEMM, `rows` query rows
** (the query heads sharing a KV head, stacked) against the keys; `per` GEMMs per layer */
struct attn_shape {
    int64_t rows, per;
    int64_t score_k, v_n; /* K of the scores (a query head's width), N of attention x V (a value head's) */
    mxsim_tensor_role score_role, v_role;
    int v_view;           /* attention x V reads the cache the scores count (latent attention) */
};

static mxsim_status emit_attention(mxsim_ctx *ctx, mxsim_trace *t, const struct attn_shape *a, const char *suffix,
                                   int64_t layers, int64_t keys)
{
    char sc[64], pq[64], av[64];
    mx_snprintf(sc, sizeof sc, "attn_scores%s", suffix);
    mx_snprintf(pq, sizeof pq, "attn_probs_q%s", suffix);
    mx_snprintf(av, sizeof av, "attn_v%s", suffix);
    const int64_t rep = sat_mul(layers, a->per);
    mxsim_status st = emit_role(ctx, t, MXSIM_OP_GEMM, sc, a->rows, keys, a->score_k, rep, 0, a->score_role);
    if (st == MXSIM_OK) st = emit(ctx, t, MXSIM_OP_QUANTIZE, pq, a->rows, keys, 0, rep, 0);
    if (st == MXSIM_OK) st = emit_role(ctx, t, MXSIM_OP_GEMM, av, a->rows, a->v_n, keys, rep, 0, a->v_role);
    if (st == MXSIM_OK && a->v_view) st = mxsim_trace_set_b_tensors(ctx, t, mxsim_trace_count(t) - 1, MXSIM_B_VIEW);
    return st;
}

/* a dense FFN of `layers` layers: gate and up fused when gated */
static mxsim_status emit_ffn(mxsim_ctx *ctx, mxsim_trace *t, const char *base, int64_t T, int64_t layers, int64_t hid,
                             int64_t ffn, int64_t gated)
{
    char up[64], down[64];
    mx_snprintf(up, sizeof up, "%s_%s", base, gated ? "gate_up" : "up");
    mx_snprintf(down, sizeof down, "%s_down", base);
    mxsim_status st = emit(ctx, t, MXSIM_OP_GEMM, up, T, gated ? sat_mul(2, ffn) : ffn, hid, layers, 0);
    return st == MXSIM_OK ? emit(ctx, t, MXSIM_OP_GEMM, down, T, hid, ffn, layers, 0) : st;
}

/* Multi-head latent attention's projections before the scores (DeepSeek-V2/V3; sim/doc/architecture.md
** section 7): the queries through a rank-ql bottleneck (ql = 0: one projection), the latent c (width
** C) and the shared RoPE key (width R) from one projection.  Decode absorbs kv_b_proj's key half into
** the queries (q_absorb, per head: head_dim -> C) and its value half after attention (v_up), so that
** it reads only the latent cache; prefill decompresses K and V with kv_b_proj and attends per head. */
static mxsim_status emit_mla_in(mxsim_ctx *ctx, mxsim_trace *t, int mode, int64_t T, int64_t L, int64_t hid, int64_t H,
                                int64_t hd, int64_t ql, int64_t C, int64_t R, int64_t dv)
{
    const int64_t qn = sat_mul(H, sat_add(hd, R));
    mxsim_status st = ql ? emit(ctx, t, MXSIM_OP_GEMM, "q_a_proj", T, ql, hid, L, 0) : MXSIM_OK;
    if (st == MXSIM_OK) st = emit(ctx, t, MXSIM_OP_GEMM, ql ? "q_b_proj" : "q_proj", T, qn, ql ? ql : hid, L, 0);
    if (st == MXSIM_OK) st = emit(ctx, t, MXSIM_OP_GEMM, "kv_a_proj", T, sat_add(C, R), hid, L, 0);
    if (st == MXSIM_OK && mode) st = emit(ctx, t, MXSIM_OP_GEMM, "q_absorb", T, C, hd, sat_mul(L, H), 0);
    if (st == MXSIM_OK && !mode) st = emit(ctx, t, MXSIM_OP_GEMM, "kv_b_proj", T, sat_mul(H, sat_add(hd, dv)), C, L, 0);
    return st;
}

MXSIM_API mxsim_status mxsim_trace_gen(mxsim_ctx *ctx, const char *path, mxsim_trace **out)
{
    mx_clear_err(ctx);
    if (path == NULL || out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "trace_gen: NULL");
    *out = NULL;
    char *buf;
    mxsim_status st = mx_text_read(ctx, path, 1u << 20, &buf, NULL);
    if (st != MXSIM_OK) return st;
    /* a CR that ends no CRLF: classic Mac line ends would read as one line ("no layers") */
    for (int ln = 1, i = 0; buf[i]; i++) {
        if (buf[i] == '\n') ln++;
        if (buf[i] == '\r' && buf[i + 1] != '\n') {
            free(buf);
            return mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: a CR line end without LF: save the file with LF (or CRLF) line ends",
                           path, ln);
        }
    }
    mxsim_trace *t = NULL;
    if ((st = mxsim_trace_create(ctx, path, &t)) != MXSIM_OK) {
        free(buf);
        return st;
    }
    static const char *const keys[] = {"hidden", "layers", "heads", "kv_heads", "head_dim", "ffn",
                                       "ffn_gated", "seq", "batch", "ctx", "vocab", "kv_cache", "pad", "window",
                                       "experts", "experts_per_token", "shared_ffn", "window_layers", "dense_layers",
                                       "dense_ffn", "kv_lora_rank", "q_lora_rank", "rope_head_dim", "v_head_dim"};
    enum { HID, LAY, HEADS, KVH, HD, FFN, GATED, SEQ, BATCH, CTX, VOCAB, KVC, PAD, WIN, EXP, EXPK, SHF, WINL, DENSE, DFFN,
           KVL, QL, ROPE, VHD, NKEYS };
    /* layer lines, emitted at the end (so that `pad` reaches a conv layer wherever it is given):
    ** those before the `layers` key first, then the transformer blocks, then the rest */
    struct layer_line *lay = NULL;
    int n_lay = 0;
    int64_t v[NKEYS] = {0};
    v[PAD] = 1;
    v[BATCH] = 1;
    int have[NKEYS] = {0}, mode = 0, transformer = 0, line = 0, key_line[NKEYS] = {0}, once_line[4] = {0}, routing = 0;
    char where[600], name[64] = "model";
    mx_lines cur;
    mx_lines_init(&cur, buf);
    for (char *ln; st == MXSIM_OK && (ln = mx_lines_next(&cur)) != NULL;) {
        line = cur.line;
        mx_snprintf(where, sizeof where, "%s:%d", path, line);
        char *h = strchr(ln, '#');
        if (h) *h = '\0';
        char *s = mx_ttrim(ln);
        if (*s == '\0') continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s: expected 'key = value'", where);
            break;
        }
        *eq = '\0';
        char *key = mx_ttrim(s), *val = mx_ttrim(eq + 1);
        /* every key but 'layer' is given once: a second one is refused, naming both lines */
        static const char *const once[] = {"name", "source", "mode", "routing"};
        for (int i = 0; i < 4 && st == MXSIM_OK; i++)
            if (!strcmp(key, once[i])) {
                if (once_line[i]) st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': duplicate key (first on line %d)", where, key, once_line[i]);
                once_line[i] = line;
            }
        for (int i = 0; i < NKEYS && st == MXSIM_OK; i++)
            if (!strcmp(keys[i], key)) {
                if (key_line[i]) st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': duplicate key (first on line %d)", where, key, key_line[i]);
                key_line[i] = line;
            }
        if (st != MXSIM_OK) break;
        if (!strcmp(key, "name")) {
            mx_snprintf(name, sizeof name, "%.40s", val);
        } else if (!strcmp(key, "source")) {
            /* citation only */
        } else if (!strcmp(key, "mode")) {
            if (!strcmp(val, "prefill")) mode = 0;
            else if (!strcmp(val, "decode")) mode = 1;
            else st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'mode': '%s' is not prefill or decode", where, val);
        } else if (!strcmp(key, "routing")) {
            if (!strcmp(val, "balanced")) routing = 0;
            else if (!strcmp(val, "uniform")) routing = 1;
            else st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'routing': '%s' is not balanced or uniform", where, val);
        } else if (!strcmp(key, "param")) {
            char *tok[5];
            int nt = 0;
            for (char *p = strtok(val, " \t"); p && nt < 5; p = strtok(NULL, " \t")) tok[nt++] = p;
            int64_t e = 0, c = 0;
            if (nt != 4 || mx_tparse_i64(tok[1], &e) != 0 || mx_tparse_i64(tok[2], &c) != 0) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'param': expected 'NAME ELEMS COUNT WHY'", where);
                break;
            }
            st = mx_trace_add_param_at(ctx, t, where, tok[0], e, c, tok[3]);
        } else if (!strcmp(key, "layer")) {
            char *tok[13];
            int nt = 0;
            for (char *p = strtok(val, " \t"); p && nt < 13; p = strtok(NULL, " \t")) tok[nt++] = p;
            /* trailing b_role=ROLE (what B is, as in a trace; default: a weight) and b_tensors=N (distinct
            ** B tensors, as in a trace: 1 for a weight every repeat shares) */
            mxsim_tensor_role role = MXSIM_ROLE_WEIGHT;
            int64_t btens = 0;
            int role_given = 0;
            while (st == MXSIM_OK && nt > 2 && (!strncmp(tok[nt - 1], "b_role=", 7) || !strncmp(tok[nt - 1], "b_tensors=", 10))) {
                const char *r = strchr(tok[nt - 1], '=') + 1;
                if (tok[nt - 1][2] == 'r') {
                    if (role_given) st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'layer': b_role given twice", where);
                    else if (!strcmp(r, "weight")) role = MXSIM_ROLE_WEIGHT;
                    else if (!strcmp(r, "kv")) role = MXSIM_ROLE_KV;
                    else if (!strcmp(r, "act")) role = MXSIM_ROLE_ACT;
                    else st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'layer': b_role '%s' is not weight, kv or act", where, r);
                    role_given = 1;
                } else if (btens) {
                    st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'layer': b_tensors given twice", where);
                } else if (mx_tparse_i64(r, &btens) != 0 || btens < 0 || btens > ((int64_t)1 << 40)) {
                    st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'layer': b_tensors '%s' is not an integer in 0..2^40", where, r);
                } else if (btens == 0) {
                    btens = MXSIM_B_VIEW; /* a view of a tensor another op counts, as in a trace */
                }
                nt--;
            }
            if (st != MXSIM_OK) break;
            if (btens && role == MXSIM_ROLE_ACT) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'layer': b_tensors with b_role=act: an activation is not stored", where);
                break;
            }
            int conv = nt > 0 && !strcmp(tok[0], "conv");
            int need = conv ? 10 : 5;
            if (nt < 1 || (strcmp(tok[0], "gemm") && !conv) || (nt != need && nt != need + 1)) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'layer': expected 'gemm NAME M N K [REP] [b_role=ROLE] "
                             "[b_tensors=N]' or 'conv NAME H W FH FW CIN COUT STRIDE PAD [REP] [b_role=ROLE] [b_tensors=N]'", where);
                break;
            }
            if (strlen(tok[1]) >= sizeof lay[0].name) { /* was cut to 63 characters */
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'layer': name '%.20s...' must be 1..%d characters", where, tok[1],
                             (int)sizeof lay[0].name - 1);
                break;
            }
            int64_t x[10] = {0};
            for (int i = 2; i < nt; i++)
                if (mx_tparse_i64(tok[i], &x[i - 2]) != 0 || x[i - 2] < (conv && i == 9 ? 0 : 1)) {
                    st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'layer': '%s' is not a valid number", where, tok[i]);
                    break;
                }
            if (st != MXSIM_OK) break;
            int64_t lm, lnn, lk, lrep;
            if (!conv) {
                lm = x[0], lnn = x[1], lk = x[2], lrep = nt == 6 ? x[3] : 1;
            } else {
                int64_t H = x[0], W = x[1], fh = x[2], fw = x[3], ci = x[4], co = x[5], s2 = x[6], pd = x[7];
                int64_t hp = sat_add(H, sat_mul(2, pd)), wp = sat_add(W, sat_mul(2, pd));
                /* compared before dividing: C division truncates toward zero, so (1 - 2) / 2 + 1
                ** would give one output row for a filter larger than its input */
                if (fh > hp || fw > wp) {
                    st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'layer': filter larger than the input", where);
                    break;
                }
                int64_t ho = (hp - fh) / s2 + 1, wo = (wp - fw) / s2 + 1;
                lm = sat_mul(ho, wo), lnn = co, lk = sat_mul(sat_mul(fh, fw), ci), lrep = nt == 11 ? x[8] : 1;
            }
            struct layer_line *np = realloc(lay, (size_t)(n_lay + 1) * sizeof *lay);
            if (np == NULL) {
                st = mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", where);
                break;
            }
            lay = np;
            memset(&lay[n_lay], 0, sizeof *lay);
            mx_snprintf(lay[n_lay].name, sizeof lay[n_lay].name, "%s", tok[1]);
            lay[n_lay].m = lm, lay[n_lay].n = lnn, lay[n_lay].k = lk, lay[n_lay].rep = lrep, lay[n_lay].line = line;
            lay[n_lay].conv = conv, lay[n_lay].post = key_line[LAY] != 0, lay[n_lay].tensors = btens, lay[n_lay++].role = role;
        } else {
            int ki = -1;
            for (int i = 0; i < NKEYS; i++)
                if (!strcmp(keys[i], key)) ki = i;
            if (ki < 0) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': unknown key", where, key);
                break;
            }
            /* a size of 0 has no meaning (batch 0 was taken as 1, heads 0 failed later naming no
            ** line): every key is >= 1 but ffn_gated (a flag) and vocab (0: no LM head) */
            const int64_t lo = ki == VOCAB || ki == GATED || ki == KVC ? 0 : 1, hi = ki == GATED || ki == KVC ? 1 : MX_T_MAX_DIM;
            /* a flag is written 0 or 1 (-0 and +1 read as numbers, but no one means them) */
            if ((ki == GATED || ki == KVC) && strcmp(val, "0") != 0 && strcmp(val, "1") != 0) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': '%s' is not 0 or 1", where, key, val);
                break;
            }
            if (mx_tparse_i64(val, &v[ki]) != 0 || v[ki] < lo || v[ki] > hi) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': '%s' is not an integer in %lld..%s", where, key, val,
                             (long long)lo, hi == 1 ? "1" : "2^31");
                break;
            }
            have[ki] = 1;
            if (ki != PAD) transformer = 1;
        }
    }
    free(buf);
    if (st == MXSIM_OK && once_line[3] && !have[EXP])
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'routing': only read with 'experts' (a mixture-of-experts FFN)",
                     path, once_line[3]);
    if (st == MXSIM_OK && transformer) {
        /* seq is the prefill's query length, ctx the decode's KV length: a key the mode does not
        ** read is refused rather than ignored (a decode model's seq changed nothing) */
        static const int req[] = {HID, LAY, HEADS, HD, FFN, SEQ};
        for (size_t i = 0; i < sizeof req / sizeof req[0]; i++)
            if (!have[req[i]] && !(mode && req[i] == SEQ)) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': missing for a transformer%s", path, keys[req[i]],
                             req[i] == SEQ && !once_line[2] ? " in prefill mode (the mode when no 'mode' key is given)" : "");
                break;
            }
        if (st == MXSIM_OK && mode && have[SEQ])
            st = mx_fail(ctx, MXSIM_E_INPUT,
                         "%s:%d: field 'seq': not read in decode mode (one query token per sequence; the keys "
                         "attended to are ctx): remove it", path, key_line[SEQ]);
        if (st == MXSIM_OK && !mode && have[CTX])
            st = mx_fail(ctx, MXSIM_E_INPUT,
                         "%s:%d: field 'ctx': only read in decode mode (prefill attends over its seq tokens): remove it",
                         path, key_line[CTX]);
        if (st == MXSIM_OK && mode && have[KVC] && v[KVC] == 0)
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'kv_cache': decode reads the KV cache, 0 has no meaning there",
                         path, key_line[KVC]);
        /* GQA: every KV head serves heads/kv_heads query heads (HF's num_key_value_groups) */
        if (st == MXSIM_OK && have[KVH] && (v[KVH] > v[HEADS] || v[HEADS] % v[KVH] != 0))
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'kv_heads': %lld does not divide heads = %lld", path,
                         key_line[KVH], (long long)v[KVH], (long long)v[HEADS]);
        /* keys that refine another key: read only with it, and what it cannot do without */
        static const struct {
            int key, needs;
            const char *what;
        } refine[] = {
            {EXPK, EXP, "'experts' (a mixture-of-experts FFN)"},
            {SHF, EXP, "'experts' (a mixture-of-experts FFN)"},
            {DENSE, EXP, "'experts' (the dense layers before a mixture-of-experts model's MoE layers)"},
            {DFFN, DENSE, "'dense_layers'"},
            {WINL, WIN, "'window' (the layers of a sliding window)"},
            {QL, KVL, "'kv_lora_rank' (multi-head latent attention)"},
            {ROPE, KVL, "'kv_lora_rank' (multi-head latent attention)"},
            {VHD, KVL, "'kv_lora_rank' (multi-head latent attention)"},
        }, require[] = {
            {EXP, EXPK, "the mixture-of-experts FFN ('experts', line %d): the experts each token is routed to (top-k)"},
            {DENSE, DFFN, "the dense layers ('dense_layers', line %d): their FFN width (HF's intermediate_size)"},
            {KVL, ROPE, "multi-head latent attention ('kv_lora_rank', line %d): the RoPE part of a query and key head "
                        "(HF's qk_rope_head_dim; head_dim is qk_nope_head_dim)"},
            {KVL, VHD, "multi-head latent attention ('kv_lora_rank', line %d): a value head's width (HF's v_head_dim)"},
        };
        for (size_t i = 0; st == MXSIM_OK && i < sizeof refine / sizeof refine[0]; i++)
            if (have[refine[i].key] && !have[refine[i].needs])
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field '%s': only read with %s", path, key_line[refine[i].key],
                             keys[refine[i].key], refine[i].what);
        for (size_t i = 0; st == MXSIM_OK && i < sizeof require / sizeof require[0]; i++)
            if (have[require[i].key] && !have[require[i].needs]) {
                char why[300];
                mx_snprintf(why, sizeof why, require[i].what, key_line[require[i].key]);
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': missing for %s", path, keys[require[i].needs], why);
            }
        if (st == MXSIM_OK && have[EXP] && v[EXPK] > v[EXP])
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'experts_per_token': %lld is more than experts = %lld", path,
                         key_line[EXPK], (long long)v[EXPK], (long long)v[EXP]);
        if (st == MXSIM_OK && have[WINL] && v[WINL] > v[LAY])
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'window_layers': %lld is more than layers = %lld", path,
                         key_line[WINL], (long long)v[WINL], (long long)v[LAY]);
        if (st == MXSIM_OK && have[DENSE] && v[DENSE] >= v[LAY])
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'dense_layers': %lld leaves no mixture-of-experts layer of "
                         "layers = %lld (a dense model has no 'experts')", path, key_line[DENSE], (long long)v[DENSE],
                         (long long)v[LAY]);
        /* multi-head latent attention caches one latent vector per token for all heads */
        if (st == MXSIM_OK && have[KVL] && have[KVH])
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'kv_heads': not read with 'kv_lora_rank' (multi-head latent "
                         "attention: every head reads one latent cache): remove it", path, key_line[KVH]);
        if (st == MXSIM_OK && have[KVL] && !mode && v[KVC])
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'kv_cache': prefill with multi-head latent attention reads "
                         "decompressed K and V, not the latent cache it would keep: give 0, or time the cache in mode = "
                         "decode", path, key_line[KVC]);
    }
    /* conv layers' K rounded up to pad (given anywhere in the file) */
    for (int i = 0; i < n_lay; i++)
        if (lay[i].conv) lay[i].k = round_up(lay[i].k, v[PAD]);
    for (int i = 0; st == MXSIM_OK && i < n_lay; i++)
        if (!lay[i].post) st = emit_layer(ctx, t, &lay[i]);
    if (st == MXSIM_OK && transformer) {
        const int mla = have[KVL];
        const int64_t H = v[HEADS], kvh = have[KVH] ? v[KVH] : H, B = v[BATCH], L = v[LAY], hd = v[HD];
        const int64_t S = round_up(v[SEQ], v[PAD]);               /* query tokens per sequence */
        const int64_t full = mode ? round_up(v[CTX], v[PAD]) : S; /* keys a global layer attends to */
        /* sliding-window attention (Mistral; Gemma-2/3 and Qwen2 on window_layers of the layers): a query
        ** attends to the last `window` keys at most, and the cache keeps that many (a rolling buffer) */
        const int64_t win = have[WIN] && round_up(v[WIN], v[PAD]) < full ? round_up(v[WIN], v[PAD]) : full;
        const int64_t LW = win < full ? (have[WINL] ? v[WINL] : L) : 0; /* layers whose keys the window cuts */
        const int64_t q = mode ? 1 : S, T = sat_mul(B, q), D = v[DENSE], R = v[ROPE], C = v[KVL];
        const int64_t dv = mla ? v[VHD] : hd, qn = sat_mul(H, sat_add(hd, R)); /* value head; the queries' N */
        const mxsim_tensor_role kvrole = mode || v[KVC] ? MXSIM_ROLE_KV : MXSIM_ROLE_ACT;
        struct attn_shape a;
        if (!mla) /* one GEMM per (layer, KV head, sequence); its M stacks the group's query heads */
            a = (struct attn_shape){sat_mul(q, H / kvh), sat_mul(kvh, B), hd, hd, kvrole, kvrole, 0};
        else if (mode) /* latent attention, absorbed: every head of a sequence reads its one latent cache,
                       ** attention x V its first C columns (a view: the scores count the cache) */
            a = (struct attn_shape){sat_mul(q, H), B, sat_add(C, R), C, MXSIM_ROLE_KV, MXSIM_ROLE_KV, 1};
        else /* latent attention, decompressed: per head and sequence, K and V from kv_b_proj */
            a = (struct attn_shape){S, sat_mul(H, B), sat_add(hd, R), dv, MXSIM_ROLE_ACT, MXSIM_ROLE_ACT, 0};
        if (mode && !have[CTX]) st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'ctx': missing for decode", path);
        /* the dimensions the keys multiply into, checked here against the trace's limits so that the
        ** message names the model's keys (the op's own check named line 0 and a saturated value) */
        const struct {
            const char *what;
            int64_t v, lim;
            int key;
        } dims[] = {
            {"(heads + 2 kv_heads) x head_dim, the QKV projection's N", mla ? 0 : sat_add(sat_mul(H, hd), sat_mul(2 * kvh, hd)),
             MX_T_MAX_DIM, HD},
            {"heads x (head_dim + rope_head_dim), the query projection's N", mla ? qn : 0, MX_T_MAX_DIM, ROPE},
            {"heads x (head_dim + v_head_dim), kv_b_proj's N", mla ? sat_mul(H, sat_add(hd, dv)) : 0, MX_T_MAX_DIM, VHD},
            {"kv_lora_rank + rope_head_dim, the latent cache's width", sat_add(C, R), MX_T_MAX_DIM, KVL},
            {"layers x heads, the per-head latent projections' repeat", mla ? sat_mul(L, H) : 0, (int64_t)1 << 40, KVL},
            {mla ? "heads x v_head_dim, the output projection's K" : "heads x head_dim, the output projection's K",
             sat_mul(H, dv), MX_T_MAX_DIM, mla ? VHD : HD},
            {"2 x ffn, the gated FFN's N", v[GATED] ? sat_mul(2, v[FFN]) : v[FFN], MX_T_MAX_DIM, FFN},
            {"2 x dense_ffn, the gated dense FFN's N", v[GATED] ? sat_mul(2, v[DFFN]) : v[DFFN], MX_T_MAX_DIM, DFFN},
            {mode ? "batch, the tokens (M of every projection)" : "batch x seq (padded), the tokens (M of every projection)", T,
             MX_T_MAX_DIM, mode ? BATCH : SEQ},
            {!mla ? "seq x heads / kv_heads, the attention GEMMs' M" : mode ? "heads, the latent attention GEMMs' M" : "seq (padded), the attention GEMMs' M",
             a.rows, MX_T_MAX_DIM, mode ? HEADS : SEQ},
            {mode ? "ctx (padded), the keys attended to" : "seq (padded)", full, MX_T_MAX_DIM, mode ? CTX : SEQ},
            {!mla ? "layers x kv_heads x batch, the attention GEMMs' repeat" : mode ? "layers x batch, the attention GEMMs' repeat"
                                                                           : "layers x heads x batch, the attention GEMMs' repeat",
             sat_mul(L, a.per), (int64_t)1 << 40, LAY},
            {"layers x experts, the expert weights", sat_mul(L, v[EXP]), (int64_t)1 << 40, EXP},
            {"2 x shared_ffn, the gated shared expert's N", v[GATED] ? sat_mul(2, v[SHF]) : v[SHF], MX_T_MAX_DIM, SHF},
        };
        for (size_t i = 0; st == MXSIM_OK && i < sizeof dims / sizeof dims[0]; i++)
            if (dims[i].v > dims[i].lim) {
                char val[32];
                if (dims[i].v == INT64_MAX) mx_snprintf(val, sizeof val, "more than 2^63");
                else mx_snprintf(val, sizeof val, "%lld", (long long)dims[i].v);
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field '%s': %s = %s, above %s", path, key_line[dims[i].key],
                             keys[dims[i].key], dims[i].what, val, dims[i].lim == MX_T_MAX_DIM ? "2^31" : "2^40");
            }
        /* no default: a gated model (LLaMA) read as plain lost a third of its FFN without a word */
        if (st == MXSIM_OK && !have[GATED])
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'ffn_gated': missing for a transformer: 1 for a gated FFN "
                         "(SwiGLU, GeGLU: gate, up and down matrices), 0 for a plain one (up and down)", path);
        if (st == MXSIM_OK && !mla) st = emit(ctx, t, MXSIM_OP_GEMM, "qkv_proj", T, sat_add(H * hd, sat_mul(2 * kvh, hd)), v[HID], L, 0);
        if (st == MXSIM_OK && mla) st = emit_mla_in(ctx, t, mode, T, L, v[HID], H, hd, have[QL] ? v[QL] : 0, C, R, dv);
        /* global layers under the plain names; where the window cuts some layers' keys, those under _window */
        if (st == MXSIM_OK && L - LW > 0) st = emit_attention(ctx, t, &a, "", L - LW, full);
        if (st == MXSIM_OK && LW > 0) st = emit_attention(ctx, t, &a, LW < L ? "_window" : "", LW, win);
        if (st == MXSIM_OK && mla && mode) st = emit(ctx, t, MXSIM_OP_GEMM, "v_up", T, dv, C, sat_mul(L, H), 0);
        if (st == MXSIM_OK) st = emit(ctx, t, MXSIM_OP_GEMM, "o_proj", T, v[HID], H * dv, L, 0);
        if (st == MXSIM_OK && D > 0) st = emit_ffn(ctx, t, "dense_ffn", T, D, v[HID], v[DFFN], v[GATED]);
        if (st == MXSIM_OK && !have[EXP]) st = emit_ffn(ctx, t, "ffn", T, L, v[HID], v[FFN], v[GATED]);
        if (st == MXSIM_OK && have[EXP]) st = emit_moe(ctx, t, T, L - D, v[HID], v[FFN], v[GATED], v[EXP], v[EXPK], v[SHF], routing);
        if (st == MXSIM_OK) st = emit(ctx, t, MXSIM_OP_DEQUANT, "block_out_dq", T, v[HID], 0, L, 0);
        if (st == MXSIM_OK && v[VOCAB] > 0) st = emit(ctx, t, MXSIM_OP_GEMM, "lm_head", B, v[VOCAB], v[HID], 1, 0);
    }
    for (int i = 0; st == MXSIM_OK && i < n_lay; i++)
        if (lay[i].post) st = emit_layer(ctx, t, &lay[i]);
    free(lay);
    /* one name per op: per-op results are reported by name, so a layer named like another layer or
    ** like an op the transformer keys generate (qkv_proj, ...) would make two rows of one name.
    ** Sorted by (name, op index), so that 40,000 layer lines take milliseconds (pairwise: 9 s); the
    ** op refused is the first in file order that repeats an earlier name, as pairwise found it. */
    const int64_t nops = mxsim_trace_count(t);
    struct named *by = st == MXSIM_OK && nops > 1 ? malloc((size_t)nops * sizeof *by) : NULL;
    if (st == MXSIM_OK && nops > 1 && by == NULL) st = mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
    if (by != NULL) {
        for (int64_t i = 0; i < nops; i++) by[i].name = mxsim_trace_op(t, i)->name, by[i].i = i;
        qsort(by, (size_t)nops, sizeof *by, cmp_named);
        int64_t first = -1, later = -1; /* the repeat with the smallest index, and its first use */
        for (int64_t i = 1; i < nops; i++) /* by[i]: the second of its name (by[i - 1] the first) */
            if (!strcmp(by[i].name, by[i - 1].name) && (i < 2 || strcmp(by[i - 2].name, by[i].name)) &&
                (later < 0 || by[i].i < later))
                later = by[i].i, first = by[i - 1].i;
        free(by);
        if (later >= 0) {
            const mxsim_top *a = mxsim_trace_op(t, first), *b = mxsim_trace_op(t, later);
            const mxsim_top *mine = b->line ? b : a, *other = b->line ? a : b;
            char was[64];
            if (other->line) mx_snprintf(was, sizeof was, "the layer of line %d", other->line);
            else mx_snprintf(was, sizeof was, "an op of the transformer keys");
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'layer': name '%s' is already %s", path, mine->line, mine->name, was);
        }
    }
    if (st == MXSIM_OK && mxsim_trace_count(t) == 0) st = mx_fail(ctx, MXSIM_E_INPUT, "%s: no layers", path);
    if (st != MXSIM_OK) {
        mxsim_trace_free(t);
        return st;
    }
    *out = t;
    return MXSIM_OK;
}
