#!/usr/bin/env bash
# tests/oracle/samepaths.pl, the path-for-path oracle of loop-counts.t and
# stream-loop-runs.t, on a function with two copies (a header's static
# function compiled into two TUs with different CFGs, tests/oracle/copies)
# in profiles accumulated over three runs (PATHPROF_ACCUMULATE=1), in
# counting mode and in stream mode: the two documents list the copies in
# different orders, and the script must still find them equal (it paired
# copies by their order and reported 16 paths that differ); a count one
# off in one copy must make it fail.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
cd "$T" || BAIL_OUT "no temp dir"
D=$TAP_ROOT/tests/oracle/copies
SP=$TAP_ROOT/tests/oracle/samepaths.pl

pp_cc count "$D/main.c" -O2 -I"$D" "$D/a.c" "$D/b.c" &&
    pp_cc stream "$D/main.c" -O2 -I"$D" "$D/a.c" "$D/b.c" -fplugin-arg-pathprof-mode=stream ||
    BAIL_OUT "cannot build tests/oracle/copies"
for b in count stream; do
    for run in 1 2 3; do
        PATHPROF_ACCUMULATE=1 PATHPROF_ANALYZER=blpp PATHPROF_OUT=$T/$b.pp "./$b" >"$b.out" 2>"$b.err"
    done
    ok "$b: three runs added to one profile, without a word on stderr" [ ! -s "$b.err" ]
    pp_json "$b.pp" --top 1000 >"$b.json"
done
copies=$(perl -MJSON::PP -0777 -ne 'print scalar grep { $_->{name} eq "f" } @{decode_json($_)->{functions}}' count.json)
is "$copies" 2 "the counting profile holds two copies of f"
perl "$SP" count.json stream.json >cmp.out
is "$?" 0 "samepaths.pl: counting and stream mode equal path for path, copies told apart by checksum" 
perl -MJSON::PP -0777 -ne 'my $d = decode_json($_);
    for my $fn (@{$d->{functions}}) { next unless $fn->{name} eq "f"; $fn->{paths}[0]{count}++; last }
    print JSON::PP->new->canonical->encode($d)' stream.json >off.json
perl "$SP" count.json off.json >off.out
is "$?" 1 "samepaths.pl: one count one off in one copy of f is a difference"
like "$(cat off.out)" 'copy\.h:f:0x[0-9a-f]+ path [0-9]+: ' "samepaths.pl: it names the copy by file, function and checksum"
done_testing
