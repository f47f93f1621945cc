#!/usr/bin/env bash
# A shared library's own destructors run its instrumented code (libxml2's
# xmlDestructor calls xmlCleanupParser at exit; docs/perfctl.md, libxml2's
# finding 1): each TU's pathprof destructor, which unregisters the TU
# (snapshots its counters), must run after them. It ran at the default
# priority, among the program's destructors, and before them in libxml2's
# parser.c: counting mode lost xmlDestructor's path (0 against stream
# mode's 75, whose events are attributed after unregistration). Oracle:
# the destructors' paths counted as often as they run (once per process
# or per dlclose), and stream = count path for path, for a library linked
# to the program and one dlopen'ed and dlclose'd 3 times, at -O0 and -O2.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
D=$TAP_ROOT/tests/dtor
pp_flags  # sets _pp_cflags and _pp_libs
# shellcheck disable=SC2154 # (set by pp_flags, tests/lib/tap.sh)
: "$_pp_cflags" "$_pp_libs"

# lib OUT MODEFLAGS OPT: the library, lib-fini.c linked first
lib() {
    # shellcheck disable=SC2086
    "$PP_GCC" $_pp_cflags $2 $3 -g -fPIC -shared "$D/lib-fini.c" "$D/lib-work.c" -o "$1" $_pp_libs >"$1.log" 2>&1 ||
        { diag "library build failed: $(head -n 20 "$1.log")"; return 1; }
}
for opt in -O0 -O2; do
    for m in count stream; do
        f=
        [ $m = stream ] && f=-fplugin-arg-pathprof-mode=stream
        t=$T/$m$opt
        mkdir -p "$t"
        lib "$t/libdt.so" "$f" "$opt" || { fail "$m $opt: library"; continue; }
        # shellcheck disable=SC2086
        "$PP_GCC" $_pp_cflags $f $opt -g "$D/main.c" -o "$t/linked" "$t/libdt.so" -Wl,-rpath,"$t" $_pp_libs >"$t/l.log" 2>&1 ||
            { fail "$m $opt: linked program" "$(head -n 20 "$t/l.log")"; continue; }
        # shellcheck disable=SC2086
        "$PP_GCC" $_pp_cflags $f $opt -g -DDLOPEN "$D/main.c" -o "$t/dl" -ldl $_pp_libs >"$t/d.log" 2>&1 ||
            { fail "$m $opt: dlopen program" "$(head -n 20 "$t/d.log")"; continue; }
        PATHPROF_ANALYZER=blpp pp_run "$t/linked.pp" "$t/linked"
        is "$(cat "$t/linked.pp.stdout")" 3894 "$m $opt: linked output"
        PATHPROF_ANALYZER=blpp pp_run "$t/dl.pp" "$t/dl" "$t/libdt.so" 3
        is "$(cat "$t/dl.pp.stdout")" 11682 "$m $opt: dlopen output"
        is "$(cat "$t/linked.pp.stderr" "$t/dl.pp.stderr")" "" "$m $opt: no runtime message"
        # the library's functions and their paths' sums: lib_step 100 per
        # run, lib_tidy 11 + 4 per exit or dlclose (its loop's paths from
        # the two destructors); main's own are not in question
        for r in linked:1 dl:3; do
            p=${r%:*} n=${r#*:}
            sums=$(pp_path_counts "$t/$p.pp" | perl -ne '/^((?:lib|work)_\S+) \S+ (\d+)$/ or next; $s{$1} += $2; END { print "$_=$s{$_}\n" for sort keys %s }' | tr '\n' ' ')
            is "$sums" "lib_fini=$n lib_step=$((100 * n)) lib_tidy=$((15 * n)) work_fini=$n " "$m $opt $p: the destructors' paths counted (runs: $n)"
        done
    done
    for p in linked dl; do
        c=$(pp_path_counts "$T/count$opt/$p.pp") s=$(pp_path_counts "$T/stream$opt/$p.pp")
        [ -n "$c" ] && is "$s" "$c" "$opt $p: stream = count, path for path"
    done
done
done_testing
