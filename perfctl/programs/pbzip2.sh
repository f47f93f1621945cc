# shellcheck shell=bash disable=SC2034
# pbzip2 1.1.13 (Debian source package, Debian's patches), parallel bzip2
# in C++ with pthreads: a producer (the main thread reads blocks into a
# queue guarded by a mutex and two condition variables), -p consumer
# threads that compress or decompress blocks (BZ2_bzBuffToBuffCompress,
# BZ2_bzDecompress), a fileWriter thread that writes them back in order,
# waits that time out (pthread_cond_timedwait through safe_cond_timed_wait,
# one-second polls), a signal-handler thread in sigwait (the main thread
# ends it with pthread_kill(SIGUSR1) at exit) and a terminator thread; the
# decompressor's BZ2StreamScanner (C++ class, std::basic_string buffers)
# searches the input for bzip2 stream headers so the streams decompress in
# parallel. libbz2 is Debian's (libbz2-dev, installed if missing): pbzip2
# only calls it and bzip2 is perfctl's own program, so pbzip2's paths are
# those of the C++ driver. Every pbzip2 file takes the build's flags with
# -pthread (atomic counting-mode counters).
#
# The workload (perfctl/programs/work.pbzip2, run by the system's sh):
# `-p4 -b1` (4 threads on 2 cores, 100 KB blocks: many jobs) of a
# gen-input file, `-p1 -b9`, `-p3 -b2 -r` (whole file read first), each
# decompressed with `-d -p4` and compared with its input; `-t -p2` of one;
# stdin to stdout on both sides (`-dc` of the concatenation of two
# results: the scanner finds every stream); standard output is the
# compressed bytes' checksums and one line per step (pbzip2's output is a
# function of the input and the block size, not of the scheduling).
# The profile is the sum over the processes (PATHPROF_ACCUMULATE=1).
#
# Scheduling. Three count runs of one binary differ among themselves in
# the same functions as a count and a stream run (and the ksf rows'
# runs), by how the threads met, not by what was computed (the output is
# the same): the lock and condition-variable wrappers (safe_mutex_lock,
# safe_mutex_unlock, safe_cond_signal, safe_cond_wait, and
# safe_cond_timed_wait, whose one-second timeouts fire as the scheduler
# pleases), the flags polled under a lock (syncGetTerminateFlag,
# syncGetProducerDone, syncGetLastGoodBlock, syncGetMinErrorBlock), the
# producers' waits for room in the queue (producer, producer_decompress,
# producerDecompressCheckInterrupt), the consumers' waits for a block
# (consumer, consumer_decompress, consumerDecompressCheckInterrupt) and
# the writer's for the next block in order (fileWriter), and
# queue::remove, which refuses a consumer the next segment of a long
# bzip2 stream until it is ready (returns 0: the consumer asks again, as
# often as the scheduler makes it; seen at --scale 0.5), and at -O0
# std::vector<outBuff>::operator[], which is not inlined there: the
# writer's poll of OutputBuffer[outBufferPos].buf in its wait loop calls
# it as often as the loop turns (two count runs at -O0: 545 and 531
# calls): not compared,
# only required to have run in both (PROG_SCHED_FUNCS, pathcmp.pl's
# --sched). queue::add and outputBufferAdd run once per block whoever
# waits (their paths take a wait or not), outputBufferSeqAddNext once per
# segment (its path: whether the previous segment has arrived): compared
# by total (PROG_CLOCK_FUNCS). Everything else is compared path for path: the
# argument and file handling, the stream scanner, the block compress and
# decompress calls, the signal-handler thread. (A pipe on stdin added
# bufread and do_read, whose read(2)s return what the writer has put in
# the pipe so far: the workload reads files.)
PROG_CLOCK_FUNCS=queue::add,outputBufferAdd,outputBufferSeqAddNext
PROG_SCHED_FUNCS='safe_mutex_lock,safe_mutex_unlock,safe_cond_signal,safe_cond_wait,safe_cond_timed_wait,syncGetTerminateFlag,syncGetProducerDone,syncGetLastGoodBlock,syncGetMinErrorBlock,producer,producer_decompress,producerDecompressCheckInterrupt,consumer,consumer_decompress,consumerDecompressCheckInterrupt,fileWriter,queue::remove,std::vector<outBuff>::operator[]'
PROG_KIND=multithreaded
PROG_DESC="pbzip2 -p4 -b1, -p1 -b9, -p3 -r, -t, stdin of gen-input files, each pbzip2 -d -p4'd (C++ pthreads: producer, consumers, writer, sigwait thread)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" pbzip2 BZ2StreamScanner.cpp)
    PROG_VERSION=$(basename "$SRC")
    mkdir -p "$PERFCTL_SRC_DIR/pbzip2-deps"
    if ! [ -f /usr/include/bzlib.h ] && ! "$ROOT/scripts/install-deps.sh" libbz2-dev >"$PERFCTL_SRC_DIR/pbzip2-deps/log" 2>&1 || ! [ -f /usr/include/bzlib.h ]; then
        echo "perfctl: pbzip2: libbz2-dev could not be installed (see $PERFCTL_SRC_DIR/pbzip2-deps/log); pbzip2 needs libbz2" >&2
        return 1
    fi
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1
    # the Makefile's flags (stack size customisation, 64-bit offsets)
    compile_c "$b" "$3" "-O2 -w -pthread -D_POSIX_PTHREAD_SEMANTICS -D_LARGEFILE64_SOURCE -D_FILE_OFFSET_BITS=64 -DUSE_STACKSIZE_CUSTOMIZATION" \
        "$SRC/pbzip2.cpp" "$SRC/BZ2StreamScanner.cpp" "$SRC/ErrorContext.cpp" || return 1
    # shellcheck disable=SC2046
    g++ -O2 -pthread "$3"/*.o -o "$2/pbzip2" -lbz2 $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    gen_input "$1/input.$2" "$(size_of "$2" 40000000)"
    cp "$ROOT/perfctl/programs/work.pbzip2" "$1/work.pbzip2"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=(sh "$2/work.pbzip2" "$1/pbzip2" "$2/input.$3")
    CMD_STDIN=/dev/null
}
