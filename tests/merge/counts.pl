#!/usr/bin/perl
# counts.pl - the oracle of tests/cli-merge.t and runtime-accumulate.t,
# from `pathprof report --json` outputs of single runs:
#   counts.pl bl [xN] A.json B.json ...   "function checksum id count" lines, counts
#                                         of every file summed (times N; a
#                                         file named FILE*W counts W times)
#   counts.pl k [xN] A.json B.json ...    the same for k-iteration paths
#                                         (report --k --json --min-length 1)
#   counts.pl bounds EXACT.json PRUNED.json
#                                         each pruned sequence's lo <= exact
#                                         count <= hi; prints "checked N, wrong M"
use strict;
use warnings;
use JSON::PP;

my $mode = shift;
my $times = ($ARGV[0] // '') =~ /^x(\d+)$/ ? (shift, $1)[1] : 1;
sub load { local $/; open my $f, '<', $_[0] or die "$_[0]: $!\n"; decode_json(<$f>) }

if ($mode eq 'bl' || $mode eq 'k') {
    my %sum;
    for my $arg (@ARGV) {
        my ($file, $w) = $arg =~ /^(.*)\*(\d+)$/ ? ($1, $2) : ($arg, 1);
        my $j = load($file);
        if ($mode eq 'bl') {
            for my $f (@{ $j->{functions} }) {
                # by checksum too: builds of one function are kept apart
                $sum{"$f->{name} $f->{checksum} $_->{id}"} += $w * $_->{count} for @{ $f->{paths} };
            }
        } else {
            $sum{"$_->{function} " . join(',', @{ $_->{ids} })} += $w * $_->{count} for @{ $j->{paths} };
        }
    }
    print "$_ ", $sum{$_} * $times, "\n" for sort keys %sum;
} elsif ($mode eq 'bounds') {
    my ($exact, $pruned) = map { load($_) } @ARGV;
    my %n = map { ("$_->{function} " . join(',', @{ $_->{ids} })) => $_->{count} } @{ $exact->{paths} };
    my ($checked, $wrong) = (0, 0);
    for my $s (@{ $pruned->{paths} }) {
        my $c = $n{"$s->{function} " . join(',', @{ $s->{ids} })} // 0;
        $checked++;
        if ($c < $s->{lo} || $c > $s->{hi}) {
            $wrong++;
            print STDERR "$s->{function} @{ $s->{ids} }: exact $c outside [$s->{lo}, $s->{hi}]\n";
        }
    }
    print "checked $checked, wrong $wrong\n";
} else {
    die "usage: counts.pl bl|k [xN] FILE.json... | bounds EXACT.json PRUNED.json\n";
}
