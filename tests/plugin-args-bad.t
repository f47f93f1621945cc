#!/usr/bin/env bash
# Plugin arguments: an unknown argument or a bad value stops the
# compilation with an error that names the argument; good values compile.
. "$(dirname "$0")/lib/tap.sh"
[ -f "$PP_PLUGIN" ] || plan skip_all "plugin not built: $PP_PLUGIN"
printf 'int f(int x) { return x > 0 ? x : -x; }\nint main(void) { return f(-1) - 1; }\n' >"$T/a.c"

bad() {    # ARG NAME-THAT-MUST-APPEAR
    local arg=$1 name=$2 out rc
    out=$("$PP_GCC" -fplugin="$PP_PLUGIN" "-fplugin-arg-pathprof-$arg" -c "$T/a.c" -o "$T/a.o" 2>&1); rc=$?
    isnt "$rc" 0 "-fplugin-arg-pathprof-$arg: gcc fails"
    like "$out" "error.*$name|$name.*error" "-fplugin-arg-pathprof-$arg: error names '$name'"
    ok "-fplugin-arg-pathprof-$arg: no object file left" test ! -e "$T/a.o"
    rm -f "$T/a.o"
}
good() {
    local arg=$1 out rc
    out=$("$PP_GCC" -fplugin="$PP_PLUGIN" "-fplugin-arg-pathprof-$arg" -c "$T/a.c" -o "$T/a.o" 2>&1); rc=$?
    is "$rc" 0 "-fplugin-arg-pathprof-$arg: accepted" || diag "$out"
    rm -f "$T/a.o"
}

bad bogus=1 bogus
bad bogus bogus
bad max-paths=abc max-paths
bad max-paths= max-paths
bad max-paths=0 max-paths
bad max-paths=2^ max-paths
bad max-paths=12x max-paths
bad max-paths=2^999 max-paths
bad max-paths=99999999999999999999999 max-paths
bad update=sometimes update
bad update= update
bad mode=nope mode
bad mode= mode
bad hash-threshold=lots hash-threshold
bad verbose=maybe verbose
bad verify=2 verify
bad const-calls=some const-calls
bad const-calls= const-calls

good mode=count
good max-paths=65536
good 'max-paths=2^16'
good max-paths=4294967296
good update=single
good update=atomic
good hash-threshold=1
good verbose
good verbose=1
good verify
good verify=1
good const-calls=user
good const-calls=all
good 'include=main:f*'
good 'exclude=nothing*'
good 'include-file=*.c'
good 'exclude-file=*.h'
done_testing
