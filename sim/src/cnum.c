/* cnum.c - numbers in the C locale whatever the process's LC_NUMERIC.  An embedder may set a
** locale with a decimal comma (Python's locale.setlocale(locale.LC_ALL, '') under de_DE): the
** library then wrote "0,9" into its JSON and CSV and refused "3.9" in a configuration file.  Every
** real the library formats or parses goes through these, which switch the calling thread to the C
** locale for the one call (uselocale: per thread, restored before returning; the embedder's own
** formatting keeps its locale). */
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

int mx_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap)
{
    locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    locale_t old = c ? uselocale(c) : (locale_t)0;
    const int k = vsnprintf(buf, n, fmt, ap);
    if (c) {
        uselocale(old);
        freelocale(c);
    }
    return k;
}

int mx_snprintf(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const int k = mx_vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return k;
}

double mx_strtod(const char *s, char **end)
{
    locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    locale_t old = c ? uselocale(c) : (locale_t)0;
    const double v = strtod(s, end);
    if (c) {
        uselocale(old);
        freelocale(c);
    }
    return v;
}
