#!/usr/bin/env bash
# Preferential path profiling end to end (-fplugin-arg-pathprof-ppp=FILE):
# programs built with plain Ball-Larus counting and with PPP trained on
# `pathprof select` of another run give the same path counts, path for
# path, interesting ones (counted by PPP number) and the others (counted
# by Ball-Larus ID) alike; the direct edge counters of verify mode agree;
# the report says the profile is PPP; stale or bad files are refused with
# the function or line named. Programs: tests/ppp/branchy.c (1024 paths in
# mix, the input's mask picks which run) and tests/ppp/residual.c.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build

ORACLE=$TAP_ROOT/tests/ppp/oracle.pl
cp "$TAP_ROOT/tests/ppp/branchy.c" "$TAP_ROOT/tests/ppp/residual.c" "$T/"
cp "$PP_CLI_DIR"/e2e/a.c "$PP_CLI_DIR"/e2e/b.c "$PP_CLI_DIR"/e2e/h.h "$T/"
cd "$T" || exit 1
counts() { "$PP_CLI" report --json "$1" >"$1.json" && perl "$ORACLE" executed "$1.json" | sort; }

pp_cc_plain native branchy.c -O2 || BAIL_OUT "cannot build branchy.c"
for level in O0 O2; do
    pp_cc "bl-$level" branchy.c "-$level" || continue
    pp_run "train-$level.pp" "./bl-$level" 0xf
    pp_run "bl-$level.pp" "./bl-$level" 0x3ff
    for cover in 1 0.5; do
        cli_run select "train-$level.pp" --cover "$cover"
        printf '%s\n' "$OUT" >"int-$level-$cover.txt"
        pp_cc "ppp-$level-$cover" branchy.c "-$level" \
            "-fplugin-arg-pathprof-ppp=int-$level-$cover.txt" || continue
        pp_run "ppp-$level-$cover.pp" "./ppp-$level-$cover" 0x3ff
        is "$(cat "ppp-$level-$cover.pp.stdout")" "$(./native 0x3ff)" \
            "-$level --cover $cover: the PPP build computes what the program computes"
        want=$(counts "bl-$level.pp")
        got=$(counts "ppp-$level-$cover.pp")
        is "$got" "$want" "-$level --cover $cover: PPP counts == Ball-Larus counts, path for path"
        # Exactly the selected paths carry a PPP number.
        numbered=$(perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
            for my $f (@{ $d->{functions} }) { for (@{ $f->{paths} }) {
                print "$f->{name} $_->{id}\n" if defined $_->{ppp_number} } }' <"ppp-$level-$cover.pp.json" | sort)
        is "$numbered" "$(perl "$ORACLE" interesting "int-$level-$cover.txt" | awk '{ print $1, $4 }' | sort)" \
            "-$level --cover $cover: the paths with a PPP number are the interesting ones"
        cli_run report "ppp-$level-$cover.pp"
        like "$OUT" "^ppp        preferential path profile: 2 functions with [0-9]+ interesting paths; [0-9]+ runs of interesting paths counted by PPP number, [0-9]+ of other paths" \
            "-$level --cover $cover: the report says the profile is PPP"
        like "$OUT" "  mix \(branchy.c:[0-9]+\)  \[ppp\]" "-$level --cover $cover: mix is flagged ppp"
    done
done

# Trained on the run itself, every path of a PPP function is interesting:
# nothing reaches the hash tables.
cli_run select bl-O2.pp
printf '%s\n' "$OUT" >self.txt
pp_cc self branchy.c -O2 -fplugin-arg-pathprof-ppp=self.txt && pp_run self.pp ./self 0x3ff
cli_run report self.pp
like "$OUT" "^paths      40001 executed \(array updates 40001, hash updates 0\)$" \
    "trained on the same input: every run counted in the arrays"
like "$OUT" "^ppp        preferential path profile: 2 functions with 1027 interesting paths; 40001 runs of interesting paths counted by PPP number, 0 of other paths" \
    "trained on the same input: 1024 + 3 interesting paths, no other"

# ppp-scope=hash: PPP only where Ball-Larus counting would hash. With
# hash-threshold=100, mix (1024 paths) is numbered preferentially, main
# (8 paths) counts in a plain array; the counts stay those of count.
pp_cc scope branchy.c -O2 -fplugin-arg-pathprof-ppp=int-O2-0.5.txt -fplugin-arg-pathprof-ppp-scope=hash \
    -fplugin-arg-pathprof-hash-threshold=100 && pp_run scope.pp ./scope 0x3ff
is "$(counts scope.pp)" "$(counts bl-O2.pp)" "ppp-scope=hash: counts == Ball-Larus counts"
cli_run report scope.pp
like "$OUT" "  mix \(branchy.c:[0-9]+\)  \[ppp\]" "ppp-scope=hash: mix (1024 paths > 100) has PPP numbering"
like "$OUT" "  main \(branchy.c:[0-9]+\)$" "ppp-scope=hash: main (8 paths) counts in a plain array"

# Verify mode: the direct edge counters equal the edges of the PPP path
# counts (the oracle of tests/cli-e2e.t), in a two-file program.
pp_cc ab a.c -O2 b.c && pp_run ab.pp ./ab
cli_run select ab.pp --cover 0.7
printf '%s\n' "$OUT" >ab.txt
pp_cc ab-ppp a.c -O2 b.c -fplugin-arg-pathprof-ppp=ab.txt -fplugin-arg-pathprof-verify &&
    pp_run ab-ppp.pp ./ab-ppp
is "$(cat ab-ppp.pp.stdout)" "85 20" "a.c b.c: the PPP build computes what it computes"
"$PP_CLI" report --json ab-ppp.pp >ab-ppp.json
out=$(perl "$PP_CLI_DIR/edgecheck.pl" <ab-ppp.json)
ok_status $? "a.c b.c, verify: edge counts from PPP path counts == direct edge counters" || diag "$out"
is "$(counts ab-ppp.pp)" "$(counts ab.pp)" "a.c b.c: PPP counts == Ball-Larus counts"

# Atomic updates, and functions without interesting paths left alone.
pp_cc res residual.c -O2 && pp_run res.pp ./res "abc 123"
cli_run select res.pp
printf '%s\n' "$OUT" >res.txt
pp_cc res-atomic residual.c -O2 -fprofile-update=atomic -fplugin-arg-pathprof-ppp=res.txt &&
    pp_run res-atomic.pp ./res-atomic "abc XY!"
pp_run res-prod.pp ./res "abc XY!"
is "$(counts res-atomic.pp)" "$(counts res-prod.pp)" \
    "residual.c, atomic: PPP trained on the test input == Ball-Larus on production"
like "$("$PP_CLI" report res-atomic.pp)" "  classify \(residual.c:[0-9]+\)  \[atomic ppp\]" \
    "residual.c: atomic and ppp flags"
pp_cc res-none residual.c -O2 -fplugin-arg-pathprof-ppp=res.txt -fplugin-arg-pathprof-ppp-others=none &&
    pp_run res-none.pp ./res-none "abc XY!"
lacks "$("$PP_CLI" report --json res-none.pp)" '"name":"rare"' \
    "ppp-others=none: rare, without interesting paths, is not instrumented"
# Residual profiling through the PPP build trained on every tested path:
# the paths it did not count as interesting are exactly those the tests
# never ran (set difference of the two Ball-Larus profiles).
counts res.pp >/dev/null
is "$(perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
        for my $f (@{ $d->{functions} }) { my $ppp = grep { $_ eq "ppp" } @{ $f->{flags} };
            for (@{ $f->{paths} }) { print "$f->{name} $f->{file} $_->{id}\n"
                if !$ppp || !defined $_->{ppp_number} } }' <res-atomic.pp.json | sort)" \
    "$(perl "$ORACLE" only res-prod.pp.json res.pp.json | sort)" \
    "residual through PPP: paths without a PPP number == paths the tests never ran"
cli_run residual res.pp res-atomic.pp
like "$OUT" "^#[0-9]+  rare \(residual.c:[0-9]+\)  path 0$" \
    "residual: a PPP production profile against the BLPP test profile finds rare()"

# C++ exceptions: paths that end on an EH edge are counted at the
# landing pad, through the same PPP probe.
TR=$TAP_ROOT/tests/trace/programs/throw_recursive.cc
if command -v g++ >/dev/null && PP_GCC=g++ pp_cc tr "$TR" -O2 && pp_run tr.pp ./tr; then
    cli_run select tr.pp --cover 0.5
    printf '%s\n' "$OUT" >tr.txt
    PP_GCC=g++ pp_cc tr-ppp "$TR" -O2 -fplugin-arg-pathprof-ppp=tr.txt && pp_run tr-ppp.pp ./tr-ppp
    is "$(cat tr-ppp.pp.stdout)" "$(cat tr.pp.stdout)" "C++ throw_recursive: same output with PPP"
    is "$(counts tr-ppp.pp)" "$(counts tr.pp)" "C++ throw_recursive, --cover 0.5: PPP counts == Ball-Larus counts"
else
    skip "throw_recursive did not build (no g++?)" 2
fi

# ppp-uninteresting=total: the other paths of a PPP function only as a
# total. Oracle: the Ball-Larus profile of the same input; each
# interesting path keeps its count, each function's total is the sum of
# its other paths' counts there. Plain and atomic updates.
# "FUNCTION ID COUNT" of interesting paths and "FUNCTION total COUNT" per
# function, from a ppp-uninteresting=total profile (TOTAL) or worked out
# from a Ball-Larus profile (BL) and the interesting set.
split_counts() { # JSON [INTERESTING-FILE]
    perl -MJSON::PP -e 'local $/; open my $j, "<", $ARGV[0] or die; my $d = decode_json(<$j>);
        my %int; if (@ARGV > 1) { open my $i, "<", $ARGV[1] or die;
            for (split /\n/, <$i>) { s/#.*//; my @w = split; $int{"$w[0] $w[3]"} = 1 if @w == 4 } }
        for my $f (@{ $d->{functions} }) { next unless @ARGV > 1 || $f->{ppp};
            my $t = @ARGV > 1 ? 0 : $f->{ppp}{others_total};
            for (@{ $f->{paths} }) {
                if (@ARGV > 1 ? $int{"$f->{name} $_->{id}"} : defined $_->{ppp_number}) {
                    print "$f->{name} $_->{id} $_->{count}\n" } else { $t += $_->{count} } }
            print "$f->{name} total $t\n" if @ARGV > 1 ? grep({ /^\Q$f->{name}\E / } keys %int) : 1 }' "$@" | sort
}
for upd in single atomic; do
    flags=; [ $upd = atomic ] && flags=-fprofile-update=atomic
    pp_cc "total-$upd" branchy.c -O2 $flags -fplugin-arg-pathprof-ppp=int-O2-0.5.txt \
        -fplugin-arg-pathprof-ppp-uninteresting=total && pp_run "total-$upd.pp" "./total-$upd" 0x3ff
    is "$(cat "total-$upd.pp.stdout")" "$(./native 0x3ff)" "ppp-uninteresting=total, $upd: computes what the program computes"
    "$PP_CLI" report --json "total-$upd.pp" >"total-$upd.json"
    is "$(split_counts "total-$upd.json")" "$(split_counts bl-O2.pp.json int-O2-0.5.txt)" \
        "ppp-uninteresting=total, $upd: interesting counts and each function's total == Ball-Larus counts"
done
like "$("$PP_CLI" report total-single.pp)" "^paths      40001 executed \(array updates 40001, hash updates 0\)\$" \
    "ppp-uninteresting=total: no hash table"
like "$("$PP_CLI" report total-single.pp)" ", 0 of other paths in those functions by Ball-Larus ID, [1-9][0-9]* only as a total \(ppp-uninteresting=total, 2 functions\)" \
    "ppp-uninteresting=total: the report says the others are a total"
like "$(cat total-single.json)" '"others":"total","others_total":[1-9]' "ppp-uninteresting=total: JSON says so"
like "$(cat bl-O2.pp.json ppp-O2-0.5.pp.json)" '"others":"ids"' "ppp-uninteresting=ids (default): JSON says so"
# pathprof merge adds a total like a count: two runs of the total build on
# different inputs, merged, give the sum of their split counts.
pp_run "total-b.pp" "./total-single" 0x155
"$PP_CLI" report --json total-b.pp >total-b.json
"$PP_CLI" merge -o total-ab.pp total-single.pp total-b.pp 2>merge.err
is "$?:$(cat merge.err)" "0:" "ppp-uninteresting=total: pathprof merge takes the profiles"
"$PP_CLI" report --json total-ab.pp >total-ab.json
is "$(split_counts total-ab.json)" \
    "$( (split_counts total-single.json; split_counts total-b.json) |
        perl -ane '$c{"$F[0] $F[1]"} += $F[2]; END { print "$_ $c{$_}\n" for sort keys %c }' | sort)" \
    "ppp-uninteresting=total: merged interesting counts and totals are the sums of the runs'"

# Lemma 3 (the paper's Fig. 6) in a compiled program: pick()'s six trained
# paths cannot be numbered 0..5, so its interval has a hole; the three
# untrained paths (a == b) land anywhere, the hole included, and must
# still be counted by their own IDs (or in the total).
cp "$TAP_ROOT/tests/ppp/lemma3.c" .
for level in O0 O2; do
    pp_cc "l3-$level" lemma3.c "-$level" || continue
    pp_run "l3-train-$level.pp" "./l3-$level" train && pp_run "l3-all-$level.pp" "./l3-$level" all
    cli_run select "l3-train-$level.pp"
    printf '%s\n' "$OUT" >"l3-$level.txt"
    for mode in ids total; do
        pp_cc "l3-ppp-$level-$mode" lemma3.c "-$level" "-fplugin-arg-pathprof-ppp=l3-$level.txt" \
            "-fplugin-arg-pathprof-ppp-uninteresting=$mode" || continue
        pp_run "l3-ppp-$level-$mode.pp" "./l3-ppp-$level-$mode" all
        "$PP_CLI" report --json "l3-ppp-$level-$mode.pp" >"l3-ppp-$level-$mode.json"
        like "$(cat "l3-ppp-$level-$mode.json")" '"name":"pick".*"ppp":\{"size":7,"interesting":\[[0-9null,]*\]' \
            "Lemma 3, -$level, $mode: pick's 6 interesting paths take 7 numbers (a hole)"
    done
    is "$(counts "l3-ppp-$level-ids.pp")" "$(counts "l3-all-$level.pp")" \
        "Lemma 3, -$level: PPP counts == Ball-Larus counts, path for path, hole and all"
    is "$(split_counts "l3-ppp-$level-total.json")" "$(split_counts "l3-all-$level.pp.json" "l3-$level.txt")" \
        "Lemma 3, -$level, total: interesting counts and totals == Ball-Larus counts"
    like "$(split_counts "l3-ppp-$level-total.json")" "pick total 15" \
        "Lemma 3, -$level, total: pick's untrained paths ran 1 + 5 + 9 times"
done

# Bad files: the compiler stops and names what is wrong.
ppp_fails() { # NAME REGEX FILE [ARGS]
    local name=$1 re=$2 file=$3; shift 3
    if "$PP_GCC" -fplugin="$PP_PLUGIN" -fplugin-arg-pathprof-ppp="$file" "$@" -c residual.c \
        -o /dev/null 2>err.txt; then
        fail "$name" "compiled"
    else
        like "$(cat err.txt)" "$re" "$name"
    fi
}
sed 's/^\(classify [^ ]* \)0x[0-9a-f]*/\10x0123456789abcdef/' res.txt >stale.txt
ppp_fails "a changed function: error naming it and both checksums" \
    "function .classify. changed since its interesting paths were selected: stale.txt:[0-9]+ gives checksum 0x0123456789abcdef, this build has 0x[0-9a-f]{16}" \
    stale.txt -O2
sed 's/^\(classify [^ ]* 0x[0-9a-f]* \)[0-9]*/\1999999/' res.txt >badid.txt
ppp_fails "an ID the function does not have: error naming file, line and ID" \
    "badid.txt:[0-9]+: function .classify.: path ID 999999 does not exist in this build" badid.txt -O2
printf 'pathprof-interesting-paths 1\nmain residual.c 0x12 7 extra\n' >fields.txt
ppp_fails "a line with 5 fields: error naming file and line" "fields.txt:2: 5 fields, want 4" fields.txt
printf 'hello\n' >notppp.txt
ppp_fails "not an interesting-paths file" "notppp.txt:1: not an interesting-paths file" notppp.txt
ppp_fails "a missing file" "cannot read the interesting paths .nosuch.txt." nosuch.txt
ppp_fails "ppp-scope=bogus: refused, naming the argument" "bad value .bogus. for plugin argument .ppp-scope.; use .all. or .hash." \
    res.txt -fplugin-arg-pathprof-ppp-scope=bogus
ppp_fails "ppp-uninteresting=bogus: refused, naming the argument" "bad value .bogus. for plugin argument .ppp-uninteresting.; use .ids. or .total." \
    res.txt -fplugin-arg-pathprof-ppp-uninteresting=bogus
ppp_fails "ppp-uninteresting=total in stream mode: refused" "argument .ppp-uninteresting=total. works in .mode=count. only" \
    res.txt -fplugin-arg-pathprof-ppp-uninteresting=total -fplugin-arg-pathprof-mode=stream
ppp_fails "ppp-others=bogus: refused, naming the argument" "bad value .bogus. for plugin argument .ppp-others.; use .blpp. or .none." \
    res.txt -fplugin-arg-pathprof-ppp-others=bogus
done_testing
