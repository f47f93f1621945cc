/* prune-accuracy.c - how close a KPRUNE section (ksf-pruned) is to the
 * exact KIPF section (ksf) of the same deterministic workload, for
 * perfctl/micro/prune.sh: exact profiles of real programs at k = 32 hold tens of
 * millions of k-IPF nodes, too many for tests/prune/check.pl.
 *
 *   prune-accuracy EXACT.prof PRUNED.prof PHI...
 *   prune-accuracy --exact-bytes EXACT.prof   (k-SF + k-IPF nodes) x 24
 *
 * Per PHI, over every length n = 1..k: hot = exact sequences with count >=
 * PHI x N_n; reported = KPRUNE sequences with upper bound >= PHI x N_n;
 * prints "PHI recall precision max_rel_err avg_rel_err hot reported
 * exact_bytes pruned_peak", the errors being those of the upper bound over
 * the hot sequences reported, exact_bytes = (k-SF + k-IPF nodes) x 24.
 * It also counts bound violations (exact count outside [count - err,
 * count]) among the reported sequences whose exact count it kept, and
 * exits 1 if there is one.  Sequences are keyed by a 64-bit hash of
 * (TU, function, path IDs): a collision would need ~2^32 hot sequences.
 * Only exact sequences with count >= min(PHI) x N_n are kept: a reported
 * sequence not kept is below every threshold (not hot). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

static uint64_t u64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static uint32_t u32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* The body of the section with TAG in FILE (mapped), and its length. */
static const unsigned char *section(const char *file, uint32_t tag, size_t *len)
{
    int fd = open(file, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        perror(file);
        exit(2);
    }
    const unsigned char *d = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (d == MAP_FAILED || memcmp(d, "PATHPROF", 8) != 0) {
        fprintf(stderr, "%s: not a profile\n", file);
        exit(2);
    }
    uint32_t n = u32(d + 40);
    size_t at = 64;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t l = u64(d + at + 8);
        if (u32(d + at) == tag) {
            *len = l;
            return d + at + 16;
        }
        at += 16 + l;
    }
    fprintf(stderr, "%s: no section %u\n", file, tag);
    exit(2);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 33);
}

struct slot {
    uint64_t key, count; /* key 0: empty */
};
static struct slot *tab;
static size_t tcap, tlen;

static struct slot *lookup(uint64_t key)
{
    for (size_t j = key & (tcap - 1);; j = (j + 1) & (tcap - 1))
        if (tab[j].key == key || tab[j].key == 0)
            return &tab[j];
}

static void put(uint64_t key, uint64_t count)
{
    if (2 * (tlen + 1) > tcap) {
        struct slot *old = tab;
        size_t ocap = tcap;
        tcap = tcap ? 2 * tcap : 1 << 16;
        tab = calloc(tcap, sizeof *tab);
        for (size_t i = 0; i < ocap; i++)
            if (old[i].key)
                *lookup(old[i].key) = old[i];
        free(old);
    }
    struct slot *s = lookup(key);
    tlen += s->key == 0;
    *s = (struct slot){key, count};
}

/* Unsigned LEB128 at b + *o (compact KIPF nodes, docs/format.md). */
static uint64_t uleb(const unsigned char *b, size_t *o)
{
    uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
        unsigned char c = b[(*o)++];
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80) || shift >= 63)
            return v;
    }
}

/* Preorder walk of the KIPF forest; PASS 0 sums counts per depth, PASS 1
 * keeps the nodes with count >= thr[depth]. */
static void walk(const unsigned char *b, uint32_t k, uint64_t *total, const double *thr, int pass)
{
    uint32_t nlevels = u32(b + 48), compact = u32(b + 4) & 2;
    size_t o = 56 + 24 * (size_t)nlevels + 16;
    uint64_t nroots = u64(b + o), left[65], h[65], tu[65], fn[65];
    o += 8;
    int d = 0;
    left[0] = nroots;
    h[0] = 0x12345;
    while (d >= 0) {
        if (left[d] == 0) {
            d--;
            continue;
        }
        left[d]--;
        uint64_t count, id, key;
        uint32_t nch;
        if (compact) {
            if (d == 0) {
                tu[0] = uleb(b, &o);
                fn[0] = uleb(b, &o);
            } else {
                tu[d] = tu[d - 1];
                fn[d] = fn[d - 1];
            }
            id = uleb(b, &o);
            count = uleb(b, &o);
            nch = (uint32_t)uleb(b, &o);
        } else {
            const unsigned char *p = b + o;
            o += 32;
            tu[d] = u32(p);
            fn[d] = u32(p + 4);
            id = u64(p + 8);
            count = u64(p + 16);
            nch = u32(p + 24);
        }
        key = mix(mix(mix(h[d], (uint32_t)tu[d]), (uint32_t)fn[d]), id);
        if (pass == 0)
            total[d] += count;
        else if ((double)count >= thr[d])
            put(key | 1, count);
        if (nch) {
            if (d + 1 >= (int)k || d + 1 > 64) {
                fprintf(stderr, "KIPF deeper than k\n");
                exit(2);
            }
            h[d + 1] = key;
            left[++d] = nch;
        }
    }
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--exact-bytes") == 0) {
        size_t len;
        const unsigned char *e = section(argv[2], 4, &len);
        printf("%llu\n", (unsigned long long)((u64(e + 24) + u64(e + 32)) * 24));
        return 0;
    }
    if (argc < 4) {
        fprintf(stderr, "usage: prune-accuracy EXACT.prof PRUNED.prof PHI...\n");
        return 2;
    }
    size_t elen, plen;
    const unsigned char *e = section(argv[1], 4, &elen), *p = section(argv[2], 5, &plen);
    uint32_t k = u32(e);
    if (u32(p) != k) {
        fprintf(stderr, "k differs: %u and %u\n", k, u32(p));
        return 2;
    }
    uint64_t total[65] = {0};
    double phimin = 1, thr[65];
    for (int a = 3; a < argc; a++)
        if (atof(argv[a]) < phimin)
            phimin = atof(argv[a]);
    walk(e, k, total, NULL, 0);
    for (uint32_t n = 0; n < k; n++)
        thr[n] = phimin * (double)total[n];
    walk(e, k, total, thr, 1);
    uint64_t exact_bytes = (u64(e + 24) + u64(e + 32)) * 24, peak = u64(p + 56);
    int bad = 0;
    for (int a = 3; a < argc; a++) {
        double phi = atof(argv[a]);
        uint64_t hot = 0, rep = 0, both = 0;
        double maxrel = 0, sumrel = 0;
        size_t o = 64;
        for (uint32_t n = 1; n <= k; n++) {
            uint64_t N = u64(p + o), ns = u64(p + o + 16);
            o += 24;
            if (N != total[n - 1]) {
                fprintf(stderr, "length %u: N %llu, exact %llu\n", n, (unsigned long long)N,
                        (unsigned long long)total[n - 1]);
                bad = 1;
            }
            for (uint64_t i = 0; i < ns; i++, o += 24 + 8 * (size_t)n) {
                uint64_t key = mix(mix(0x12345, u32(p + o)), u32(p + o + 4));
                key = mix(key, u64(p + o + 24));
                for (uint32_t j = 1; j < n; j++)
                    key = mix(mix(mix(key, u32(p + o)), u32(p + o + 4)), u64(p + o + 24 + 8 * j));
                uint64_t c = u64(p + o + 8), err = u64(p + o + 16);
                struct slot *s = lookup(key | 1);
                uint64_t t = s->key ? s->count : 0;
                if (s->key && (t > c || t < c - err)) {
                    if (!bad)
                        fprintf(stderr, "length %u: exact %llu outside [%llu, %llu]\n", n,
                                (unsigned long long)t, (unsigned long long)(c - err),
                                (unsigned long long)c);
                    bad = 1;
                }
                if ((double)c < phi * (double)N)
                    continue;
                rep++;
                if (!s->key || (double)t < phi * (double)N)
                    continue;
                both++;
                double rel = (double)(c - t) / (double)t;
                sumrel += rel;
                if (rel > maxrel)
                    maxrel = rel;
            }
        }
        /* Hot sequences: the exact forest's nodes above this phi's
         * thresholds, counted by walking it again into a scratch table. */
        double t2[65];
        for (uint32_t n = 0; n < k; n++)
            t2[n] = phi * (double)total[n];
        struct slot *save = tab;
        size_t scap = tcap, slen = tlen;
        tab = NULL;
        tcap = tlen = 0;
        walk(e, k, total, t2, 1);
        hot = tlen;
        free(tab);
        tab = save;
        tcap = scap;
        tlen = slen;
        printf("%s %.4f %.4f %.5f %.5f %llu %llu %llu %llu\n", argv[a],
               hot ? (double)both / (double)hot : 1.0, rep ? (double)both / (double)rep : 1.0,
               maxrel, both ? sumrel / (double)both : 0.0, (unsigned long long)hot,
               (unsigned long long)rep, (unsigned long long)exact_bytes,
               (unsigned long long)peak);
    }
    return bad;
}
