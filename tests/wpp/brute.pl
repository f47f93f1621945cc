#!/usr/bin/perl
# brute.pl DUMP_RAW MIN MAX: every run of MIN..MAX consecutive symbols of
# each thread's stream, counted by brute force over `pathprof dump --raw`
# (a marker is its two words, "0xW1:0xW2"), summed over threads; prints
# "count word,word,..." per subpath, sorted.
use strict;
use warnings;
my ($file, $min, $max) = @ARGV;
open my $f, '<', $file or die "$file: $!";
my (%threads, @order);
while (<$f>) {
    next if /^#/;
    my ($tid, $i, $w) = split;
    push @order, $tid unless exists $threads{$tid};
    push @{ $threads{$tid} }, lc $w;
}
my %count;
for my $tid (@order) {
    my @w = @{ $threads{$tid} };
    my @sym;
    for (my $i = 0; $i < @w; $i++) {
        if (hex(substr($w[$i], 0, 3)) >= 8 && $i + 1 < @w) { # bit 63: a marker
            push @sym, "$w[$i]:$w[$i + 1]";
            $i++;
        } elsif (hex(substr($w[$i], 0, 3)) < 8) {
            push @sym, $w[$i];
        }
    }
    for my $s (0 .. $#sym) {
        for my $len ($min .. $max) {
            last if $s + $len > @sym;
            $count{ join ',', @sym[$s .. $s + $len - 1] }++;
        }
    }
}
print "$_\n" for sort map { "$count{$_} $_" } keys %count;
