#!/usr/bin/env bash
# A function whose body a TU holds only for inlining while its out-of-line
# copy is another object's - a C++ extern template's member (libstdc++'s
# std::string and iostreams are declared so), a gnu_inline function
# (glibc's __extern_inline) - where that copy is a library built without
# pathprof. One caller inlines it (flatten), the other calls the library's
# copy (optimize("no-inline")). The oracle is the program itself: it ran
# 2N times. Its profile must hold that function with all 2N runs or not at
# all, never the inlined sites' N alone, and counting and streaming mode
# must agree function for function (yaml-cpp's robustness run found both:
# the inliner, moved by the probes' sizes, kept std::basic_ios's
# constructor in one mode and called libstdc++'s in the other). The same
# for the functions of such a class that the TU compiles as its own COMDAT
# copies (an implicit destructor, a member template: std::ostringstream,
# below). The control: the same template without extern (a COMDAT copy in
# this TU) is still instrumented and counted.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
command -v g++ >/dev/null || plan skip_all "no g++"
D=$TAP_ROOT/tests/cxx
N=1000

# total PROFILE NAME: the summed total of the functions named NAME ("" when none)
total() {
    pp_json "$1" | perl -MJSON::PP -e '
        my $d = decode_json(join "", <STDIN>); my ($t, $n) = (0, 0);
        for my $f (@{$d->{functions}}) { next unless $f->{name} eq $ARGV[0]; $t += $f->{total}; $n++ }
        print $n ? $t : "";' "$2"
}
# totals PROFILE: "name total" for every function, sorted
totals() {
    pp_json "$1" | perl -MJSON::PP -e '
        my $d = decode_json(join "", <STDIN>); my %t;
        $t{$_->{name}} += $_->{total} for @{$d->{functions}};
        print "$_ $t{$_}\n" for sort keys %t;'
}

# check LANG NAME FN SRC LIB: LIB natively, SRC with pathprof in both modes
check() {
    local lang=$1 name=$2 fn=$3 src=$4 lib=$5 cc=gcc m t
    [ "$lang" = c++ ] && cc=g++
    # shellcheck disable=SC2086 # PP_SAN_CFLAGS is a list of flags
    $cc -O2 $PP_SAN_CFLAGS -c "$lib" -o "$T/$name-lib.o" || { fail "$name: the library copy builds"; return; }
    for m in count stream; do
        local x=
        [ $m = stream ] && x=-fplugin-arg-pathprof-mode=stream
        # shellcheck disable=SC2086
        if ! PP_GCC=$cc pp_cc "$T/$name-$m" "$src" -O2 -I"$D" $x -fplugin-arg-pathprof-verbose "$T/$name-lib.o"; then
            fail "$name $m: builds"; continue
        fi
        pp_run "$T/$name-$m.pp" "$T/$name-$m" $N
        is "$(cat "$T/$name-$m.pp.stdout")" "$(cat "$T/$name-$m.pp.stdout" | sed 's/ran [0-9]* times/ran '$((2 * N))' times/')" "$name $m: runs"
        t=$(total "$T/$name-$m.pp" "$fn")
        if [ -z "$t" ] || [ "$t" = $((2 * N)) ]; then
            pass "$name $m: $fn counted ${t:-not at all}, never the inlined sites alone"
        else
            fail "$name $m: $fn counted $t times, ran $((2 * N))"
        fi
        is "$(total "$T/$name-$m.pp" library_calls)" $((N + 1)) "$name $m: library_calls's paths (N iterations and the exit)"
    done
    is "$(totals "$T/$name-stream.pp")" "$(totals "$T/$name-count.pp")" "$name: stream = count, function for function"
    # (C: GCC's early inliner, before our pass, takes step into the
    # flatten caller and drops the external body, so nothing is skipped)
    [ "$lang" = c++ ] && like "$(cat "$T/$name-count.log")" "not instrumented: its out-of-line copy is another object's" \
        "$name: verbose names the reason"
}

check c++ extern-template 'Acc<int>::add' "$D/extern-template.cc" "$D/acc-lib.cc"
check c gnu-inline step "$D/gnu-inline.c" "$D/gnu-inline-lib.c"

# The same class's functions that the TU compiles as COMDAT copies, with
# libstdc++ as the library: std::basic_stringbuf<char>'s implicitly
# declared destructor, std::string's member template _M_construct. Under
# these inlining limits GCC inlined ~basic_ostringstream into fmt in
# counting mode only, so ~basic_stringbuf ran 1000 times in the count
# profile and not at all in the stream one. Now neither mode instruments
# them (their class's members call libstdc++'s copies): the profile holds
# the program's two functions, equal in both modes, also with -flto
# (where the front end's class data is gone by the time our pass runs).
for lto in "" -flto; do
    for m in count stream; do
        x=
        [ $m = stream ] && x=-fplugin-arg-pathprof-mode=stream
        # shellcheck disable=SC2086
        if PP_GCC=g++ pp_cc "$T/ss-$m" "$D/stringstream.cc" -O2 $lto --param large-function-insns=100 \
            --param large-function-growth=0 $x -fplugin-arg-pathprof-verbose; then
            pp_run "$T/ss-$m.pp" "$T/ss-$m" $N
            totals "$T/ss-$m.pp" >"$T/ss-$m.totals"
            is "$(grep -E '^(fmt|main) ' "$T/ss-$m.totals")" "fmt $N
main $((N + 1))" "stringstream${lto:+ $lto} $m: the program's functions, counted as they ran"
            is "$(grep -E 'basic_string|basic_ostringstream' "$T/ss-$m.totals")" "" \
                "stringstream${lto:+ $lto} $m: no function of std::string's or the string streams' classes"
        else
            fail "stringstream${lto:+ $lto} $m: builds"
        fi
    done
    # (A sanitizer build leaves std::char_traits<char>'s inline members
    # out of line: the program's own, an explicit specialization, counted
    # alike in both modes.)
    is "$(cat "$T/ss-stream.totals")" "$(cat "$T/ss-count.totals")" "stringstream${lto:+ $lto}: stream = count, function for function"
    like "$(cat "$T/ss-count.log")" "basic_stringbuf.*not instrumented: a function of an extern template class" \
        "stringstream${lto:+ $lto}: verbose names why ~basic_stringbuf is left out"
    like "$(cat "$T/ss-count.log")" "_M_construct.*not instrumented: a function of an extern template class" \
        "stringstream${lto:+ $lto}: and std::string's member template"
done

# The control: the template without extern, a COMDAT copy in this TU,
# still instrumented. Its count holds library_calls's N out-of-line calls,
# and the flatten caller's N too unless GCC's early inliner (which runs
# before our pass, so its copies are the caller's own paths) took them.
if PP_GCC=g++ pp_cc "$T/comdat" "$D/extern-template.cc" -O2 -I"$D" -DACC_COMDAT; then
    pp_run "$T/comdat.pp" "$T/comdat" $N
    like "$(total "$T/comdat.pp" 'Acc<int>::add')" "^($N|$((2 * N)))\$" "COMDAT control: Acc<int>::add instrumented and counted"
else
    fail "COMDAT control builds"
fi
done_testing
