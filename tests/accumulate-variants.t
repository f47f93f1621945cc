#!/usr/bin/env bash
# One source file compiled several ways into several programs (zlib's
# static and shared builds with and without -fPIC, a C test compiled
# again as C++), all accumulating into one profile (docs/runtime.md,
# "Many processes"): no run is refused as "another build"; the copies of a
# function whose CFGs differ stay side by side, each with exactly the
# counts its own runs gave, labelled by what tells its build from the
# others' (report, JSON, HTML); `pathprof merge` of such profiles keeps
# them apart the same way.  A rebuild after an edit is still another
# build (tests/runtime-accumulate.t, tests/cli-merge.t).
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
ORACLE=$TAP_ROOT/tests/merge/counts.pl
SRC=$TAP_ROOT/tests/merge/work.c
cd "$T" || exit 1
cp "$SRC" work.c
# plain; -DVARIANT (step() has one more branch); -fPIC (same CFGs as
# plain here); as C++ (main's CFG differs: the C++ front end's return
# path; -x c++ last, so that it applies to work.c, which pp_cc puts last;
# -lstdc++ because gcc, unlike g++, does not link it, and a sanitizer
# build's C++ objects need its personality routine)
pp_cc "$T/plain" work.c -O2 && pp_cc "$T/variant" work.c -O2 -DVARIANT &&
    pp_cc "$T/pic" work.c -O2 -fPIC && pp_cc "$T/cxx" work.c -O2 -lstdc++ -x c++ ||
    BAIL_OUT "cannot build work.c four ways"

for v in plain variant pic cxx; do
    PATHPROF_OUT=$T/$v.one "$T/$v" 3000 >/dev/null && "$PP_CLI" report --json "$v.one" >"$v.json" ||
        BAIL_OUT "single run of $v"
done

# Each program twice, alternating, into one file.
: >acc.err
for round in 1 2; do
    for v in plain variant pic cxx; do
        PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/acc.pp "$T/$v" 3000 >/dev/null 2>>acc.err ||
            echo "$v exit $?" >>acc.err
    done
done
is "$(cat acc.err)" "" "eight runs of four builds: all exit 0, none refused or warned about"
is "$(ls acc.pp* | tr '\n' ' ')" "acc.pp acc.pp.lock " "no run's profile went beside the accumulated one"
"$PP_CLI" report --json acc.pp >acc.json 2>rep.err
is "$?:$(cat rep.err)" "0:" "the accumulated profile reads, no warning"
is "$(perl "$ORACLE" bl acc.json)" "$(perl "$ORACLE" bl x2 plain.json variant.json pic.json cxx.json)" \
    "every path of every copy counted exactly twice its single run's"

# Which copies there are: step twice (VARIANT), main twice (C, C++), and
# -fPIC's copies merged with plain's (same CFG checksums).
funcs() { perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
    print join("|", map { "$_->{name} " . ($_->{variant} // "-") } @{ $j->{functions} }), "\n"' <"$1" | tr '|' '\n' | LC_ALL=C sort; }
is "$(funcs acc.json)" "$(printf '%s\n' 'main as GNU C++17, with -D_GNU_SOURCE' 'main as GNU C17' \
    'step with -DVARIANT' 'step without -DVARIANT' | LC_ALL=C sort)" \
    "JSON: two builds of main and of step, each with its label"
"$PP_CLI" report acc.pp >acc.txt
like "$(grep -c 'step (work.c:[0-9]*) \[with -DVARIANT\]' acc.txt)" "^[1-9]" "report: the -DVARIANT copy is named so"
like "$(grep -c 'step (work.c:[0-9]*) \[without -DVARIANT\]' acc.txt)" "^[1-9]" "report: the other copy of step too"
is "$(perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
    print join(",", sort map { $_->{total} } grep { $_->{name} eq "step" } @{ $j->{functions} })' <acc.json)" \
    "18000,6000" "step: 18000 calls in the plain, -fPIC and C++ copy (one CFG), 6000 in the -DVARIANT one"
build_of() { perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
    for (@{ $j->{functions} }) { print "$_->{build}\n" if $_->{name} eq "step" && ($_->{variant} // "") eq $ARGV[0] }' "$1" <acc.json; }
is "$(build_of 'with -DVARIANT' | sed -n '1p;2p;/^-DVARIANT$/p;/^-O2$/p' | tr '\n' ' ')" \
    "GNU C17 work.c -DVARIANT -O2 " "JSON: a copy's build line (language, file, options as given)"
is "$(build_of 'with -DVARIANT' | grep -cE 'plugin|^-o|dumpbase|^-W|^-quiet')" 0 \
    "the build line leaves out the plugin, outputs, warnings"

# HTML: the index and the function's section carry the label.
"$PP_CLI" html -o site acc.pp 2>html.err
is "$?:$(cat html.err)" "0:" "html of the accumulated profile"
like "$(grep -ho 'step <span class="note">\[with -DVARIANT\]</span>' site/*.html | sort -u)" "with -DVARIANT" \
    "HTML: the label beside the name"

# pathprof diff pairs each build with its own build in the other profile.
"$PP_CLI" diff plain.one acc.pp >diff.txt 2>diff.err
is "$?:$(cat diff.err)" "0:" "diff of a plain run against the accumulated profile"
is "$(grep -c 'CODE CHANGED' diff.txt)" 0 "diff: the plain step() pairs with its own build, not with the -DVARIANT one"
like "$(grep "^functions" diff.txt)" "4 ran: 2 in both, 2 new in B, 0 gone from B, 0 with changed code" "diff: main and step in both, the C++ main and the -DVARIANT step new in B"
like "$(grep -E 'step \(work.c:[0-9]+\) \[with -DVARIANT\]  NEW$' diff.txt)" "NEW" "diff: the -DVARIANT step is the new one, named by its label"
"$PP_CLI" diff variant.one acc.pp >diff2.txt
is "$(grep -c 'CODE CHANGED' diff2.txt)" 0 "diff of the -DVARIANT run: no code change either"

# pathprof merge of single runs of two builds: kept apart the same way.
"$PP_CLI" merge -o pv.pp plain.one variant.one 2>merge.err
is "$?:$(cat merge.err)" "0:" "merge of the plain and -DVARIANT runs: accepted, silent"
"$PP_CLI" report --json pv.pp >pv.json
is "$(perl "$ORACLE" bl pv.json)" "$(perl "$ORACLE" bl plain.json variant.json)" \
    "merge: each copy's counts are its own run's"

# k-iteration paths of stream-mode builds: also kept apart.
pp_cc "$T/s-plain" work.c -O2 -fplugin-arg-pathprof-mode=stream &&
    pp_cc "$T/s-variant" work.c -O2 -DVARIANT -fplugin-arg-pathprof-mode=stream || BAIL_OUT "stream builds"
for v in s-plain s-variant; do
    PATHPROF_ANALYZER=blpp,ksf PATHPROF_K=3 PATHPROF_OUT=$T/$v.one "$T/$v" 2000 >/dev/null
    PATHPROF_ANALYZER=blpp,ksf PATHPROF_K=3 PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/s.acc "$T/$v" 2000 >/dev/null 2>>s.err
    "$PP_CLI" report --json "$v.one" >"$v.json"
done
is "$(cat s.err)" "" "stream mode: both builds accumulate, silent"
"$PP_CLI" report --json s.acc >s.json
is "$(perl "$ORACLE" bl s.json)" "$(perl "$ORACLE" bl s-plain.json s-variant.json)" \
    "stream mode: each copy's Ball-Larus counts are its own run's"
"$PP_CLI" report --k --json --min-length 1 s.acc >sk.json 2>sk.err
is "$?:$(cat sk.err)" "0:" "stream mode: the k-iteration paths of both builds read"
done_testing
