# PPWrite.pm - writing pathprof profiles for the CLI tests, from
# docs/format.md alone (independent of the runtime's writer), and keeping a
# map of where every field went so tests can damage one field precisely.
package PPWrite;
use strict;
use warnings;
no warnings 'portable';    # 64-bit hex constants (hash64 needs a 64-bit perl)
use Exporter 'import';
our @EXPORT_OK = qw(fnv1a64 hash64 trailer reseal profile_bytes new_buf put);

use constant NONE => 0xffffffff;

# FNV-1a-64 in 32-bit halves: every intermediate stays below 2^53, so the
# arithmetic is exact whatever Perl's integer size.
sub fnv1a64 {
    my ($data) = @_;
    my ($hi, $lo) = (0xcbf29ce4, 0x84222325);
    for my $c (unpack 'C*', $data) {
        $lo ^= $c;
        my $l = $lo * 0x1b3;
        my $h = $hi * 0x1b3 + int($l / 4294967296) + (($lo << 8) & 0xffffffff);
        ($hi, $lo) = ($h % 4294967296, $l % 4294967296);
    }
    return pack('V V', $lo, $hi);    # little-endian u64
}

# pprt_hash64, version 2's trailer (docs/format.md, section 3), in Perl's
# 64-bit integers: under `use integer` a product wraps modulo 2^64
# (Debian's perl is built with -fwrapv) and >> shifts the sign in, so
# every shift is masked to the bits a logical shift keeps.
sub hash64 {
    my ($data) = @_;
    die "hash64 needs a perl with 64-bit integers\n" unless length(pack 'j', 0) == 8;
    my $len = length $data;
    my @w = unpack 'Q<*', $data . ("\0" x ((8 - $len % 8) % 8));
    use integer;
    my ($m, $c) = (0x9e3779b97f4a7c15, 0xc2b2ae3d27d4eb4f);
    my @v = (0x243f6a8885a308d3, 0x13198a2e03707344, 0xa4093822299f31d0, 0x082efa98ec4e6c89);
    for my $i (0 .. $#w) {
        my $x = ($v[$i % 4] ^ $w[$i]) * $m;
        $v[$i % 4] = $x ^ (($x >> 31) & 0x1ffffffff);
    }
    my $h = $len * $m;
    for my $x (@v) {
        $h = ($h ^ $x) * $c;
        $h ^= ($h >> 29) & 0x7ffffffff;
    }
    $h ^= ($h >> 32) & 0xffffffff;
    $h *= $m;
    $h ^= ($h >> 29) & 0x7ffffffff;
    no integer;
    return pack 'Q<', $h & 0xffffffffffffffff;    # little-endian u64
}

# The trailer of a profile or trace body (all before it): FNV-1a-64 for file
# version 1, hash64 from version 2 on (the version at offset 8; a body
# too short to hold one gets version 2's).
sub trailer {
    my ($body) = @_;
    my $version = length($body) >= 12 ? unpack('V', substr($body, 8, 4)) : 2;
    return $version == 1 ? fnv1a64($body) : hash64($body);
}

# Recomputes the trailer of a profile whose last 8 bytes are the checksum.
sub reseal {
    my ($bytes) = @_;
    my $body = substr($bytes, 0, length($bytes) - 8);
    return $body . trailer($body);
}

# A buffer that remembers where each named field was written.
sub new_buf { return { data => '', map => [] } }

sub put {
    my ($b, $name, $fmt, $value) = @_;
    my $bytes = pack $fmt, $value;
    push @{ $b->{map} }, [$name, length $b->{data}, length $bytes] if defined $name;
    $b->{data} .= $bytes;
}

sub append {    # appends buffer $c, its map shifted and prefixed
    my ($b, $c, $prefix) = @_;
    my $at = length $b->{data};
    push @{ $b->{map} }, map { [$prefix . $_->[0], $_->[1] + $at, $_->[2]] } @{ $c->{map} };
    $b->{data} .= $c->{data};
}

# Metadata version 3's numbers (docs/format.md, section 2), written from
# the format's text: LEB128, and zigzag for the signed deltas. A test may
# replace the bytes of any field by naming it in $raw (hex), to damage it.
sub put_uleb {
    my ($b, $name, $v, $raw) = @_;
    my $bytes = '';
    if (defined $raw->{$name}) {
        $bytes = pack 'H*', $raw->{$name};
    } else {
        do {
            my $c = $v & 0x7f;
            $v >>= 7;
            $bytes .= chr($c | ($v ? 0x80 : 0));
        } while ($v);
    }
    push @{ $b->{map} }, [$name, length $b->{data}, length $bytes];
    $b->{data} .= $bytes;
}
sub zigzag { my $v = shift; return $v < 0 ? 2 * -$v - 1 : 2 * $v }
sub put_sleb { my ($b, $name, $v, $raw) = @_; put_uleb($b, $name, zigzag($v), $raw) }

# A version 3 detail record of function $f (no PPP table, no derived paths:
# the scenarios have none). $pfx names the fields in $raw.
sub detail_v3 {
    my ($d, $f, $str, $raw, $pfx) = @_;
    my %r = map { my $k = $_; $k =~ s/^\Q$pfx\E// ? ($k => $raw->{$_}) : () } keys %$raw;
    my @nodes = @{ $f->{nodes} };
    put_uleb($d, 'nnodes', scalar @nodes, \%r);
    my ($code, $line) = (0, $f->{line});
    for my $i (0 .. $#nodes) {
        my ($bb, $file, $first, $last) = @{ $nodes[$i] };
        my $c = defined $file ? $str->($file) + 1 : 0;
        my $has = ($first || $last) ? 1 : 0;
        put_uleb($d, "node$i.bb", $bb, \%r);
        put_uleb($d, "node$i.file", 2 * zigzag($c - $code) + $has, \%r);
        $code = $c;
        next unless $has;
        put_sleb($d, "node$i.line_first", $first - $line, \%r);
        put_sleb($d, "node$i.line_range", $last - $first, \%r);
        $line = $first;
    }
    my @edges = @{ $f->{edges} };
    put_uleb($d, 'nedges', scalar @edges, \%r);
    my ($src, $val) = (0, 0);
    for my $i (0 .. $#edges) {
        my ($s, $dst, $kind, $real_dst, $v, $inc) = @{ $edges[$i] };
        $val = 0 if $s != $src;
        put_uleb($d, "edge$i.src", $s - $src, \%r);
        put_uleb($d, "edge$i.dst_kind", $dst * 4 + $kind, \%r);
        put_uleb($d, "edge$i.real_dst", $real_dst, \%r) if $kind == 2;
        put_uleb($d, "edge$i.val", $v - $val, \%r);
        put_sleb($d, "edge$i.inc", $inc // 0, \%r);
        ($src, $val) = ($s, $v);
    }
    my @verify = @{ $f->{verify} // [] };
    put_uleb($d, 'nverify_detail', scalar @verify, \%r);
    for my $i (0 .. $#verify) {
        put_uleb($d, "verify$i.src", $verify[$i][0], \%r);
        put_uleb($d, "verify$i.dst", $verify[$i][1], \%r);
    }
    return unless $f->{lines};
    my ($file, $last) = (0, $f->{line});
    my $i = 0;
    for my $spans (@{ $f->{lines} }) {
        put_uleb($d, "lines.node$i.nspans", scalar @$spans, \%r);
        my $k = 0;
        for my $sp (@$spans) {
            my $fx = $str->($sp->[0]);
            put_sleb($d, "lines.node$i.span$k.file", $fx - $file, \%r);
            put_sleb($d, "lines.node$i.span$k.first", $sp->[1] - $last, \%r);
            put_uleb($d, "lines.node$i.span$k.range", $sp->[2] - $sp->[1], \%r);
            ($file, $last) = ($fx, $sp->[2]);
            $k++;
        }
        $i++;
    }
}

# One TU blob. $tu->{funcs}: see mkprofile.pl. Returns (buffer, counts buffer).
sub tu_blob {
    my ($tu) = @_;
    my (@strings, %index);
    my $str = sub {
        my $s = shift;
        return NONE unless defined $s;
        unless (exists $index{$s}) { $index{$s} = @strings; push @strings, $s; }
        return $index{$s};
    };
    my @funcs = @{ $tu->{funcs} };
    # Intern every string first, so the table is complete before layout.
    for my $f (@funcs) {
        $str->($f->{name});
        $str->($f->{file});
        $str->($_->[1]) for @{ $f->{nodes} };
        $str->($_->[0]) for map { @$_ } @{ $f->{lines} // [] };
    }
    my $strtab = new_buf();
    for my $i (0 .. $#strings) {
        put($strtab, "str$i.len", 'V', length $strings[$i]);
        put($strtab, "str$i.bytes", 'a*', $strings[$i]);
    }
    my (@details, $ncounters);
    my $v3 = ($tu->{meta_version} // 1) >= 3;
    $ncounters = 0;
    for my $fi (0 .. $#funcs) {
        my $f = $funcs[$fi];
        my $d = new_buf();
        if ($v3) {
            detail_v3($d, $f, $str, $tu->{raw} // {}, "f$fi.");
            push @details, $d;
            $f->{counter_offset} = $ncounters;
            $ncounters += ($f->{flags} & 1) ? 1 : $f->{npaths};
            $f->{verify_offset} = @{ $f->{verify} // [] } ? $ncounters : 0;
            $ncounters += @{ $f->{verify} // [] };
            next;
        }
        put($d, 'nnodes', 'V', scalar @{ $f->{nodes} });
        my $i = 0;
        for my $n (@{ $f->{nodes} }) {
            put($d, "node$i.bb", 'V', $n->[0]);
            put($d, "node$i.file", 'V', $str->($n->[1]));
            put($d, "node$i.line_first", 'V', $n->[2]);
            put($d, "node$i.line_last", 'V', $n->[3]);
            $i++;
        }
        put($d, 'nedges', 'V', scalar @{ $f->{edges} });
        $i = 0;
        for my $e (@{ $f->{edges} }) {
            my ($src, $dst, $kind, $real_dst, $val, $inc) = @$e;
            put($d, "edge$i.src", 'V', $src);
            put($d, "edge$i.dst", 'V', $dst);
            put($d, "edge$i.kind", 'V', $kind);
            put($d, "edge$i.real_dst", 'V', $real_dst // NONE);
            put($d, "edge$i.val", 'Q<', $val);
            put($d, "edge$i.inc", 'q<', $inc // 0);
            $i++;
        }
        my @verify = @{ $f->{verify} // [] };
        put($d, 'nverify_detail', 'V', scalar @verify);
        $i = 0;
        for my $v (@verify) {
            put($d, "verify$i.src", 'V', $v->[0]);
            put($d, "verify$i.dst", 'V', $v->[1]);
            $i++;
        }
        # The line table (flag LINES, 4096): per node, [FILE, FIRST, LAST] spans.
        if ($f->{lines}) {
            put($d, 'lines.nnodes', 'V', scalar @{ $f->{lines} });
            $i = 0;
            for my $spans (@{ $f->{lines} }) {
                put($d, "lines.node$i.nspans", 'V', scalar @$spans);
                my $k = 0;
                for my $sp (@$spans) {
                    put($d, "lines.node$i.span$k.file", 'V', $str->($sp->[0]));
                    put($d, "lines.node$i.span$k.first", 'V', $sp->[1]);
                    put($d, "lines.node$i.span$k.last", 'V', $sp->[2]);
                    $k++;
                }
                $i++;
            }
        }
        push @details, $d;
        # Counters: array mode npaths, hash mode one slot, then verify counters.
        $f->{counter_offset} = $ncounters;
        $ncounters += ($f->{flags} & 1) ? 1 : $f->{npaths};
        $f->{verify_offset} = @verify ? $ncounters : 0;
        $ncounters += @verify;
    }
    my $dir_size = 64 * @funcs;
    my $strtab_offset = ($v3 ? 40 : 32) + $dir_size;
    my $at = $strtab_offset + length $strtab->{data};
    my @detail_offset;
    for my $d (@details) { push @detail_offset, $at; $at += length $d->{data}; }

    my $b = new_buf();
    put($b, 'meta.magic', 'a4', 'PPTM');
    put($b, 'meta.version', 'V', $tu->{meta_version} // 1);
    put($b, 'meta.nfuncs', 'V', scalar @funcs);
    put($b, 'meta.nstrings', 'V', scalar @strings);
    put($b, 'meta.strtab_offset', 'Q<', $strtab_offset);
    put($b, 'meta.ncounters', 'Q<', $ncounters);
    if ($v3) {    # from version 2: the build line (none here), a reserved word
        put($b, 'meta.build', 'V', NONE);
        put($b, 'meta.reserved', 'V', 0);
    }
    for my $i (0 .. $#funcs) {
        my $f = $funcs[$i];
        my $p = "f$i.";
        put($b, $p . 'name', 'V', $str->($f->{name}));
        put($b, $p . 'file', 'V', $str->($f->{file}));
        put($b, $p . 'checksum', 'Q<', $f->{checksum});
        put($b, $p . 'flags', 'V', $f->{flags});
        put($b, $p . 'line', 'V', $f->{line});
        put($b, $p . 'npaths', 'Q<', $f->{npaths});
        put($b, $p . 'counter_offset', 'Q<', $f->{counter_offset});
        put($b, $p . 'verify_offset', 'Q<', $f->{verify_offset});
        put($b, $p . 'nverify', 'V', scalar @{ $f->{verify} // [] });
        put($b, $p . 'reserved', 'V', 0);
        put($b, $p . 'detail_offset', 'Q<', $detail_offset[$i]);
    }
    append($b, $strtab, '');
    append($b, $details[$_], "f$_.") for 0 .. $#details;
    # Unreferenced filler so the blob length is not a multiple of 8 and the
    # padding after it is exercised (blobs may hold bytes nothing points to).
    my $r = length($b->{data}) % 8;
    put($b, 'meta.filler', 'a*', 'x' x ($r == 4 ? 0 : (12 - $r) % 8));    # length = 4 mod 8

    my $c = new_buf();
    for my $i (0 .. $#funcs) {
        my $f = $funcs[$i];
        my @rec = @{ $f->{records} // [] };
        put($c, "f$i.nrecords", 'Q<', scalar @rec);
        my $r = 0;
        for (@rec) {
            put($c, "f$i.rec$r.id", 'Q<', $_->[0]);
            put($c, "f$i.rec$r.count", 'Q<', $_->[1]);
            $r++;
        }
        if ($f->{flags} & 8) {
            my $k = 0;
            put($c, "f$i.vcount" . $k++, 'Q<', $_) for @{ $f->{vcounts} };
        }
    }
    return ($b, $c);
}

# The whole profile: $p->{program}, {cmdline}, {pid}, {time}, {tus}, {mode} (default 1),
# {extra_sections}: [TAG, BYTES] or [TAG, BUFFER, MAP-PREFIX].
sub profile_bytes {
    my ($p) = @_;
    my @sections;
    my $prog = new_buf();
    put($prog, 'program.len', 'V', length $p->{program});
    put($prog, 'program.bytes', 'a*', $p->{program});
    put($prog, 'cmdline.len', 'V', length $p->{cmdline});
    put($prog, 'cmdline.bytes', 'a*', $p->{cmdline});
    put($prog, 'array_updates', 'Q<', $p->{array_updates});
    put($prog, 'hash_updates', 'Q<', $p->{hash_updates});
    put($prog, 'lost_after_write', 'Q<', 0);
    push @sections, [1, $prog, 'program.'];
    my $t = 0;
    for my $tu (@{ $p->{tus} }) {
        my ($blob, $counts) = tu_blob($tu);
        my $s = new_buf();
        put($s, 'meta_len', 'Q<', length $blob->{data});
        append($s, $blob, '');
        put($s, 'pad', 'a*', "\0" x ((8 - length($blob->{data}) % 8) % 8));
        append($s, $counts, '');
        push @sections, [2, $s, "tu$t."];
        $t++;
    }
    for my $x (@{ $p->{extra_sections} // [] }) {
        if (ref $x->[1]) {    # a buffer with its own map (e.g. mkkipf.pl's KIPF)
            push @sections, [$x->[0], $x->[1], $x->[2] // "extra$x->[0]."];
            next;
        }
        my $s = new_buf();
        put($s, 'bytes', 'a*', $x->[1]);
        push @sections, [$x->[0], $s, "extra$x->[0]."];
    }
    my $payload = new_buf();
    my $i = 0;
    for my $sec (@sections) {
        my ($tag, $s, $prefix) = @$sec;
        put($payload, "sec$i.tag", 'V', $tag);
        put($payload, "sec$i.reserved", 'V', 0);
        put($payload, "sec$i.length", 'Q<', length $s->{data});
        append($payload, $s, $prefix);
        $i++;
    }
    my $f = new_buf();
    put($f, 'header.magic', 'a8', 'PATHPROF');
    put($f, 'header.version', 'V', $p->{file_version} // 2);
    put($f, 'header.header_size', 'V', 64);
    put($f, 'header.mode', 'V', $p->{mode} // 1);
    put($f, 'header.flags', 'V', 0);
    put($f, 'header.pid', 'Q<', $p->{pid});
    put($f, 'header.time', 'Q<', $p->{time});
    put($f, 'header.nsections', 'V', scalar @sections);
    put($f, 'header.reserved', 'V', 0);
    put($f, 'header.payload_size', 'Q<', length $payload->{data});
    put($f, 'header.reserved2', 'Q<', 0);
    append($f, $payload, '');
    push @{ $f->{map} }, ['trailer', length $f->{data}, 8];
    $f->{data} .= trailer($f->{data});
    return $f;
}

1;
