#!/usr/bin/perl
# tppproj.pl REPORT.json - what a profile says about paths, whatever the
# mode it was written in (docs/tpp.md, "Streams"): the top-level TPP
# summary, the paths executed, and per function its checksum, path
# counts, cold flow, derived paths and every path with its count (and the
# edge its count was derived from). A TPP stream profile and the counting
# profile of the same build and input must project to the same text; the
# mode, the STREAM flag and the stream's statistics are left out.
use strict;
use warnings;
use JSON::PP;

local $/;
my $j = decode_json(<>);
my $js = JSON::PP->new->canonical;
print "tpp ", $js->encode($j->{tpp}), "\n" if $j->{tpp};
print "paths_executed $j->{paths_executed}\n";
for my $f (sort { "$a->{file}:$a->{name}" cmp "$b->{file}:$b->{name}" } @{ $j->{functions} }) {
    print "fn $f->{file}:$f->{name} checksum $f->{checksum} npaths $f->{npaths} ",
        "total $f->{total} executed $f->{executed_paths} tpp ",
        ($f->{tpp} ? $js->encode($f->{tpp}) : "none"), "\n";
    print "  path ", $js->encode($_), "\n" for @{ $f->{paths} };
}
