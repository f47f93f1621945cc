#!/usr/bin/env bash
# Hash-mode counts with the inline probe (plugin/hash-probe.cc): a path end
# of a hash-mode function adds in the table itself when the path's key is
# in its home entry, and calls the runtime otherwise (first counts,
# collisions, growth).  tests/hash/paths4096.c's decide() has 4096 paths,
# counted in a hash table here (hash-threshold=1), each run a number of
# times known by construction; the table grows from 128 entries to 8192
# on the way, and path 0 (key 1) runs too.  Checked:
#   - every path's count, one thread and four (the atomic add), and a
#     signal handler counting the same function in the main thread;
#     wide()'s 2^23 paths, each run several times in a row (stream mode's
#     blpp analyzer hashes them too, and counts runs through its memo of
#     the last slot: analyzers/common/count-map.h);
#   - the counts equal stream mode's (an independent oracle: each event
#     counted by the blpp analyzer), path for path, and a sampled build's
#     at PATHPROF_SAMPLE=1/1 (its instrumented copy has the same probe);
#   - the probe is inline (decide() itself reads __libc_single_threaded);
#   - the first count of the function, which installs its table, is made
#     in a signal handler (the runtime's allocation is mmap, not malloc);
#   - under ThreadSanitizer (whose builds call the runtime instead: it
#     would see the probe's loads race with a runtime it does not
#     instrument), four threads count without a report.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
cd "$T" || exit 1
cp "$TAP_ROOT/tests/hash/paths4096.c" .

# want THREADS: decide()'s counts, sorted (4096 of them)
want() {
    awk -v t="$1" 'BEGIN { if (t == 0) t = 1;
        for (x = 0; x < 4096; x++) print t * (x % 7 + 1) + (x == 4095 ? 100 : 0) }' | sort -n | tr '\n' ' '
}
# want_wide THREADS: wide()'s counts, sorted
want_wide() {
    awk -v t="$1" 'BEGIN { if (t == 0) t = 1; for (x = 0; x < 4096; x++) print t * (x % 5 + 1) }' |
        sort -n | tr '\n' ' '
}
# counts_of PROFILE [FUNCTION]: decide()'s (or FUNCTION's) counts, sorted
counts_of() {
    pp_path_counts "$1" | awk -v f="${2:-decide}" '$1 == f { print $3 }' | sort -n | tr '\n' ' '
}

pp_cc_plain native paths4096.c -O2 -pthread || BAIL_OUT "cannot build paths4096.c"
./native 4 >native.out

for level in O0 O2; do
    pp_cc hash-$level paths4096.c -$level -pthread -fplugin-arg-pathprof-hash-threshold=1 ||
        BAIL_OUT "cannot build paths4096.c in hash mode at -$level"
    for t in 0 4; do
        pp_run h$level-$t.pp "./hash-$level" $t
        ok "-$level, $t threads: runs clean" [ ! -s h$level-$t.pp.stderr ]
        [ "$t" = 4 ] && is "$(cat h$level-$t.pp.stdout)" "$(cat native.out)" "-$level, 4 threads: the program computes what it computes"
        f=$(pp_fn_flags h$level-$t.pp decide)
        like "$f" "hash" "-$level, $t threads: decide() counts in a hash table (flags $f)"
        is "$(counts_of h$level-$t.pp)" "$(want $t)" "-$level, $t threads: every path's count is the one known by construction"
        is "$(counts_of h$level-$t.pp wide)" "$(want_wide $t)" "-$level, $t threads: wide()'s too (2^23 paths)"
    done
    if [ "${PP_SANITIZE:-}" = thread ]; then
        # Under TSan the plugin calls the runtime instead (plugin/hash-probe.cc:
        # TSan cannot see the inline probe's synchronisation).
        ok "-$level, TSan: the probe calls the runtime (decide() calls __pathprof_hash_count)" \
            sh -c "objdump -d --no-show-raw-insn hash-$level | awk '/<decide>:/,/^\$/' | grep -q __pathprof_hash_count"
    else
        ok "-$level: the probe is inline (decide() reads __libc_single_threaded)" \
            sh -c "objdump -d --no-show-raw-insn hash-$level | awk '/<decide>:/,/^\$/' | grep -q __libc_single_threaded"
    fi
done

# Stream mode, the same build flags: path for path the same counts.
pp_cc stream paths4096.c -O2 -pthread -fplugin-arg-pathprof-mode=stream || BAIL_OUT "cannot build the stream build"
PATHPROF_ANALYZER=blpp pp_run s.pp ./stream 4
is "$(pp_path_counts hO2-4.pp | awk '$1 == "decide"')" "$(pp_path_counts s.pp | awk '$1 == "decide"')" \
    "-O2, 4 threads: hash-mode counts equal stream mode's, path for path"
# wide()'s 2^23 paths are more than the blpp analyzer's arrays take: it
# hashes them, runs of one path through its memo of the last slot.
is "$(pp_path_counts hO2-4.pp | awk '$1 == "wide"')" "$(pp_path_counts s.pp | awk '$1 == "wide"')" \
    "-O2, 4 threads: wide()'s counts equal stream mode's (hashed by the analyzer too), path for path"
is "$(counts_of s.pp wide)" "$(want_wide 4)" "stream mode: wide()'s counts are the ones known by construction"

# The sampled build's instrumented copy has the same probe: at 1/1 (every
# path in a burst) its counts equal counting mode's.
pp_cc sampled paths4096.c -O2 -pthread -fplugin-arg-pathprof-hash-threshold=1 \
    -fplugin-arg-pathprof-sampling=yes || BAIL_OUT "cannot build the sampled build"
PATHPROF_SAMPLE=1/1 pp_run sa.pp ./sampled 0
is "$(counts_of sa.pp)" "$(want 0)" "sampling=yes at 1/1: every path's count is the one known by construction"

echo 'int main(void){return 0;}' >probe.c
if [ -n "$PP_SANITIZE" ] && [ "$PP_SANITIZE" != thread ]; then
    skip "a TSan program cannot load this SANITIZE=$PP_SANITIZE suite's libpathprof.so" 2
elif gcc -fsanitize=thread probe.c -o probe 2>/dev/null && ./probe 2>/dev/null; then
    pp_cc tsan paths4096.c -O1 -pthread -fsanitize=thread -fplugin-arg-pathprof-hash-threshold=1 ||
        BAIL_OUT "cannot build paths4096.c with -fsanitize=thread"
    pp_run t.pp ./tsan 4
    is "$(grep -c 'WARNING: ThreadSanitizer' t.pp.stderr)" 0 "TSan, 4 threads in one hash table: no race report"
    is "$(counts_of t.pp)" "$(want 4)" "TSan, 4 threads: every path's count is exact"
else
    skip "gcc cannot build or run -fsanitize=thread programs here" 2
fi
done_testing
