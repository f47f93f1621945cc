#!/usr/bin/perl
# mktrace.pl - writes a pathprof trace file (docs/format.md, section 4)
# from hand-made streams whose dump is known by construction, for the
# trace tests.  Independent of the runtime's writer; the TU blobs come from
# tests/cli/PPWrite.pm (itself written from format.md alone).
#
#   mktrace.pl [--map MAPFILE] [--blobs DIR] OUT
#
# --map writes "NAME OFFSET SIZE" for every field (tests/cli/patch.pl
# damages one field through it); --blobs writes the two TUs' metadata
# blobs as DIR/tu0.blob and DIR/tu1.blob (the fake runtime of
# tests/trace-writer.t registers them).
#
# TU 0 (tu_base 1, fn_base 0), t.c and p.c:
#   loop    fn 0, paths 0-5 at indices 1-6 (the graph of tests/cli/mkprofile.pl)
#   helper  fn 1, path 0 at index 7
#   pick    fn 2, paths 0-1 at indices 8-9
# TU 1 (tu_base 100, fn_base 10), c.cc:
#   catcher fn 10 (has a landing pad: ENTER/RESUME), paths 0-1 at 100-101
#
# Thread 1: loop runs (helper called inside), then catcher enters, calls
# pick, which throws; catcher's landing pad resumes it.  Its ENTER marker
# is split across two EVENTS records.  Thread 2: two calls of pick, a
# RESUME matching nothing (resync), an index no TU has, then a RET.
# Thread 3: in END with no events and without the ENDED flag.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../cli";
use PPWrite qw(trailer);
no warnings 'portable';

use constant { REAL => 0, ENTRY_DUMMY => 1, EXIT_DUMMY => 2, TERMINAL => 3 };
use constant { STREAM => 16, RESUME_FN => 32 };
use constant { START => 1 << 61, RET => 1 << 62, MARKER => 1 << 63 };

my ($mapfile, $blobdir, $out);
while (@ARGV) {
    my $a = shift @ARGV;
    if ($a eq '--map') { $mapfile = shift @ARGV }
    elsif ($a eq '--blobs') { $blobdir = shift @ARGV }
    elsif ($a =~ /^-/) { die "mktrace.pl: unknown option $a\n" }
    else { $out = $a }
}
die "usage: mktrace.pl [--map MAPFILE] [--blobs DIR] OUT\n" unless defined $out;

sub none_node { [$_[0], undef, 0, 0] }

my $loop = {
    name => 'loop', file => 't.c', line => 1, checksum => 0x1234, flags => STREAM, npaths => 6,
    nodes => [
        none_node(0), none_node(1),
        [22, 't.c', 2, 2], [23, 't.c', 3, 3], [24, 't.c', 4, 4], [25, 't.c', 5, 5],
        [26, 't.c', 7, 7], [27, 't.c', 8, 8], [28, 't.c', 10, 10],
    ],
    edges => [
        [0, 2, REAL, undef, 0, 0], [0, 3, ENTRY_DUMMY, undef, 3, 3],
        [2, 3, REAL, undef, 0, 0],
        [3, 4, REAL, undef, 0, 0], [3, 8, REAL, undef, 2, 2],
        [4, 5, REAL, undef, 0, 0], [4, 6, REAL, undef, 1, 1],
        [5, 7, REAL, undef, 0, 0], [6, 7, REAL, undef, 0, 0],
        [7, 1, EXIT_DUMMY, 3, 0, 0], [8, 1, REAL, undef, 0, 0],
    ],
};
my $helper = {
    name => 'helper', file => 't.c', line => 20, checksum => 0xaaaa, flags => STREAM, npaths => 1,
    nodes => [none_node(0), none_node(1), [2, 't.c', 21, 22]],
    edges => [[0, 2, REAL, undef, 0, 0], [2, 1, REAL, undef, 0, 0]],
};
my $pick = {
    name => 'pick', file => 'p.c', line => 30, checksum => 0xbbbb, flags => STREAM, npaths => 2,
    nodes => [none_node(0), none_node(1), [2, 'p.c', 31, 31], [3, 'p.c', 32, 32], [4, 'p.c', 34, 34]],
    edges => [
        [0, 2, REAL, undef, 0, 0],
        [2, 3, REAL, undef, 0, 0], [2, 4, REAL, undef, 1, 1],
        [3, 1, REAL, undef, 0, 0], [4, 1, TERMINAL, undef, 0, 0],
    ],
};
my $catcher = {
    name => 'catcher', file => 'c.cc', line => 4, checksum => 0xcccc, flags => STREAM | RESUME_FN,
    npaths => 2,
    nodes => [none_node(0), none_node(1), [2, 'c.cc', 5, 6], [3, 'c.cc', 9, 9]],
    edges => [
        [0, 2, REAL, undef, 0, 0], [0, 3, ENTRY_DUMMY, undef, 1, 1],
        [2, 1, REAL, undef, 0, 0], [3, 1, REAL, undef, 0, 0],
    ],
};

# Global path index of function $f's path $id; TU bases as above.
my %first = (loop => 1, helper => 7, pick => 8, catcher => 100);
sub ev { my ($bits, $f, $id) = @_; return $bits | ($first{$f} + $id) }
sub mark { my ($kind, $fn) = @_; return MARKER | ($kind << 56) | $fn }

my @t1 = (
    ev(START, 'loop', 1), ev(START | RET, 'helper', 0), ev(0, 'loop', 3), ev(RET, 'loop', 5),
    mark(1, 10), 0x7ffd1000,                       # ENTER catcher
    ev(0, 'catcher', 0), ev(START, 'pick', 1),
    mark(2, 10), 0x7ffd1000,                       # RESUME catcher: unwinds pick
    ev(RET, 'catcher', 1),
);
my @t2 = (
    ev(START | RET, 'pick', 0), ev(START | RET, 'pick', 1),
    mark(2, 10), 0x99,                             # RESUME with no such frame
    50,                                            # no TU has index 50
    ev(RET, 'catcher', 1),
);
# EVENTS records: [tid, first word, count]; T1's ENTER is split (words 4|5).
my @records = ([1, \@t1, 0, 3], [2, \@t2, 0, 2], [1, \@t1, 3, 2], [1, \@t1, 5, 6],
               [2, \@t2, 2, 4]);

my $f = PPWrite::new_buf();
PPWrite::put($f, 'header.magic', 'a8', "PPTRACE\0");
PPWrite::put($f, 'header.version', 'V', 1);
PPWrite::put($f, 'header.header_size', 'V', 64);
PPWrite::put($f, 'header.pid', 'Q<', 4242);
PPWrite::put($f, 'header.time', 'Q<', 1700000000);
PPWrite::put($f, 'header.parent_pid', 'Q<', 0);
PPWrite::put($f, 'header.reserved', 'a24', "\0" x 24);
my $r = 0;
for my $rec (@records) {
    my ($tid, $words, $at, $n) = @$rec;
    PPWrite::put($f, "rec$r.type", 'V', 1);
    PPWrite::put($f, "rec$r.tid", 'V', $tid);
    PPWrite::put($f, "rec$r.length", 'Q<', 8 * $n);
    PPWrite::put($f, "rec$r.ev$_", 'Q<', $words->[$at + $_]) for 0 .. $n - 1;
    $r++;
}
my @tus = ([0, 1, 0, [$loop, $helper, $pick]], [1, 100, 10, [$catcher]]);
my $t = 0;
for my $tu (@tus) {
    my ($id, $base, $fn_base, $funcs) = @$tu;
    my ($blob) = PPWrite::tu_blob({ funcs => $funcs });
    my $len = length $blob->{data};
    if (defined $blobdir) {
        open my $bh, '>:raw', "$blobdir/tu$t.blob" or die "$blobdir/tu$t.blob: $!\n";
        print $bh $blob->{data};
        close $bh or die "$blobdir/tu$t.blob: $!\n";
    }
    my $pad = (8 - $len % 8) % 8;
    PPWrite::put($f, "tu$t.type", 'V', 2);
    PPWrite::put($f, "tu$t.tid", 'V', 0);
    PPWrite::put($f, "tu$t.length", 'Q<', 32 + $len + $pad);
    PPWrite::put($f, "tu$t.tu_id", 'Q<', $id);
    PPWrite::put($f, "tu$t.tu_base", 'Q<', $base);
    PPWrite::put($f, "tu$t.fn_base", 'Q<', $fn_base);
    PPWrite::put($f, "tu$t.meta_len", 'Q<', $len);
    PPWrite::append($f, $blob, "tu$t.");
    PPWrite::put($f, "tu$t.pad", 'a*', "\0" x $pad);
    $t++;
}
my @threads = ([1, 1, scalar @t1], [2, 1, scalar @t2], [3, 0, 0]);
PPWrite::put($f, 'end.type', 'V', 3);
PPWrite::put($f, 'end.tid', 'V', 0);
PPWrite::put($f, 'end.length', 'Q<', 8 + 16 * @threads);
PPWrite::put($f, 'end.nthreads', 'Q<', scalar @threads);
my $i = 0;
for my $th (@threads) {
    PPWrite::put($f, "end.t$i.tid", 'V', $th->[0]);
    PPWrite::put($f, "end.t$i.flags", 'V', $th->[1]);
    PPWrite::put($f, "end.t$i.nevents", 'Q<', $th->[2]);
    $i++;
}
push @{ $f->{map} }, ['trailer', length $f->{data}, 8];
$f->{data} .= trailer($f->{data});

open my $fh, '>:raw', $out or die "$out: $!\n";
print $fh $f->{data};
close $fh or die "$out: $!\n";
if (defined $mapfile) {
    open my $mh, '>', $mapfile or die "$mapfile: $!\n";
    print $mh "$_->[0] $_->[1] $_->[2]\n" for @{ $f->{map} };
    close $mh;
}
