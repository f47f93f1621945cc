#!/usr/bin/perl
# perfctl/lib/tpp-stats.pl TPP.json BLPP.json - one line of figures for
# perfctl/tpp-bench, from `pathprof report --json` of a TPP build and of
# the BLPP build (same -fprofile-use data) run on the same input:
#
#   static_paths  path IDs numbered, all functions (TPP: hot paths + one cold
#                 counter per TPP function)
#   hashed        functions counting in a hash table
#   cold_pct      share of the executed paths that only the cold counters hold
#   aodf          attribution of definite flow (the TPP paper, section 5), in
#                 %: 100 - undercount - overcount, each weighted by path
#                 length in blocks, against the BLPP profile: a BLPP path
#                 whose TPP count (measured or derived) is lower is
#                 undercounted by the difference, one whose TPP count is
#                 higher overcounted. BLPP's paths are first split where
#                 TPP's end and BLPP's do not (disconnected loops: the
#                 "truncated" edges; the paper's footnote 5), and paths are
#                 matched by blocks and real edges, as in
#                 tests/oracle/tppcheck.pl; both profiles' paths are also
#                 split where either was cut (max-paths). Functions are
#                 matched copy for copy (copy_id, TppPaths.pm), so a static
#                 function of a header compiled into several TUs is
#                 compared TU by TU.
#   noprofile     functions compiled with tpp but without edge profile
# Prints "static_paths hashed cold_pct aodf noprofile".
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use TppPaths qw(load_json path_key split_path copy_id);

die "usage: perfctl/lib/tpp-stats.pl TPP.json BLPP.json\n" unless @ARGV == 2;
my ($tp, $bp) = map { load_json($_) } @ARGV[0, 1];

my ($static, $hashed, $cold, $all) = (0, 0, 0, 0);
for my $f (@{ $tp->{functions} }) {
    $static += $f->{npaths} + (($f->{tpp} && $f->{tpp}{edge_profile}) ? 1 : 0);
    $hashed += grep { $_ eq 'hash' } @{ $f->{flags} };
    $cold += $f->{tpp} ? $f->{tpp}{cold} : 0;
    $all += $f->{total};
}
# Where paths are split before matching: TPP's truncated edges, and the
# edges where either profile cut a function to respect max-paths (the last
# edge of a path that ends "cut"): BLPP cuts a function of more than 2^32
# paths that TPP, numbering fewer, may not, and a cut path would match no
# TPP path (lz4's LZ4HC_compress_generic_noDictCtx). Both sides are split
# at the union and their pieces summed.
my (%tcount, %bcount, %cut);
for my $prof ($tp, $bp) {
    for my $f (@{ $prof->{functions} }) {
        my $n = copy_id($f);
        $cut{$n}{"$_->[0]-$_->[1]"} = 1 for @{ $f->{tpp} ? $f->{tpp}{truncated} || [] : [] };
        for my $q (@{ $f->{paths} }) {
            $cut{$n}{"$q->{edges}[-1][0]-$q->{edges}[-1][1]"} = 1 if ($q->{end} // '') eq 'cut' && @{ $q->{edges} };
        }
    }
}
# Per copy, path key -> [count, length in blocks], both profiles split alike.
for ([ $tp, \%tcount ], [ $bp, \%bcount ]) {
    my ($prof, $into) = @$_;
    for my $f (@{ $prof->{functions} }) {
        my $n = copy_id($f);
        $into->{$n} ||= {};
        for my $q (@{ $f->{paths} }) {
            for my $p (split_path($q, $cut{$n} || {})) {
                my $k = path_key($p->[0], $p->[1]);
                $into->{$n}{$k}[0] += $p->[2];
                $into->{$n}{$k}[1] = scalar @{ $p->[0] };
            }
        }
    }
}
my ($flow, $under, $over, $unmatched) = (0, 0, 0, 0);
for my $n (keys %bcount) {
    my $bc = $bcount{$n};
    my $tc = $tcount{$n} || {};
    $unmatched++ if !$tcount{$n} && %$bc;
    for my $k (keys %$bc) {
        my ($want, $len) = @{ $bc->{$k} };
        my $got = $tc->{$k} ? $tc->{$k}[0] : 0;
        $flow += $want * $len;
        $under += ($want - $got) * $len if $got < $want;
        $over += ($got - $want) * $len if $got > $want;
    }
}
# TPP paths BLPP never ran (in copies BLPP has or not): all overcount
for my $n (keys %tcount) {
    my $bc = $bcount{$n} || {};
    $unmatched++ if !$bcount{$n} && %{ $tcount{$n} };
    $over += $_->[0] * $_->[1] for map { $tcount{$n}{$_} } grep { !$bc->{$_} } keys %{ $tcount{$n} };
}
# A copy that ran in one profile and is absent from the other: the
# builds differ (other sources or flags), or block_lines do.
warn "tpp-stats.pl: $unmatched function copies that ran are in only one of $ARGV[0] and $ARGV[1]\n" if $unmatched;
printf "%d %d %.3f %.3f %d\n", $static, $hashed, $all ? 100 * $cold / $all : 0,
  $flow ? 100 - 100 * ($under + $over) / $flow : 100, $tp->{tpp} ? $tp->{tpp}{no_edge_profile} : 0;
