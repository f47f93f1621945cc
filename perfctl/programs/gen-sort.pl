#!/usr/bin/perl
# perfctl/programs/gen-sort.pl N - the input of perfctl/programs/coreutils-sort.sh:
# N lines of comma-separated fields from a fixed linear congruential
# generator (the same bytes on every machine and perl), one field for each
# of sort's comparison kinds: a name (mixed case, repeated often: -f, -u,
# ties for -s), a signed integer (-n), a version string (-V), a size with
# an SI suffix (-h), a month name (-M), a float with an exponent or inf (-g), a
# word. One line in 50 repeats an earlier one exactly (-u).
use strict;
use warnings;

my $n = shift;
defined $n && $n =~ /^\d+$/ or die "usage: gen-sort.pl N\n";
my $seed = 271828;
sub rnd { my ($m) = @_; $seed = ($seed * 1103515245 + 12345) % 2147483648; return int($seed / 65536) % $m }
my @w = qw(alpha Beta gamma DELTA epsilon zeta Eta theta iota kappa Lambda mu nu xi omicron pi
           rho Sigma tau upsilon phi chi psi omega red green blue cyan magenta yellow black white);
my @mon = qw(Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec jan xyz);
my @suf = ('', 'K', 'M', 'G', 'T', 'k');
my @prev;
for my $i (1 .. $n) {
    if (@prev && rnd(50) == 0) { print $prev[rnd(scalar @prev)]; next }
    my $name = $w[rnd(scalar @w)] . ($w[rnd(scalar @w)] x rnd(2));
    my $int = rnd(200001) - 100000;
    $int = sprintf("%07d", $int) if rnd(9) == 0;    # leading zeros
    my $ver = "pkg-" . rnd(3) . "." . rnd(12) . ($i % 3 ? "." . rnd(20) : "") . ($i % 7 ? "" : "~rc" . rnd(3));
    my $size = rnd(1000) . (rnd(3) ? "" : "." . rnd(10)) . $suf[rnd(scalar @suf)];
    my $fl = (rnd(2) ? "-" : "") . rnd(100) . "." . rnd(1000) . "e" . (rnd(11) - 5);
    # no "nan": sort -g orders NaNs by memcmp of their long double
    # (nan_compare), padding bytes included, which GCC's dead-store
    # elimination leaves uninitialised (the memset before strtold goes):
    # the order, so the output, then followed the stack's garbage
    $fl = "inf" if rnd(400) == 0;
    my $line = join(",", $name, $int, $ver, $size, $mon[rnd(scalar @mon)], $fl, $w[rnd(scalar @w)]) . "\n";
    print $line;
    push @prev, $line if @prev < 1000 || rnd(10) == 0;
    $prev[rnd(1000)] = $line if @prev >= 1000;
}
