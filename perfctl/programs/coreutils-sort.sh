# shellcheck shell=bash disable=SC2034
# sort from coreutils 9.1 (Debian source package, Debian's patches): C
# with pthreads and signals. `sort --parallel=N` sorts a buffer of at
# least 128K lines with a merge tree of threads (sortlines: a thread per
# half, merge_node's mutexes, a priority queue of nodes under a mutex
# and a condition variable, MAX_MERGE lines merged per turn); the main
# thread blocks the signals it traps around every fork and temp-file
# update (cs_enter/cs_leave: pthread_sigmask) and installs its cleanup
# handlers with sigaction; --compress-program forks and execs a
# compressor per temp file and a decompressor per merge input
# (pipe_fork), and reaps them with waitpid (reap, reap_exited); -S with a
# small buffer makes temp files and multi-level merges (mergefps,
# --batch-size), -m merges sorted files, -c checks. Configured once
# (--disable-nls, no ACL, xattr, SELinux, libcap, OpenSSL or GMP);
# lib/libcoreutils.a and src/libver.a built natively, src/sort.c alone
# with the build's flags (and -pthread: atomic counting-mode counters).
#
# The workload (perfctl/programs/work.sort, run by the system's sh, every
# sort with LC_ALL=C): perfctl/programs/gen-sort.pl's lines (a field for
# each comparison kind), at least 140,000 of them at every scale so the
# threaded steps run threads: whole-line, -k keys with -t, -n, -g, -h,
# -M, -V, -f -u, -s, -r, -R --random-source (a file: deterministic), -c,
# -m, temp files with --batch-size, a compressor that is `cat`; each
# result's cksum is printed (sort's output does not depend on its
# threads). The profile is the sum over the sort processes
# (PATHPROF_ACCUMULATE=1).
#
# Scheduling. Two count runs of one binary differ in the same 7 functions
# as a count and a stream run, by how sortlines' threads met, not by what
# was computed (the outputs are the same, and compare, keycompare and
# every key function count alike: a merge compares the same pairs
# whenever it runs): the merge tree's priority queue (queue_insert,
# queue_pop, queue_check_insert and its queue_check_insert_parent,
# compare_nodes, the heap's comparison), merge_loop's turns and
# mergelines_node's, which merge at most MAX_MERGE lines a turn and stop
# when a child has no line ready yet, so the number of turns and where
# they stop follow the scheduling; at -O0 also lock_node and unlock_node
# (inlined at -O2), called once a turn. And one function that follows
# the kernel's process ids, not the threads: proctab_comparator, which
# gnulib's hash table of compressor children (bucket pid % size) calls
# on a collision only (16 and 17 calls in two -O0 runs). Not compared,
# only required to have run in both (PROG_SCHED_FUNCS). Everything else
# is compared path for path. Left over: with 1 k-SF worker and
# --ksf-chunk 16 at -O3 the ksf-w1 row (the num step alone) once failed
# because compare_nodes.part.0 ran 13 times in the count run and 0 in the
# stream one; a function on the list must run in both, and whether the
# heap ever compares two nodes in that one step is the scheduler's call.
# One of sort's own nondeterminisms is kept out of the input:
# gen-sort.pl writes no NaN (see there).
PROG_SCHED_FUNCS=queue_insert,queue_pop,queue_check_insert,queue_check_insert_parent,compare_nodes,merge_loop,mergelines_node,lock_node,unlock_node,proctab_comparator
PROG_KIND=multithreaded
PROG_DESC="sort --parallel=2/3 of gen-sort.pl lines: keys, -n -g -h -M -V -R, temp files, --compress-program (C pthreads merge tree, sigmask around forks)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" coreutils sort.c)
    SRC=$(dirname "$SRC")
    PROG_VERSION=$(basename "$SRC")
    SORT_CFG=$PERFCTL_SRC_DIR/coreutils-configured
    [ -f "$SORT_CFG/done" ] && return 0
    rm -rf "$SORT_CFG"
    mkdir -p "$SORT_CFG"
    # The autotools, makeinfo and help2man are made no-ops (Debian's
    # patches may leave their inputs newer than their outputs); only
    # src/sort and what it links are made. The native sort and the two
    # libraries are checked, not make's status.
    # src/sort is not `all`, which would make BUILT_SOURCES (gnulib's
    # generated headers: lib/fcntl.h...) first: they are made by name.
    local noop=(ACLOCAL=true AUTOMAKE=true AUTOCONF=true AUTOHEADER=true MAKEINFO=true HELP2MAN=true)
    # (perfctl.mk's $(...) is make's; the list of headers splits on purpose)
    # shellcheck disable=SC2016,SC2046,SC2015
    (cd "$SORT_CFG" && FORCE_UNSAFE_CONFIGURE=1 "$SRC/configure" --quiet CC=gcc --disable-nls --disable-acl \
            --disable-xattr --disable-libcap --without-selinux --without-openssl --without-libgmp &&
        printf 'perfctl-built-sources:\n\t@echo $(BUILT_SOURCES)\n' >perfctl.mk &&
        { make -s -j2 "${noop[@]}" $(make -s -f Makefile -f perfctl.mk "${noop[@]}" perfctl-built-sources) &&
            make -s -j2 "${noop[@]}" CFLAGS="-O2 -w" src/sort || true; }) >"$SORT_CFG/log" 2>&1
    if ! [ -f "$SORT_CFG/lib/libcoreutils.a" ] || ! [ -f "$SORT_CFG/src/libver.a" ] || ! [ -x "$SORT_CFG/src/sort" ] ||
        ! [ -f "$SORT_CFG/lib/config.h" ]; then
        echo "perfctl: coreutils-sort: configuring failed, see $SORT_CFG/log" >&2
        return 1
    fi
    touch "$SORT_CFG/done"
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1
    compile_c "$b" "$3" "-O2 -w -pthread -I$SORT_CFG -I$SORT_CFG/lib -I$SORT_CFG/src -I$SRC/lib -I$SRC/src -I$SRC" \
        "$SRC/src/sort.c" || return 1
    # shellcheck disable=SC2046
    gcc -O2 -pthread "$3"/*.o "$SORT_CFG/src/libver.a" "$SORT_CFG/lib/libcoreutils.a" -o "$2/sort" $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    local f=$1/input.$2 n
    n=$(size_of "$2" 1000000)
    [ "$n" -lt 140000 ] && n=140000
    # made once per size (FILE.n records N)
    if ! [ "$(head -c 64 "$f.n" 2>/dev/null)" = "$n" ] || ! [ -s "$f" ]; then
        perl "$ROOT/perfctl/programs/gen-sort.pl" "$n" >"$f" && echo "$n" >"$f.n" || return 1
    fi
    cp "$ROOT/perfctl/programs/work.sort" "$1/work.sort"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=(env LC_ALL=C sh "$2/work.sort" "$1/sort" "$2/input.$3")
    CMD_STDIN=/dev/null
}
