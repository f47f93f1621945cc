#!/usr/bin/perl
# count-check.pl DUMP JSON - brute force: counts every path event of a
# `pathprof dump` listing per (function, path ID) and compares with the
# counts of a `pathprof report --json` of the same run's blpp profile.
# Prints one line per difference (at most 20) and exits 1 when there is
# any; prints "N events, M paths agree" and exits 0 otherwise.
use strict;
use warnings;
use JSON::PP;

my ($dump, $json) = @ARGV;
my (%trace, %prof, $events);
open my $d, '<', $dump or die "$dump: $!\n";
while (<$d>) {
    next if /^#/;
    my @f = split ' ';
    # tid index depth function "path" id bits lines...
    next unless @f >= 6 && $f[4] eq 'path';
    $trace{"$f[3] $f[5]"}++;
    $events++;
}
close $d;
my $p = do { local $/; open my $j, '<', $json or die "$json: $!\n"; decode_json(<$j>) };
for my $f (@{ $p->{functions} }) {
    $prof{"$f->{name} $_->{id}"} += $_->{count} for @{ $f->{paths} };
}
my @diff;
for my $k (sort keys %{ { %trace, %prof } }) {
    my ($t, $c) = ($trace{$k} // 0, $prof{$k} // 0);
    push @diff, "$k: trace $t, profile $c" if $t != $c;
}
if (@diff) {
    print "$_\n" for @diff[0 .. ($#diff < 19 ? $#diff : 19)];
    exit 1;
}
printf "%d events, %d paths agree\n", $events // 0, scalar keys %trace;
