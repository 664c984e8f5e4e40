// booth_harness.cpp - Verilator check of the PE's radix-4 Booth multiplier and L-lane dot product
// (rtl/src/mx_booth_lane.v, mx_mul8_booth.v, mx_dot_booth.v; sim/doc/rtl.md section 6.1) against
// the C product.
//
//   rtl_booth_tb --mul8 MODEL [--expect-fail]
//       all 65,536 (a, b) int8 pairs (-128 x -128 included) through mx_mul8_booth: p must equal
//       (int16_t)(a * b) computed in C.
//   rtl_booth_tb --dot MODEL [--random N] [--seed S]
//       mx_dot_booth (L lanes, TW = 17 + clog2 L bits): every (a, b) pair once in lane (i mod L)
//       with random int8 in the other lanes (all 65,536 pairs; for L = 1 that is the exhaustive
//       check), every lane -128 x -128 / 127 x -128 / 127 x 127 / -128 x 127 at once, then N random
//       vectors (each lane an edge value {-128, -127, -1, 0, 1, 127} with probability 1/2): the
//       TW-bit result, sign-extended, must equal the sum of the C products.
//   rtl_booth_tb --list
// Exit: 0 pass, 1 a mismatch, 2 usage error.  --expect-fail: exit 0 only if a mismatch was found
// (the injected-bug model).
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter" // Verilator's headers, not ours
#include "verilated.h"
#include "booth_models.h" // the verilated models, BOOTH_MUL_MODELS(X) and BOOTH_DOT_MODELS(X)
#pragma GCC diagnostic pop

namespace {

int64_t sext(uint64_t v, int bits)
{
    const uint64_t m = uint64_t{1} << (bits - 1);
    v &= (m << 1) - 1;
    return static_cast<int64_t>(v ^ m) - static_cast<int64_t>(m);
}

template <class M> int64_t run_mul(M &m, bool verbose)
{
    int64_t bad = 0;
    for (int a = -128; a < 128; a++)
        for (int b = -128; b < 128; b++) {
            m.a = static_cast<uint8_t>(a);
            m.b = static_cast<uint8_t>(b);
            m.eval();
            const int64_t want = static_cast<int16_t>(a * b); // -128 * -128 = 16384 fits int16
            const int64_t got = sext(m.p, 16);
            if (got != want && bad++ < 5 && verbose)
                std::printf("MISMATCH a %d b %d: rtl %" PRId64 ", C %" PRId64 "\n", a, b, got, want);
        }
    return bad;
}

template <class M> int64_t run_dot(M &m, int lanes, int tw, long random, unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::vector<int> a(lanes), b(lanes);
    int64_t bad = 0, n = 0;
    auto check = [&]() {
        uint64_t pa = 0, pb = 0;
        int64_t want = 0;
        for (int l = 0; l < lanes; l++) {
            pa |= static_cast<uint64_t>(static_cast<uint8_t>(a[l])) << (8 * l);
            pb |= static_cast<uint64_t>(static_cast<uint8_t>(b[l])) << (8 * l);
            want += static_cast<int64_t>(a[l]) * b[l];
        }
        m.a = pa;
        m.b = pb;
        m.eval();
        const int64_t got = sext(m.dot, tw);
        n++;
        if (got != want && bad++ < 5) {
            std::printf("MISMATCH L %d:", lanes);
            for (int l = 0; l < lanes; l++) std::printf(" %d*%d", a[l], b[l]);
            std::printf(": rtl %" PRId64 ", C %" PRId64 "\n", got, want);
        }
    };
    auto rnd8 = [&]() { return static_cast<int>(static_cast<int8_t>(rng() & 0xFF)); };
    static const int edge[] = {-128, -127, -1, 0, 1, 127};
    for (int i = 0; i < 65536; i++) { // every pair once, in lane i mod L
        for (int l = 0; l < lanes; l++) a[l] = rnd8(), b[l] = rnd8();
        a[i % lanes] = (i >> 8) - 128;
        b[i % lanes] = (i & 0xFF) - 128;
        check();
    }
    for (int va : {-128, 127})
        for (int vb : {-128, 127}) {
            for (int l = 0; l < lanes; l++) a[l] = va, b[l] = vb;
            check();
        }
    for (long i = 0; i < random; i++) {
        for (int l = 0; l < lanes; l++) {
            a[l] = (rng() & 1) ? edge[rng() % 6] : rnd8();
            b[l] = (rng() & 1) ? edge[rng() % 6] : rnd8();
        }
        check();
    }
    std::printf("L %d: %" PRId64 " vectors, %" PRId64 " mismatches\n", lanes, n, bad);
    return bad;
}

} // namespace

int main(int argc, char **argv)
{
    const char *mul = nullptr, *dot = nullptr;
    long random = 200000;
    unsigned seed = 1;
    bool expect_fail = false, list = false;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--mul8") && i + 1 < argc) mul = argv[++i];
        else if (!std::strcmp(argv[i], "--dot") && i + 1 < argc) dot = argv[++i];
        else if (!std::strcmp(argv[i], "--random") && i + 1 < argc) random = std::atol(argv[++i]);
        else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) seed = static_cast<unsigned>(std::atol(argv[++i]));
        else if (!std::strcmp(argv[i], "--expect-fail")) expect_fail = true;
        else if (!std::strcmp(argv[i], "--list")) list = true;
        else {
            std::fprintf(stderr, "usage: %s (--mul8 MODEL [--expect-fail] | --dot MODEL [--random N] [--seed S] | --list)\n",
                         argv[0]);
            return 2;
        }
    }
    if (list) {
#define LIST_MUL(T, NAME, BUG) std::printf("mul8 %s %s\n", NAME, BUG);
#define LIST_DOT(T, NAME, L) std::printf("dot %s L %d\n", NAME, L);
        BOOTH_MUL_MODELS(LIST_MUL)
        BOOTH_DOT_MODELS(LIST_DOT)
        return 0;
    }
    int64_t bad = -1;
#define RUN_MUL(T, NAME, BUG)                                                                                          \
    if (mul != nullptr && !std::strcmp(mul, NAME)) {                                                                   \
        T m;                                                                                                           \
        bad = run_mul(m, !expect_fail);                                                                                \
        std::printf("mx_mul8_booth %s: 65536 pairs, %" PRId64 " mismatches\n", NAME, bad);                            \
    }
#define RUN_DOT(T, NAME, L)                                                                                            \
    if (dot != nullptr && !std::strcmp(dot, NAME)) {                                                                   \
        T m;                                                                                                           \
        int tw = 17;                                                                                                   \
        while ((1 << (tw - 17)) < (L)) tw++;                                                                           \
        bad = run_dot(m, L, tw, random, seed);                                                                         \
    }
    BOOTH_MUL_MODELS(RUN_MUL)
    BOOTH_DOT_MODELS(RUN_DOT)
    if (bad < 0) {
        std::fprintf(stderr, "rtl_booth_tb: no such model (--list)\n");
        return 2;
    }
    if (expect_fail) {
        std::printf(bad > 0 ? "injected bug caught (%" PRId64 " mismatches): *-* MXSIM PASS *-*\n"
                            : "injected bug NOT caught (%" PRId64 " mismatches)\n",
                    bad);
        return bad > 0 ? 0 : 1;
    }
    if (bad == 0) std::printf("*-* MXSIM PASS *-*\n");
    return bad == 0 ? 0 : 1;
}
