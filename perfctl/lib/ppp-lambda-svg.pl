#!/usr/bin/perl
# perfctl/lib/ppp-lambda-svg.pl DAT OUT.svg - the PPP paper's Fig. 16 as an
# SVG scatter plot: one point per function numbered preferentially, x the
# number of its interesting paths, y the size N of its PPP interval, one
# colour per program; the lines N = |I| (Lambda 1, perfect) and
# N = 1.5 |I| (the issue's goal) for reference. Both axes logarithmic
# (functions have from 1 to hundreds of interesting paths).
# DAT is figdata/ppp-lambda.dat as ppp-summary.pl writes it:
# "program function interesting interval lambda" per line, '#' comments.
# Written by hand (no gnuplot needed: it is not on every machine that runs
# perfctl, and the figure is simple).
use strict;
use warnings;

my ($dat, $out) = @ARGV;
die "usage: ppp-lambda-svg.pl DAT OUT.svg\n" unless defined $out;
open my $in, '<', $dat or die "ppp-lambda-svg.pl: $dat: $!\n";
my (@pts, %progs);
while (<$in>) {
    next if /^\s*(#|$)/;
    my ($p, $f, $int, $size, $l) = split;
    die "ppp-lambda-svg.pl: $dat:$.: want 'program function interesting interval lambda'\n"
        unless defined $l && $int =~ /^\d+$/ && $size =~ /^\d+$/ && $int > 0 && $size >= $int;
    push @pts, [ $p, $f, $int, $size, $l ];
    $progs{$p}++;
}
die "ppp-lambda-svg.pl: $dat: no functions\n" unless @pts;

# Axes: powers of ten around the data, the same range on both so that the
# Lambda lines are diagonals.
my $max = 1;
for (@pts) { $max = $_->[3] if $_->[3] > $max }
my $decades = 1;
$decades++ while 10**$decades < $max * 1.5;
my ($w, $h, $left, $bottom, $top, $right) = (640, 520, 70, 60, 40, 170);
my ($pw, $ph) = ($w - $left - $right, $h - $top - $bottom);
sub px { return $left + $pw * log($_[0]) / log(10**$decades) }
sub py { return $top + $ph - $ph * log($_[0]) / log(10**$decades) }
sub esc { my $s = shift; $s =~ s/&/&amp;/g; $s =~ s/</&lt;/g; $s =~ s/>/&gt;/g; $s =~ s/"/&quot;/g; return $s }

my @colours = ('#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf');
my %colour;
my $i = 0;
$colour{$_} = $colours[ $i++ % @colours ] for sort keys %progs;

open my $o, '>', $out or die "ppp-lambda-svg.pl: $out: $!\n";
printf $o qq{<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">\n}, $w, $h;
print $o qq{<rect width="100%" height="100%" fill="white"/>\n};
printf $o qq{<text x="%d" y="22" font-size="14" text-anchor="middle">PPP interval size N against interesting paths per function (Fig. 16)</text>\n},
    $left + $pw / 2;
# Grid and ticks.
for my $d (0 .. $decades) {
    my $v = 10**$d;
    my ($x, $y) = (px($v), py($v));
    printf $o qq{<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>\n}, $x, $top, $x, $top + $ph;
    printf $o qq{<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>\n}, $left, $y, $left + $pw, $y;
    printf $o qq{<text x="%.1f" y="%d" text-anchor="middle">%d</text>\n}, $x, $top + $ph + 16, $v;
    printf $o qq{<text x="%d" y="%.1f" text-anchor="end">%d</text>\n}, $left - 6, $y + 4, $v;
}
printf $o qq{<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>\n}, $left, $top, $pw, $ph;
printf $o qq{<text x="%d" y="%d" text-anchor="middle">interesting paths |I|</text>\n}, $left + $pw / 2, $h - 18;
printf $o qq{<text transform="translate(18,%d) rotate(-90)" text-anchor="middle">interval size N</text>\n}, $top + $ph / 2;
# Reference lines: Lambda 1 and 1.5.
my $end = 10**$decades;
printf $o qq{<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black" stroke-dasharray="2,3"/>\n},
    px(1), py(1), px($end), py($end);
printf $o qq{<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="grey" stroke-dasharray="6,4"/>\n},
    px(1), py(1.5), px($end / 1.5), py($end);
# Points, each with its function and Lambda as a tooltip.
for (@pts) {
    my ($p, $f, $int, $size, $l) = @$_;
    printf $o qq{<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s" fill-opacity="0.6"><title>%s %s: %d interesting, N %d, Lambda %s</title></circle>\n},
        px($int), py($size), $colour{$p}, esc($p), esc($f), $int, $size, esc($l);
}
# Legend.
my $ly = $top + 10;
for my $p (sort keys %progs) {
    printf $o qq{<circle cx="%d" cy="%d" r="4" fill="%s"/><text x="%d" y="%d">%s (%d)</text>\n},
        $left + $pw + 16, $ly, $colour{$p}, $left + $pw + 26, $ly + 4, esc($p), $progs{$p};
    $ly += 18;
}
printf $o qq{<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black" stroke-dasharray="2,3"/><text x="%d" y="%d">Lambda = 1</text>\n},
    $left + $pw + 10, $ly, $left + $pw + 22, $ly, $left + $pw + 26, $ly + 4;
$ly += 18;
printf $o qq{<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="grey" stroke-dasharray="6,4"/><text x="%d" y="%d">Lambda = 1.5</text>\n},
    $left + $pw + 10, $ly, $left + $pw + 22, $ly, $left + $pw + 26, $ly + 4;
print $o "</svg>\n";
close $o or die "ppp-lambda-svg.pl: $out: $!\n";
