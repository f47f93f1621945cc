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
#                 whose TPP count is lower is undercounted by the
#                 difference, one whose TPP count is higher overcounted.
#                 Paths are matched by start, real edges and end, as in
#                 tests/oracle/tppcheck.pl.
# Prints "static_paths hashed cold_pct aodf".
use strict;
use warnings;
use JSON::PP;

sub load { local $/; open my $fh, '<', $_[0] or die "$_[0]: $!\n"; decode_json(<$fh>) }
my ($t, $b) = map { load($_) } @ARGV[0, 1];
sub key { my $p = $_[0]; join ' ', $p->{start}, (map { "$_->[0]-$_->[1]" } @{ $p->{edges} }), $p->{end} }

my ($static, $hashed, $cold, $all) = (0, 0, 0, 0);
for my $f (@{ $t->{functions} }) {
    $static += $f->{npaths} + (($f->{tpp} && $f->{tpp}{edge_profile}) ? 1 : 0);
    $hashed += grep { $_ eq 'hash' } @{ $f->{flags} };
    $cold += $f->{tpp} ? $f->{tpp}{cold} : 0;
    $all += $f->{total};
}
my %tcount;
for my $f (@{ $t->{functions} }) {
    $tcount{"$f->{file}:$f->{name}"}{ key($_) } = [ $_->{count}, $_->{length} ] for @{ $f->{paths} };
}
my ($flow, $under, $over) = (0, 0, 0);
for my $f (@{ $b->{functions} }) {
    my $tc = $tcount{"$f->{file}:$f->{name}"} || {};
    my %seen;
    for my $p (@{ $f->{paths} }) {
        my $k = key($p);
        my $got = $tc->{$k} ? $tc->{$k}[0] : 0;
        $seen{$k} = 1;
        $flow += $p->{count} * $p->{length};
        $under += ($p->{count} - $got) * $p->{length} if $got < $p->{count};
        $over += ($got - $p->{count}) * $p->{length} if $got > $p->{count};
    }
    # TPP paths BLPP never ran: all overcount
    $over += $tc->{$_}[0] * $tc->{$_}[1] for grep { !$seen{$_} } keys %$tc;
}
printf "%d %d %.3f %.3f\n", $static, $hashed, $all ? 100 * $cold / $all : 0,
  $flow ? 100 - 100 * ($under + $over) / $flow : 100;
