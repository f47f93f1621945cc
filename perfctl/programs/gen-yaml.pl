#!/usr/bin/perl
# perfctl/programs/gen-yaml.pl N - the input of perfctl/programs/yaml-cpp.sh:
# N YAML documents, each after a "---" line, from a fixed linear
# congruential generator (the same bytes on every machine and perl).
# Every document mixes what yaml-cpp's scanner and node conversions
# branch on: block and flow collections, plain, single- and double-quoted
# scalars with escapes, literal and folded block scalars, anchors and
# aliases, numbers in several notations, booleans, nulls, nesting. Every
# 13th document is malformed in one of five ways (the driver catches the
# parse error) and some records lack a key or hold a non-number id (the
# driver's conversion throws).
use strict;
use warnings;

my $n = shift;
defined $n && $n =~ /^\d+$/ or die "usage: gen-yaml.pl N\n";
my $seed = 12345;
sub rnd { my ($m) = @_; $seed = ($seed * 1103515245 + 12345) % 2147483648; return int($seed / 65536) % $m }
my @words = qw(alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi
               rho sigma tau upsilon phi chi psi omega red green blue cyan magenta yellow black white);
sub word { return $words[rnd(scalar @words)] }
sub number {
    my $k = rnd(8);
    return rnd(100000) if $k < 3;
    return -rnd(1000) if $k == 3;
    return sprintf('%d.%03d', rnd(1000), rnd(1000)) if $k == 4;
    return sprintf('%de%d', 1 + rnd(9), rnd(20) - 10) if $k == 5;
    return sprintf('0x%X', rnd(65536)) if $k == 6;
    return ('.inf', '-.inf', '.nan', '1_000')[rnd(4)];
}
sub scalar_value {
    my $k = rnd(9);
    return number() if $k < 3;
    return ('true', 'false', 'yes', 'no', 'on', 'off', 'True', 'FALSE')[rnd(8)] if $k == 3;
    return ('~', 'null', '')[rnd(3)] if $k == 4;
    return '"' . word() . ' \\"q\\" \\t \\u00e9 ' . rnd(100) . '"' if $k == 5;
    return "'" . word() . " it''s " . word() . "'" if $k == 6;
    return word() . ' ' . word() . ' ' . rnd(1000);
    }

my @bad = ("key: [1, 2\nother: 3\n", "a: b: c\n", "x:\n  - 1\n - 2\n", "s: \"unterminated\n", "k: {a: 1, b\n  c: 2\n");
for my $d (0 .. $n - 1) {
    print "---\n";
    if ($d % 13 == 7) { print $bad[rnd(scalar @bad)]; next }
    print "records:\n";
    my $nr = 1 + rnd(5);
    for my $r (0 .. $nr - 1) {
        my $anchor = rnd(6) == 0 ? " &r$r" : '';
        print "  -$anchor\n";
        print '    id: ', (rnd(11) == 0 ? word() : rnd(1000000)), "\n";
        print '    name: ', scalar_value(), "\n" unless rnd(17) == 0;
        if (rnd(2)) { print '    tags: [', join(', ', map { word() } 0 .. rnd(5)), "]\n" }
        else { print "    tags:\n"; print '      - ', word(), "\n" for 0 .. rnd(4) }
        if (rnd(3)) {
            print "    metrics: {", join(', ', map { word() . "$_: " . rnd(1000) . '.' . rnd(100) } 0 .. rnd(4)), "}\n";
        }
        print "  - *r$r\n" if $anchor ne '' && rnd(2);
    }
    print "settings:\n";
    for my $i (0 .. 2 + rnd(6)) { print '  ', word(), "_$i: ", scalar_value(), "\n" }
    if (rnd(2)) { print "  note: |\n"; print '    ', word(), ' ', word(), "\n" for 0 .. rnd(4) }
    if (rnd(2)) { print "  folded: >-\n"; print '    ', word(), ' ', rnd(99), "\n" for 0 .. rnd(4) }
    print '  list: [', join(', ', map { scalar_value() =~ s/^$/null/r } 0 .. rnd(6)), "]\n";
    print "  nested:\n";
    my $ind = '    ';
    for my $l (0 .. rnd(5)) { print $ind, word(), "_$l:\n"; $ind .= '  ' }
    print $ind, "leaf: ", scalar_value(), "\n";
}
