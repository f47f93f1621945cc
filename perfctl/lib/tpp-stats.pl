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
#                 tests/oracle/tppcheck.pl.
#   noprofile     functions compiled with tpp but without edge profile
# Prints "static_paths hashed cold_pct aodf noprofile".
use strict;
use warnings;
use JSON::PP;

sub load { local $/; open my $fh, '<', $_[0] or die "$_[0]: $!\n"; decode_json(<$fh>) }
my ($t, $b) = map { load($_) } @ARGV[0, 1];
sub key { my ($blocks, $edges) = @_; join(' ', @$blocks) . ' | ' . join(' ', map { "$_->[0]-$_->[1]" } @$edges) }
# BLPP path Q split at the edges of CUT: [blocks, edges, count] pieces
# (edges[i] joins blocks[i] and blocks[i + 1], then the closing edge).
sub split_path {
    my ($q, $cut) = @_;
    my @b = @{ $q->{blocks} };
    my @e = @{ $q->{edges} };
    my (@pieces, @pb, @pe);
    for my $i (0 .. $#b) {
        push @pb, $b[$i];
        next unless $i < $#b;
        push @pe, $e[$i];
        if ($cut->{"$e[$i][0]-$e[$i][1]"}) { push @pieces, [ [@pb], [@pe], $q->{count} ]; @pb = @pe = () }
    }
    push @pe, @e[ $#b .. $#e ] if @e > $#b;
    return (@pieces, [ \@pb, \@pe, $q->{count} ]);
}

my ($static, $hashed, $cold, $all) = (0, 0, 0, 0);
for my $f (@{ $t->{functions} }) {
    $static += $f->{npaths} + (($f->{tpp} && $f->{tpp}{edge_profile}) ? 1 : 0);
    $hashed += grep { $_ eq 'hash' } @{ $f->{flags} };
    $cold += $f->{tpp} ? $f->{tpp}{cold} : 0;
    $all += $f->{total};
}
my (%tcount, %cut);
for my $f (@{ $t->{functions} }) {
    my $n = "$f->{file}:$f->{name}";
    $tcount{$n}{ key($_->{blocks}, $_->{edges}) } = [ $_->{count}, $_->{length} ] for @{ $f->{paths} };
    $cut{$n} = { map { ("$_->[0]-$_->[1]" => 1) } @{ $f->{tpp} ? $f->{tpp}{truncated} || [] : [] } };
}
my ($flow, $under, $over) = (0, 0, 0);
for my $f (@{ $b->{functions} }) {
    my $n = "$f->{file}:$f->{name}";
    my $tc = $tcount{$n} || {};
    my %bc;
    for my $q (@{ $f->{paths} }) {
        for my $p (split_path($q, $cut{$n} || {})) {
            my $k = key($p->[0], $p->[1]);
            $bc{$k}[0] += $p->[2];
            $bc{$k}[1] = scalar @{ $p->[0] };
        }
    }
    for my $k (keys %bc) {
        my ($want, $len) = @{ $bc{$k} };
        my $got = $tc->{$k} ? $tc->{$k}[0] : 0;
        $flow += $want * $len;
        $under += ($want - $got) * $len if $got < $want;
        $over += ($got - $want) * $len if $got > $want;
    }
    # TPP paths BLPP never ran: all overcount
    $over += $tc->{$_}[0] * $tc->{$_}[1] for grep { !$bc{$_} } keys %$tc;
}
printf "%d %d %.3f %.3f %d\n", $static, $hashed, $all ? 100 * $cold / $all : 0,
  $flow ? 100 - 100 * ($under + $over) / $flow : 100, $t->{tpp} ? $t->{tpp}{no_edge_profile} : 0;
