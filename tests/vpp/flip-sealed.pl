#!/usr/bin/perl
# flip-sealed.pl - damages a VPP section past its own checksum, for the
# merge's record checks (tests/vpp-merge.t):
#   flip-sealed.pl IN OUT AT LEN OFFSET
# inverts byte OFFSET of the section at AT (its 16-byte head, then LEN
# bytes), recomputes the section's FNV-1a checksum (its last 8 bytes) and
# the file's trailer, so the damage reaches the section's reader.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../cli";
use PPWrite qw(reseal);

my ($in, $out, $at, $len, $off) = @ARGV;
open my $f, '<:raw', $in or die "$in: $!\n";
my $d = do { local $/; <$f> };
close $f;
substr($d, $off, 1) = chr(ord(substr($d, $off, 1)) ^ 0xff);
my $body = $at + 16;
substr($d, $body + $len - 8, 8) = PPWrite::fnv1a64(substr($d, $body, $len - 8));
open my $o, '>:raw', $out or die "$out: $!\n";
print $o reseal($d);
close $o or die "$out: $!\n";
