#!/usr/bin/perl
# kprune-stats.pl PROFILE: the ksf-pruned analyzer's figures from a
# profile's KPRUNE section (tag 5, analyzers/ksf-pruned/write.c), as
# "key value" lines: prune_k, prune_budget (bytes), prune_m (counters per
# length), prune_events (path IDs), prune_epochs, prune_peak (bytes). Prints
# nothing when the profile has no KPRUNE section.
use strict;
use warnings;

my $f = shift or die "usage: kprune-stats.pl PROFILE\n";
open my $fh, '<:raw', $f or die "kprune-stats.pl: $f: $!\n";
local $/;
my $d = <$fh>;
die "kprune-stats.pl: $f: not a pathprof profile\n" unless length $d >= 64 && substr($d, 0, 8) eq 'PATHPROF';
my ($hsize, $nsec) = (unpack('V', substr($d, 12, 4)), unpack('V', substr($d, 40, 4)));
# One part only: a file of several (an accumulated one, docs/format.md,
# "Parts") is merged first (perfctl does; pp-parts.pl counts them).
die "kprune-stats.pl: $f holds more than one profile: merge it first (pathprof merge -o ONE $f)\n"
    if 72 + unpack('Q<', substr($d, 48, 8)) != length $d;
my $o = $hsize;
for (1 .. $nsec) {
    last if $o + 16 > length $d;
    my ($tag, undef, $len) = unpack('V V Q<', substr($d, $o, 16));
    my $p = $o + 16;
    if ($tag == 5) {
        my ($k) = unpack('V', substr($d, $p, 4));
        my ($budget, $m, undef, $events, $epochs, undef, $peak) = unpack('Q<7', substr($d, $p + 8, 56));
        print "prune_k $k\nprune_budget $budget\nprune_m $m\nprune_events $events\nprune_epochs $epochs\nprune_peak $peak\n";
    }
    $o = $p + $len;
}
