/* threads.c - a minimal fork-join helper over POSIX threads.
** Work is split into contiguous chunks so that results never depend on the thread count: each
** output is computed by exactly one thread, in the same order, whatever the split. */
#include <pthread.h>
#include <unistd.h>

#include "gemm.h"

#define MX_MAX_THREADS 1024

typedef struct {
    void (*fn)(void *, int64_t, int64_t);
    void *arg;
    int64_t lo, hi;
} chunk;

static void *run_chunk(void *p)
{
    chunk *c = p;
    c->fn(c->arg, c->lo, c->hi);
    return NULL;
}

unsigned mx_online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > MX_MAX_THREADS ? MX_MAX_THREADS : (unsigned)n;
}

void mx_parallel_for(unsigned n_threads, int64_t n, int64_t align,
                     void (*fn)(void *arg, int64_t lo, int64_t hi), void *arg)
{
    if (align < 1) align = 1;
    int64_t units = (n + align - 1) / align;
    if (n_threads > MX_MAX_THREADS) n_threads = MX_MAX_THREADS;
    if ((int64_t)n_threads > units) n_threads = (unsigned)(units > 0 ? units : 1);
    if (n_threads <= 1) {
        if (n > 0) fn(arg, 0, n);
        return;
    }
    chunk chunks[MX_MAX_THREADS];
    pthread_t tids[MX_MAX_THREADS];
    int started[MX_MAX_THREADS];
    for (unsigned t = 0; t < n_threads; t++) {
        int64_t u0 = units * t / n_threads, u1 = units * (t + 1) / n_threads;
        chunks[t] = (chunk){fn, arg, u0 * align, u1 * align < n ? u1 * align : n};
    }
    /* Chunk 0 runs on the calling thread; a chunk whose thread fails to start runs there too. */
    for (unsigned t = 1; t < n_threads; t++)
        started[t] = pthread_create(&tids[t], NULL, run_chunk, &chunks[t]) == 0;
    run_chunk(&chunks[0]);
    for (unsigned t = 1; t < n_threads; t++) {
        if (started[t]) pthread_join(tids[t], NULL);
        else run_chunk(&chunks[t]);
    }
}
