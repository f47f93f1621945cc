#!/usr/bin/perl
# ppdecode.pl PROFILE - an independent reader of pathprof profiles
# (docs/format.md), written from the format document alone, printing the
# JSON shape of `pathprof report --json` plus what the tests want to see:
#
#   functions[]: name, file, line, flags, checksum, npaths, total, cold (TPP),
#     paths[]: id, count, length, blocks, lines (["first-last",...] per
#              block, null for a block without lines), edges (real CFG
#              edges between blocks or to EXIT = 1, with the closing back edge;
#              docs/format.md leaves ENTRY edges out),
#              start ("entry" or the bb a path starts at after a dummy
#              edge), end ("return", "back" (EXIT_DUMMY), "terminal")
#     verify_edges[]: src, dst, count (bb indices)
#     block_lines: { bb: "first-last" }
#   metadata[]: per TU section, version, bytes (the blob's length) and
#     v2_bytes (what version 2's fixed records would take for the same
#     graphs, so that a test can check the compact records' size)
#
# It lets the tests cross-check the CLI's decoding (tests/oracle-decode.t)
# and lets a test run when PP_DECODER=perl is set (no CLI needed).
use strict;
use warnings;
use JSON::PP;
use FindBin;
use lib "$FindBin::Bin/../cli";
use PPWrite ();    # hash64, the trailer of file version 2

my $file = shift or die "usage: ppdecode.pl PROFILE\n";
open my $fh, '<:raw', $file or die "$file: $!\n";
my $data = do { local $/; <$fh> };
close $fh;

sub fail { die "$file: $_[0]\n" }
sub u32 { my ($b, $o) = @_; fail("truncated at $o") if $o + 4 > length $b; unpack 'V', substr $b, $o, 4 }
sub u64 { my ($b, $o) = @_; fail("truncated at $o") if $o + 8 > length $b; unpack 'Q<', substr $b, $o, 8 }
sub i64 { my ($b, $o) = @_; unpack 'q<', substr $b, $o, 8 }

fail('not a pathprof profile') unless substr($data, 0, 8) eq 'PATHPROF';
my $ver = u32($data, 8);
fail("file version $ver, expected 1 or 2") unless $ver == 1 || $ver == 2;
my $hsize = u32($data, 12);
my $nsec = u32($data, 40);
my $psize = u64($data, 48);
fail('size mismatch') unless length($data) == $hsize + $psize + 8;
if ($ver == 2) {    # hash64 over header + payload (docs/format.md, section 3)
    my $want = u64($data, $hsize + $psize);
    my $got = unpack 'Q<', PPWrite::hash64(substr($data, 0, $hsize + $psize));
    fail(sprintf 'checksum %016x, computed %016x', $want, $got) unless $want == $got;
} else {    # version 1: FNV-1a-64 over header + payload, in 32-bit halves (exact in Perl numbers)
    my ($hi, $lo) = (0xcbf29ce4, 0x84222325);
    for my $c (unpack 'C*', substr($data, 0, $hsize + $psize)) {
        $lo ^= $c;
        my $l = $lo * 0x1b3;
        my $h = $hi * 0x1b3 + int($l / 4294967296) + (($lo << 8) & 0xffffffff);
        ($hi, $lo) = ($h % 4294967296, $l % 4294967296);
    }
    my $want = u64($data, $hsize + $psize);
    my $got = $hi * 4294967296 + $lo;
    fail(sprintf 'checksum %016x, computed %08x%08x', $want, $hi, $lo)
      unless sprintf('%016x', $want) eq sprintf('%08x%08x', $hi, $lo);
}

my (@funcs, @metadata);
my $off = $hsize;
for (1 .. $nsec) {
    my $tag = u32($data, $off);
    my $len = u64($data, $off + 8);
    my $body = substr $data, $off + 16, $len;
    $off += 16 + $len;
    next unless $tag == 2;
    push @funcs, decode_tu($body);
}

sub decode_tu {
    my $s = shift;
    my $mlen = u64($s, 0);
    my $m = substr $s, 8, $mlen;
    fail('bad TU metadata magic') unless substr($m, 0, 4) eq 'PPTM';
    # The directory follows a 32-byte header in version 1, 40 from version 2
    my $hsize = u32($m, 4) >= 2 ? 40 : 32;
    my $nf = u32($m, 8);
    my $nstr = u32($m, 12);
    my $stro = u64($m, 16);
    my @str;
    my $o = $stro;
    for (1 .. $nstr) { my $l = u32($m, $o); push @str, substr $m, $o + 4, $l; $o += 4 + $l }
    my $v2_bytes = 40 + 64 * $nf + ($o - $stro);
    my $co = 8 + $mlen;
    $co += (8 - $co % 8) % 8;
    $co = 8 + $mlen + ((8 - $mlen % 8) % 8);
    my @r;
    for my $i (0 .. $nf - 1) {
        my $d = $hsize + 64 * $i;
        my %f = (
            name => $str[ u32($m, $d) ], file => (u32($m, $d + 4) == 0xffffffff ? undef : $str[ u32($m, $d + 4) ]),
            checksum => sprintf('%016x', u64($m, $d + 8)), flags => u32($m, $d + 16), line => u32($m, $d + 20),
            npaths => u64($m, $d + 24),
        );
        my $nverify_dir = u32($m, $d + 48);
        # TPP (flag 512): the hot IDs, then the cold counter, or with bit 17
        # of the word at 52 the cold region (2H + 1 IDs, H hot)
        my $hot = !($f{flags} & 512) ? $f{npaths}
                : (u32($m, $d + 52) & (1 << 17)) ? ($f{npaths} - 1) / 2 : $f{npaths} - 1;
        my $det = u64($m, $d + 56);
        my (@nodes, %out, @ver);
        if (u32($m, 4) >= 3) {
            my $nspans = decode_detail_v3($m, $det, \%f, u32($m, $d + 52), \@nodes, \%out, \@ver);
            my $ne = 0;
            $ne += @$_ for values %out;
            $v2_bytes += 12 + 16 * @nodes + 32 * $ne + 8 * @ver;
            $v2_bytes += 8 * (u32($m, $d + 52) & 0x7fffffff) if $f{flags} & 1024;
            $v2_bytes += 4 + 16 * u32($m, $det + (($f{flags} & 1024) ? 8 * (u32($m, $d + 52) & 0x7fffffff) : 0))
              if $f{flags} & 256;
            $v2_bytes += 4 + 4 * @nodes + 12 * $nspans if $f{flags} & 4096;
        } else {
            my $nn = u32($m, $det);
            for my $k (0 .. $nn - 1) {
                my $b = $det + 4 + 16 * $k;
                push @nodes, [ u32($m, $b), u32($m, $b + 4), u32($m, $b + 8), u32($m, $b + 12) ];
            }
            my $eo = $det + 4 + 16 * $nn;
            my $ne = u32($m, $eo);
            for my $k (0 .. $ne - 1) {
                my $b = $eo + 4 + 32 * $k;
                my $e = { src => u32($m, $b), dst => u32($m, $b + 4), kind => u32($m, $b + 8), real_dst => u32($m, $b + 12),
                    val => u64($m, $b + 16) };
                push @{ $out{ $e->{src} } }, $e;
            }
            my $vo = $eo + 4 + 32 * $ne;
            my $nv = u32($m, $vo);
            @ver = map { [ u32($m, $vo + 4 + 8 * $_), u32($m, $vo + 8 + 8 * $_) ] } 0 .. $nv - 1;
        }
        # counts
        my $nrec = u64($s, $co);
        $co += 8;
        my @paths;
        my $total = 0;
        for (1 .. $nrec) {
            my ($id, $cnt) = (u64($s, $co), u64($s, $co + 8));
            $co += 16;
            $total += $cnt;
            # TPP: an ID from $hot up is cold, no path
            if (($f{flags} & 512) && $id >= $hot) { $f{cold} += $cnt; next }
            $total -= $cnt;
            push @paths, decode_path(\%out, \@nodes, $id, $cnt);
            $total += $cnt;
        }
        my @ve;
        if ($f{flags} & 8) {
            for my $k (0 .. $#ver) {
                push @ve, { src => $nodes[ $ver[$k][0] ][0], dst => $nodes[ $ver[$k][1] ][0], count => u64($s, $co) };
                $co += 8;
            }
            $f{verify_edges} = \@ve;
        }
        if ($f{flags} & 512) { $f{npaths} = $hot; $f{cold} //= 0 }
        $f{paths} = \@paths;
        $f{total} = $total;
        $f{block_lines} = { map { $_->[0] => ($_->[2] ? "$_->[2]-$_->[3]" : undef) } @nodes[ 2 .. $#nodes ] };
        push @r, \%f;
    }
    push @metadata, { version => u32($m, 4), bytes => $mlen, v2_bytes => $v2_bytes };
    return @r;
}

# Metadata version 3's detail record (docs/format.md, section 2), written
# here from the format's text: the fixed PPP table and derived paths, then
# LEB128 numbers (zigzag for the signed deltas).
sub uleb {
    my ($b, $o) = @_;
    my ($v, $shift) = (0, 0);
    while (1) {
        fail("truncated number at $$o") if $$o >= length $b;
        my $c = ord substr $b, $$o++, 1;
        fail("number longer than 64 bits at $$o") if $shift > 63;
        $v |= ($c & 0x7f) << $shift;    # integer arithmetic: path values reach 2^64
        $shift += 7;
        return $v unless $c & 0x80;
    }
}
sub sleb { my $u = uleb(@_); return $u & 1 ? -(($u >> 1) + 1) : $u >> 1 }

sub decode_detail_v3 {
    my ($m, $o, $f, $word, $nodes, $out, $ver) = @_;
    $o += 8 * ($word & 0x7fffffff) if $f->{flags} & 1024;    # PPP table
    $o += 4 + 16 * u32($m, $o) if $f->{flags} & 256;          # derived paths
    my $nn = uleb($m, \$o);
    my ($code, $line) = (0, $f->{line});
    for (1 .. $nn) {
        my $bb = uleb($m, \$o);
        my $w = uleb($m, \$o);
        my $z = $w >> 1;
        $code += $z & 1 ? -(($z >> 1) + 1) : $z >> 1;
        my ($first, $last) = (0, 0);
        if ($w & 1) {
            $first = $line + sleb($m, \$o);
            $last = $first + sleb($m, \$o);
            $line = $first;
        }
        push @$nodes, [ $bb, $code ? $code - 1 : 0xffffffff, $first, $last ];
    }
    my $ne = uleb($m, \$o);
    my ($src, $val) = (0, 0);
    for (1 .. $ne) {
        my $ds = uleb($m, \$o);
        $val = 0 if $ds;
        $src += $ds;
        my $dk = uleb($m, \$o);
        my $e = { src => $src, dst => $dk >> 2, kind => $dk & 3, real_dst => 0xffffffff };
        $e->{real_dst} = uleb($m, \$o) if $e->{kind} == 2;
        $val += uleb($m, \$o);
        sleb($m, \$o);    # inc
        $e->{val} = $val;
        push @{ $out->{$src} }, $e;
    }
    my $nv = uleb($m, \$o);
    push @$ver, [ uleb($m, \$o), uleb($m, \$o) ] for 1 .. $nv;
    return 0 unless $f->{flags} & 4096;    # the line table: counted, not kept
    my $nspans = 0;
    for (1 .. $nn) {
        my $k = uleb($m, \$o);
        $nspans += $k;
        uleb($m, \$o) for 1 .. 3 * $k;
    }
    return $nspans;
}

sub decode_path {
    my ($out, $nodes, $id, $cnt) = @_;
    my ($node, $r) = (0, $id);
    my (@blocks, @lines, @edges, $start, $end);
    my $guard = 0;
    while ($node != 1) {
        fail("path $id does not decode") if ++$guard > 1_000_000;
        my $pick;
        for my $e (@{ $out->{$node} || [] }) { $pick = $e if $e->{val} <= $r }
        fail("path $id: no edge out of node $node") unless $pick;
        $r -= $pick->{val};
        my $bb = sub { $nodes->[ $_[0] ][0] };
        if ($pick->{kind} == 0) {
            # docs/format.md: real edges whose ends are both blocks or whose dst is EXIT
            push @edges, [ $bb->($pick->{src}), $bb->($pick->{dst}) ] if $pick->{src} != 0;
            $start //= 'entry';
            $end = 'return' if $pick->{dst} == 1;
        } elsif ($pick->{kind} == 1) {
            $start = $bb->($pick->{dst});
        } elsif ($pick->{kind} == 2) {
            push @edges, [ $bb->($pick->{src}), $bb->($pick->{real_dst}) ];
            $end = 'back';
        } else {
            $end = 'terminal';
        }
        $node = $pick->{dst};
        if ($node > 1) {
            push @blocks, $nodes->[$node][0];
            my $n = $nodes->[$node];
            push @lines, $n->[2] ? "$n->[2]-$n->[3]" : undef;
        }
    }
    fail("path $id: remainder $r") if $r;
    return { id => $id, count => $cnt, length => scalar @blocks, blocks => \@blocks, lines => \@lines,
        edges => \@edges, start => $start, end => $end };
}

print JSON::PP->new->canonical->encode({ file => $file, functions => \@funcs, metadata => \@metadata }), "\n";
