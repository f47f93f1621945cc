#!/usr/bin/perl
# perfctl/lib/ppp-lambda.pl BUILD-LOG - the PPP paper's Fig. 16 data from
# a ppp build's log (the plugin's verbose notes): one line per function
# numbered preferentially,
#   FUNCTION INTERESTING NPATHS N LAMBDA
# N the size of the interval its interesting paths are numbered in,
# LAMBDA = N / INTERESTING (1 is perfect compactness).
use strict;
use warnings;

while (<>) {
    next unless /pathprof: (?:\x27|\xe2\x80\x98)(\S+?)(?:\x27|\xe2\x80\x99): (\d+) interesting of (\d+) paths numbered from 0 to (\d+) \(Lambda ([0-9.]+)\)/;
    my ($f, $i, $np, $top, $l) = ($1, $2, $3, $4, $5);
    printf "%s %d %s %d %.4f\n", $f, $i, $np, $top + 1, ($top + 1) / $i;
}
