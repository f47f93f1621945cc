#!/usr/bin/env bash
# stream-tls.t - the stream probe's cursor (plugin/emit.cc): code of an
# executable defines __pathprof_cur and __pathprof_mask itself (weak) and
# reaches them at a constant offset from the thread pointer (local-exec);
# code of a shared library reaches the runtime's through the GOT
# (initial-exec), which the dynamic linker binds to the executable's
# definition.  One cursor per thread either way: an executable and its
# library emitting on two threads count every path as counting mode does,
# in a dynamic and in a static link (tests/stream/tls).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/stream/lib.sh"
pp_require_build
S=$STREAM_DIR/tls
pp_flags
d=$T/run
mkdir -p "$d"

# relocs OBJ: the relocation types against the cursor and the mask
relocs() {
    objdump -r "$1" | awk '$3 ~ /^__pathprof_(cur|mask)/ { print $2 " " $3 }' | sed 's/-0x[0-9a-f]*$//' | sort -u
}

build() {  # NAME MODE-FLAGS: NAME (executable) and libNAME.so
    local n=$1; shift
    # shellcheck disable=SC2086
    "$PP_GCC" $_pp_cflags "$@" -O2 -pthread -fPIC -shared "$S/lib.c" -o "$T/lib$n.so" $_pp_libs >"$T/$n.log" 2>&1 &&
        "$PP_GCC" $_pp_cflags "$@" -O2 -pthread -c "$S/main.c" -o "$T/$n.o" >>"$T/$n.log" 2>&1 &&
        "$PP_GCC" "$T/$n.o" -o "$T/$n" -L"$T" -Wl,-rpath,"$T" -l"$n" $_pp_libs -pthread >>"$T/$n.log" 2>&1 ||
        { diag "$(head -n 20 "$T/$n.log")"; return 1; }
}
pp_cc_plain "$T/plain" "$S/main.c" -O2 "$S/lib.c" -pthread &&
    build count && build stream $STREAM || BAIL_OUT "tests/stream/tls does not build"

# The object code: local-exec in the executable, initial-exec in the library.
is "$(relocs "$T/stream.o")" "R_X86_64_TPOFF32 __pathprof_cur
R_X86_64_TPOFF32 __pathprof_mask" "executable code: the cursor and mask at constant offsets (local-exec), no GOT load"
"$PP_GCC" $_pp_cflags $STREAM -O2 -fPIC -c "$S/lib.c" -o "$T/lib.o" >"$T/libo.log" 2>&1
is "$(relocs "$T/lib.o")" "R_X86_64_GOTTPOFF __pathprof_cur
R_X86_64_GOTTPOFF __pathprof_mask" "shared-library code: the runtime's cursor and mask through the GOT (initial-exec)"
like "$(nm -D "$T/stream" | grep ' __pathprof_cur$')" '^[0-9a-f]+ [VW] __pathprof_cur$' \
    "the executable exports its weak definition, which the runtime's references bind to"

# -fvisibility=hidden does not hide the definitions.
"$PP_GCC" $_pp_cflags $STREAM -O2 -fvisibility=hidden -pthread -c "$S/main.c" -o "$T/hidden.o" >"$T/hidden.log" 2>&1 &&
    "$PP_GCC" "$T/hidden.o" -o "$T/hidden" -L"$T" -Wl,-rpath,"$T" -lstream $_pp_libs -pthread >>"$T/hidden.log" 2>&1
like "$(nm -D "$T/hidden" | grep ' __pathprof_cur$')" '^[0-9a-f]+ [VW] __pathprof_cur$' \
    "-fvisibility=hidden: the definition is still exported"

n=30000
srun "$d" plain -- "$T/plain" $n
srun "$d" count -- "$T/count" $n
srun "$d" stream -- "$T/stream" $n
same_behaviour "$d" count plain "count build"
same_behaviour "$d" stream plain "stream build"
# By construction: per thread classify's three paths n/3 times each,
# lib_mix's two paths n/2 times each; two threads.
counts() {  # JSON FUNCTION: the function's path counts, sorted
    perl -MJSON::PP -e 'local $/; my $p = decode_json(<STDIN>);
        print join(" ", sort { $a <=> $b } map { $_->{count} } map { @{ $_->{paths} } }
            grep { $_->{name} eq $ARGV[0] } @{ $p->{functions} })' "$2" <"$1"
}
is "$(counts "$d/count.json" classify)" "$((2 * n / 3)) $((2 * n / 3)) $((2 * n / 3))" "count: classify's paths"
is "$(counts "$d/count.json" lib_mix)" "$n $n" "count: lib_mix's paths"
same_profile "$d" stream count "dynamic link, two threads"
is "$(sfacts "$d/stream.json" exact producers)" "true 2" "dynamic link: exact, two producer threads"
for cfg in "16-event chunks:PATHPROF_CHUNK=16" "2 analyzer threads:PATHPROF_ANALYZERS=2"; do
    label=${cfg%%:*} name=s-${label%% *}
    srun "$d" "$name" "${cfg#*:}" -- "$T/stream" $n
    same_profile "$d" "$name" count "$label"
done

# A version script that makes the definition local: the executable's
# code and the runtime then use two cursors. Not exact, and said so.
printf '{ local: __pathprof_*; };\n' >"$T/local.map"
"$PP_GCC" "$T/stream.o" -o "$T/unexported" -Wl,--version-script="$T/local.map" -L"$T" -Wl,-rpath,"$T" \
    -lstream $_pp_libs -pthread >"$T/unexported.log" 2>&1 || diag "$(cat "$T/unexported.log")"
srun "$d" unexported PATHPROF_QUIET=0 -- "$T/unexported" 300
is "$(sfacts "$d/unexported.json" exact)" "false" "cursor not exported: the profile says it is not exact"
like "$(cat "$d/unexported.err")" "does not export its __pathprof_cur" "cursor not exported: the warning names the cause"

# A static link: the executable's weak definitions and libpathprof.a's
# make one variable (no interposition needed).
if [ -n "${PP_SAN_CFLAGS:-}" ]; then
    skip "static link: sanitizer runtimes do not link statically" 2
elif ! "$PP_GCC" $_pp_cflags -O2 $STREAM "$S/main.c" "$S/lib.c" -static -o "$T/static" \
        -L"$PP_LIBDIR" -lpathprof -lurcu-memb -lck -pthread >"$T/static.log" 2>&1; then
    fail "static link builds" "$(grep -v 'Using .* in statically linked' "$T/static.log" | head -n 10)"
    skip "static link: not built" 1
else
    pass "static link builds"
    "$PP_GCC" $_pp_cflags -O2 -pthread "$S/main.c" "$S/lib.c" -o "$T/count1" $_pp_libs -pthread >"$T/count1.log" 2>&1
    srun "$d" count1 -- "$T/count1" $n
    srun "$d" static -- "$T/static" $n
    same_profile "$d" static count1 "static link, two threads"
fi
done_testing
