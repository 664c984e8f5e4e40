/* cmd_timing.h - the timing subcommands of the mxsim CLI: run, trace, config. */
#ifndef MXSIM_CMD_TIMING_H
#define MXSIM_CMD_TIMING_H
#include "mxsim.h"
int mxsim_cli_run(int argc, char **argv, mxsim_ctx *ctx);
int mxsim_cli_trace(int argc, char **argv, mxsim_ctx *ctx);
int mxsim_cli_config(int argc, char **argv, mxsim_ctx *ctx);

#define MXSIM_TIMING_COMMANDS                                                                     \
    {"run",                                                                                       \
     "mxsim run --config CFG [--set k=v]... [--dataflow os|ws|is] [--array RxC] [--group-size G]\n" \
     "          [--scalesim-compat] [--detail [--access-trace F.gz]] [--format table|csv|json|md]\n" \
     "          [-o FILE] TRACE",                                                                 \
     "Times every op of TRACE (mxsim text trace, .gz, or SCALE-Sim .csv) on the accelerator of CFG\n" \
     "(.ini, or SCALE-Sim .cfg) and prints a per-op table and totals; every column has its unit.\n" \
     "--detail times GEMMs with the cycle-by-cycle engine instead of the analytic one (small\n"  \
     "problems: at most 2^26 PE-cycles and 2^26 cycles per op, else exit 2); --access-trace F.gz\n" \
     "writes its gzip SRAM access trace (F.<i>.gz for op i of a trace of several ops;\n"         \
     "format in traces/FORMAT.md).  --scalesim-compat (implied by a .cfg) times with SCALE-Sim\n" \
     "v2's model and reads a .csv with its conv output size (sim/doc/architecture.md section 6).", \
     mxsim_cli_run},                                                                              \
    {"trace",                                                                                     \
     "mxsim trace check|cat FILE | convert IN OUT | gen MODEL.model -o OUT [--require-comma]\n"    \
     "          [--scalesim-compat]",                                                             \
     "check validates a trace, cat prints it in the text format, convert rewrites it (text, .gz by\n" \
     "the output name; a .csv input is a SCALE-Sim topology, read with SCALE-Sim's conv output\n" \
     "size and depthwise rule under --scalesim-compat), gen builds one from a model file.",      \
     mxsim_cli_trace},                                                                            \
    {"config",                                                                                    \
     "mxsim config [--config CFG] [--set k=v]... --dump",                                         \
     "Prints the resolved configuration: every field with its value, unit, bounds and doc.",      \
     mxsim_cli_config},
#endif
