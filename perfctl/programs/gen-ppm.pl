#!/usr/bin/perl
# gen-ppm.pl - the image of perfctl's libjpeg-turbo workload
# (perfctl/programs/libjpeg-turbo.sh, run by perfctl/programs/work.jpeg):
#   perl gen-ppm.pl FILE W H
# writes a binary PPM (P6, 8 bits per sample) of W x H pixels in four
# quadrants that give a JPEG codec different blocks to code:
#   top left      smooth colour gradients (few AC coefficients: long runs of
#                 zeros, short Huffman codes)
#   top right     a checkerboard of 5-pixel squares in saturated colours
#                 (edges inside blocks: many AC coefficients, chroma detail)
#   bottom left   noise (every coefficient non-zero: long codes, escapes)
#   bottom right  rings (frequencies rising outwards) over flat grey, with
#                 a flat-colour band (blocks whose AC coefficients are all 0)
# Noise comes from a fixed linear congruential generator: the same W and H
# give the same bytes.
use strict;
use warnings;
use POSIX qw(floor);

my ($file, $w, $h) = @ARGV;
defined $h && $w =~ /^\d+$/ && $h =~ /^\d+$/ && $w >= 16 && $h >= 16
    or die "usage: gen-ppm.pl FILE W H (W, H >= 16)\n";
my $seed = 777;
sub rnd {
    $seed = ($seed * 1103515245 + 12345) % 2147483648;
    return int($seed / 65536) % 256;
}
open(my $o, '>:raw', $file) or die "gen-ppm.pl: $file: $!\n";
print $o "P6\n$w $h\n255\n";
my ($hw, $hh) = (int($w / 2), int($h / 2));
for my $y (0 .. $h - 1) {
    my @row;
    for my $x (0 .. $w - 1) {
        my ($r, $g, $b);
        if ($y < $hh && $x < $hw) {
            $r = 255 * $x / $hw;
            $g = 255 * $y / $hh;
            $b = 128 + 100 * sin(($x + $y) / 40);
        } elsif ($y < $hh) {
            my $c = (int($x / 5) + int($y / 5)) % 3;
            ($r, $g, $b) = $c == 0 ? (230, 20, 30) : $c == 1 ? (20, 200, 40) : (10, 30, 220);
        } elsif ($x < $hw) {
            ($r, $g, $b) = (rnd(), rnd(), rnd());
        } else {
            my ($dx, $dy) = ($x - $hw - $hw / 2, $y - $hh - $hh / 2);
            my $d = sqrt($dx * $dx + $dy * $dy);
            if (abs($dy) < $hh / 10) {
                ($r, $g, $b) = (200, 180, 60);
            } else {
                $r = $g = $b = 128 + 120 * sin($d * $d / 600);
            }
        }
        push @row, map { my $v = floor($_ + 0.5); $v < 0 ? 0 : $v > 255 ? 255 : $v } ($r, $g, $b);
    }
    print $o pack('C*', @row);
}
close($o) or die "gen-ppm.pl: $file: $!\n";
