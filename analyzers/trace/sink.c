/* sink.c - the trace file: buffered records, checksum, temporary
 * file and rename, the fork hand-over (see sink.h). */
#include "sink.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "analyzer-services.h"
#include "atomic-file.h"
#include "hash64.h"
#include "le-bytes.h"
#include "message.h"
#include "output-path.h"
#include "format.h"

#define BUFFER_SIZE (1u << 20)
#define NO_RECORD SIZE_MAX

enum sink_state {
    SINK_IDLE,   /* no file yet */
    SINK_OPEN,   /* writing the temporary file */
    SINK_BROKEN, /* a write failed: the trace was abandoned */
    SINK_DONE    /* renamed into place */
};

struct thread_count {
    uint32_t tid, flags;
    uint64_t nevents;
};

static struct {
    pthread_mutex_t lock;
    enum sink_state state;
    int fd;
    char *path; /* the name the user gave (PATHPROF_TRACE expanded) */
    char *dest; /* where the trace goes: PATH with links resolved, the
                 * device or FIFO to write through, or a fallback file */
    char *tmp;  /* the temporary file being written (NULL: written through) */
    bool elsewhere; /* DEST is a fallback location, not PATH */
    pid_t pid;  /* the process whose file FD is */
    pid_t parent_pid;
    uint64_t size;                /* bytes written so far */
    struct pprt_hash64_state hash; /* and their hash64 (the trailer) */

    unsigned char *buf; /* NULL: no memory for it, records go out directly */
    size_t len;
    size_t open_at;     /* offset in BUF of the EVENTS record being extended */
    uint32_t open_tid;

    struct thread_count *threads; /* ascending tid */
    size_t nthreads, cap;
    bool threads_nomem;           /* a thread's count could not be kept */

    uint64_t discarded;           /* events not written (BROKEN, DONE) */
    bool warned_late;
} sink = {.lock = PTHREAD_MUTEX_INITIALIZER, .fd = -1, .open_at = NO_RECORD};

/* ------------------------------------------------------------- the file */

/* EFBIG from the process's file size limit (ulimit -f), not from the file
 * system: every other place would refuse the trace alike. */
static bool over_size_limit(int err)
{
    struct rlimit lim;
    return err == EFBIG && getrlimit(RLIMIT_FSIZE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY;
}

/* Gives up on the trace: the temporary goes, later events are discarded. */
static void abandon(int err, const char *step)
{
    struct pprt_name_buf n1, n2;
    const char *name = sink.elsewhere ? sink.dest : sink.path ? sink.path : pp_trace_pattern();
    pprt_error("cannot write trace %s: %s (could not %s %s); no trace will be written%s",
               pprt_name(name ? name : "?", &n1), strerror(err), step,
               sink.tmp ? pprt_name(sink.tmp, &n2) : "it",
               over_size_limit(err) ? ": it is over the process's file size limit (ulimit -f)"
                                    : "");
    if (sink.fd >= 0) {
        close(sink.fd);
        sink.fd = -1;
    }
    if (sink.tmp)
        unlink(sink.tmp);
    free(sink.buf);
    sink.buf = NULL;
    sink.len = 0;
    sink.open_at = NO_RECORD;
    sink.state = SINK_BROKEN;
}

static bool relocate(int err);

/* write(2) without SIGXFSZ or SIGPIPE (atomic-file.h): this may run in
 * the program's own thread at exit. */
static int write_held(const void *data, size_t len)
{
    struct pprt_signal_hold held;
    pprt_signals_hold(&held);
    int err = pprt_write_all(sink.fd, data, len);
    pprt_signals_release(&held);
    return err;
}

/* Writes bytes that go into the checksum. */
static bool out(const void *data, size_t len)
{
    int err = write_held(data, len);
    if (err != 0 && relocate(err))
        err = write_held(data, len);
    if (err != 0) {
        abandon(err, "write");
        return false;
    }
    pprt_hash64_add(&sink.hash, data, len);
    sink.size += len;
    return true;
}

static bool out_record_header(uint32_t type, uint32_t tid, uint64_t length)
{
    unsigned char h[PP_TRACE_RECORD_HEADER_SIZE];
    pprt_set_u32(h, type);
    pprt_set_u32(h + 4, tid);
    pprt_set_u64(h + 8, length);
    return out(h, sizeof h);
}

static bool out_header(void)
{
    unsigned char h[PP_TRACE_HEADER_SIZE] = {0};
    memcpy(h, PP_TRACE_MAGIC, sizeof PP_TRACE_MAGIC); /* its NUL is the 8th byte */
    pprt_set_u32(h + 8, PP_TRACE_VERSION);
    pprt_set_u32(h + 12, PP_TRACE_HEADER_SIZE);
    pprt_set_u64(h + 16, (uint64_t)sink.pid);
    pprt_set_u64(h + 24, (uint64_t)time(NULL));
    pprt_set_u64(h + 32, (uint64_t)sink.parent_pid);
    sink.size = 0;
    pprt_hash64_begin(&sink.hash);
    return out(h, sizeof h);
}

/* A fallback name: ours, in a shared directory, so never followed (a link
 * planted in /tmp must not redirect the write) and always replaced.
 * Returns 0 with *PATH, *TMP and *FD, or an errno value. */
static int open_fallback_file(const char *wanted, char **path, char **tmp, int *fd)
{
    const char *tmpdir = getenv("TMPDIR");
    const char *dirs[2] = {tmpdir && *tmpdir ? tmpdir : "/tmp", "/tmp"};
    int err = ENOENT;
    for (int i = 0; i < 2; i++) {
        if (i == 1 && strcmp(dirs[0], dirs[1]) == 0)
            break;
        size_t size = strlen(dirs[i]) + 64;
        *path = malloc(size);
        if (*path == NULL)
            return ENOMEM;
        snprintf(*path, size, "%s/pathprof.%ld.trace", dirs[i], (long)sink.pid);
        if (strcmp(*path, wanted) != 0 &&
            (err = pprt_open_temporary(*path, O_RDWR, tmp, fd)) == 0)
            return 0;
        free(*path);
        *path = NULL;
    }
    return err;
}

/* The trace could not be created where asked: rather than lose the run,
 * put it in the temporary directory under a name no other process uses. */
static int open_fallback(const char *wanted, int first_err, const char *why)
{
    char *path;
    if (open_fallback_file(wanted, &path, &sink.tmp, &sink.fd) != 0)
        return first_err;
    struct pprt_name_buf n1, n2;
    pprt_warning("cannot create trace %s (%s: %s); writing it to %s instead",
                 pprt_name(wanted, &n1), strerror(first_err), why, pprt_name(path, &n2));
    free(sink.dest);
    sink.dest = path;
    sink.elsewhere = true;
    return 0;
}

/* A write failed (full disk, quota, file size limit): rather than lose the
 * run, copy what was written to a fallback file and go on there.  The
 * file holds SIZE good bytes; a failed write may have left part of itself
 * after them, which the copy leaves out.  A device or FIFO holds no copy:
 * it is left only when it refused the first bytes (/dev/full), like one
 * that cannot be opened.  Once only: a second failure is not the target's
 * fault. */
static bool relocate(int err)
{
    char *path, *tmp;
    int fd;
    if ((sink.tmp == NULL && sink.size > 0) || sink.elsewhere || over_size_limit(err) ||
        open_fallback_file(sink.dest, &path, &tmp, &fd) != 0)
        return false;
    unsigned char *copy = malloc(1u << 16);
    int cerr = copy ? 0 : ENOMEM;
    for (uint64_t at = 0; cerr == 0 && at < sink.size;) {
        size_t want = sink.size - at < (1u << 16) ? (size_t)(sink.size - at) : (1u << 16);
        ssize_t got = pread(sink.fd, copy, want, (off_t)at);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            cerr = got < 0 ? errno : EIO;
            break;
        }
        struct pprt_signal_hold held;
        pprt_signals_hold(&held);
        cerr = pprt_write_all(fd, copy, (size_t)got);
        pprt_signals_release(&held);
        at += (uint64_t)got;
    }
    free(copy);
    struct pprt_name_buf n1, n2;
    if (cerr != 0) {
        pprt_error("cannot write trace %s: %s (could not write); moving it to %s failed too: %s",
                   pprt_name(sink.path, &n1), strerror(err), pprt_name(path, &n2),
                   strerror(cerr));
        close(fd);
        unlink(tmp);
        free(tmp);
        free(path);
        return false;
    }
    pprt_warning("cannot write trace %s: %s (could not write); writing it to %s instead",
                 pprt_name(sink.path, &n1), strerror(err), pprt_name(path, &n2));
    close(sink.fd);
    if (sink.tmp)
        unlink(sink.tmp);
    free(sink.tmp);
    free(sink.dest);
    sink.fd = fd;
    sink.tmp = tmp;
    sink.dest = path;
    sink.elsewhere = true;
    return true;
}

/* Opens where PATH says (output-path.h): a temporary beside the file it
 * names, links resolved, or the device or FIFO itself.  0 or an errno
 * value with *WHY. */
static int open_target(const char *path, const char **why)
{
    struct pprt_target t;
    int err = pprt_resolve_target(path, &t, why);
    if (err != 0)
        return err;
    free(sink.dest);
    sink.dest = t.name;
    if (t.kind == PPRT_TARGET_THROUGH)
        return pprt_open_through(t.name, &sink.fd, why);
    err = pprt_open_temporary(t.name, O_RDWR, &sink.tmp, &sink.fd);
    if (err != 0)
        *why = "could not create a temporary file beside it";
    return err;
}

/* Creates the temporary file and writes the header: IDLE -> OPEN. */
static bool create(pid_t parent)
{
    const char *pattern = pp_trace_pattern();
    int err;

    sink.pid = getpid();
    sink.parent_pid = parent;
    free(sink.path);
    sink.path = pprt_expand_output(pattern ? pattern : "pathprof.trace", sink.pid);
    if (sink.path == NULL) {
        pprt_error("out of memory naming the trace; no trace will be written");
        sink.state = SINK_BROKEN;
        return false;
    }
    const char *why = "";
    sink.elsewhere = false;
    err = open_target(sink.path, &why);
    if (err != 0)
        err = open_fallback(sink.path, err, why);
    if (err != 0) {
        struct pprt_name_buf n;
        pprt_error("cannot create trace %s: %s (%s, nor in the temporary directory); "
                   "no trace will be written; set PATHPROF_TRACE or TMPDIR to a writable place",
                   pprt_name(sink.path, &n), strerror(err), why);
        sink.state = SINK_BROKEN;
        return false;
    }
    if (sink.buf == NULL)
        sink.buf = malloc(BUFFER_SIZE); /* NULL is survivable: see flush */
    sink.state = SINK_OPEN;
    return out_header();
}

/* A forked child: the file descriptor is the parent's temporary file.
 * Copies its records (not its header: this process is another pid) into a
 * temporary file of our own, reading with pread so the parent's file
 * offset, shared with ours, is not moved. */
static bool adopt_after_fork(void)
{
    if (sink.tmp == NULL) {
        /* The parent writes through a device or FIFO: its records are not
         * there to copy, and two writers would interleave on it. */
        struct pprt_name_buf n;
        close(sink.fd); /* our descriptor only */
        sink.fd = -1;
        sink.state = SINK_BROKEN;
        pprt_warning("this forked process (pid %ld) writes no trace: its parent writes "
                     "trace %s through a device or FIFO, which holds no copy of the events "
                     "before the fork; use a regular file (%%p in PATHPROF_TRACE) to "
                     "trace forked processes",
                     (long)getpid(), pprt_name(sink.path, &n));
        return false;
    }
    int parent_fd = sink.fd;
    uint64_t parent_size = sink.size, at = PP_TRACE_HEADER_SIZE;
    char *parent_tmp = sink.tmp;
    unsigned char *copy = malloc(1u << 16);
    bool ok;

    sink.fd = -1;
    sink.tmp = NULL;
    ok = copy != NULL && create(sink.pid);
    while (ok && at < parent_size) {
        size_t want = parent_size - at < (1u << 16) ? (size_t)(parent_size - at) : (1u << 16);
        ssize_t got = pread(parent_fd, copy, want, (off_t)at);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            abandon(got < 0 ? errno : EIO, "copy the parent's trace into");
            ok = false;
            break;
        }
        ok = out(copy, (size_t)got);
        at += (uint64_t)got;
    }
    if (copy == NULL) {
        struct pprt_name_buf n;
        pprt_error("out of memory copying the parent's trace %s after fork; this process "
                   "writes no trace", pprt_name(parent_tmp, &n));
        sink.state = SINK_BROKEN;
    }
    free(copy);
    close(parent_fd); /* our descriptor only: the parent's stays open */
    free(parent_tmp);
    return ok;
}

/* True when events can be written now (creating or adopting the file). */
static bool ready(void)
{
    if (sink.state == SINK_OPEN && sink.pid != getpid())
        return adopt_after_fork();
    if (sink.state == SINK_IDLE)
        return create(0);
    return sink.state == SINK_OPEN;
}

static void flush(void)
{
    if (sink.len > 0 && sink.state == SINK_OPEN)
        out(sink.buf, sink.len);
    sink.len = 0;
    sink.open_at = NO_RECORD;
}

/* ------------------------------------------------------- thread counts */

static struct thread_count *thread_count(uint32_t tid)
{
    size_t lo = 0, hi = sink.nthreads;

    /* Producers are numbered in registration order: the newest is last. */
    if (sink.nthreads && sink.threads[sink.nthreads - 1].tid == tid)
        return &sink.threads[sink.nthreads - 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sink.threads[mid].tid < tid)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < sink.nthreads && sink.threads[lo].tid == tid)
        return &sink.threads[lo];
    if (sink.nthreads == sink.cap) {
        size_t cap = sink.cap ? 2 * sink.cap : 64;
        struct thread_count *bigger = realloc(sink.threads, cap * sizeof *bigger);
        if (bigger == NULL)
            return NULL;
        sink.threads = bigger;
        sink.cap = cap;
    }
    memmove(&sink.threads[lo + 1], &sink.threads[lo], (sink.nthreads - lo) * sizeof *sink.threads);
    sink.nthreads++;
    sink.threads[lo] = (struct thread_count){.tid = tid};
    return &sink.threads[lo];
}

/* ------------------------------------------------------------- events */

/* Events not written; said once when the trace is already complete. */
static void discard(size_t n)
{
    sink.discarded += n;
    if (sink.state == SINK_DONE && !sink.warned_late) {
        sink.warned_late = true;
        struct pprt_name_buf n;
        pprt_warning("events arrived after trace %s was written (late destructors, or an "
                     "exec that failed); they are not in it",
                     pprt_name(sink.path ? sink.path : "?", &n));
    }
}

/* Appends bytes to the buffer, writing it out whenever it fills. */
static void buffered(const void *data, size_t len)
{
    const unsigned char *p = data;
    if (sink.buf == NULL) {
        out(p, len);
        return;
    }
    while (len > 0 && sink.state == SINK_OPEN) {
        size_t k = BUFFER_SIZE - sink.len < len ? BUFFER_SIZE - sink.len : len;
        memcpy(sink.buf + sink.len, p, k);
        sink.len += k;
        p += k;
        len -= k;
        if (sink.len == BUFFER_SIZE)
            flush();
    }
}

static void put_events(unsigned char *dst, const uint64_t *ev, size_t n)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(dst, ev, n * sizeof *ev); /* the file is little-endian, like us */
#else
    for (size_t i = 0; i < n; i++)
        pprt_set_u64(dst + 8 * i, ev[i]);
#endif
}

/* Without a buffer (no memory for it): one record per batch, unbuffered. */
static void events_direct(uint32_t tid, const uint64_t *ev, size_t n)
{
    unsigned char words[512];
    if (!out_record_header(PP_TRACE_EVENTS, tid, (uint64_t)n * 8))
        return;
    while (n > 0) {
        size_t k = n < sizeof words / 8 ? n : sizeof words / 8;
        put_events(words, ev, k);
        if (!out(words, k * 8))
            return;
        ev += k;
        n -= k;
    }
}

void pp_trace_sink_events(uint32_t tid, const uint64_t *ev, size_t n)
{
    struct thread_count *tc;

    if (n == 0)
        return;
    pthread_mutex_lock(&sink.lock);
    if (!ready()) {
        discard(n);
    } else if ((tc = thread_count(tid)) == NULL) {
        /* END must count exactly what the records hold: not written. */
        struct pprt_name_buf nb;
        if (!sink.threads_nomem)
            pprt_error("out of memory counting the threads of trace %s; the events of "
                       "thread %u on are not in it", pprt_name(sink.path, &nb), (unsigned)tid);
        sink.threads_nomem = true;
        discard(n);
    } else if (sink.buf == NULL) {
        tc->nevents += n;
        events_direct(tid, ev, n);
    } else {
        tc->nevents += n;
        while (n > 0 && sink.state == SINK_OPEN) {
            /* Consecutive batches of one thread extend one record. */
            if (sink.open_at == NO_RECORD || sink.open_tid != tid) {
                if (BUFFER_SIZE - sink.len < PP_TRACE_RECORD_HEADER_SIZE + 8)
                    flush();
                sink.open_at = sink.len;
                sink.open_tid = tid;
                pprt_set_u32(sink.buf + sink.len, PP_TRACE_EVENTS);
                pprt_set_u32(sink.buf + sink.len + 4, tid);
                pprt_set_u64(sink.buf + sink.len + 8, 0);
                sink.len += PP_TRACE_RECORD_HEADER_SIZE;
            }
            size_t room = (BUFFER_SIZE - sink.len) / 8, k = n < room ? n : room;
            unsigned char *length = sink.buf + sink.open_at + 8;
            put_events(sink.buf + sink.len, ev, k);
            sink.len += k * 8;
            pprt_set_u64(length, pprt_get_u64(length) + k * 8);
            ev += k;
            n -= k;
            if (BUFFER_SIZE - sink.len < 8)
                flush();
        }
    }
    pthread_mutex_unlock(&sink.lock);
}

void pp_trace_sink_thread_ended(uint32_t tid)
{
    pthread_mutex_lock(&sink.lock);
    struct thread_count *tc = thread_count(tid);
    if (tc)
        tc->flags |= PP_TRACE_THREAD_ENDED;
    pthread_mutex_unlock(&sink.lock);
}

/* -------------------------------------------------------------- finish */

/* A copy of one TU: the runtime's registry is read without our lock held
 * (see pp_trace_sink_finish), and a blob may go away once it is released. */
struct tu_copy {
    struct tu_copy *next;
    uint64_t tu_id, tu_base, fn_base, meta_len;
    unsigned char meta[];
};

struct tu_list {
    struct tu_copy *head, **tail;
    bool nomem;
};

static bool copy_tu(uint64_t tu_id, const struct pp_tu_info *tu, struct tu_list *list)
{
    struct tu_copy *c =
        tu->meta_len < SIZE_MAX - sizeof *c ? malloc(sizeof *c + (size_t)tu->meta_len) : NULL;
    if (c == NULL) {
        list->nomem = true;
        return false;
    }
    c->next = NULL;
    c->tu_id = tu_id;
    c->tu_base = tu->tu_base;
    c->fn_base = tu->fn_base; /* runtime: pp_tu_get must fill it (stream-tus.c has it) */
    c->meta_len = tu->meta_len;
    memcpy(c->meta, tu->meta, (size_t)tu->meta_len);
    *list->tail = c;
    list->tail = &c->next;
    return true;
}

/* Every TU the runtime registered, unloaded ones included (their events
 * may be in the trace).  A TU whose blob the runtime could not keep has no
 * record: its events read as unknown indices. */
static void copy_tus(struct tu_list *list)
{
    uint64_t n = pp_tu_count();
    struct pp_tu_info tu;
    for (uint64_t id = 0; id < n; id++)
        if (pp_tu_get(id, &tu) && tu.meta != NULL && !copy_tu(id, &tu, list))
            return;
}

static void free_tus(struct tu_list *list)
{
    while (list->head) {
        struct tu_copy *next = list->head->next;
        free(list->head);
        list->head = next;
    }
}

static void put_u32(uint32_t v)
{
    unsigned char b[4];
    pprt_set_u32(b, v);
    buffered(b, 4);
}

static void put_u64(uint64_t v)
{
    unsigned char b[8];
    pprt_set_u64(b, v);
    buffered(b, 8);
}

static void put_tus(const struct tu_list *list)
{
    static const unsigned char zeros[8];
    for (const struct tu_copy *c = list->head; c; c = c->next) {
        uint64_t pad = (8 - c->meta_len % 8) % 8;
        put_u32(PP_TRACE_TU);
        put_u32(0);
        put_u64(PP_TRACE_TU_FIXED + c->meta_len + pad);
        put_u64(c->tu_id);
        put_u64(c->tu_base);
        put_u64(c->fn_base);
        put_u64(c->meta_len);
        buffered(c->meta, (size_t)c->meta_len);
        buffered(zeros, (size_t)pad);
    }
}

static void put_end(void)
{
    put_u32(PP_TRACE_END);
    put_u32(0);
    put_u64(8 + (uint64_t)sink.nthreads * PP_TRACE_END_THREAD_SIZE);
    put_u64(sink.nthreads);
    for (size_t i = 0; i < sink.nthreads; i++) {
        put_u32(sink.threads[i].tid);
        put_u32(sink.threads[i].flags);
        put_u64(sink.threads[i].nevents);
    }
}

/* Trailer, fsync (PATHPROF_SYNC=1), close: 0 or an errno value with *STEP set. */
static int seal(const char **step)
{
    unsigned char trailer[8];
    int err;

    pprt_set_u64(trailer, pprt_hash64_end(&sink.hash));
    if ((err = write_held(trailer, sizeof trailer)) != 0 && relocate(err))
        err = write_held(trailer, sizeof trailer);
    if (err != 0) {
        *step = "write";
        return err;
    }
    /* A device or FIFO has nothing to make durable (and refuses fsync);
     * a file only with PATHPROF_SYNC=1, as the profile (a trace may be
     * gigabytes: fsync waits for every byte to reach the disk). */
    if (sink.tmp != NULL && pp_sync_files() && fsync(sink.fd) != 0) {
        *step = "fsync";
        return errno;
    }
    err = close(sink.fd) != 0 ? errno : 0;
    sink.fd = -1;
    *step = "close";
    return err;
}

/* TU records, END, trailer, rename: OPEN -> DONE. */
static void complete(const struct tu_list *tus)
{
    const char *step = "";
    int err;

    put_tus(tus);
    put_end();
    flush();
    if (sink.state != SINK_OPEN)
        return;
    if ((err = seal(&step)) != 0) {
        abandon(err, step);
        return;
    }
    struct pprt_name_buf n1, n2;
    const char *shown = pprt_name(sink.elsewhere ? sink.dest : sink.path, &n1);
    if (sink.tmp == NULL) {
        pprt_info("trace written to %s", shown);
    } else if (rename(sink.tmp, sink.dest) != 0) {
        /* The temporary file is complete and valid: keep it for the user. */
        int err = errno;
        pprt_error("cannot rename %s to trace %s: %s; the complete trace is left in %s",
                   pprt_name(sink.tmp, &n2), shown, strerror(err), pprt_name(sink.tmp, &n2));
    } else {
        if (pp_sync_files())
            pprt_sync_directory(sink.dest);
        pprt_info("trace written to %s", shown);
    }
    sink.state = SINK_DONE;
}

void pp_trace_sink_finish(void)
{
    struct tu_list tus = {.head = NULL, .tail = &tus.head, .nomem = false};

    /* The TU list is read before our lock is taken: the runtime may hold
     * its own lock while it waits for analyzer threads (dlclose drains
     * every channel), and those wait for ours. */
    copy_tus(&tus);

    pthread_mutex_lock(&sink.lock);
    if (sink.state == SINK_OPEN || sink.state == SINK_IDLE) {
        if (tus.nomem) {
            abandon(ENOMEM, "copy the metadata of every TU for");
        } else if (ready()) {
            complete(&tus);
        }
    }
    if (sink.state == SINK_BROKEN && sink.discarded)
        pprt_error("%llu events were discarded after the trace failed",
                   (unsigned long long)sink.discarded);
    sink.discarded = 0; /* said once */
    sink.state = sink.state == SINK_BROKEN ? SINK_BROKEN : SINK_DONE;
    free(sink.buf);
    sink.buf = NULL;
    sink.len = 0;
    sink.open_at = NO_RECORD;
    pthread_mutex_unlock(&sink.lock);
    free_tus(&tus);
}
