#!/usr/bin/perl
# cg-split.pl CACHEGRIND.OUT: the totals of a cachegrind output file, and
# the same split by where the code lives: "analyzer" = pathprof's
# analyzers/ (the analyzer threads' work), "runtime" = runtime/ and
# ringbuf/ (the probes' slow path, chunk hand-off, profile writing),
# "program" = everything else (the program's own code with its inlined
# probes, libc, ...). Cachegrind does not separate threads; the split is
# by source file, which for pathprof's stream mode separates the analyzer
# thread's own code from the program.
# Prints "CLASS EVENT VALUE" lines, CLASS in total/program/runtime/analyzer,
# EVENT the cachegrind event names (Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw
# Bc Bcm Bi Bim).
use strict;
use warnings;

my $f = shift or die "usage: cg-split.pl CACHEGRIND.OUT\n";
open my $fh, '<', $f or die "cg-split.pl: $f: $!\n";
my (@ev, %sum, $class);
$class = 'program';
while (<$fh>) {
    if (/^events:\s*(.*)/) { @ev = split ' ', $1; next }
    if (/^f[lie]=(.*)/) {
        my $p = $1;
        $class = $p =~ m{(^|/)analyzers/[^/]+$} ? 'analyzer'
               : $p =~ m{(^|/)(runtime|ringbuf)/[^/]+$} ? 'runtime' : 'program';
        next;
    }
    next unless /^\d/;
    my @v = split ' ';
    shift @v;    # the line number
    for my $i (0 .. $#v) { $sum{$class}{$ev[$i]} += $v[$i]; $sum{total}{$ev[$i]} += $v[$i] }
}
die "cg-split.pl: $f has no events line: not a cachegrind output?\n" unless @ev;
for my $c (qw(total program runtime analyzer)) {
    print "$c $_ ", ($sum{$c}{$_} // 0), "\n" for @ev;
}
