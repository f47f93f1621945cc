#!/usr/bin/perl
# ftotals.pl JSON FUNC... - the total path count of each FUNC in a
# `pathprof report --json` document, space separated ("none" for a
# function the profile does not list).
use strict;
use warnings;
use JSON::PP;
my $file = shift // die "usage: ftotals.pl JSON FUNC...\n";
my $p = do { local $/; open my $j, '<', $file or die "$file: $!\n"; JSON::PP->new->allow_bignum->decode(<$j>) };
my %t;
$t{ $_->{name} } += $_->{total} for @{ $p->{functions} };
print join(' ', map { $t{$_} // 'none' } @ARGV), "\n";
