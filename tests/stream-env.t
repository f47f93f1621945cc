#!/usr/bin/env bash
# stream-env.t - issue 3: bad PATHPROF_* values in stream mode.
#
# docs/runtime.md ("Environment"), runtime/config.c: a PATHPROF_ name not
# in the table, or a value not accepted, prints a warning naming the
# variable, and the run goes on with the default.  tests/stream/env_prog.c
# (two threads, known counts) is run in stream mode with each bad setting.
# Checked for each:
#   - stdout and exit status as the plain build; stderr is exactly one
#     "pathprof: warning:" line per bad variable, naming it (a bad value:
#     "NAME=VALUE is not valid ... using the default"; an unknown name:
#     "unknown environment variable NAME");
#   - the profile is exact and equals the count-mode profile, the `//!
#     expect` counts hold, and the STREAM section shows the defaults
#     (policy block, analyzers blpp, 1 analyzer thread, 8192-event chunks);
# good non-default values are run too, to show those fields do follow the
# variables; and for PATHPROF_CPUS, the analyzer threads ("pathprof-anN")
# of the running process are pinned as with no PATHPROF_CPUS when the
# value is bad, and to CPU 0 when it says 0.  Last, issue 3: every
# variable of runtime/config.c's table is in docs/runtime.md's table, with
# its default.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
. "$(dirname "$0")/stream/lib.sh"
pp_require_build
SRC=$STREAM_DIR/env_prog.c

pp_cc_plain "$T/bin-plain" "$SRC" -O2 -pthread &&
    pp_cc "$T/bin-count" "$SRC" -O2 -pthread -fprofile-update=atomic &&
    pp_cc "$T/bin-stream" "$SRC" -O2 -pthread $STREAM ||
    BAIL_OUT "env_prog does not build"
d=$T/runs
mkdir -p "$d"
srun "$d" plain -- "$T/bin-plain"
srun "$d" count -- "$T/bin-count"
DEFAULTS="block blpp 1 8192"

# bad WANT-FIELDS [+]VAR=VALUE...: one run with these settings, "+" marking
# a good one; WANT-FIELDS "policy analyzers analyzer_threads chunk_events"
# (the defaults unless good variables change them)
n=0
bad() {
    local want=$1; shift
    local name=b$((++n)) settings=() v
    for v in "$@"; do settings+=("${v#+}"); done
    local tag="${settings[*]}"
    mkdir -p "$d/$name.cwd"
    # run in a directory of its own: a bad PATHPROF_OUT falls back to ./pathprof.out
    { (cd "$d/$name.cwd" && exec env PATHPROF_OUT="$d/$name.prof" PATHPROF_QUIET=1 "${settings[@]}" "$T/bin-stream" \
        >"$d/$name.out" 2>"$d/$name.err" </dev/null); } 2>/dev/null
    echo $? >"$d/$name.st"
    local prof=$d/$name.prof
    [ -e "$prof" ] || prof=$d/$name.cwd/pathprof.out
    if [ -e "$prof" ]; then
        "$PP_CLI" report --json "$prof" >"$d/$name.json" 2>"$d/$name.json.err" &&
            perl "$NORM" "$d/$name.json" >"$d/$name.norm"
    fi
    is "$(cat "$d/$name.st") $(cat "$d/$name.out")" "$(cat "$d/plain.st") $(cat "$d/plain.out")" \
        "$tag: same exit status and stdout as the plain build"
    local nbad=0 var val problems=
    for v in "$@"; do
        case $v in +*) continue ;; esac
        var=${v%%=*} val=${v#*=}
        nbad=$((nbad + 1))
        case $var in
        PATHPROF_BOGUS | PATHPROF_out)
            sed 's/ (known: .*)$//' "$d/$name.err" |
                grep -qxF "pathprof: warning: unknown environment variable $var ignored" ||
                problems="$problems; no 'unknown $var' warning" ;;
        *)
            grep -F "pathprof: warning: $var=$val is not valid (accepted: " "$d/$name.err" |
                grep -q '; using the default [^ ]*$' ||
                problems="$problems; no '$var=$val is not valid ... using the default' warning" ;;
        esac
    done
    local others
    others=$(grep -vc '^pathprof: warning: ' "$d/$name.err")
    [ "$(grep -c '^pathprof: warning: ' "$d/$name.err")" = "$nbad" ] || problems="$problems; not $nbad warning lines"
    # PATHPROF_QUIET=yes: the default 1 keeps the runtime silent, as do the others
    [ "$others" = 0 ] || problems="$problems; other stderr lines"
    if [ -z "$problems" ]; then
        pass "$tag: one warning naming each bad variable ($nbad), nothing else on stderr"
    else
        fail "$tag: one warning naming each bad variable ($nbad), nothing else on stderr" "${problems#; }" "$(cat "$d/$name.err")"
    fi
    if [ ! -s "$d/$name.norm" ]; then
        fail "$tag: a profile is written" "$(ls "$d/$name.cwd")"
        return 1
    fi
    ok "$tag: profile = the count-mode profile" diff "$d/count.norm" "$d/$name.norm"
    pp_check expect "$SRC" "$d/$name.json" O2 "$tag: "
    is "$(sfacts "$d/$name.json" exact policy analyzers analyzer_threads chunk_events)" "true $want" \
        "$tag: STREAM exact, policy analyzers threads chunk: $want"
}

bad "$DEFAULTS" PATHPROF_POLICY=sometimes
bad "$DEFAULTS" PATHPROF_POLICY=
bad "$DEFAULTS" PATHPROF_POLICY=BLOCK
bad "$DEFAULTS" PATHPROF_ANALYZERS=0
bad "$DEFAULTS" PATHPROF_ANALYZERS=abc
bad "$DEFAULTS" PATHPROF_ANALYZERS=65
bad "$DEFAULTS" PATHPROF_ANALYZERS=-1
bad "$DEFAULTS" PATHPROF_ANALYZERS=2x
bad "$DEFAULTS" PATHPROF_CHUNK=3
bad "$DEFAULTS" PATHPROF_CHUNK=8
bad "$DEFAULTS" PATHPROF_CHUNK=100
bad "$DEFAULTS" PATHPROF_CHUNK=33554432
bad "$DEFAULTS" PATHPROF_CHUNKS=1
bad "$DEFAULTS" PATHPROF_CHUNKS=1000
bad "$DEFAULTS" PATHPROF_CPUS=99
bad "$DEFAULTS" PATHPROF_CPUS=1-0
bad "$DEFAULTS" PATHPROF_CPUS=abc
bad "$DEFAULTS" PATHPROF_ANALYZER=nope
bad "$DEFAULTS" PATHPROF_ANALYZER=blpp,nope
bad "$DEFAULTS" PATHPROF_ANALYZER=
bad "$DEFAULTS" PATHPROF_TEST_ANALYZER_DELAY_NS=abc
bad "$DEFAULTS" PATHPROF_TRACE=%x
bad "$DEFAULTS" PATHPROF_OUT=%q
bad "$DEFAULTS" PATHPROF_QUIET=yes
bad "$DEFAULTS" PATHPROF_BOGUS=1
bad "$DEFAULTS" PATHPROF_out=x
bad "$DEFAULTS" PATHPROF_POLICY=sometimes PATHPROF_ANALYZERS=0 PATHPROF_CHUNK=3 PATHPROF_ANALYZER=nope PATHPROF_BOGUS=1
# good values next to bad ones: the good ones apply
bad "block blpp 2 64" +PATHPROF_ANALYZERS=2 +PATHPROF_CHUNK=64 PATHPROF_POLICY=sometimes PATHPROF_BOGUS=1
bad "block blpp,trace 1 8192" +PATHPROF_ANALYZER=blpp,trace +PATHPROF_TRACE="$d/trace.%p" PATHPROF_CHUNK=7

# PATHPROF_CPUS: where the analyzer threads of the running process may run
# affinity NAME [VAR=VALUE...]: "CPULIST..." of the pathprof-an* threads
affinity() {
    local name=$1; shift
    local w=$d/aff-$name
    mkdir -p "$w"
    env PATHPROF_OUT="$w/prof" PATHPROF_QUIET=1 "$@" "$T/bin-stream" "$w" >"$w/out" 2>"$w/err" </dev/null &
    local pid=$! i
    for ((i = 0; i < 1000; i++)); do [ -e "$w/ready" ] && break; sleep 0.01; done
    local task list=()
    for task in /proc/$pid/task/*; do
        case $(cat "$task/comm" 2>/dev/null) in
        pathprof-an*) list+=("$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$task/status")") ;;
        esac
    done
    touch "$w/go"
    wait $pid
    echo "${list[*]:-none}"
}
if [ -r /proc/self/status ] && grep -q '^Cpus_allowed_list:' /proc/self/status; then
    dflt=$(affinity default)
    like "$dflt" '^[0-9]' "PATHPROF_CPUS unset: an analyzer thread pathprof-an0 runs ($dflt)"
    is "$(affinity c99 PATHPROF_CPUS=99)" "$dflt" "PATHPROF_CPUS=99: the analyzer is placed as by default"
    is "$(affinity cabc PATHPROF_CPUS=abc)" "$dflt" "PATHPROF_CPUS=abc: the analyzer is placed as by default"
    is "$(affinity c0 PATHPROF_CPUS=0)" 0 "PATHPROF_CPUS=0: the analyzer is pinned to CPU 0"
    is "$(affinity c0a2 PATHPROF_CPUS=0 PATHPROF_ANALYZERS=2)" "0 0" "PATHPROF_CPUS=0, 2 analyzers: both pinned to CPU 0"
else
    skip "no Cpus_allowed_list in /proc" 5
fi

# "Every PATHPROF_* variable is documented in one table in docs/ with its
# default" (issue 3); docs/runtime.md: "The table lives in runtime/config.c
# (env_vars[]); keep it and this table in step."
vars=$(perl -0777 -ne 'print "$1 $2\n" while /\{"(PATHPROF_\w+)",\s*"([^"]*)"/g' "$TAP_ROOT/runtime/config.c")
like "$vars" 'PATHPROF_POLICY block' "runtime/config.c: the table of variables is found"
while read -r var dflt; do
    if grep -qF "| \`$var\` | \`$dflt\` |" "$TAP_ROOT/docs/runtime.md"; then
        pass "docs/runtime.md's table has $var with its default $dflt"
    else
        todo "docs/runtime.md's table has $var with its default $dflt" \
            "docs/runtime.md lists only PATHPROF_OUT and PATHPROF_QUIET"
    fi
done <<<"$vars"
done_testing
