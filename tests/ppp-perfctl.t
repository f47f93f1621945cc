#!/usr/bin/env bash
# perfctl's PPP configurations on tests/perfctl/tiny.c (issue 18): ppp
# (trained on a count run), ppp-total (ppp-uninteresting=total) beside
# native and count in one run; ppp.md has a cost row for each, the ppp runs
# equal count's path for path; and the PPP paper's Fig. 16 as an SVG
# written by perfctl/lib/ppp-lambda-svg.pl, checked point by point against
# the Lambda data (raw/tiny/ppp-lambda.txt, from the build's own notes):
# one point per function, at the place its interesting paths and interval
# size put it on the log-log axes. The plotter alone: bad input refused.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
pp_not_under_sanitizer "address thread" "perfctl builds its programs as a user would, without the suite's flags"
ROOT=$TAP_ROOT
OUT=$T/out
export PATHPROF_BUILD=$PP_BUILD

PERFCTL_FORCE_NO_HW=1 "$ROOT/perfctl/perfctl" run --programs tiny --programs-dir "$ROOT/tests/perfctl/programs" \
    --configs native,count,ppp,ppp-total --runs 1 --cachegrind no --no-plot --out "$OUT" >"$T/run.log" 2>&1
is "$?" 0 "perfctl run native,count,ppp,ppp-total" || diag "$(tail -n 20 "$T/run.log")"
md=$OUT/ppp.md
for c in count ppp ppp-total; do
    like "$(cat "$md")" "^\| tiny \| $c \| [0-9.]+ \| [+-][0-9]+% \|" "ppp.md: a cost row for $c"
done
like "$(grep '^| tiny | ppp |' "$md")" '\| yes \(1 runs\) \|$' "ppp.md: the ppp run equals count's, path for path"
like "$(grep '^| tiny | ppp-total |' "$md")" 'others as a total' "ppp.md: ppp-total is not compared path for path (no records for the others)"

lam=$OUT/raw/tiny/ppp-lambda.txt svg=$OUT/figures/ppp-lambda.svg
ok "the Lambda data and the figure are written" test -s "$lam" -a -s "$svg"
# Expected points from the data, by the figure's stated geometry (plot
# area x 70..470, y 40..460, both axes log10 from 1 to the first power of
# ten at least 1.5 times the largest N).
want=$(perl -e 'my @l; open my $f, "<", $ARGV[0] or die; while (<$f>) { my @w = split; push @l, \@w if @w == 5 }
    my $max = 1; for (@l) { $max = $_->[3] if $_->[3] > $max } my $d = 1; $d++ while 10**$d < $max * 1.5;
    for (@l) { printf "tiny %s %d %d %.0f %.0f\n", $_->[0], $_->[1], $_->[3],
        70 + 400 * log($_->[1]) / log(10**$d), 460 - 420 * log($_->[3]) / log(10**$d) }' "$lam" | sort)
got=$(perl -ne 'printf "%s %s %d %d %.0f %.0f\n", $5, $6, $7, $8, $1, $2
    while /<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)" fill="([^"]+)" fill-opacity="0.6"><title>(\S+) (\S+): (\d+) interesting, N (\d+), Lambda/g' "$svg" | sort)
isnt "$want" "" "the ppp build numbered some functions"
is "$got" "$want" "Fig. 16: one point per function, where its interesting paths and N put it"
ok "the SVG is one document" perl -e 'local $/; my $s = <STDIN>; exit !($s =~ /\A<svg [^>]*>\n.*<\/svg>\n\z/s
    && ($s =~ tr/<//) == ($s =~ tr/>//))' <"$svg"

printf 'tiny f 3 2 0.67\n' >"$T/bad.dat"
perl "$ROOT/perfctl/lib/ppp-lambda-svg.pl" "$T/bad.dat" "$T/bad.svg" 2>"$T/bad.err"
isnt "$?" 0 "an interval smaller than its interesting set is refused"
like "$(cat "$T/bad.err")" "bad.dat:1: want 'program function interesting interval lambda'" "... naming the file and line"
done_testing
