/* lines.c - the one line reader and the one CSV splitter (lines.h). */
#include <string.h>

#include "lines.h"

void mx_lines_init(mx_lines *c, char *buf)
{
    c->next = buf;
    c->line = 0;
}

char *mx_lines_next(mx_lines *c)
{
    char *ln = c->next;
    if (ln == NULL) return NULL;
    char *nl = strchr(ln, '\n');
    c->next = nl ? nl + 1 : NULL;
    if (nl) {
        *nl = '\0';
        if (nl > ln && nl[-1] == '\r') nl[-1] = '\0';
    } else if (*ln == '\0') {
        return NULL;
    }
    c->line++;
    return ln;
}

int mx_csv_split(char *s, char **f, int max)
{
    int n = 0;
    if (max < 1) return max + 1;
    f[n++] = s;
    for (; *s; s++)
        if (*s == ',') {
            *s = '\0';
            if (n == max) return max + 1;
            f[n++] = s + 1;
        }
    return n;
}
