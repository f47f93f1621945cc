/* synthetic-tu.c - the blob builder (see synthetic-tu.h). */
#include "synthetic-tu.h"
#include "pathprof-abi.h"

#include <string.h>

struct out {
    unsigned char *buf;
    size_t size, len;
};

static void put(struct out *o, const void *p, size_t n)
{
    if (o->len + n <= o->size)
        memcpy(o->buf + o->len, p, n);
    o->len += n;
}

static void u32(struct out *o, uint32_t v)
{
    unsigned char b[4];
    for (int i = 0; i < 4; i++)
        b[i] = (unsigned char)(v >> 8 * i);
    put(o, b, 4);
}

static void u64(struct out *o, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> 8 * i);
    put(o, b, 8);
}

static void set_u64(struct out *o, size_t at, uint64_t v)
{
    for (int i = 0; i < 8 && at + 8 <= o->size; i++)
        o->buf[at + i] = (unsigned char)(v >> 8 * i);
}

size_t syn_build_blob(unsigned char *buf, size_t size, const struct syn_fn *fns,
                      uint32_t nfuncs, uint64_t ncounters)
{
    struct out o = {buf, size, 0};
    put(&o, PATHPROF_META_MAGIC, 4);
    /* Version 2: fixed-size detail records, which every reader still
     * reads (the plugin's version 3 is tested on its own blobs). */
    u32(&o, 2);
    u32(&o, nfuncs);
    u32(&o, 2 * nfuncs + 1); /* strings: name i at 2i, file at 2i+1, build line */
    u64(&o, 0);              /* strtab_offset, set below */
    u64(&o, ncounters);
    u32(&o, 2 * nfuncs);     /* build: the TU's build line, the last string */
    u32(&o, 0);              /* reserved */
    size_t dir = o.len;
    for (uint32_t i = 0; i < nfuncs; i++) {
        u32(&o, 2 * i);
        u32(&o, 2 * i + 1);
        u64(&o, 0x1234567800000000ull + i); /* checksum */
        u32(&o, fns[i].flags);
        u32(&o, fns[i].line);
        u64(&o, fns[i].npaths);
        u64(&o, fns[i].counter_offset);
        u64(&o, fns[i].verify_offset);
        u32(&o, fns[i].nverify);
        u32(&o, 0);
        u64(&o, 0); /* detail_offset, set below */
    }
    set_u64(&o, 16, o.len);
    for (uint32_t i = 0; i < nfuncs; i++) {
        u32(&o, (uint32_t)strlen(fns[i].name));
        put(&o, fns[i].name, strlen(fns[i].name));
        u32(&o, (uint32_t)strlen(fns[i].file));
        put(&o, fns[i].file, strlen(fns[i].file));
    }
    static const char build[] = "GNU C17\nsynthetic-tu.c";
    u32(&o, (uint32_t)strlen(build));
    put(&o, build, strlen(build));
    /* Minimal detail records: ENTRY, EXIT, one REAL edge between them. */
    for (uint32_t i = 0; i < nfuncs; i++) {
        set_u64(&o, dir + 64 * (size_t)i + 56, o.len);
        u32(&o, 2);
        for (uint32_t n = 0; n < 2; n++) {
            u32(&o, n);
            u32(&o, PATHPROF_NONE);
            u32(&o, 0);
            u32(&o, 0);
        }
        u32(&o, 1);
        u32(&o, 0); u32(&o, 1); u32(&o, PATHPROF_EDGE_REAL); u32(&o, PATHPROF_NONE);
        u64(&o, 0); u64(&o, 0);
        u32(&o, fns[i].nverify);
        for (uint32_t v = 0; v < fns[i].nverify; v++) {
            u32(&o, 0);
            u32(&o, 1);
        }
    }
    /* An odd length on purpose: the profile must pad the copy to 8. */
    if (o.len % 8 == 0)
        u32(&o, 0), o.len -= 1;
    return o.len <= size ? o.len : 0;
}

size_t syn_standard_blob(unsigned char *buf, size_t size, const char *file)
{
    /* Every array function ATOMIC, as the plugin makes them in code built
     * with -pthread: the driver's scenarios start threads, and a plain
     * function that counted would draw the runtime's warning about plain
     * increments in a multithreaded run (runtime/plain-updates.h), though
     * only main bumps alpha and epsilon. */
    const struct syn_fn fns[] = {
        {"alpha", file, PATHPROF_FN_ATOMIC, 10, 6, SYN_ALPHA, 0, 0},
        {"beta", file, PATHPROF_FN_HASH | PATHPROF_FN_CUT, 20, (uint64_t)1 << 40,
         SYN_BETA, 0, 0},
        {"gamma", file, PATHPROF_FN_VERIFY | PATHPROF_FN_ATOMIC, 30, 3, SYN_GAMMA,
         SYN_GAMMA_V, 4},
        {"delta", file, PATHPROF_FN_HASH | PATHPROF_FN_VERIFY, 40, UINT64_MAX,
         SYN_DELTA, SYN_DELTA_V, 2},
        {"epsilon", file, PATHPROF_FN_ATOMIC, 50, 4, SYN_EPSILON, 0, 0},
    };
    return syn_build_blob(buf, size, fns, 5, SYN_NCOUNTERS);
}
