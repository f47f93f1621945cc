/* wpp-verify.c - the wpp analyzer's grammars of a real trace checked as
 * tests/wpp/unit.c checks its inputs': each thread's words numbered and
 * appended as the analyzer does (epochs at PATHPROF_WPP_MAX, as in
 * wpp-replay.c, runs included; wpp-epochs.h), and every epoch's grammar, once finished,
 * expanded and compared with the epoch's symbols and checked for digram
 * uniqueness, rule utility, use counts and the index (unit.c's
 * properties()).  For changes to sequitur.c that the small inputs of the
 * unit test may not reach (docs/performance.md, wpp).
 *
 * Usage: wpp-verify TRACE [MAX_BYTES]     (default 2M, in bytes)
 * Build: gcc -O1 -std=c11 -D_GNU_SOURCE -Ianalyzers -Iruntime -Itests/wpp perfctl/micro/wpp-verify.c \
 *            analyzers/wpp/sequitur.c analyzers/wpp/symbols.c -o wpp-verify */
#define main unit_main /* the unit test's oracle, not its tests */
#include "unit.c"
#undef main

#include "pathprof-abi.h"
#include "wpp/symbols.h"

static void die(const char *what, const char *file)
{
    fprintf(stderr, "wpp-verify: %s: %s\n", file, what);
    exit(2);
}

#include "../../perfctl/micro/trace-words.h"
#include "../../perfctl/micro/wpp-epochs.h"

static uint32_t *ids;
static size_t nids, capids;

static void check_epoch(struct sequitur *sq, uint32_t tid, uint64_t epoch)
{
    sq_finish(sq);
    uint32_t *out = malloc((nids + 1) * sizeof *out);
    if (out == NULL)
        die("out of memory", "wpp-verify");
    size_t n = expand_rule(sq, 0, out, nids + 1);
    const char *bad = properties(sq);
    if (n != nids || memcmp(out, ids, nids * sizeof *ids) != 0 || bad) {
        printf("thread %u epoch %llu: %s\n", tid, (unsigned long long)epoch,
               bad ? bad : "the grammar does not expand to the epoch's symbols");
        exit(1);
    }
    free(out);
    nids = 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        die("usage: wpp-verify TRACE [MAX_BYTES]", "wpp-verify");
    size_t limit = argc > 2 ? strtoull(argv[2], NULL, 10) : 2u << 20;
    if (limit == 0)
        die("MAX_BYTES is a number of bytes", argv[2]);
    read_trace(argv[1]);
    uint64_t epochs = 0, words = 0;
    for (uint32_t t = 0; t < nthreads; t++) {
        const uint64_t *w = threads[t].w;
        size_t nw = threads[t].n;
        struct wpp_epoch e;
        if (nw == 0)
            continue;
        epoch_init(&e, limit, argv[1]);
        for (size_t i = 0; i < nw; i++) {
            uint64_t w2, w1 = epoch_event(w, nw, &i, &w2);
            if (epoch_full(&e)) {
                check_epoch(&e.sq, t + 1, epochs++);
                epoch_next(&e);
            }
            uint32_t id = epoch_append(&e, w1, w2, argv[1]);
            if (nids == capids) {
                capids = capids ? 2 * capids : 1024;
                ids = realloc(ids, capids * sizeof *ids);
                if (ids == NULL)
                    die("out of memory", argv[1]);
            }
            ids[nids++] = id;
        }
        check_epoch(&e.sq, t + 1, epochs++);
        epoch_free(&e);
        words += nw;
    }
    printf("wpp-verify: %llu epochs of %llu words: every grammar expands to its symbols and "
           "keeps both properties\n", (unsigned long long)epochs, (unsigned long long)words);
    return 0;
}
