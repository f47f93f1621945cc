# shellcheck shell=bash disable=SC2034
# pigz 2.8 (Debian source package, trixie's: the archive no longer serves
# bookworm's 2.6 tarballs, only its .dsc), parallel gzip: pthreads through
# its yarn.c (locks with a condition variable each), a reader thread
# (load_read), compression threads started as jobs arrive, a writer thread
# that reorders the jobs and chains their check values; pigz -d with a
# writer and a check thread; zopfli (-11, the bundled zopfli/, built as
# Debian builds it). zlib is Debian's (zlib1g-dev, installed if missing):
# pigz only calls it (deflate, inflateBack, crc32, adler32) and zlib calls
# nothing of pigz's back, so leaving it uninstrumented loses no path of
# pigz's and keeps the paths those of the program under study. Every pigz,
# yarn, try and zopfli file takes the build's flags, with -pthread (so the
# counting-mode counters are atomic: the plugin makes them so for threaded
# code).
#
# The workload (perfctl/programs/work.pigz, run by the system's sh):
# `pigz -p 4` (more threads than the 2 cores of the machine it was written
# on, on purpose), `-p 1`, `-p 4 --independent` of a gen-input file,
# `-p 4 -11 -I 5 -b 32 -J 2` (zopfli) of a small one, each result decompressed with
# `pigz -d` and compared with its input; standard output is the compressed
# bytes (pigz's output does not depend on scheduling) and one line per step.
# The profile is the sum over the processes (PATHPROF_ACCUMULATE=1; see
# work.pigz for the analyzers that cannot add up).
#
# Scheduling. Two count runs of one binary (or a count and a stream run)
# differ in 14 functions, by how the threads met, not by what was
# computed (the output is the same): yarn.c's lock calls and waits
# (possess_, release_, twist_, wait_for_'s `until (cond) wait` loop),
# how many buffers each pool made before one came back (get_space reuses
# or makes one: new_lock_, my_malloc, alloc, free_lock_, free_pool),
# compress_thread's walk to its job's place in the write list, the
# writer's waits (write_thread), and the thread list at exit and join
# (reenter, join_). get_space and write_thread always run as often (one
# call, one loop turn per job): compared by total (PROG_CLOCK_FUNCS,
# pathcmp.pl's --totals-only). The other 12 run as often as the
# scheduler makes them: not compared at all, only required to have run
# in both (PROG_SCHED_FUNCS, --sched). Every other function (zopfli's,
# the job setup, the decompressor's) is compared path for path, -p 4 and
# all: unlike zstd and xz, the workload keeps its threads under
# PERFCTL_DETERMINISTIC=1.
PROG_CLOCK_FUNCS=get_space,write_thread
PROG_SCHED_FUNCS=possess_,release_,twist_,wait_for_,new_lock_,free_lock_,my_malloc,alloc,free_pool,compress_thread,reenter,join_
PROG_KIND=multithreaded
PROG_DESC="pigz -p 4, -p 1, --independent, -11 (zopfli) of gen-input files, each pigz -d'd (reader, compressors, writer threads)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" pigz pigz.c trixie)
    PROG_VERSION=$(basename "$SRC")
    mkdir -p "$PERFCTL_SRC_DIR/pigz-deps"
    if ! "$ROOT/scripts/install-deps.sh" zlib1g-dev >"$PERFCTL_SRC_DIR/pigz-deps/log" 2>&1 || ! [ -f /usr/include/zlib.h ]; then
        echo "perfctl: pigz: zlib1g-dev could not be installed (see $PERFCTL_SRC_DIR/pigz-deps/log); pigz needs zlib" >&2
        return 1
    fi
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1 f srcs=("$SRC/pigz.c" "$SRC/yarn.c" "$SRC/try.c")
    # zopfli's files as pigz's Makefile lists them
    for f in deflate blocksplitter tree lz77 cache hash util squeeze katajainen symbols; do
        srcs+=("$SRC/zopfli/src/zopfli/$f.c")
    done
    compile_c "$b" "$3" "-O2 -w -pthread" "${srcs[@]}" || return 1
    # shellcheck disable=SC2046
    gcc -O2 -pthread "$3"/*.o -o "$2/pigz" -lz -lm $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    local n
    n=$(size_of "$2" 40000000)
    gen_input "$1/input.$2" "$n"
    # zopfli's input: 1/200 of it, and at least two of its 32K blocks in
    # the full workload (two threads run zopfli), 8K in the small one
    # (one block: 10.8 M paths; zopfli makes ~1000 paths per byte, pigz's
    # own code around zlib a few per 1000 bytes, so the small workload's
    # traced process is the zopfli one, see work.pigz)
    local z=65536
    [ "$2" = small ] && z=8192
    gen_input "$1/zinput.$2" "$(( n / 200 > z ? n / 200 : z ))"
    cp "$ROOT/perfctl/programs/work.pigz" "$1/work.pigz"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=(sh "$2/work.pigz" "$1/pigz" "$2/input.$3" "$2/zinput.$3")
    CMD_STDIN=/dev/null
}
