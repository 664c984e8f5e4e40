/* cli_util.h - what every mxsim command shares: one option parser (getopt_long, one option table
** per command, generated help), one status -> exit code map, "did you mean" suggestions, and
** one checked writer for stdout and -o files.  CLI only: the library never prints. */
#ifndef MXSIM_CLI_UTIL_H
#define MXSIM_CLI_UTIL_H
#include <stddef.h>

#include "mxsim.h"

#define CLI_EXIT_RUNTIME 1 /* I/O, memory, internal */
#define CLI_EXIT_USAGE 2   /* usage error or bad input */

/* One option of a command.  The table ends with a zeroed entry. */
typedef struct {
    const char *name; /* long name without dashes ("config") */
    int short_opt;    /* 'o', 'j', 'q', or 0 */
    int has_arg;      /* 0 flag, 1 takes a value */
    int repeat;       /* 1: may be given several times (all values kept, in order) */
    const char *meta; /* value placeholder in the help ("CFG") */
    const char *help; /* one line */
} cli_opt;

/* Options several commands share. */
#define CLI_CONFIG_OPTS                                                                              \
    {"config", 0, 1, 0, "CFG", "accelerator configuration (.ini, or SCALE-Sim .cfg)"},              \
    {"set", 0, 1, 1, "KEY=VALUE", "set one configuration field"}
/* The cost model's technology options (sweep, cost, compare-gpu --trace); cli_cost_params reads them. */
#define CLI_COST_OPTS                                                                                \
    {"node", 0, 1, 0, "NM", "technology node: 65, 45 (default), 32, 22, 20, 16, 14, 7"},                \
    {"vdd", 0, 1, 0, "V", "supply voltage, 0.5..1.2 V and above the node's fit minimum (65 nm: 0.586 V); default: the node's"}, \
    {"overhead", 0, 1, 0, "F", "control/wiring factor on area and energy (1..10, default 1)"},     \
    {"sram-bank-kib", 0, 1, 0, "KIB", "SRAM macro size for energy per access (default 32)"}
#define CLI_TABLE_OPTS                                                                               \
    {"format", 0, 1, 0, "table|csv|json|md", "output format (default: from -o's extension, else table)"}, \
    {"out", 'o', 1, 0, "FILE", "write to FILE instead of stdout"}

#define CLI_MAX_OPTS 32
#define CLI_MAX_REPEAT 64
#define CLI_MAX_POS 4
typedef struct {
    const char *val[CLI_MAX_OPTS]; /* last value given; "1" for a flag; NULL if absent */
    const char *list[CLI_MAX_OPTS][CLI_MAX_REPEAT];
    int n_list[CLI_MAX_OPTS];
    const char *pos[CLI_MAX_POS];
    int n_pos;
} cli_args;

typedef struct cli_command {
    const char *name;
    const char *args;   /* positional synopsis: "TRACE", "REF.npy TEST.npy" */
    const char *help;   /* description (several lines) */
    const cli_opt *opts;
    int min_pos, max_pos;
    int (*run)(const struct cli_command *c, const cli_args *a, mxsim_ctx *ctx);
    int (*run_raw)(int argc, char **argv, mxsim_ctx *ctx); /* parses its own arguments */
} cli_command;

/* The command being run, for messages ("mxsim run: ..."). */
extern const char *cli_cmd;

/* Parses argv[0..argc-1] (the command's arguments) against c->opts: 0, or the exit code after
** a message (unknown options get a suggestion). */
int cli_parse(const cli_command *c, int argc, char **argv, cli_args *a);
/* Value of option name (NULL if absent) / its repeated values. */
const char *cli_get(const cli_command *c, const cli_args *a, const char *name);
int cli_get_list(const cli_command *c, const cli_args *a, const char *name, const char *const **vals);
/* Prints "usage: ..." with the generated option list. */
void cli_help(const cli_command *c, FILE *f);

/* Refuses (usage error, exit 2, before any work) a command line whose output file (-o/--out,
** --access-trace) is the same file as another argument that names an existing file: writing it
** would destroy an input.  Generic over argv, so raw-parsing commands are covered too. */
int cli_check_output_not_input(int argc, char **argv);

/* Exit code of a status: 0, 1 runtime failure (E_IO, E_NOMEM, E_INTERNAL), 2 usage/bad input. */
int cli_exit_code(mxsim_status st);
/* Prints "mxsim CMD: error: <library detail>" and returns the exit code. */
int cli_fail(mxsim_ctx *ctx, mxsim_status st);
/* The same, with the input(s) the failed step worked on: "mxsim CMD: error: WHAT: <detail>"
** (unless the detail already starts with WHAT), for steps whose library message cannot know the
** file names (a quantize, a GEMM, a comparison of tensors already loaded). */
int cli_fail_in(mxsim_ctx *ctx, mxsim_status st, const char *what);
/* Prints "mxsim CMD: <message> (see 'mxsim CMD --help')" and returns 2. */
int cli_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Strict parses of option values; a bad value is a usage error naming the option. */
int cli_int(const char *opt, const char *s, long long lo, long long hi, long long *out);
int cli_real(const char *opt, const char *s, double lo, double hi, double *out);

/* mxsim_cost_params_default, then the CLI_COST_OPTS given: 0 or the usage exit code after a message
** naming the option (the library judges a node or supply it has no data for). */
int cli_cost_params(const cli_command *c, const cli_args *a, mxsim_cost_params *p);
/* The first of CLI_COST_OPTS given ("--node", ...), NULL if none (for a command where they apply
** to one mode only). */
const char *cli_cost_opts_given(const cli_command *c, const cli_args *a);

/* The signal (SIGINT, SIGTERM, SIGHUP) that asked this run to stop, 0 if none (main.c). */
int cli_interrupted(void);

/* Writes text to path (atomically, mxsim_file_write) or, path NULL, to stdout, checked and
** flushed: 0 or the exit code after a message. */
int cli_write(mxsim_ctx *ctx, const char *path, const char *text, size_t len);
/* Renders t in the format chosen by the one rule (format name, else path's extension, else a
** table) and writes it with cli_write; frees nothing. */
int cli_emit_table(mxsim_ctx *ctx, const mxsim_table *t, const char *format, const char *path);
/* The format the one rule picks: 0, or the exit code after a message (2 for an unknown
** extension or format name). */
int cli_format(mxsim_ctx *ctx, const char *format, const char *path, mxsim_output_format *f);

#endif
