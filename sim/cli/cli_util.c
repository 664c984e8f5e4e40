/* cli_util.c - option parsing, exit codes, suggestions and checked output for every command. */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_util.h"

const char *cli_cmd = "mxsim";


/* ---- messages and exit codes -------------------------------------------------------------- */

/* A message to the terminal: a control byte of the user's input (ESC, CR, ...) as \xNN, so that a
** key or name in a bad file cannot clear or recolour the terminal. */
static void put_escaped(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f) fprintf(f, "\\x%02X", *p);
        else fputc(*p, f);
}

int cli_exit_code(mxsim_status st)
{
    if (st == MXSIM_OK) return 0;
    if (st == MXSIM_E_CANCELLED) return 128 + (cli_interrupted() ? cli_interrupted() : 2);
    return st == MXSIM_E_IO || st == MXSIM_E_NOMEM || st == MXSIM_E_INTERNAL ? CLI_EXIT_RUNTIME : CLI_EXIT_USAGE;
}

int cli_fail(mxsim_ctx *ctx, mxsim_status st)
{
    if (st == MXSIM_E_CANCELLED || cli_interrupted()) {
        fprintf(stderr, "mxsim %s: interrupted; no output written\n", cli_cmd);
        return 128 + (cli_interrupted() ? cli_interrupted() : 2);
    }
    const char *d = ctx ? mxsim_errmsg(ctx) : "";
    fprintf(stderr, "mxsim %s: error: ", cli_cmd);
    put_escaped(stderr, d[0] ? d : mxsim_strerror(st));
    fputc('\n', stderr);
    return cli_exit_code(st);
}

int cli_fail_in(mxsim_ctx *ctx, mxsim_status st, const char *what)
{
    const char *d = ctx ? mxsim_errmsg(ctx) : "";
    if (st == MXSIM_E_CANCELLED || cli_interrupted() || !what || strncmp(d, what, strlen(what)) == 0)
        return cli_fail(ctx, st);
    fprintf(stderr, "mxsim %s: error: ", cli_cmd);
    put_escaped(stderr, what);
    fputs(": ", stderr);
    put_escaped(stderr, d[0] ? d : mxsim_strerror(st));
    fputc('\n', stderr);
    return cli_exit_code(st);
}

int cli_usage(const char *fmt, ...)
{
    va_list ap;
    char msg[4096];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "mxsim %s: ", cli_cmd);
    put_escaped(stderr, msg);
    fprintf(stderr, " (see 'mxsim %s --help')\n", cli_cmd);
    return CLI_EXIT_USAGE;
}

int cli_int(const char *opt, const char *s, long long lo, long long hi, long long *out)
{
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    /* plain decimal: strtoll also takes leading blanks and a '+' (-j ' 2' ran as 2) */
    if (s[0] == '\0' || *end != '\0' || errno == ERANGE || isspace((unsigned char)s[0]) || s[0] == '+')
        return cli_usage("%s '%s': not an integer", opt, s);
    if (v < lo || v > hi) return cli_usage("%s %s: must be in %lld..%lld", opt, s, lo, hi);
    *out = v;
    return 0;
}

int cli_real(const char *opt, const char *s, double lo, double hi, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    /* decimal only (--overhead 0x2 was 2); an underflow is a number for the range check to judge */
    if (s[0] == '\0' || *end != '\0' || !isfinite(v) || strpbrk(s, "xX") || (errno == ERANGE && fabs(v) >= DBL_MIN))
        return cli_usage("%s '%s': not a number (decimal)", opt, s);
    if (v < lo || v > hi) return cli_usage("%s %s: must be in %g..%g", opt, s, lo, hi); /* the text given: 10.0000001 printed as 10 */
    *out = v;
    return 0;
}

#ifdef MXSIM_WITH_SWEEP /* the cost model */
int cli_cost_params(const cli_command *c, const cli_args *a, mxsim_cost_params *p)
{
    mxsim_cost_params_default(p);
    long long v;
    double d;
    int rc = 0;
    const char *s;
    if ((s = cli_get(c, a, "node")) && !(rc = cli_int("--node", s, 1, 1000, &v))) p->node_nm = (int)v;
    if (!rc && (s = cli_get(c, a, "vdd")) && !(rc = cli_real("--vdd", s, 0.5, 1.2, &d))) p->vdd_v = d;
    if (!rc && (s = cli_get(c, a, "overhead")) && !(rc = cli_real("--overhead", s, 1, 10, &d))) p->overhead_factor = d;
    if (!rc && (s = cli_get(c, a, "sram-bank-kib")) && !(rc = cli_int("--sram-bank-kib", s, 1, 65536, &v)))
        p->sram_bank_kib = v;
    return rc;
}
#endif

const char *cli_cost_opts_given(const cli_command *c, const cli_args *a)
{
    static const char *const opt[][2] = {{"node", "--node"}, {"vdd", "--vdd"}, {"overhead", "--overhead"},
                                         {"sram-bank-kib", "--sram-bank-kib"}};
    for (int i = 0; i < 4; i++)
        if (cli_get(c, a, opt[i][0])) return opt[i][1];
    return NULL;
}

/* ---- options ------------------------------------------------------------------------------ */

static int n_opts(const cli_opt *o)
{
    int n = 0;
    while (o && o[n].name) n++;
    return n;
}

static int opt_index(const cli_command *c, const char *name)
{
    for (int i = 0; i < n_opts(c->opts); i++)
        if (!strcmp(c->opts[i].name, name)) return i;
    return -1;
}

int cli_parse(const cli_command *c, int argc, char **argv, cli_args *a)
{
    memset(a, 0, sizeof *a);
    int n = n_opts(c->opts);
    struct option lo[CLI_MAX_OPTS + 1];
    char shorts[2 * CLI_MAX_OPTS + 2] = ":";
    size_t ns = 1;
    for (int i = 0; i < n && i < CLI_MAX_OPTS; i++) {
        lo[i] = (struct option){c->opts[i].name, c->opts[i].has_arg ? required_argument : no_argument, NULL, 1000 + i};
        if (c->opts[i].short_opt) {
            shorts[ns++] = (char)c->opts[i].short_opt;
            if (c->opts[i].has_arg) shorts[ns++] = ':';
        }
    }
    shorts[ns] = '\0';
    lo[n] = (struct option){NULL, 0, NULL, 0};
    /* getopt_long wants argv[0] to be the program: give it the command name */
    char *args[argc + 2];
    args[0] = (char *)c->name;
    for (int i = 0; i < argc; i++) args[i + 1] = argv[i];
    args[argc + 1] = NULL;
    optind = 0; /* re-initialise (glibc) */
    opterr = 0;
    int ch, li;
    while ((ch = getopt_long(argc + 1, args, shorts, lo, &li)) != -1) {
        int k = -1;
        if (ch >= 1000) k = ch - 1000;
        else if (ch == '?' || ch == ':') {
            const char *bad = args[optind - 1];
            if (ch == ':') return cli_usage("option '%s' needs a value", bad);
            if (optopt && !(bad[0] == '-' && bad[1] == '-')) return cli_usage("unknown option '-%c'", optopt);
            char nm[64];
            snprintf(nm, sizeof nm, "%s", bad + strspn(bad, "-"));
            nm[strcspn(nm, "=")] = '\0';
            const char *names[CLI_MAX_OPTS];
            for (int i = 0; i < n; i++) names[i] = c->opts[i].name;
            const char *s = mxsim_closest_name(nm, names, n);
            if (s) return cli_usage("unknown option '%s'; did you mean '--%s'?", bad, s);
            return cli_usage("unknown option '%s'", bad);
        } else {
            for (int i = 0; i < n; i++)
                if (c->opts[i].short_opt == ch) k = i;
        }
        if (k < 0) return cli_usage("unknown option '%s'", args[optind - 1]);
        const char *v = c->opts[k].has_arg ? optarg : "1";
        /* one value only: a second one would silently win over the first */
        if (c->opts[k].has_arg && !c->opts[k].repeat && a->val[k])
            return cli_usage("--%s given twice ('%s', then '%s'); it takes one value", c->opts[k].name, a->val[k], v);
        a->val[k] = v;
        if (c->opts[k].repeat) {
            if (a->n_list[k] >= CLI_MAX_REPEAT) return cli_usage("--%s: more than %d given", c->opts[k].name, CLI_MAX_REPEAT);
            /* --set KEY=VALUE: one value per key, as the config readers refuse a duplicate key */
            if (strcmp(c->opts[k].name, "set") == 0)
                for (int j = 0; j < a->n_list[k]; j++) {
                    const char *p = a->list[k][j];
                    size_t kl = strcspn(p, "=");
                    if (strcspn(v, "=") == kl && strncmp(p, v, kl) == 0)
                        return cli_usage("--set given twice for '%.*s' ('%s', then '%s')", (int)kl, p, p, v);
                }
            a->list[k][a->n_list[k]++] = v;
        }
    }
    for (int i = optind; i < argc + 1; i++) {
        if (a->n_pos >= c->max_pos || a->n_pos >= CLI_MAX_POS) return cli_usage("unexpected argument '%s'", args[i]);
        a->pos[a->n_pos++] = args[i];
    }
    if (a->n_pos < c->min_pos) return cli_usage("expected %s", c->args);
    return 0;
}

const char *cli_get(const cli_command *c, const cli_args *a, const char *name)
{
    int k = opt_index(c, name);
    return k >= 0 ? a->val[k] : NULL;
}

int cli_get_list(const cli_command *c, const cli_args *a, const char *name, const char *const **vals)
{
    int k = opt_index(c, name);
    *vals = k >= 0 ? a->list[k] : NULL;
    return k >= 0 ? a->n_list[k] : 0;
}

void cli_help(const cli_command *c, FILE *f)
{
    fprintf(f, "usage: mxsim %s%s%s%s\n\n%s\n", c->name, n_opts(c->opts) ? " [OPTIONS]" : "", c->args[0] ? " " : "",
            c->args, c->help);
    if (n_opts(c->opts)) fprintf(f, "\noptions:\n");
    for (int i = 0; i < n_opts(c->opts); i++) {
        const cli_opt *o = &c->opts[i];
        char head[64];
        int k = 0;
        if (o->short_opt) k = snprintf(head, sizeof head, "-%c, ", o->short_opt);
        snprintf(head + k, sizeof head - (size_t)k, "--%s%s%s", o->name, o->has_arg ? " " : "", o->has_arg ? o->meta : "");
        fprintf(f, "  %-28s %s%s\n", head, o->help, o->repeat ? " (repeatable)" : "");
    }
}

/* ---- output ------------------------------------------------------------------------------- */

int cli_write(mxsim_ctx *ctx, const char *path, const char *text, size_t len)
{
    if (path && strcmp(path, "-") == 0) path = NULL; /* -o - is standard output */
    if (path) {
        mxsim_status st = mxsim_file_write(ctx, path, text, len);
        return st == MXSIM_OK ? 0 : cli_fail(ctx, st);
    }
    if ((len && fwrite(text, 1, len, stdout) != len) || fflush(stdout) != 0) {
        fprintf(stderr, "mxsim %s: error: writing standard output: %s\n", cli_cmd, strerror(errno));
        return CLI_EXIT_RUNTIME;
    }
    return 0;
}

int cli_format(mxsim_ctx *ctx, const char *format, const char *path, mxsim_output_format *f)
{
    if (path && strcmp(path, "-") == 0) path = NULL;
    struct stat sb;
    if (path && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) { /* no extension can fix that */
        fprintf(stderr, "mxsim %s: error: %s: is a directory\n", cli_cmd, path);
        return CLI_EXIT_RUNTIME;
    }
    mxsim_status st = mxsim_output_format_choose(ctx, format, path, f);
    if (st == MXSIM_OK) return 0;
    return format ? cli_usage("--format: %s", mxsim_errmsg(ctx)) : cli_usage("-o: %s", mxsim_errmsg(ctx));
}

int cli_emit_table(mxsim_ctx *ctx, const mxsim_table *t, const char *format, const char *path)
{
    mxsim_output_format f;
    if (path && strcmp(path, "-") == 0) path = NULL;
    int rc = cli_format(ctx, format, path, &f);
    if (rc) return rc;
    char *text = NULL;
    size_t len = 0;
    mxsim_status st = mxsim_table_render(ctx, t, f, &text, &len);
    if (st != MXSIM_OK) return cli_fail(ctx, st);
    rc = cli_write(ctx, path, text, len);
    mxsim_free(text);
    return rc;
}

/* The value of an output option at argv[i] ("-o X", "-oX", "--out X", "--out=X", the same for
** --access-trace), with *used = how many argv entries it spans; NULL if argv[i] is none. */
static const char *output_value(int argc, char **argv, int i, int *used)
{
    static const char *const longs[] = {"--out", "--access-trace"};
    const char *s = argv[i];
    *used = 1;
    if (s[0] == '-' && s[1] == 'o') {
        if (s[2]) return s + 2;
        *used = 2;
        return i + 1 < argc ? argv[i + 1] : NULL;
    }
    for (size_t k = 0; k < sizeof longs / sizeof longs[0]; k++) {
        size_t n = strlen(longs[k]);
        if (strncmp(s, longs[k], n) != 0) continue;
        if (s[n] == '=') return s + n + 1;
        if (s[n] == '\0') {
            *used = 2;
            return i + 1 < argc ? argv[i + 1] : NULL;
        }
    }
    return NULL;
}

int cli_check_output_not_input(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        int used;
        const char *o = output_value(argc, argv, i, &used);
        struct stat so;
        if (!o || strcmp(o, "-") == 0 || stat(o, &so) != 0 || !S_ISREG(so.st_mode)) {
            if (o) i += used - 1;
            continue;
        }
        for (int j = 0; j < argc; j++) {
            if (j >= i && j < i + used) continue;
            const char *v = argv[j];
            if (v[0] == '-' && v[1] == '-' && strchr(v, '=')) v = strchr(v, '=') + 1; /* --opt=FILE */
            struct stat si;
            if (strcmp(v, "-") != 0 && stat(v, &si) == 0 && S_ISREG(si.st_mode) && si.st_dev == so.st_dev &&
                si.st_ino == so.st_ino)
                return cli_usage("output '%s' is the same file as the input '%s': refusing to overwrite an input", o, v);
        }
        i += used - 1;
    }
    return 0;
}
