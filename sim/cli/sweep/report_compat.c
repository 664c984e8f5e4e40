/* report_compat.c - the helpers sim/cli/sweep/cmd_report.c still calls; they leave with it when
** `report` moves into the library (branch `report`).  No other command uses them. */
#include <stdio.h>
#include <string.h>

#include "sweep/cmd_sweep.h"

int mxs_usage(const char *cmd, const char *msg, const char *arg)
{
    fprintf(stderr, "mxsim %s: %s%s%s (see 'mxsim %s --help')\n", cmd, msg, arg ? " " : "", arg ? arg : "", cmd);
    return CLI_EXIT_USAGE;
}

static void md_cell(cli_buf *b, const char *s)
{
    for (; *s; s++) cli_printf(b, *s == '|' ? "\\|" : "%c", *s);
}

void mxs_constants_md(cli_buf *b, const mxsim_node_scale *sc)
{
    cli_printf(b, "| key | component | what | value | low | high | unit | node (nm) | Vdd (V) | source | conf. | derivation |\n"
                  "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < mxsim_cost_const_count(); i++) {
        const mxsim_cost_const *c = mxsim_cost_const_at(i);
        cli_printf(b, "| `%s` | %s | ", c->key, c->component);
        md_cell(b, c->what);
        cli_printf(b, " | %.6g | %.6g | %.6g | %s | %d | %g | ", c->value, c->low, c->high, c->unit, c->node_nm, c->vdd_v);
        md_cell(b, c->source);
        cli_printf(b, " | %s | ", c->confidence);
        md_cell(b, c->derivation);
        cli_printf(b, " |\n");
    }
    if (sc)
        cli_printf(b, "\nNode scaling (SB17 Stillmaker & Baas 2017, from 45 nm / 0.9 V): node %d nm, Vdd %g V: "
                      "logic area x%.4g, energy and leakage x%.4g, SRAM area x%.4g (6T bitcell ratio). "
                      "DRAM energy is not scaled.\n",
                   sc->node_nm, sc->vdd_v, sc->area_factor, sc->energy_factor, sc->sram_area_factor);
}

void mxs_constants_html(cli_buf *b, const mxsim_node_scale *sc)
{
    cli_printf(b, "<table><tr><th>key</th><th>component</th><th>what</th><th>value</th><th>low</th><th>high</th>"
                  "<th>unit</th><th>node (nm)</th><th>Vdd (V)</th><th>source</th><th>conf.</th></tr>\n");
    for (int i = 0; i < mxsim_cost_const_count(); i++) {
        const mxsim_cost_const *c = mxsim_cost_const_at(i);
        cli_printf(b, "<tr><td><code>%s</code></td><td>%s</td><td>", c->key, c->component);
        cli_puts_html(b, c->what);
        cli_printf(b, "</td><td>%.6g</td><td>%.6g</td><td>%.6g</td><td>%s</td><td>%d</td><td>%g</td><td>", c->value,
                   c->low, c->high, c->unit, c->node_nm, c->vdd_v);
        cli_puts_html(b, c->source);
        cli_printf(b, "</td><td>%s</td></tr>\n", c->confidence);
    }
    cli_printf(b, "</table>\n");
    if (sc)
        cli_printf(b, "<p>Node scaling (SB17, from 45 nm / 0.9 V): %d nm, %g V: logic area &times;%.4g, energy and "
                      "leakage &times;%.4g, SRAM area &times;%.4g. DRAM energy is not scaled.</p>\n",
                   sc->node_nm, sc->vdd_v, sc->area_factor, sc->energy_factor, sc->sram_area_factor);
}

