#!/usr/bin/env bash
# stream-attrs.t - issue 11, fault 0: callees that GCC is told (const,
# pure, const+leaf, leaf, malloc, a const function pointer) or finds
# (a const function excluded from instrumentation) leave memory alone, each
# instrumented in another translation unit than its callers
# (tests/stream/attrs).  GCC once kept the caller's event cursor in a
# register across such a call and overwrote the callee's events: stream
# mode lost them and said "exact".  The oracle is counting mode, path for
# path, at -O0, -O2 and -O3 with LTO; the program's output is the plain
# build's.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
. "$(dirname "$0")/stream/lib.sh"
pp_require_build
A=$STREAM_DIR/attrs
SRCS=("$A/rev.c" "$A/tab.c")
EXCL=-fplugin-arg-pathprof-exclude=outer
N=200000

d=$T/run
mkdir -p "$d"
for opt in "-O0" "-O2" "-O3 -flto"; do
    tag=${opt// /}
    # shellcheck disable=SC2086
    if ! { pp_cc_plain "$T/plain$tag" "$A/main.c" $opt "${SRCS[@]}" &&
        pp_cc "$T/count$tag" "$A/main.c" $opt $EXCL "${SRCS[@]}" &&
        pp_cc "$T/stream$tag" "$A/main.c" $opt $EXCL $STREAM "${SRCS[@]}"; }; then
        fail "$opt: the attrs program builds plain, counting and stream"
        continue
    fi
    srun "$d" "plain$tag" -- "$T/plain$tag" $N
    srun "$d" "count$tag" -- "$T/count$tag" $N
    srun "$d" "stream$tag" PATHPROF_ANALYZER=blpp -- "$T/stream$tag" $N
    same_behaviour "$d" "count$tag" "plain$tag" "$opt counting"
    same_behaviour "$d" "stream$tag" "plain$tag" "$opt stream"
    same_profile "$d" "stream$tag" "count$tag" "$opt stream = counting"
    is "$(sfacts "$d/stream$tag.json" exact late)" "true 0" "$opt stream: exact, no late event"
    # The callees must be there at all: a profile that lost them both ways
    # would still compare equal.  Loop-free callees run one path a call.
    is "$(perl -MJSON::PP -e 'local $/; my $p = decode_json(<STDIN>); my %c;
            $c{$_->{name}} += $_->{total} for @{ $p->{functions} };
            print join(" ", map { "$_=" . ($c{$_} // "none") } qw(classify pool_get mix rev_both outer)),
                (grep { !$c{$_} } qw(rev tab_sum parity)) ? " some loop callee never ran" : ""' \
            <"$d/count$tag.json")" \
        "classify=$N pool_get=$N mix=$N rev_both=$((2 * N)) outer=none" \
        "$opt counting: each callee ran once a call, outer not instrumented"
done

# Declared in a system header (-isystem), the callees are left alone by
# default (the C library's const functions are never instrumented), and
# const-calls=all takes them in: stream = counting again.  main.c is
# copied so that its "attrs.h" is found through -isystem only.
S=$T/sys
mkdir -p "$S/inc" && cp "$A/attrs.h" "$S/inc/" && cp "$A/main.c" "$S/"
verbose_notes() {   # EXTRA-ARGS...: the callees the plugin's notes name
    "$PP_GCC" -fplugin="$PP_PLUGIN" -fplugin-arg-pathprof-verbose "$@" -O2 \
        -c "$S/main.c" -o "$T/notes.o" 2>&1 |
        sed -n "s/.*pathprof: .\(.*\). is no longer treated as const or pure.*/\1/p" |
        sort | tr '\n' ' '
}
is "$(verbose_notes -I"$S/inc")" "classify outer rev rev_both tab_sum " \
    "verbose: main.c's const and pure callees are named (leaf and malloc alone are left)"
is "$(verbose_notes -isystem "$S/inc")" "outer " \
    "-isystem: by default only outer, defined in main.c (rev_both, defined in the header, is instrumented here and so changed where it is instrumented)"
is "$(verbose_notes -isystem "$S/inc" -fplugin-arg-pathprof-const-calls=all)" \
    "classify outer rev rev_both tab_sum " \
    "-isystem with const-calls=all: the same callees as without -isystem"
if pp_cc "$T/sys-count" "$S/main.c" -O2 -isystem "$S/inc" -fplugin-arg-pathprof-const-calls=all "${SRCS[@]}" &&
    pp_cc "$T/sys-stream" "$S/main.c" -O2 -isystem "$S/inc" -fplugin-arg-pathprof-const-calls=all $STREAM "${SRCS[@]}"; then
    srun "$d" sys-count -- "$T/sys-count" $N
    srun "$d" sys-stream PATHPROF_ANALYZER=blpp -- "$T/sys-stream" $N
    same_profile "$d" sys-stream sys-count "-isystem, const-calls=all: stream = counting"
else
    fail "-isystem, const-calls=all: stream = counting (builds)"
fi
done_testing
