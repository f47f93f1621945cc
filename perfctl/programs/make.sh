# shellcheck shell=bash disable=SC2034
# GNU make 4.3 (Debian source package make-dfsg): a makefile reader
# (read.c, a variable store of hash tables, expand.c's recursive
# expansion, function.c's $(foreach), $(call), $(shell), ...), a DAG
# walker (remake.c: update_file, check_dep, the mtime comparisons),
# implicit rule search (implicit.c: pattern rules tried in order, chains
# through intermediate files), a directory cache (dir.c, which glibc's
# glob calls back through GLOB_ALTDIRFUNC for $(wildcard)), jobs (job.c:
# posix_spawn, reap_children; with -j the jobserver's pipe, pselect and
# the SIGCHLD handler child_handler), the remaking of included makefiles
# (make execs itself again) and recursive makes ($(MAKE), MAKEFLAGS and
# the jobserver passed on).
#
# The source package has no configure (the dfsg repacking drops the
# generated files): prog_prepare runs autoreconf -fi once (autoconf,
# automake and autopoint are installed if missing: Debian builds it
# the same way, dh --with autoreconf), then configure as Debian does
# (ac_cv_lib_util_getloadavg=no, --without-guile), --disable-nls, and a
# native make for the checks. make's own 29 files of src/ take the
# build's flags; gnulib's lib/libgnu.a (findprog, xmalloc, concat-filename,
# fcntl, ...) is make's plumbing and is built once, natively (our objects
# come first on the link line). glob and fnmatch are glibc's (configure
# takes them: lib/glob.c is not in libgnu.a).
#
# One change, in every build alike (native included): dir.c's table of
# directory contents is keyed by (st_dev, st_ino), and its hash functions
# and comparison read the inode number. Every run of the workload copies
# the tree afresh, so the inodes, and with them which directories collide
# in the table (hash_find_slot's probe loop, directory_contents_hash_2)
# and the order directory_contents_hash_cmp's MAKECMP branches on, change
# from run to run (the first O0 matrix: stream and sampling failed by 2
# paths in those three functions; docs/perfctl.md, "make", finding 2).
# A copy of dir.c hashes every directory to one chain (the two hash
# functions return constants) and compares for equality only (!=, not
# MAKECMP's order): the table finds the same entries (hash.c only tests
# the comparison against 0), through probes that follow the order the
# directories were met in. The workload has about 15 directories.
#
# Processes. make runs every command through posix_spawn (no instrumented
# code runs in a child before its exec), so the make processes of a run
# are the ones the workload starts, the ones make starts again after
# remaking an included makefile (an exec: the runtime's exec wrapper
# writes the profile first, docs/runtime.md), and the recursive makes
# ($(MAKE) -C sub1 and sub2, two at once under -j2). The wrapper sets
# PATHPROF_ACCUMULATE=1, so the profile is the sum over all of them;
# runs whose PATHPROF_ANALYZER names trace or ksf-pruned keep one
# process's profile and trace (as grep.sh's), the last to write: the last
# step of work.make is a serial make whose profile is written last.
#
# Scheduling. -j2 makes what make does between two reaped children
# depend on which child ended first: the jobserver's token reads
# (jobserver_acquire: pselect returns, or is interrupted by SIGCHLD),
# child_handler's calls, reap_children's turns, how many passes
# update_goal_chain makes over the goals and how often it walks each
# target's prerequisites before one is done (update_file, update_file_1,
# check_dep, ...). Those functions are in PROG_SCHED_FUNCS (compared only
# as having run in both profiles, pathcmp.pl --sched); see docs/perfctl.md
# "make" for the list and how it was found. Every other function is
# compared path for path.
PROG_SCHED_FUNCS=jobserver_acquire,jobserver_pre_acquire,make_job_rfd,fd_noinherit,jobserver_release,jobserver_signal,child_handler,load_too_high,reap_children,free_child,new_job,start_waiting_job,start_waiting_jobs,start_job_command,child_execute_job,construct_command_argv_internal,get_bad_stdin,set_command_state,update_goal_chain,update_file,update_file_1,check_dep
PROG_KIND=build-tool
PROG_DESC="sh work.make: make over gen-make.pl's tree (DAG, pattern rules, functions, included makefiles remade, -n, -q, -k, -j2, recursive makes; profile summed over every make)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" make-dfsg remake.c)
    SRC=$(dirname "$SRC")
    PROG_VERSION=$(basename "$SRC")
    MAKE_CFG=$PERFCTL_SRC_DIR/make-configured
    [ -f "$MAKE_CFG/done" ] && [ -f "$MAKE_CFG/patched/dir.c" ] && return 0
    rm -rf "$MAKE_CFG"
    mkdir -p "$MAKE_CFG"
    if ! "$ROOT/scripts/install-deps.sh" autoconf automake autopoint >"$MAKE_CFG/deps.log" 2>&1 ||
        ! command -v autoreconf >/dev/null; then
        echo "perfctl: make: autoconf, automake and autopoint could not be installed (see $MAKE_CFG/deps.log)" >&2
        return 1
    fi
    if ! { { [ -x "$SRC/configure" ] || (cd "$SRC" && autoreconf -fi); } >"$MAKE_CFG/log" 2>&1 &&
        (cd "$MAKE_CFG" && ac_cv_lib_util_getloadavg=no "$SRC/configure" --quiet CC=gcc --disable-nls \
            --without-guile && make -s -j2 CFLAGS="-O2 -w") >>"$MAKE_CFG/log" 2>&1; }; then
        echo "perfctl: make: configuring failed, see $MAKE_CFG/log" >&2
        return 1
    fi
    local f
    for f in src/config.h lib/libgnu.a make; do
        [ -e "$MAKE_CFG/$f" ] || { echo "perfctl: make: configuring failed (no $f), see $MAKE_CFG/log" >&2; return 1; }
    done
    # what the header says configure chose: posix_spawn for the jobs,
    # pselect for the jobserver, no guile
    for f in USE_POSIX_SPAWN HAVE_PSELECT; do
        grep -q "^#define $f 1" "$MAKE_CFG/src/config.h" ||
            { echo "perfctl: make: configure did not define $f (see $MAKE_CFG/src/config.h)" >&2; return 1; }
    done
    if grep -q '^#define HAVE_GUILE' "$MAKE_CFG/src/config.h"; then
        echo "perfctl: make: configure enabled guile" >&2
        return 1
    fi
    # dir.c's directory table without the inode number (see the header):
    # the only non-VMS, non-Windows lines of its hash and compare functions
    mkdir -p "$MAKE_CFG/patched"
    sed -e 's/^  hash = ((unsigned int) key->dev << 4) ^ (unsigned int) key->ino;$/  hash = 0; \/* perfctl: no inode *\//' \
        -e 's/^  hash = ((unsigned int) key->dev << 4) ^ (unsigned int) ~key->ino;$/  hash = 1; \/* perfctl: no inode *\//' \
        -e 's/^  result = MAKECMP(x->ino, y->ino);$/  result = x->ino != y->ino; \/* perfctl: no inode *\//' \
        -e 's/^  return MAKECMP(x->dev, y->dev);$/  return x->dev != y->dev; \/* perfctl: no inode *\//' \
        "$SRC/src/dir.c" >"$MAKE_CFG/patched/dir.c"
    if [ "$(grep -c 'perfctl: no inode' "$MAKE_CFG/patched/dir.c")" != 4 ] || grep -q 'MAKECMP(x->ino, y->ino)' "$MAKE_CFG/patched/dir.c"; then
        echo "perfctl: make: dir.c's directory hash functions are not as expected" >&2
        return 1
    fi
    touch "$MAKE_CFG/done"
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1 f srcs=()
    # make_SRCS of Makefile.am for a POSIX host without guile or remote
    # jobs (remote-stub.c), guile.c's stubs included
    for f in ar arscan commands default expand file function getopt getopt1 guile hash implicit job load \
        loadapi main misc output posixos read remake remote-stub rule signame strcache variable version vpath; do
        srcs+=("$SRC/src/$f.c")
    done
    srcs+=("$MAKE_CFG/patched/dir.c")
    compile_c "$b" "$3" "-O2 -w -DHAVE_CONFIG_H -I$MAKE_CFG/src -I$SRC/src -I$MAKE_CFG/lib -I$SRC/lib \
-DLIBDIR=\"/usr/local/lib\" -DINCLUDEDIR=\"/usr/local/include\" -DLOCALEDIR=\"/usr/local/share/locale\"" \
        "${srcs[@]}" || return 1
    # shellcheck disable=SC2046
    gcc -O2 "$3"/*.o "$MAKE_CFG/lib/libgnu.a" -o "$2/make" $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    local n
    # 2000 sources at scale 1 (the sub-projects an eighth each); at least
    # 60, so the small workload keeps every kind of target
    n=$(size_of "$2" 2000)
    [ "$n" -ge 60 ] || n=60
    if ! [ "$(cat "$1/tree.$2/n" 2>/dev/null)" = "$n" ]; then
        perl "$ROOT/perfctl/programs/gen-make.pl" "$1/tree.$2" "$n" || return 1
        # (the generator empties the directory first; n is not in the tree
        # make reads: cp -a copies it, make never looks at it)
        echo "$n" >"$1/tree.$2/n"
    fi
    cp "$ROOT/perfctl/programs/work.make" "$1/work.make"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    # shellcheck disable=SC2016 # the wrapper's own expansions
    CMD=(/bin/sh -c 'case ",${PATHPROF_ANALYZER-}," in
            *,trace,*|*,ksf-pruned,*) ;;
            *) PATHPROF_ACCUMULATE=1; export PATHPROF_ACCUMULATE ;;
        esac
        exec "$@"' make-wrapper
        env LC_ALL=C /bin/sh "$2/work.make" "$1/make" "$2/tree.$3")
    CMD_STDIN=/dev/null
}
