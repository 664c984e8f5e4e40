/* mxtest.h - a tiny unit-test harness (in the manner of libuv's task.h).
**
** Usage:
**   MXTEST(name) { MXT_EQ_INT(a, b); ... }
**   int main(void) { return mxt_run(argc/argv not needed) }  -> see MXTEST_MAIN below.
** Each MXTEST registers itself; MXTEST_MAIN() runs all of them, prints one line per test
** and a summary, and returns non-zero if any check failed.  A test may call MXT_SKIP(msg)
** (the whole executable then exits 77, which CTest reports as skipped, if no test failed).
*/
#ifndef MXTEST_H
#define MXTEST_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*mxt_fn)(void);
struct mxt_case {
    const char *name;
    mxt_fn fn;
};

#define MXT_MAX_CASES 512
static struct mxt_case mxt_cases[MXT_MAX_CASES];
static int mxt_n_cases;
static long mxt_failures;     /* failed checks in the current test */
static long mxt_checks;       /* checks run in total */
static int mxt_skipped;

#define MXTEST(name)                                                             \
    static void mxt_test_##name(void);                                           \
    __attribute__((constructor)) static void mxt_reg_##name(void)                \
    {                                                                            \
        if (mxt_n_cases < MXT_MAX_CASES)                                         \
            mxt_cases[mxt_n_cases++] = (struct mxt_case){#name, mxt_test_##name}; \
    }                                                                            \
    static void mxt_test_##name(void)

/* Failing checks print at most this many messages per test, then only count. */
#define MXT_MAX_MSGS 20
#define MXT_FAILF(...)                                            \
    do {                                                          \
        if (mxt_failures++ < MXT_MAX_MSGS) {                      \
            fprintf(stderr, "  %s:%d: ", __FILE__, __LINE__);     \
            fprintf(stderr, __VA_ARGS__);                         \
            fputc('\n', stderr);                                  \
        }                                                         \
    } while (0)

#define MXT_TRUE(c)                                       \
    do {                                                  \
        mxt_checks++;                                     \
        if (!(c)) MXT_FAILF("expected true: %s", #c);     \
    } while (0)

#define MXT_EQ_INT(a, b)                                                               \
    do {                                                                               \
        long long mxt_a_ = (long long)(a), mxt_b_ = (long long)(b);                    \
        mxt_checks++;                                                                  \
        if (mxt_a_ != mxt_b_) MXT_FAILF("%s == %s: %lld != %lld", #a, #b, mxt_a_, mxt_b_); \
    } while (0)

#define MXT_EQ_HEX(a, b)                                                               \
    do {                                                                               \
        unsigned long long mxt_a_ = (unsigned long long)(a), mxt_b_ = (unsigned long long)(b); \
        mxt_checks++;                                                                  \
        if (mxt_a_ != mxt_b_) MXT_FAILF("%s == %s: 0x%llx != 0x%llx", #a, #b, mxt_a_, mxt_b_); \
    } while (0)

/* Bitwise float equality (distinguishes -0 and +0); NaN equals NaN by class. */
static inline int mxt_same_f32(float a, float b)
{
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    uint32_t ua, ub;
    memcpy(&ua, &a, 4);
    memcpy(&ub, &b, 4);
    return ua == ub;
}
#define MXT_EQ_F32(a, b)                                                              \
    do {                                                                              \
        float mxt_a_ = (a), mxt_b_ = (b);                                             \
        mxt_checks++;                                                                 \
        if (!mxt_same_f32(mxt_a_, mxt_b_))                                            \
            MXT_FAILF("%s == %s: %a != %a", #a, #b, (double)mxt_a_, (double)mxt_b_);  \
    } while (0)

/* bf16 bits equal, NaN by class. */
static inline int mxt_same_bf16(uint16_t a, uint16_t b)
{
    int na = (a & 0x7F80) == 0x7F80 && (a & 0x7F), nb = (b & 0x7F80) == 0x7F80 && (b & 0x7F);
    if (na || nb) return na && nb;
    return a == b;
}
#define MXT_EQ_BF16(a, b)                                                         \
    do {                                                                          \
        unsigned mxt_a_ = (a), mxt_b_ = (b);                                      \
        mxt_checks++;                                                             \
        if (!mxt_same_bf16((uint16_t)mxt_a_, (uint16_t)mxt_b_))                   \
            MXT_FAILF("%s == %s: bf16 0x%04x != 0x%04x", #a, #b, mxt_a_, mxt_b_);  \
    } while (0)

#define MXT_SKIP(msg)                                  \
    do {                                               \
        fprintf(stderr, "  skipped: %s\n", msg);       \
        mxt_skipped = 1;                               \
        return;                                        \
    } while (0)

static inline int mxt_run_all(void)
{
    int failed_tests = 0;
    for (int i = 0; i < mxt_n_cases; i++) {
        mxt_failures = 0;
        int skipped_before = mxt_skipped;
        mxt_skipped = 0;
        mxt_cases[i].fn();
        if (mxt_failures) {
            failed_tests++;
            printf("FAIL %s (%ld failed checks)\n", mxt_cases[i].name, mxt_failures);
        } else {
            printf("%s %s\n", mxt_skipped ? "SKIP" : "ok  ", mxt_cases[i].name);
        }
        mxt_skipped |= skipped_before;
    }
    printf("%d tests, %d failed, %ld checks\n", mxt_n_cases, failed_tests, mxt_checks);
    if (failed_tests) return 1;
    return mxt_skipped && mxt_n_cases == 1 ? 77 : 0;
}

/* The test's scratch directory: $MXSIM_TEST_TMP (CTest sets one per test), else fallback; emptied
** and created on the first call.  path: NAME in it (four rotating buffers, for a few at once). */
static inline const char *mxt_tmp_dir(const char *fallback)
{
    static char d[256];
    if (d[0] == '\0') {
        const char *e = getenv("MXSIM_TEST_TMP");
        snprintf(d, sizeof d, "%s", e ? e : fallback);
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", d, d);
        if (system(cmd) != 0) abort();
    }
    return d;
}
static inline const char *mxt_tmp_path(const char *fallback, const char *name)
{
    static char p[4][400];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", mxt_tmp_dir(fallback), name);
    return p[k];
}

#define MXTEST_MAIN() \
    int main(void) { return mxt_run_all(); }

/* Deterministic PRNG (splitmix64) so failures reproduce. */
typedef struct {
    uint64_t s;
} mxt_rng;
static inline uint64_t mxt_next(mxt_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline double mxt_uniform(mxt_rng *r) { return (double)(mxt_next(r) >> 11) * 0x1p-53; }
static inline double mxt_gauss(mxt_rng *r)
{
    double u1 = mxt_uniform(r), u2 = mxt_uniform(r);
    if (u1 < 1e-300) u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

#endif
