/* grow.h - the one growth rule of the report module's arrays. */
#ifndef MX_GROW_H
#define MX_GROW_H

#include <stdint.h>
#include <stdlib.h>

/* Room for element n of arr (capacity *cap elements of elem bytes): arr itself while n < *cap, else
** arr reallocated to twice the capacity (64 at first), or NULL when memory runs out (arr and *cap
** untouched then). */
static inline void *mx_grow(void *arr, int *cap, int n, size_t elem)
{
    if (n < *cap) return arr;
    int nc = *cap ? 2 * *cap : 64;
    if (*cap > INT32_MAX / 2 || (size_t)nc > SIZE_MAX / elem) return NULL;
    void *p = realloc(arr, (size_t)nc * elem);
    if (p) *cap = nc;
    return p;
}

#endif
