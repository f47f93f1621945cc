/* wpp-epochs.h - one trace thread's words fed to the wpp analyzer's
 * per-thread state as analyzers/wpp/wpp.c's consume feeds it: a path
 * word, or a marker and its payload word, numbered as one symbol and
 * appended to SEQUITUR(1); before each symbol, the epoch is closed when
 * the symbol table and the grammar would pass the limit
 * (PATHPROF_WPP_MAX), and the next starts empty on the same arrays.
 * wpp-replay.c times and sizes these grammars, wpp-verify.c checks them;
 * each does what it does at an epoch's end between epoch_full and
 * epoch_next. The including file includes pathprof-abi.h,
 * wpp/sequitur.h and wpp/symbols.h and defines
 *   static void die(const char *what, const char *file);
 * before including this header (as for trace-words.h). */
#ifndef PATHPROF_PERFCTL_WPP_EPOCHS_H
#define PATHPROF_PERFCTL_WPP_EPOCHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct wpp_epoch {
    struct sequitur sq;
    struct wpp_symbols syms;
    size_t limit; /* bytes, as PATHPROF_WPP_MAX */
};

static void epoch_init(struct wpp_epoch *e, size_t limit, const char *file)
{
    if (sq_init(&e->sq) != 0 || wpp_symbols_init(&e->syms) != 0)
        die("out of memory", file);
    e->limit = limit;
}

static void epoch_free(struct wpp_epoch *e)
{
    sq_free(&e->sq);
    wpp_symbols_free(&e->syms);
}

/* The event at w[*i] of a thread's N words: its first word, its second
 * (a marker's payload) in *W2 or 0; *i is left on its last word. */
static uint64_t epoch_event(const uint64_t *w, size_t n, size_t *i, uint64_t *w2)
{
    uint64_t w1 = w[*i];
    *w2 = 0;
    if ((w1 & PATHPROF_EV_MARKER) && *i + 1 < n)
        *w2 = w[++*i];
    return w1;
}

/* Before a symbol: the analyzer's test, room for the symbol table to
 * double once more and the grammar to take one more symbol; an empty
 * epoch always takes one. */
static bool epoch_full(struct wpp_epoch *e)
{
    size_t sb = wpp_symbols_bytes(&e->syms);
    return e->sq.length != 0 && (2 * sb >= e->limit || !sq_room(&e->sq, e->limit - 2 * sb));
}

/* The next epoch, on the arrays the limit already bounds (the
 * analyzer's next_epoch). */
static void epoch_next(struct wpp_epoch *e)
{
    sq_reset(&e->sq);
    wpp_symbols_reset(&e->syms);
}

/* The event's symbol appended to the grammar; its number. */
static uint32_t epoch_append(struct wpp_epoch *e, uint64_t w1, uint64_t w2, const char *file)
{
    uint32_t id = wpp_symbols_id(&e->syms, w1, w2);
    if (id == UINT32_MAX || sq_append(&e->sq, id) != 0)
        die("out of memory", file);
    return id;
}

#endif
