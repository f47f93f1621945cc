/* tests/tpp-stats.t: static functions of a header, compiled into both
 * inline-a.c and inline-b.c, as zstd's headers are (ZSTD_count in six
 * TUs). Each TU calls them through a volatile pointer, which
 * no inliner sees through: a copy stays in each TU, and the profile has an
 * entry per copy.
 *
 * mix: inline-a.c defines MIX_EXTRA, so its copy has one more branch, and
 * other blocks (bb indices) than inline-b.c's: the two copies are two
 * profile entries of the same name and file whose block numbers mean other
 * code. count_bits: the same source in both TUs, called with other values,
 * so its edge counts (and under TPP its cold edges) differ by TU: at -O2
 * with -fprofile-use, the same blocks, another graph (as ZSTD_count's). */
#ifndef INLINE_H
#define INLINE_H

static inline unsigned mix(unsigned x, int other)
{
    unsigned r = x;
#ifdef MIX_EXTRA
    if (x % 7 == 3)
        r ^= 0x55u;
#endif
    for (unsigned i = 0; i < (x & 3); i++)
        r = r * 33u + i;
    if (other ? x % 3 == 0 : x % 50 == 0)
        r += 17;
    else
        r -= 5;
    return r;
}

static inline unsigned count_bits(unsigned x)
{
    unsigned n = 0;
    while (x) {
        if (x & 1)
            n++;
        x >>= 1;
    }
    return n;
}

/* Each TU's own: the pointers are per TU, as the copies are. */
static unsigned (*volatile mix_p)(unsigned, int) = mix;
static unsigned (*volatile count_bits_p)(unsigned) = count_bits;

unsigned run_a(unsigned n, int other);
unsigned run_b(unsigned n, int other);
#endif
