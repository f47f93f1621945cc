#!/usr/bin/env bash
# perfctl/lib/tpp-stats.pl, the attribution of definite flow (AoDF) of
# perfctl/tpp-all and tpp-bench, on a program of two TUs that both compile
# the static functions of one header (tests/tpp/inline.h), as zstd's
# ZSTD_count is compiled into six of its TUs: copies that differ are
# entries of their own in the profile, same name and file, their block
# numbers meaning other code (mix) or the same blocks in another graph
# (count_bits). AoDF must compare copy with copy:
#  - plain Ball-Larus against itself, and TPP(0, 0) (nothing cold: every
#    path measured or derived exactly) against Ball-Larus: 100%, on the
#    training input and another;
#  - the reference with one copy's paths dropped, or moved into the other
#    copy, loses exactly that copy's flow (dropped: undercount; moved:
#    undercount in one copy and as much overcount in the other), with the
#    flow weighted by path length in blocks as the script's header says,
#    computed here from the document directly;
#  - TPP(5, 0) on the input that takes its cold edges: below 100%.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
. "$(dirname "$0")/tpp/lib.sh"
pp_require_build
pp_flags
STATS=$TAP_ROOT/perfctl/lib/tpp-stats.pl
export TPP_SOURCES="inline-a.c inline-b.c"

d=$T/O2
mkdir -p "$d" && cp "$TAP_ROOT"/tests/tpp/inline{.h,-a.c,-b.c} "$d/"
if ! tpp_train "$d" -O2; then
    fail "training run with -fprofile-generate" "$(cat "$d/gen.log")"; done_testing; exit
fi
ok "builds with -fprofile-use: plain, BLPP, TPP(0, 0), TPP(5, 0)" \
    eval 'tpp_build "$d" plain -O2 -fprofile-use ${PP_SAN_CFLAGS:-} &&
          tpp_build "$d" blpp -O2 -fprofile-use $_pp_cflags &&
          tpp_build "$d" tpp0 -O2 -fprofile-use $_pp_cflags -fplugin-arg-pathprof-tpp=0,0 &&
          tpp_build "$d" tpp5 -O2 -fprofile-use $_pp_cflags -fplugin-arg-pathprof-tpp=5,0'
for in in train other; do
    (cd "$d" && ./plain "$in" >"plain-$in.out")
    for b in blpp tpp0 tpp5; do
        if ! tpp_run_json "$d" "$b" "$in"; then
            fail "$b $in: runs and its profile reads"; continue
        fi
        ok "$b $in: same output as the plain build" diff "$d/plain-$in.out" "$d/$b-$in.out"
    done
done

# The premise: each header function is two entries; mix's blocks are not
# alike (count_bits's may be: the same blocks, other edges, are summed).
copies() {
    jget "$1" '""; my %c; for (@{$j->{functions}}) { next unless $_->{file} eq "inline.h";
        my $bl = $_->{block_lines}; push @{$c{$_->{name}}}, join ",", map { "$_=$bl->{$_}" } sort keys %$bl }
        print join " ", map { my @s = @{$c{$_}}; "$_:" . @s . ($_ eq "mix" && $s[0] ne $s[1] ? ":differ" : "") } sort keys %c'
}
is "$(copies "$d/blpp-train.json")" "count_bits:2 mix:2:differ" \
    "BLPP: count_bits and mix of inline.h are two entries each, mix's with other blocks"

# stats TPP.json BLPP.json: tpp-stats.pl's AoDF (its stderr in $d/stats.err)
aodf() { perl "$STATS" "$1" "$2" 2>"$d/stats.err" | cut -d' ' -f4; }
for in in train other; do
    is "$(aodf "$d/blpp-$in.json" "$d/blpp-$in.json")" 100.000 "$in: BLPP against itself: AoDF 100%"
    is "$(cat "$d/stats.err")" "" "$in: BLPP against itself: every copy matched (no warning)"
    is "$(aodf "$d/tpp0-$in.json" "$d/blpp-$in.json")" 100.000 "$in: TPP(0, 0) against BLPP: AoDF 100%"
    is "$(cat "$d/stats.err")" "" "$in: TPP(0, 0) against BLPP: every copy matched (no warning)"
done
read -r _ _ cold a _ <<<"$(perl "$STATS" "$d/tpp5-other.json" "$d/blpp-other.json" 2>/dev/null)"
ok "other: TPP(5, 0) counts paths in its cold counters ($cold%) and attributes less than all flow (AoDF $a%)" \
    perl -e 'exit !($ARGV[0] > 0 && $ARGV[1] < 100)' "$cold" "$a"

# Documents made from the BLPP profile of the training input: the second
# copy of mix (in file order) loses its paths, or gives them to the first.
# The expected AoDF from the document alone: F the flow of every path,
# count x blocks; B that of the second mix's paths. No path may end "cut"
# (max-paths), or the script would split it before comparing.
edit() {
    perl -MJSON::PP -0e 'my $j = JSON::PP->new->decode(<STDIN>); my $how = shift;
        my @m = grep { $_->{file} eq "inline.h" && $_->{name} eq "mix" } @{$j->{functions}};
        push @{$m[0]{paths}}, @{$m[1]{paths}} if $how eq "move";
        $m[1]{paths} = [];
        print JSON::PP->new->canonical->encode($j)' "$1" <"$d/blpp-train.json"
}
edit drop >"$d/drop.json" && edit move >"$d/move.json"
want() {
    jget "$d/blpp-train.json" '""; my ($f, $b, $n, $cut) = (0, 0, 0, 0);
        for my $fn (@{$j->{functions}}) {
            my $mix = $fn->{file} eq "inline.h" && $fn->{name} eq "mix" && $n++ == 1;
            for (@{$fn->{paths}}) { my $w = $_->{count} * @{$_->{blocks}}; $f += $w; $b += $w if $mix; $cut++ if $_->{end} eq "cut" }
        }
        die "a cut path\n" if $cut;
        printf "%.3f %.3f", 100 - 100 * $b / $f, 100 - 200 * $b / $f'
}
read -r want_drop want_move <<<"$(want)"
is "$(aodf "$d/drop.json" "$d/blpp-train.json")" "$want_drop" \
    "the second copy of mix lost its paths: its flow undercounted (AoDF $want_drop%)"
is "$(aodf "$d/move.json" "$d/blpp-train.json")" "$want_move" \
    "the second copy of mix's paths counted in the first: undercount and overcount (AoDF $want_move%)"
done_testing
