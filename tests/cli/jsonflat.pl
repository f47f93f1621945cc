#!/usr/bin/perl
# jsonflat.pl - `pathprof report --json` on stdin, one line per value:
#   PATH=COMPACT-JSON
# for every value of the document (objects and arrays too), keys sorted, so
# tests can grep exact lines. Functions are named F(name@file) instead of
# functions[i], e.g.  F(loop@t.c).paths[0].id=3
# Exits 1 (with a message) when stdin is not valid JSON.
use strict;
use warnings;
use JSON::PP;

my $text = do { local $/; <STDIN> };
my $doc = eval { JSON::PP->new->decode($text) };
if (!defined $doc) { print STDERR "jsonflat.pl: not JSON: $@"; exit 1; }
my $enc = JSON::PP->new->canonical->allow_nonref;
binmode STDOUT, ':encoding(UTF-8)';

sub walk {
    my ($path, $v) = @_;
    print "$path=", $enc->encode($v), "\n" if length $path;
    if (ref $v eq 'HASH') {
        for my $k (sort keys %$v) {
            walk(length $path ? "$path.$k" : $k, $v->{$k});
        }
    } elsif (ref $v eq 'ARRAY') {
        for my $i (0 .. $#$v) {
            my $e = $v->[$i];
            my $p = "$path\[$i]";
            $p = 'F(' . $e->{name} . '@' . ($e->{file} // '') . ')'
              if $path eq 'functions' && ref $e eq 'HASH';
            walk($p, $e);
        }
    }
}
walk('', $doc);
