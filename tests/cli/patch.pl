#!/usr/bin/perl
# patch.pl - damages a profile for the CLI tests.
#
#   patch.pl IN OUT [--reseal] [EDIT...]
#
# EDIT is one of
#   set:OFFSET:SIZE:VALUE   write VALUE (decimal or 0x hex) little-endian
#   field:NAME=VALUE        the same at the field NAME of the map (--map MAP)
#   xor:OFFSET:BYTE         flip bits of one byte
#   cut:LENGTH              keep the first LENGTH bytes
#   append:HEX              add bytes at the end
# --reseal recomputes the FNV-1a trailer afterwards (so the damage reaches
# the parser instead of being caught by the checksum).
#
#   patch.pl --sweep IN DIR [STRIDE]   writes DIR/trunc-N (the first N
#   bytes), DIR/flip-N (byte N inverted), DIR/rflip-N and DIR/rflip1-N (byte
#   N inverted / its low bit flipped, resealed) and DIR/rtrunc-N (payload
#   cut at N with the header's size fixed, resealed) for every STRIDE-th N
#   (default 1: every offset), for exhaustive damage tests.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use PPWrite qw(reseal);

sub slurp { my $f = shift; open my $fh, '<:raw', $f or die "$f: $!\n"; local $/; return scalar <$fh>; }
sub spew { my ($f, $d) = @_; open my $fh, '>:raw', $f or die "$f: $!\n"; print $fh $d; close $fh or die "$f: $!\n"; }
sub num { my $v = shift; return $v =~ /^0x/i ? hex($v) : $v + 0; }

sub set_le {
    my ($data, $off, $size, $value) = @_;
    my $bytes = $size == 8 ? pack('Q<', $value) : $size == 4 ? pack('V', $value)
              : $size == 1 ? pack('C', $value) : die "size $size\n";
    substr($$data, $off, $size) = $bytes;
}

if (@ARGV && $ARGV[0] eq '--sweep') {
    my (undef, $in, $dir, $stride) = @ARGV;
    $stride ||= 1;
    my $d = slurp($in);
    my $n = length $d;
    for my $i (0 .. $n - 1) {
        next if $i % $stride;
        spew("$dir/trunc-$i", substr($d, 0, $i));
        my $x = $d;
        substr($x, $i, 1) = chr(ord(substr($x, $i, 1)) ^ 0xff);
        spew("$dir/flip-$i", $x);
        next if $i >= $n - 8;    # resealing would undo a change to the trailer
        spew("$dir/rflip-$i", reseal($x));
        my $y = $d;
        substr($y, $i, 1) = chr(ord(substr($y, $i, 1)) ^ 0x01);
        spew("$dir/rflip1-$i", reseal($y));
        if ($i >= 64) {    # payload cut at $i, header told, resealed
            my $t = substr($d, 0, $i) . "\0" x 8;
            set_le(\$t, 48, 8, $i - 64);
            spew("$dir/rtrunc-$i", reseal($t));
        }
    }
    exit 0;
}

my ($in, $out, @edits) = @ARGV;
die "usage: patch.pl IN OUT [--reseal] [--map MAP] EDIT...\n" unless defined $out;
my $data = slurp($in);
my ($reseal, %map);
while (@edits) {
    my $e = shift @edits;
    if ($e eq '--reseal') { $reseal = 1; next; }
    if ($e eq '--map') {
        my $m = shift @edits;
        open my $mh, '<', $m or die "$m: $!\n";
        while (<$mh>) { my ($name, $off, $size) = split; $map{$name} = [$off, $size]; }
        next;
    }
    if ($e =~ /^set:(\d+):(\d+):(\w+)$/) { set_le(\$data, $1, $2, num($3)); }
    elsif ($e =~ /^field:([\w.]+)=(\w+)$/) {
        my $f = $map{$1} or die "patch.pl: no field $1 in the map\n";
        set_le(\$data, $f->[0], $f->[1], num($2));
    }
    elsif ($e =~ /^xor:(\d+):(\w+)$/) { substr($data, $1, 1) = chr(ord(substr($data, $1, 1)) ^ num($2)); }
    elsif ($e =~ /^cut:(\d+)$/) { $data = substr($data, 0, $1); }
    elsif ($e =~ /^append:([0-9a-fA-F]*)$/) { $data .= pack('H*', $1); }
    else { die "patch.pl: bad edit $e\n"; }
}
$data = reseal($data) if $reseal;
spew($out, $data);
