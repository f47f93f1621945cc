#!/usr/bin/perl
# craft.pl - damages one section of a real profile (or one record of a real
# trace) the way a writer gone wrong would, then re-seals the checksum so the
# damage reaches the section's reader instead of the envelope's check.
#
#   craft.pl IN OUT EDIT...
#
# Sections are found by walking the file (docs/format.md, section 3), so the
# edits work on whatever a real run wrote. EDITs (applied in order):
#   kipf-child-func      KIPF: the first child node gets a function other
#                        than its parent's (a k-iteration path across two)
#   kprune-err           KPRUNE: the first sequence of one BL path gets
#                        err = count + 1
#   kprune-wrap          KPRUNE, length 1: total 2^64-1, the first sequence
#                        count 2^64-1, the second count 2, both err 0: lower
#                        bounds that add up to 1 in 64 bits
#   tu-count0            TU: the first path record gets count 0
#   tu-wrap-func         TU: two records of the first function with two or
#                        more get count 2^63, every other record count 1
#   tu-wrap-profile      TU: one record of each of the first two functions
#                        with records gets 2^63, every other record 1
#   tu-wrap-copies:NAME  TU: every record count 1 but the first of each
#                        copy of function NAME (one per TU), 2^63
#   verify-wrap-copies:NAME  TU: the first direct edge count of each copy of
#                        NAME (VERIFY), 2^63
#   tu-meta-magic        TU: the metadata blob's magic becomes "XXXX"
#   program-len          PROGRAM: the program string's length 2^32-1
#   program-totals-wrap  PROGRAM: array_updates 2^64-1, hash_updates set so
#                        that the two add up to the file's counts in 64 bits
#   stream-threads       STREAM: one analyzer thread more than its statistics
#   header-byte          flips a byte of the header's pid WITHOUT re-sealing
#   trace-tu:FIELD=V     trace: the first TU record's tu_base or fn_base
#                        becomes V (decimal, or 0x hex)
# Prints nothing; dies when the file lacks what the edit needs.
use strict;
use warnings;
no warnings 'portable';   # 64-bit values in hex
use FindBin;
use lib $FindBin::Bin;
use PPWrite qw(reseal);

my ($in, $out, @edits) = @ARGV;
die "usage: craft.pl IN OUT EDIT...\n" unless defined $out && @edits;
open my $fh, '<:raw', $in or die "$in: $!\n";
my $d = do { local $/; <$fh> };
close $fh;

sub u32 { unpack 'V', substr($d, $_[0], 4) }
sub u64 { unpack 'Q<', substr($d, $_[0], 8) }
sub put32 { substr($d, $_[0], 4) = pack 'V', $_[1] }
sub put64 { substr($d, $_[0], 8) = pack 'Q<', $_[1] }

# Sections: [tag, body offset, body length], in file order.
sub sections {
    my ($n, $at, @s) = (u32(40), 64);
    for (1 .. $n) {
        my ($tag, $len) = (u32($at), u64($at + 8));
        push @s, [$tag, $at + 16, $len];
        $at += 16 + $len;
    }
    return @s;
}

sub first_section {
    my ($tag) = @_;
    for my $s (sections()) { return @$s if $s->[0] == $tag }
    die "$in: no section with tag $tag\n";
}

# The counts of every function of every TU section, in file order:
# [offset of the first path record, number of records, function name,
#  offset of the first direct edge count, number of them (VERIFY only)].
sub tu_records {
    my @r;
    for my $s (grep { $_->[0] == 2 } sections()) {
        my $blob = $s->[1] + 8;
        my $meta_len = u64($s->[1]);
        my ($nfuncs, $nstrings, $strtab) = (u32($blob + 8), u32($blob + 12), u64($blob + 16));
        my $hsize = u32($blob + 4) >= 2 ? 40 : 32;    # header grew in version 2
        my ($at, @str) = ($blob + $strtab);
        for (1 .. $nstrings) { push @str, substr($d, $at + 4, u32($at)); $at += 4 + u32($at) }
        $at = $blob + $meta_len + (8 - $meta_len % 8) % 8;
        for my $f (0 .. $nfuncs - 1) {
            my $dir = $blob + $hsize + 64 * $f;
            my ($name, $flags, $nverify) = ($str[u32($dir)], u32($dir + 16), u32($dir + 48));
            my $n = u64($at);
            my $v = ($flags & 8) ? $nverify : 0;
            push @r, [$at + 8, $n, $name, $at + 8 + 16 * $n, $v];
            $at += 8 + 16 * $n + 8 * $v;
        }
    }
    return @r;
}

sub set_all_counts {
    my ($value) = @_;
    for my $f (tu_records()) {
        put64($f->[0] + 16 * $_ + 8, $value) for 0 .. $f->[1] - 1;
    }
}

# The compact node encoding (KIPF flags bit 1) cannot name another function
# for a child (it has its parent's by construction): the first KIPF section
# is rewritten in the fixed 32-byte encoding, which can, and which the
# reader still reads; the section and payload lengths follow.
sub kipf_to_fixed {
    my ($tag, $body, $len) = first_section(4);
    my $flags = u32($body + 4);
    return unless $flags & 2;
    my $nlevels = u32($body + 48);
    my $o = $body + 56 + 24 * $nlevels + 24;
    my $nroots = u64($o - 8);
    my $fixed = substr($d, $body, $o - $body);
    substr($fixed, 4, 4) = pack 'V', $flags & ~2;
    my $uleb = sub {
        my ($v, $shift) = (0, 0);
        while (1) {
            my $byte = ord substr($d, $o++, 1);
            $v |= ($byte & 0x7f) << $shift;
            return $v unless $byte & 0x80;
            $shift += 7;
        }
    };
    my $node;
    $node = sub {
        my ($tu, $fn) = @_;
        ($tu, $fn) = ($uleb->(), $uleb->()) unless defined $tu;
        my ($id, $count, $nch) = ($uleb->(), $uleb->(), $uleb->());
        $fixed .= pack 'V V Q< Q< V V', $tu, $fn, $id, $count, $nch, 0;
        $node->($tu, $fn) for 1 .. $nch;
    };
    $node->() for 1 .. $nroots;
    die "$in: the KIPF section does not end where its forest does\n" if $o != $body + $len;
    substr($d, $body, $len) = $fixed;
    put64($body - 8, length $fixed);
    put64(48, u64(48) + length($fixed) - $len);
}

my $reseal = 1;
for my $e (@edits) {
    if ($e eq 'kipf-child-func') {
        kipf_to_fixed();
        my ($tag, $body) = first_section(4);
        my $nlevels = u32($body + 48);
        my $node = $body + 56 + 24 * $nlevels + 24;
        die "$in: the first KIPF root has no child\n" unless u32($node + 24) > 0;
        my $child = $node + 32;
        my ($tu, $func) = (u32($child), u32($child + 4));
        # The TU's function count, from its metadata directory.
        my @tus = grep { $_->[0] == 2 } sections();
        my $nfuncs = u32($tus[$tu][1] + 8 + 8);
        die "$in: TU $tu has one function\n" if $nfuncs < 2;
        put32($child + 4, ($func + 1) % $nfuncs);
    } elsif ($e eq 'kprune-err') {
        my ($tag, $body) = first_section(5);
        my $seq = $body + 64 + 24;
        die "$in: no sequence of one BL path\n" unless u64($body + 64 + 16) > 0;
        put64($seq + 16, u64($seq + 8) + 1);
    } elsif ($e eq 'kprune-wrap') {
        my ($tag, $body) = first_section(5);
        my $len1 = $body + 64;
        die "$in: fewer than two sequences of one BL path\n" unless u64($len1 + 16) >= 2;
        put64($len1, ~0);
        my $seq = $len1 + 24;            # each: tu, func, count, err, one path ID
        put64($seq + 8, ~0);
        put64($seq + 16, 0);
        put64($seq + 32 + 8, 2);
        put64($seq + 32 + 16, 0);
    } elsif ($e eq 'tu-count0') {
        my ($f) = grep { $_->[1] > 0 } tu_records();
        die "$in: no path record\n" unless $f;
        put64($f->[0] + 8, 0);
    } elsif ($e eq 'tu-wrap-func') {
        my ($f) = grep { $_->[1] >= 2 } tu_records();
        die "$in: no function with two path records\n" unless $f;
        set_all_counts(1);
        put64($f->[0] + 8, 1 << 63);
        put64($f->[0] + 16 + 8, 1 << 63);
    } elsif ($e eq 'tu-wrap-profile') {
        my @f = grep { $_->[1] > 0 } tu_records();
        die "$in: fewer than two functions with records\n" if @f < 2;
        set_all_counts(1);
        put64($f[0][0] + 8, 1 << 63);
        put64($f[1][0] + 8, 1 << 63);
    } elsif ($e =~ /^tu-wrap-copies:(.+)$/) {
        my @f = grep { $_->[2] eq $1 && $_->[1] > 0 } tu_records();
        die "$in: fewer than two copies of $1 with records\n" if @f < 2;
        set_all_counts(1);
        put64($_->[0] + 8, 1 << 63) for @f;
    } elsif ($e =~ /^verify-wrap-copies:(.+)$/) {
        my @f = grep { $_->[2] eq $1 && $_->[4] > 0 } tu_records();
        die "$in: fewer than two copies of $1 with edge counts\n" if @f < 2;
        put64($_->[3], 1 << 63) for @f;
    } elsif ($e eq 'tu-meta-magic') {
        my ($tag, $body) = first_section(2);
        substr($d, $body + 8, 4) = 'XXXX';
    } elsif ($e eq 'program-len') {
        my ($tag, $body) = first_section(1);
        put32($body, 0xffffffff);
    } elsif ($e eq 'program-totals-wrap') {
        my ($tag, $body) = first_section(1);
        my $at = $body + 4 + u32($body);
        $at += 4 + u32($at);
        my $total = 0;
        for my $f (tu_records()) { $total += u64($f->[0] + 16 * $_ + 8) for 0 .. $f->[1] - 1 }
        put64($at, ~0);
        put64($at + 8, $total + 1);      # (2^64 - 1) + total + 1 = total in 64 bits
    } elsif ($e eq 'stream-threads') {
        my ($tag, $body) = first_section(3);
        put32($body + 12, u32($body + 12) + 1);
    } elsif ($e eq 'header-byte') {
        substr($d, 24, 1) = chr(ord(substr($d, 24, 1)) ^ 0x40);
        $reseal = 0;
    } elsif ($e =~ /^trace-tu:(tu_base|fn_base)=(0x[0-9a-f]+|[0-9]+)$/i) {
        my ($field, $value) = ($1, $2);
        my ($off, $v) = ($field eq 'tu_base' ? 8 : 16, $value =~ /^0x/i ? hex $value : $value);
        my $at = 64;
        while ($at + 16 <= length($d) - 8) {
            my ($type, $len) = (u32($at), u64($at + 8));
            if ($type == 2) { put64($at + 16 + $off, $v); last }
            $at += 16 + $len;
        }
        die "$in: no TU record\n" if $at + 16 > length($d) - 8;
    } else {
        die "craft.pl: unknown edit '$e'\n";
    }
}
$d = reseal($d) if $reseal;
open my $o, '>:raw', $out or die "$out: $!\n";
print $o $d;
close $o or die "$out: $!\n";
