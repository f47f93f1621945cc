/* trace-words.h - a trace file's path events, per producer thread, in
 * memory: what the replay benchmarks (ksf-replay.c, ngram-replay.c) feed
 * to the analyzers' code.  Reads the EVENTS records of docs/format.md
 * section 4 (the checksum is the CLI's business: `pathprof dump` checks
 * it).  The including file defines
 *   static void die(const char *what, const char *file);
 * before including this header; threads[t] holds thread t + 1's words. */
#ifndef PATHPROF_PERFCTL_TRACE_WORDS_H
#define PATHPROF_PERFCTL_TRACE_WORDS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct thread_words {
    uint64_t *w;
    size_t n, cap;
};

static struct thread_words *threads;
static uint32_t nthreads;

static struct thread_words *thread_of(uint32_t tid, const char *file)
{
    if (tid == 0 || tid > 1u << 20)
        die("an EVENTS record names thread 0 or a thread beyond 2^20", file);
    if (tid > nthreads) {
        threads = realloc(threads, tid * sizeof *threads);
        if (threads == NULL)
            die("out of memory", file);
        memset(threads + nthreads, 0, (tid - nthreads) * sizeof *threads);
        nthreads = tid;
    }
    return &threads[tid - 1];
}

static void read_trace(const char *file)
{
    FILE *f = fopen(file, "rb");
    if (f == NULL)
        die("cannot open", file);
    unsigned char hdr[64];
    if (fread(hdr, 1, 64, f) != 64 || memcmp(hdr, "PPTRACE", 8) != 0)
        die("not a pathprof trace (magic)", file);
    for (;;) {
        uint32_t type, tid;
        uint64_t len;
        if (fread(&type, 4, 1, f) != 1 || fread(&tid, 4, 1, f) != 1 || fread(&len, 8, 1, f) != 1)
            die("truncated before the END record", file);
        if (len % 8 != 0)
            die("a record's length is not a multiple of 8", file);
        if (type == 3)
            break;
        if (type != 1) {
            if (fseek(f, (long)len, SEEK_CUR) != 0)
                die("truncated record", file);
            continue;
        }
        struct thread_words *t = thread_of(tid, file);
        size_t n = len / 8;
        if (t->n + n > t->cap) {
            size_t cap = t->cap ? t->cap : 1 << 16;
            while (cap < t->n + n)
                cap *= 2;
            t->w = realloc(t->w, cap * 8);
            if (t->w == NULL)
                die("out of memory", file);
            t->cap = cap;
        }
        if (fread(t->w + t->n, 8, n, f) != n)
            die("truncated EVENTS record", file);
        t->n += n;
    }
    fclose(f);
}

#endif
