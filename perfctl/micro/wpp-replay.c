/* wpp-replay.c - the wpp analyzer's per-thread work (analyzers/wpp:
 * numbering symbols, SEQUITUR(1), epochs, encoding each closed grammar)
 * replayed on a trace's words, without the program or the stream:
 * symbols per second of one analyzer thread's CPU, and the grammar's size
 * (encoded bytes, as in the profile's WPP section, and per million
 * symbols).  The same code as the analyzer's consume loop, on the same
 * words.
 *
 * Usage: wpp-replay TRACE [MAX]   (as PATHPROF_WPP_MAX: bytes, or with K, M
 *                                 or G; default 2M)
 * Build: see perfctl/micro/wpp.sh. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pathprof-abi.h"
#include "wpp/encode.h"
#include "wpp/sequitur.h"
#include "wpp/symbols.h"

static void die(const char *what, const char *file)
{
    fprintf(stderr, "wpp-replay: %s: %s\n", file, what);
    exit(2);
}

#include "trace-words.h"
#include "wpp-epochs.h"

/* Encodes the finished grammar as the analyzer's grammar_encode does and
 * counts its bytes. */
static uint64_t encoded(const struct sequitur *sq, const struct wpp_symbols *syms, uint32_t tid,
                        uint64_t epoch, uint64_t words, struct pprt_buf *out)
{
    struct wpp_grammar_head h = {tid, 0, epoch, words, 0};
    out->len = 0;
    if (wpp_encode(sq, syms, &h, out) != 0)
        die("out of memory", "wpp-replay");
    return out->len;
}

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        die("usage: wpp-replay TRACE [MAX_BYTES]", "wpp-replay");
    size_t limit = 2u << 20;
    if (argc > 2) {
        char *end;
        limit = strtoull(argv[2], &end, 10);
        int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
        if (end == argv[2] || (*end && (shift == 0 || end[1])) || limit == 0)
            die("MAX is a size: a number of bytes, or with K, M or G", argv[2]);
        limit <<= shift;
    }
    read_trace(argv[1]);
    uint64_t symbols = 0, words = 0, epochs = 0, rules = 0, gbytes = 0;
    struct pprt_buf out = {0};
    size_t peak = 0;
    double cpu = 0;
    for (uint32_t t = 0; t < nthreads; t++) {
        const uint64_t *w = threads[t].w;
        size_t n = threads[t].n;
        struct wpp_epoch e;
        if (n == 0)
            continue;
        epoch_init(&e, limit, argv[1]);
        double c0 = cpu_now();
        uint64_t last = UINT64_MAX, ewords = 0, epoch = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t w2, w1 = epoch_event(w, n, &i, &w2);
            if (w1 == last && !(w1 & PATHPROF_EV_MARKER) && sq_in_run(&e.sq)) {
                size_t j = i + 1; /* as the analyzer's consume does */
                while (j < n && w[j] == w1)
                    j++;
                sq_run_more(&e.sq, j - i);
                symbols += j - i;
                ewords += j - i;
                i = j - 1;
                continue;
            }
            if (epoch_full(&e)) {
                size_t sb = wpp_symbols_bytes(&e.syms);
                sq_finish(&e.sq);
                gbytes += encoded(&e.sq, &e.syms, t + 1, epoch++, ewords, &out);
                ewords = 0;
                rules += e.sq.nrules_live;
                if (sq_bytes(&e.sq) + sb > peak)
                    peak = sq_bytes(&e.sq) + sb;
                epoch_next(&e);
                epochs++;
            }
            epoch_append(&e, w1, w2, argv[1]);
            last = w2 == 0 ? w1 : UINT64_MAX;
            symbols++;
            ewords += w2 == 0 ? 1 : 2;
        }
        sq_finish(&e.sq);
        gbytes += encoded(&e.sq, &e.syms, t + 1, epoch, ewords, &out);
        cpu += cpu_now() - c0;
        rules += e.sq.nrules_live;
        if (sq_bytes(&e.sq) + wpp_symbols_bytes(&e.syms) > peak)
            peak = sq_bytes(&e.sq) + wpp_symbols_bytes(&e.syms);
        epochs++;
        words += n;
        epoch_free(&e);
    }
    pprt_buf_free(&out);
    printf("threads %u words %llu symbols %llu epochs %llu rules %llu peak_bytes %zu "
           "grammar_bytes %llu bytes_per_M_symbols %.0f cpu_s %.3f symbols_per_s %.0f\n",
           nthreads, (unsigned long long)words, (unsigned long long)symbols,
           (unsigned long long)epochs, (unsigned long long)rules, peak,
           (unsigned long long)gbytes, symbols ? (double)gbytes / ((double)symbols / 1e6) : 0,
           cpu, cpu > 0 ? (double)symbols / cpu : 0);
    return 0;
}
