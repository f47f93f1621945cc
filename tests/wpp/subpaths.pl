#!/usr/bin/perl
# subpaths.pl JSON: `pathprof wpp --hot --json` as "count word,word,..."
# lines, sorted (the same form as brute.pl); with --check C MIN MAX also
# checks each subpath's bounds (length, cost x count >= C, found <= count
# for Fig. 7 is not claimed) and prints "bad: ..." lines for violations.
use strict;
use warnings;
use JSON::PP;
local $/;
open my $f, '<', $ARGV[0] or die "$ARGV[0]: $!";
my $j = decode_json(<$f>);
my @lines;
for my $s (@{ $j->{subpaths} }) {
    my @w = map { lc } @{ $s->{words} };
    print "bad: length $s->{length}\n" if $s->{length} != @w;
    print "bad: cheap\n" if $s->{cost} * $s->{count} < $j->{min_cost};
    print "bad: short\n" if @w < $j->{min_length} || @w > $j->{max_length};
    push @lines, "$s->{count} " . join(',', @w);
}
print "$_\n" for sort @lines;
