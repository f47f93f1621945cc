#!/usr/bin/perl
# mkstream.pl - a stream-mode profile (docs/format.md, section 3: mode 2, a
# STREAM section) for the report tests, from tests/cli/PPWrite.pm's small
# profile: the TU of `loop`, then a STREAM section with the given counters.
#
#   mkstream.pl OUT [dropped=N] [late=N] [resync=N] [unknown=N] [policy=1|2]
#               [streams=N] [truncate=N]
# streams=2 writes the STREAM section twice; truncate=N cuts N bytes off
# the STREAM section's end (its length says so: the reader meets it).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../cli";
use PPWrite qw(profile_bytes reseal);
no warnings 'portable';

my $out = shift @ARGV or die "usage: mkstream.pl OUT [KEY=VALUE...]\n";
my %o = (dropped => 0, late => 0, resync => 0, unknown => 0, policy => 1, streams => 1,
         truncate => 0);
for (@ARGV) { /^(\w+)=(\d+)$/ && exists $o{$1} or die "mkstream.pl: bad argument $_\n"; $o{$1} = $2 }

my $stream = pack('V V V V', $o{policy}, 8192, 4, 2)
    . pack('Q<7', 3, 1000, $o{dropped}, $o{late}, $o{resync}, $o{unknown}, 250_000_000)
    . pack('V', 2) . pack('V a*', 4, 'blpp') . pack('V a*', 5, 'trace')
    . pack('Q<4', 600, 1_000_000, 400, 2_000_000);
$stream = substr($stream, 0, length($stream) - $o{truncate});

my $loop = {
    name => 'loop', file => 't.c', line => 1, checksum => 0x1234, flags => 16, npaths => 3,
    nodes => [[0, undef, 0, 0], [1, undef, 0, 0], [2, 't.c', 2, 2], [3, 't.c', 3, 3]],
    edges => [[0, 2, 0, undef, 0, 0], [2, 3, 0, undef, 0, 0], [2, 1, 0, undef, 2, 2],
              [3, 1, 0, undef, 0, 0]],
    records => [[0, 600], [2, 400]],
};
my $f = profile_bytes({
    program => '/tmp/prog', cmdline => './prog', pid => 77, time => 1700000000,
    array_updates => 0, hash_updates => 0,
    tus => [{ funcs => [$loop] }],
    extra_sections => [([3, $stream]) x $o{streams}],
});
my $data = $f->{data};
substr($data, 16, 4) = pack('V', 2);    # mode: stream
open my $fh, '>:raw', $out or die "$out: $!\n";
print $fh reseal($data);
close $fh or die "$out: $!\n";
