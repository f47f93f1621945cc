#!/usr/bin/perl
# tests/oracle/samepaths.pl A.json B.json - are two `pathprof report --json`
# documents of one program's counting-mode profiles equal path for path?
# For two builds that must count alike (loop-counts=1 and 0, array and
# hash counters): every (file, function, path ID) has the same count, a
# path missing from one counting 0. Prints the first 10 differences on
# stdout. Exit status 0 when equal, 1 when not, 2 on unreadable input.
use strict;
use warnings;
use JSON::PP;

sub load {
    my ($file) = @_;
    open my $fh, '<', $file or do { print "$file: $!\n"; exit 2 };
    local $/;
    my $doc = eval { decode_json(<$fh>) };
    if (ref $doc ne "HASH" || ref $doc->{functions} ne "ARRAY") { print "$file: not a pathprof report --json document\n"; exit 2 }
    my %count;
    for my $fn (@{ $doc->{functions} }) {
        # A function compiled into several TUs (a header's static one) has a
        # copy per TU, not always in the same order in both documents (an
        # accumulated profile lists them as its parts came): copies are
        # told apart by their CFG checksum, which does not depend on how
        # the build counts; copies with one checksum have one numbering,
        # and their counts are added.
        my $key = "$fn->{file}:$fn->{name}:" . ($fn->{checksum} // "");
        $count{$key}{ $_->{id} } += $_->{count} for @{ $fn->{paths} };
    }
    return \%count;
}

@ARGV == 2 or do { print "usage: samepaths.pl A.json B.json\n"; exit 2 };
my ($da, $db) = (load($ARGV[0]), load($ARGV[1]));
my $bad = 0;
for my $fn (sort keys %{ { %$da, %$db } }) {
    my ($pa, $pb) = ($da->{$fn} // {}, $db->{$fn} // {});
    for my $id (sort { $a <=> $b } keys %{ { %$pa, %$pb } }) {
        my ($x, $y) = ($pa->{$id} // 0, $pb->{$id} // 0);
        next if $x == $y;
        print "$fn path $id: $x in $ARGV[0], $y in $ARGV[1]\n" if $bad < 10;
        $bad++;
    }
}
print "$bad paths differ\n" if $bad;
exit($bad ? 1 : 0);
