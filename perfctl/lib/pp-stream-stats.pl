#!/usr/bin/perl
# pp-stream-stats.pl PROFILE: one line from a stream-mode profile's STREAM
# section (docs/format.md, tag 3), with the per-analyzer-thread figures that
# `pathprof report --json` does not show:
#   events dropped late blocked_ns producers nthreads busy_ns(sum) events(sum per thread)
# and, when the profile has a KIPF section (tag 4), appended:
#   k kipf_events ksf_nodes kipf_nodes hash_ops
# Prints "-" fields when a section is missing.
use strict;
use warnings;

my $f = shift or die "usage: pp-stream-stats.pl PROFILE\n";
open my $fh, '<:raw', $f or die "$f: $!\n";
local $/;
my $d = <$fh>;
die "$f: not a pathprof profile\n" unless length $d >= 64 && substr($d, 0, 8) eq 'PATHPROF';
my ($hsize, $nsec) = (unpack('V', substr($d, 12, 4)), unpack('V', substr($d, 40, 4)));
# One part only: a file of several (an accumulated one, docs/format.md,
# "Parts") is merged first (perfctl does; pp-parts.pl counts them).
die "pp-stream-stats.pl: $f holds more than one profile: merge it first (pathprof merge -o ONE $f)\n"
    if 72 + unpack('Q<', substr($d, 48, 8)) != length $d;
my $o = $hsize;
my (@stream, @kipf);
for (1 .. $nsec) {
    my ($tag, undef, $len) = unpack('V V Q<', substr($d, $o, 16));
    my $p = $o + 16;
    if ($tag == 3) {
        my ($policy, $chunk, $cpt, $nthreads) = unpack('V4', substr($d, $p, 16));
        my ($producers, $events, $dropped, $late, $resync, $unknown, $blocked) = unpack('Q<7', substr($d, $p + 16, 56));
        my $q = $p + 72;
        my $nan = unpack('V', substr($d, $q, 4));
        $q += 4;
        for (1 .. $nan) { my $l = unpack('V', substr($d, $q, 4)); $q += 4 + $l; }
        my ($tev, $busy) = (0, 0);
        for (1 .. $nthreads) {
            my ($e, $b) = unpack('Q<2', substr($d, $q, 16));
            $q += 16; $tev += $e; $busy += $b;
        }
        @stream = ($events, $dropped, $late, $blocked, $producers, $nthreads, $busy, $tev);
    } elsif ($tag == 4) {
        my ($k) = unpack('V', substr($d, $p, 4));
        my (undef, $ev, $ksf, $kipf, $hops) = unpack('Q<5', substr($d, $p + 8, 40));
        @kipf = ($k, $ev, $ksf, $kipf, $hops);
    }
    $o = $p + $len;
}
@stream = ('-') x 8 unless @stream;
print join(' ', @stream, @kipf), "\n";
