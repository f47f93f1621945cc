#!/usr/bin/env bash
# TPP in stream mode (docs/tpp.md, "Streams"): obvious paths emit no
# event, their counters stay in memory and the blpp analyzer adds them,
# so the profile of a TPP stream build must say exactly what the
# counting-mode TPP build of the same source says on the same input
# (measured, derived and cold counts, path for path:
# tests/oracle/tppproj.pl), and pass tests/oracle/tppcheck.pl against a
# full Ball-Larus profile of the same run; the stream carries one event
# per path that is not obvious. Analyzers that need every path in order
# are refused at start-up, naming PATHPROF_ANALYZER and the TPP
# configuration; a library's in-memory counts survive its dlclose.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
. "$(dirname "$0")/tpp/lib.sh"
pp_require_build
pp_flags
SRC=$TAP_ROOT/tests/tpp/branches.c
PROJ=$TAP_ROOT/tests/oracle/tppproj.pl

# Configurations: NAME and plugin arguments; each is built in both modes.
declare -A cfg=([t50]="tpp=5,0" [t50n]="tpp=5,0 tpp-obvious=0" [t515]="tpp=5,15" [t1010]="tpp=10,10")
for level in O0 O2; do
    d=$T/$level
    mkdir -p "$d" && cp "$SRC" "$d/prog.c"
    if ! tpp_train "$d" -"$level"; then
        fail "-$level: training run with -fprofile-generate" "$(cat "$d/gen.log")"; continue
    fi
    builds='tpp_build "$d" plain -"$level" -fprofile-use ${PP_SAN_CFLAGS:-} &&
            tpp_build "$d" blpp -"$level" -fprofile-use $_pp_cflags'
    for c in "${!cfg[@]}"; do
        args=$(sed 's/\([^ ]*\)/-fplugin-arg-pathprof-\1/g' <<<"${cfg[$c]}")
        builds+=" && tpp_build \"\$d\" c$c -$level -fprofile-use \$_pp_cflags $args"
        builds+=" && tpp_build \"\$d\" s$c -$level -fprofile-use \$_pp_cflags $args -fplugin-arg-pathprof-mode=stream"
    done
    ok "-$level: builds with -fprofile-use: plain, BLPP, and TPP(5, 0) with and without obvious paths, TPP(5, 15), TPP(10, 10), each in counting and in stream mode" \
        eval "$builds"
    for in in train other; do
        (cd "$d" && ./plain "$in" >"plain-$in.out")
        for b in blpp c{t50,t50n,t515,t1010} s{t50,t50n,t515,t1010}; do
            if ! tpp_run_json "$d" "$b" "$in"; then
                fail "-$level $b $in: runs and its profile reads"; continue
            fi
            ok "-$level $b $in: same output as the plain build" diff "$d/plain-$in.out" "$d/$b-$in.out"
        done
        for c in t50 t50n t515 t1010; do
            is "$(perl "$PROJ" "$d/s$c-$in.json")" "$(perl "$PROJ" "$d/c$c-$in.json")" \
                "-$level $in: ${cfg[$c]} in stream mode: the counting build's profile (measured, derived, cold, every path)"
            tpp_check "-$level stream ${cfg[$c]} $in vs BLPP" "$d/s$c-$in.json" "$d/blpp-$in.json"
            ev=$(jget "$d/s$c-$in.json" '$j->{stream}{events}')
            want=$(jget "$d/s$c-$in.json" '$j->{paths_executed} - $j->{tpp}{derived}')
            is "$ev" "$want" "-$level $in: ${cfg[$c]} stream: one event per path run that is not obvious"
        done
        ok "-$level $in: TPP(5, 0) derives obvious paths ($(jget "$d/st50-$in.json" '$j->{tpp}{derived}'))" \
            test "$(jget "$d/st50-$in.json" '$j->{tpp}{derived}')" -gt 0
        ok "-$level $in: TPP(5, 0) has cold flow" test "$(jget "$d/st50-$in.json" '$j->{tpp}{cold}')" -gt 0
        # Two analyzer threads: blpp instances merged, the in-memory counts added once.
        (cd "$d" && cp st50 st50a2)
        tpp_run_json "$d" st50a2 "$in" PATHPROF_ANALYZERS=2 || fail "-$level st50 $in: runs with PATHPROF_ANALYZERS=2"
        is "$(perl "$PROJ" "$d/st50a2-$in.json")" "$(perl "$PROJ" "$d/ct50-$in.json")" \
            "-$level $in: TPP(5, 0) stream with two analyzer threads: the counting build's profile"
    done
done

# Analyzers that need the whole ordered sequence are refused, naming the
# variable, the analyzer and the build's configuration; nothing is
# profiled for the TU (no silently wrong k-iteration path), the program
# runs as always.
d=$T/O2
for a in ksf ksf-pruned wpp trace vpp blpp,ksf; do
    want=${a#blpp,}
    rm -f "$d/refused.prof"
    (cd "$d" && PATHPROF_ANALYZER=$a PATHPROF_OUT=$d/refused.prof PATHPROF_TRACE=$d/refused.trace \
        ./st50 other >refused.out 2>refused.err)
    ok "PATHPROF_ANALYZER=$a: TPP stream TU refused, naming analyzer $want, PATHPROF_ANALYZER and tpp=5,0" \
        grep -q "ignoring stream translation unit prog.c: it was built with -fplugin-arg-pathprof-tpp=5,0 .* analyzer $want (PATHPROF_ANALYZER)" "$d/refused.err"
    ok "PATHPROF_ANALYZER=$a: same program output" diff "$d/plain-other.out" "$d/refused.out"
    if [ -e "$d/refused.prof" ]; then
        is "$(pp_json "$d/refused.prof" | jget /dev/stdin 'scalar @{$j->{functions}}')" 0 \
            "PATHPROF_ANALYZER=$a: the profile has no function of the refused TU"
    else
        pass "PATHPROF_ANALYZER=$a: no profile (no TU registered)"
    fi
done
# A tpp build without edge profile numbers plain Ball-Larus paths: any
# analyzer takes its stream.
d=$T/noprofile
mkdir -p "$d" && cp "$SRC" "$d/prog.c"
ok "no -fprofile-use: TPP(5, 0) stream builds" eval 'tpp_build "$d" tpp -O2 $_pp_cflags -fplugin-arg-pathprof-tpp=5,0 -fplugin-arg-pathprof-mode=stream'
(cd "$d" && PATHPROF_ANALYZER=blpp,ksf PATHPROF_OUT=$d/k.prof ./tpp other >/dev/null 2>k.err)
ok "no edge profile: ksf accepted (plain Ball-Larus paths)" eval '! grep -q "ignoring stream translation unit" "$d/k.err" && test -s "$d/k.prof"'

# Threads: the obvious paths' counters are updated like counting mode's
# arrays, so update=atomic makes them exact (against a Ball-Larus stream
# of the same run, exact with threads), and a build with plain
# increments run by several threads gets a warning.
d=$T/threads
mkdir -p "$d" && cp "$TAP_ROOT/tests/tpp/threads.c" "$d/prog.c"
if tpp_train "$d" -O2 -pthread; then
    ok "threads: builds: BLPP stream, TPP(5, 0) stream with atomic and with plain updates" \
        eval 'tpp_build "$d" blpp -O2 -pthread -fprofile-use $_pp_cflags -fplugin-arg-pathprof-mode=stream &&
              tpp_build "$d" atomic -O2 -pthread -fprofile-use $_pp_cflags -fplugin-arg-pathprof-tpp=5,0 \
                  -fplugin-arg-pathprof-mode=stream -fplugin-arg-pathprof-update=atomic &&
              tpp_build "$d" single -O2 -pthread -fprofile-use $_pp_cflags -fplugin-arg-pathprof-tpp=5,0 \
                  -fplugin-arg-pathprof-mode=stream -fplugin-arg-pathprof-update=single'
    # Under TSan, the plain build's obvious-path counters race on purpose
    # (what its warning is about): told to TSan, not reported.
    echo "race:__pathprof_bases" >"$d/plain.supp"
    for b in blpp atomic single; do
        opts=${TSAN_OPTIONS:-}
        [ "$b" = single ] && [ "${PP_SANITIZE:-}" = thread ] && opts="$opts${opts:+:}suppressions=$d/plain.supp"
        (cd "$d" && TSAN_OPTIONS=$opts PATHPROF_OUT=$d/$b.prof "./$b" >"$b.out" 2>"$b.err") &&
            pp_json "$d/$b.prof" >"$d/$b.json" || fail "threads $b: runs and its profile reads"
    done
    ok "threads: same output" diff "$d/blpp.out" "$d/atomic.out"
    ok "threads: update=atomic derives obvious paths ($(jget "$d/atomic.json" '$j->{tpp}{derived}'))" \
        test "$(jget "$d/atomic.json" '$j->{tpp}{derived}')" -gt 0
    tpp_check "threads update=atomic vs BLPP stream" "$d/atomic.json" "$d/blpp.json"
    ok "threads: update=single: a warning that derived counts may be low, naming update=atomic" \
        grep -q "[0-9]* threads ran code of prog.c, whose TPP obvious paths are counted in memory with plain increments .*-fprofile-update=atomic" "$d/single.err"
    ok "threads: update=atomic: no such warning" eval '! grep -q "plain increments" "$d/atomic.err"'
else
    fail "threads: training run with -fprofile-generate" "$(cat "$d/gen.log")"
fi

# A library loaded, run, unloaded, twice: its obvious paths' counters are
# saved at dlclose, and both loads add up into one section. The same
# objects linked into a program that forks (PATHPROF_ACCUMULATE=1): the
# child counts from 0, the in-memory counters too.
d=$T/dl
mkdir -p "$d" && cp "$SRC" "$d/prog.c" && cp "$TAP_ROOT/tests/tpp/dlrun.c" "$TAP_ROOT/tests/tpp/forkrun.c" "$d/"
# lib NAME FLAGS...: DIR/prog.c into the library $d/NAME.so and, with
# forkrun.c, the program $d/NAME-fork
lib() {
    local name=$1; shift
    # shellcheck disable=SC2086
    (cd "$d" && "$PP_GCC" -O2 -fPIC -Dmain=branches_main "$@" -c prog.c -o prog.o &&
        "$PP_GCC" -shared prog.o -o "$name.so" $_pp_libs &&
        "$PP_GCC" -O2 ${PP_SAN_CFLAGS:-} forkrun.c prog.o -o "$name-fork" $_pp_libs) >"$d/$name.log" 2>&1
}
# shellcheck disable=SC2086
# dlrun keeps libpathprof loaded (--no-as-needed: it calls none of it),
# or each dlclose would unload the runtime with the library and each load
# write a profile of its own.
if (cd "$d" && "$PP_GCC" -O2 ${PP_SAN_CFLAGS:-} dlrun.c -o dlrun -ldl -Wl,--no-as-needed $_pp_libs &&
    "$PP_GCC" -O2 -fPIC -Dmain=branches_main -fprofile-generate ${PP_SAN_CFLAGS:-} -c prog.c -o prog.o &&
    "$PP_GCC" -shared -fprofile-generate ${PP_SAN_CFLAGS:-} prog.o -o gen.so && ./dlrun ./gen.so train >/dev/null) >"$d/gen.log" 2>&1; then
    ok "dlopen: libraries with -fprofile-use: BLPP, TPP(5, 0) counting and stream" \
        eval 'lib blpp -fprofile-use $_pp_cflags && lib ct50 -fprofile-use $_pp_cflags -fplugin-arg-pathprof-tpp=5,0 &&
              lib st50 -fprofile-use $_pp_cflags -fplugin-arg-pathprof-tpp=5,0 -fplugin-arg-pathprof-mode=stream'
    for b in blpp ct50 st50; do
        (cd "$d" && PATHPROF_OUT=$d/$b.prof PATHPROF_QUIET=1 ./dlrun "./$b.so" other >"$b.out") &&
            pp_json "$d/$b.prof" >"$d/$b.json" || fail "dlopen $b: runs and its profile reads"
    done
    ok "dlopen: same output" diff "$d/blpp.out" "$d/st50.out"
    is "$(perl "$PROJ" "$d/st50.json")" "$(perl "$PROJ" "$d/ct50.json")" \
        "dlopen: TPP(5, 0) stream library, loaded twice: the counting build's profile"
    ok "dlopen: derived counts of both loads ($(jget "$d/st50.json" '$j->{tpp}{derived}'))" \
        test "$(jget "$d/st50.json" '$j->{tpp}{derived}')" -gt 0
    tpp_check "dlopen stream vs BLPP" "$d/st50.json" "$d/blpp.json"
    if [ "${PP_SANITIZE:-}" = thread ]; then
        # TSan cannot start threads in a multithreaded fork's child (mk/sanitize.mk)
        skip "TSan: the stream runtime's fork child cannot restart its analyzers" 2
    else
        for b in ct50 st50; do
            rm -f "$d/$b-fork.prof"
            (cd "$d" && PATHPROF_OUT=$d/$b-fork.prof PATHPROF_ACCUMULATE=1 PATHPROF_QUIET=1 "./$b-fork" other >"$b-fork.out") &&
                pp_json "$d/$b-fork.prof" >"$d/$b-fork.json" || fail "fork $b: runs and its profile reads"
        done
        is "$(perl "$PROJ" "$d/st50-fork.json")" "$(perl "$PROJ" "$d/ct50-fork.json")" \
            "fork, PATHPROF_ACCUMULATE=1: TPP(5, 0) stream: the counting build's profile (parent and child added)"
        is "$(jget "$d/st50-fork.json" '$j->{tpp}{derived}')" "$(jget "$d/st50.json" '$j->{tpp}{derived}')" \
            "fork, PATHPROF_ACCUMULATE=1: derived counts of two runs, as the library loaded twice"
    fi
else
    fail "dlopen: training run with -fprofile-generate" "$(cat "$d/gen.log")"
fi
done_testing
