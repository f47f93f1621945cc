#!/usr/bin/perl
# threads.pl - the oracle of tests/cli-merge-wpp.t: reads `pathprof wpp
# --expand` outputs and prints each thread's stream as one block, without
# its thread number (the merge numbers threads anew), the blocks sorted:
# the merge of several profiles must print the same blocks as its inputs
# together.  A thread's header line keeps its event count and end.
use strict;
use warnings;

my (%block, @blocks);
for my $file (@ARGV) {
    open my $f, '<', $file or die "threads.pl: $file: $!\n";
    my %mine;
    while (<$f>) {
        next if /^# wpp /;
        if (/^# thread (\d+): (.*)$/) {
            $mine{$1} .= "# thread: $2\n";
        } elsif (/^(\d+) (.*)$/) {
            $mine{$1} .= "$2\n";
        } else {
            die "threads.pl: $file: unexpected line: $_";
        }
    }
    push @blocks, values %mine;
}
print join("----\n", sort @blocks);
