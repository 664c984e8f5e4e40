/* cmd_sweep.h - the sweep subcommands of the mxsim CLI: sweep, cost, report.
** Shared helpers of sim/cli/sweep/ are prefixed mxs_. */
#ifndef MXSIM_CMD_SWEEP_H
#define MXSIM_CMD_SWEEP_H
#include <stddef.h>

#include "cli_util.h"
#include "mxsim.h"

int mxsim_cli_sweep(int argc, char **argv, mxsim_ctx *ctx);
int mxsim_cli_cost(int argc, char **argv, mxsim_ctx *ctx);
int mxsim_cli_report(int argc, char **argv, mxsim_ctx *ctx);

/* The text buffer, atomic output and exit codes are the CLI's shared helpers (cli_util.h). */
int mxs_fail(const char *cmd, mxsim_ctx *ctx, mxsim_status st);
int mxs_usage(const char *cmd, const char *msg, const char *arg);
/* Appends the constants table (and node scaling) in Markdown. */
void mxs_constants_md(cli_buf *b, const mxsim_node_scale *sc);
void mxs_constants_html(cli_buf *b, const mxsim_node_scale *sc);

#define MXSIM_SWEEP_COMMANDS                                                                      \
    {"sweep",                                                                                     \
     "mxsim sweep --config CFG [--set k=v]... [--group-size G1,G2,...] [--array-width W1,W2,...]\n" \
     "            [--sweep key=v1,v2,...]... [-j N] [--profile P] [--node NM] [--vdd V]\n"       \
     "            [--no-accuracy] [--sample-rows N] [--sample-cols N] [--seed S] [--data DIR]\n" \
     "            [--strict-group] [--quiet] [--format table|csv|json|md] [-o OUT] TRACE",        \
     "Runs the cartesian product of the axes (--array-width W: a W x W array, axis array.size;\n" \
     "--group-size: mx.group_size; --sweep any config key, array.size or numerics.profile) over\n" \
     "TRACE on N threads (default: all CPUs). Per point and op: cycles, utilisation, traffic,\n"  \
     "area (mm2), energy (mJ, pJ/MAC, TOPS/W, TOPS/mm2, with the low/high band of the sources)\n" \
     "and accuracy (SQNR dB and max relative error of the bit-exact MXINT8 model against\n"      \
     "float64 on seeded synthetic data or --data DIR/NAME.a.npy, NAME.b.npy). Output order and\n" \
     "bytes do not depend on N. -o FILE picks csv/json/md by extension; without -o a table of\n"  \
     "the totals goes to stdout. Progress goes to stderr (a bar on a terminal). See\n"           \
     "sim/doc/sweeps.md.",                                                                        \
     mxsim_cli_sweep},                                                                            \
    {"cost",                                                                                      \
     "mxsim cost [--config CFG] [--set k=v]... [--node NM] [--vdd V] [--overhead F]\n"            \
     "           [--format table|md] [--constants | --references]",                               \
     "Prints the area and leakage breakdown of the accelerator per component (low/nominal/high)\n" \
     "and the constants table with its sources, node, Vdd, confidence and citation keys, then\n"  \
     "the full citation of every key (--constants: only the table and citations; --references:\n" \
     "only the citations, KEY<TAB>anchor<TAB>citation). See sim/doc/energy-area.md and\n"        \
     "sim/doc/references.md.",                                                                    \
     mxsim_cli_cost},                                                                             \
    {"report",                                                                                    \
     "mxsim report RESULTS.csv -o DIR [--meta RESULTS.meta.json]",                                \
     "Writes DIR/index.html (self-contained, inline SVG charts, no scripts) and DIR/README.md\n" \
     "from a sweep's CSV and its JSON sidecar (RESULTS.meta.json, written beside the CSV by\n"   \
     "mxsim sweep -o; --meta names another): totals, cycles/energy (with its low-high band)/\n" \
     "SQNR against the group size, cycle, energy and area breakdowns per design point, the\n"  \
     "cycles/energy Pareto front coloured by SQNR, per-op and accuracy tables, the constants.\n" \
     "Each chart is also DIR/NAME.svg with DIR/NAME.csv, the values it plots. A malformed or\n" \
     "missing input exits 2 naming file, line and field, and nothing is written.",              \
     mxsim_cli_report},
#endif
