#!/usr/bin/perl
# mkprofile.pl - writes a pathprof profile for hand-made path graphs whose
# paths are known by construction (docs/format.md), for the CLI tests.
#
#   mkprofile.pl [--scenario basic|small|lines] [--map MAPFILE] [--file-version N]
#                [--meta-version 1|3] [--raw tuN.FIELD=HEX]... OUT
#
# --map writes "NAME OFFSET SIZE" for every field, so a test can damage
# exactly one field (tests/cli/patch.pl). --file-version 1 writes the
# first format (its FNV-1a-64 trailer), which readers still take.
# --meta-version 3 writes the TU metadata as the plugin does (compact
# detail records; 1, the default, the first format's fixed records);
# --raw then writes HEX as the bytes of one of its LEB128 fields (named as
# in the map, e.g. tu0.f0.edge3.dst_kind), to damage it.
#
# The graph of `loop` (file t.c, both scenarios) is a diamond inside a
# while loop; node n >= 2 is GCC block bb n+20:
#
#   line 2  bb22  s = 0, i = 0          ENTRY -> bb22 -> bb23
#   line 3  bb23  while (i < n)         bb23 -> bb24 | bb28
#   line 4  bb24  if (i & 1)            bb24 -> bb25 | bb26
#   line 5  bb25  s += i                bb25 -> bb27
#   line 7  bb26  s -= i                bb26 -> bb27
#   line 8  bb27  i++                   bb27 -> bb23 (back edge)
#   line 10 bb28  return s              bb28 -> EXIT
#
# The back edge bb27 -> bb23 becomes ENTRY -> bb23 (dummy, val 3) and
# bb27 -> EXIT (dummy). Paths (ID: blocks, count as if loop(4) ran 10
# times and loop(0) 5 times):
#   0: 22 23 24 25 27   never
#   1: 22 23 24 26 27   10   entry -> back edge
#   2: 22 23 28          5   entry -> return
#   3: 23 24 25 27      20   loop -> back edge
#   4: 23 24 26 27      10   loop -> back edge
#   5: 23 28            10   loop -> return
# Direct edge counts (VERIFY): 22->23 15, 23->24 40, 23->28 15, 24->25 20,
# 24->26 20, 25->27 20, 26->27 20, 27->23 40, 28->EXIT 15.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use PPWrite qw(profile_bytes);
no warnings 'portable';    # 64-bit hex constants: Perl here has 64-bit integers

use constant { REAL => 0, ENTRY_DUMMY => 1, EXIT_DUMMY => 2, TERMINAL => 3 };
use constant { HASH => 1, CUT => 2, ATOMIC => 4, VERIFY => 8, LINES => 4096 };

my ($scenario, $mapfile, $file_version, $meta_version, %raw, $out) = ('basic');
while (@ARGV) {
    my $a = shift @ARGV;
    if ($a eq '--scenario') { $scenario = shift @ARGV }
    elsif ($a eq '--map') { $mapfile = shift @ARGV }
    elsif ($a eq '--file-version') { $file_version = shift @ARGV }
    elsif ($a eq '--meta-version') { $meta_version = shift @ARGV }
    elsif ($a eq '--raw') {
        my ($t, $field, $hex) = (shift(@ARGV) // '') =~ /^tu(\d+)\.(\S+)=([0-9a-fA-F]*)$/
            or die "mkprofile.pl: --raw wants tuN.FIELD=HEX\n";
        $raw{$t}{$field} = $hex;
    }
    elsif ($a =~ /^-/) { die "mkprofile.pl: unknown option $a\n" }
    else { $out = $a }
}
die "usage: mkprofile.pl [--scenario basic|small|lines] [--map MAPFILE] [--file-version N] OUT\n" unless defined $out;

sub none_node { [$_[0], undef, 0, 0] }

my $loop = {
    name => 'loop', file => 't.c', line => 1, checksum => 0x1234_5678_9abc_def0,
    flags => VERIFY, npaths => 6,
    nodes => [
        none_node(0), none_node(1),
        [22, 't.c', 2, 2], [23, 't.c', 3, 3], [24, 't.c', 4, 4], [25, 't.c', 5, 5],
        [26, 't.c', 7, 7], [27, 't.c', 8, 8], [28, 't.c', 10, 10],
    ],
    # src, dst, kind, real_dst, val, inc: grouped by src, ascending val
    edges => [
        [0, 2, REAL, undef, 0, 0],
        [0, 3, ENTRY_DUMMY, undef, 3, 3],
        [2, 3, REAL, undef, 0, 0],
        [3, 4, REAL, undef, 0, 0],
        [3, 8, REAL, undef, 2, 2],
        [4, 5, REAL, undef, 0, 0],
        [4, 6, REAL, undef, 1, 1],
        [5, 7, REAL, undef, 0, 0],
        [6, 7, REAL, undef, 0, 0],
        [7, 1, EXIT_DUMMY, 3, 0, 0],
        [8, 1, REAL, undef, 0, 0],
    ],
    verify => [[2, 3], [3, 4], [3, 8], [4, 5], [4, 6], [5, 7], [6, 7], [7, 3], [8, 1]],
    vcounts => [15, 40, 15, 20, 20, 20, 20, 40, 15],
    records => [[1, 10], [2, 5], [3, 20], [4, 10], [5, 10]],
};

# helper in t.c, one path; emitted by two TUs (same checksum): merged.
sub helper_t {
    my ($count) = @_;
    return {
        name => 'helper', file => 't.c', line => 20, checksum => 0xaaaa, flags => 0, npaths => 1,
        nodes => [none_node(0), none_node(1), [2, 't.c', 21, 22]],
        edges => [[0, 2, REAL, undef, 0, 0], [2, 1, REAL, undef, 0, 0]],
        records => [[0, $count]],
    };
}

# helper in u.c (another static function of the same name), two paths.
my $helper_u = {
    name => 'helper', file => 'u.c', line => 10, checksum => 0xbbbb, flags => 0, npaths => 2,
    nodes => [none_node(0), none_node(1), [2, 'u.c', 11, 11], [3, 'u.c', 12, 12]],
    edges => [
        [0, 2, REAL, undef, 0, 0],
        [2, 3, REAL, undef, 0, 0], [2, 1, REAL, undef, 1, 1],
        [3, 1, REAL, undef, 0, 0],
    ],
    records => [[1, 2]],
};

# fatal: hash counters; path 0 ends in abort() (TERMINAL) and ran 2^53 + 1
# times, a count a double cannot hold.
my $fatal = {
    name => 'fatal', file => 'u.c', line => 3, checksum => 0xfeed_0000_0000_0001,
    flags => HASH, npaths => 2,
    nodes => [none_node(0), none_node(1), [2, 'u.c', 4, 4], [3, 'u.c', 5, 5], [4, 'u.c', 7, 7]],
    edges => [
        [0, 2, REAL, undef, 0, 0],
        [2, 3, REAL, undef, 0, 0], [2, 4, REAL, undef, 1, 1],
        [3, 1, TERMINAL, undef, 0, 0],
        [4, 1, REAL, undef, 0, 0],
    ],
    records => [[0, 9007199254740993], [1, 7]],
};

# wide: IDs above 2^53 (val 2^60 + 1, again not representable in a double).
my $big = 1152921504606846977;    # 2^60 + 1
my $wide = {
    name => 'wide', file => 'u.c', line => 30, checksum => 0xcccc, flags => HASH | CUT,
    npaths => $big + 1,
    nodes => [none_node(0), none_node(1), [2, 'u.c', 31, 31], [3, 'u.c', 32, 32]],
    edges => [
        [0, 2, REAL, undef, 0, 0],
        [2, 3, REAL, undef, 0, 0], [2, 1, REAL, undef, $big, 0],
        [3, 1, REAL, undef, 0, 0],
    ],
    records => [[0, 1], [$big, 3]],
};

my $cold = {
    name => 'cold', file => 't.c', line => 40, checksum => 0xdddd, flags => ATOMIC, npaths => 1,
    nodes => [none_node(0), none_node(1), [2, 't.c', 41, 41]],
    edges => [[0, 2, REAL, undef, 0, 0], [2, 1, REAL, undef, 0, 0]],
    records => [],
};

my %profile = (
    program => '/tmp/prog', cmdline => './prog --fast 3', pid => 4242, time => 1700000000,
);
if ($scenario eq 'basic') {
    $profile{tus} = [
        { funcs => [$loop, helper_t(3), $cold] },
        { funcs => [$helper_u, $fatal, $wide] },
        { funcs => [helper_t(4)] },
    ];
    $profile{extra_sections} = [[99, "ignored"]];
    $profile{array_updates} = 55 + 3 + 4 + 2;
    $profile{hash_updates} = 9007199254740993 + 7 + 1 + 3;
} elsif ($scenario eq 'small') {
    $profile{tus} = [{ funcs => [$loop] }];
    $profile{array_updates} = 55;
    $profile{hash_updates} = 0;
} elsif ($scenario eq 'lines') {
    # `small` with the line table (flag LINES): bb25 also runs lines 40-41
    # of h.h (a helper inlined from a header).
    my %with_lines = (%$loop, flags => VERIFY | LINES,
        lines => [[], [], [['t.c', 2, 2]], [['t.c', 3, 3]], [['t.c', 4, 4]],
                  [['t.c', 5, 5], ['h.h', 40, 41]], [['t.c', 7, 7]], [['t.c', 8, 8]],
                  [['t.c', 10, 10]]]);
    $profile{tus} = [{ funcs => [\%with_lines] }];
    $profile{array_updates} = 55;
    $profile{hash_updates} = 0;
} else {
    die "mkprofile.pl: unknown scenario $scenario\n";
}

$profile{file_version} = $file_version if defined $file_version;
for my $t (0 .. $#{ $profile{tus} }) {
    $profile{tus}[$t]{meta_version} = $meta_version if defined $meta_version;
    $profile{tus}[$t]{raw} = $raw{$t} if $raw{$t};
}
my $f = profile_bytes(\%profile);
open my $fh, '>:raw', $out or die "$out: $!\n";
print $fh $f->{data};
close $fh or die "$out: $!\n";
if (defined $mapfile) {
    open my $mh, '>', $mapfile or die "$mapfile: $!\n";
    print $mh "$_->[0] $_->[1] $_->[2]\n" for @{ $f->{map} };
    close $mh;
}
