/* gpuinternal.h - private helpers shared by gpumodel.c and gpubench.c. */
#ifndef MX_GPUINTERNAL_H
#define MX_GPUINTERNAL_H
#include <string.h>

#include "internal.h"
/* Sets card field i (mxsim_gpu_field_at order); out-of-range i is ignored. */
MX_INTERNAL void mx_gpu_card_set(mxsim_gpu_card *c, int i, double v);

/* Copies the next line of [*p, end) into buf (NUL-terminated, a final '\r' dropped) and moves
** *p past its '\n'.  Returns 0, or -1 (nothing consumed) when the line needs cap bytes or more:
** the card and bench files are short lines, so a long one is refused rather than split. */
static inline int mx_gpu_next_line(char **p, const char *end, char *buf, size_t cap)
{
    char *nl = memchr(*p, '\n', (size_t)(end - *p));
    size_t ln = nl ? (size_t)(nl - *p) : (size_t)(end - *p);
    if (ln >= cap) return -1;
    memcpy(buf, *p, ln);
    buf[ln] = '\0';
    if (ln && buf[ln - 1] == '\r') buf[ln - 1] = '\0';
    *p += ln + (nl ? 1 : 0);
    return 0;
}
#endif
