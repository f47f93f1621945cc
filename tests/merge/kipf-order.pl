#!/usr/bin/perl
# kipf-order.pl [--where] FILE - the oracle of canonical order for tests/cli-merge-kipf.t,
# written from docs/format.md (section 3 and the KIPF section), not from the
# C reader: walks the KIPF forest of a profile (either node encoding) and
# prints "canonical N nodes, R roots" when every node's siblings come in
# strictly ascending (tu, func, path_id) order, or the first node that does
# not ("node I after a sibling with label >= its own: tu T func F path P").
# --where prints the byte offsets of the KIPF section's body and its end.
use strict;
use warnings;

my $where = @ARGV && $ARGV[0] eq '--where' ? shift : undef;
my $file = shift or die "usage: kipf-order.pl [--where] FILE\n";
open my $fh, '<:raw', $file or die "$file: $!\n";
my $d = do { local $/; <$fh> };
die "$file: not a profile\n" unless substr($d, 0, 8) eq 'PATHPROF';
my ($nsections) = unpack 'V', substr($d, 40, 4);
my $pos = unpack 'V', substr($d, 12, 4);
my ($kipf, $kend);
for (1 .. $nsections) {
    my ($tag, undef, $len) = unpack 'VVQ<', substr($d, $pos, 16);
    ($kipf, $kend) = ($pos + 16, $pos + 16 + $len) if $tag == 4;
    $pos += 16 + $len;
}
die "$file: no KIPF section\n" unless defined $kipf;
if ($where) { print "$kipf $kend\n"; exit 0 }
my $p = $kipf;
sub take { my ($fmt, $n) = @_; my @v = unpack $fmt, substr($d, $p, $n); $p += $n; @v }
sub uleb {
    my ($v, $shift) = (0, 0);
    while (1) {
        my $byte = ord substr($d, $p++, 1);
        $v |= ($byte & 0x7f) << $shift;
        return $v unless $byte & 0x80;
        $shift += 7;
    }
}
my ($k, $flags) = take('VV', 8);
my (undef, undef, undef, $nodes) = take('Q<Q<Q<Q<', 32);
take('Q<', 8);
my ($nlevels) = take('VV', 8);
$p += 24 * $nlevels;
my (undef, undef, $nroots) = take('Q<Q<Q<', 24);
my $compact = $flags & 2;
my $seen = 0;
# Preorder with a stack: each open node's (tu, func), children still owed,
# and the label of the sibling before, per depth.
my @stack = ([0, 0, $nroots, undef]);
while (@stack) {
    if ($stack[-1][2] == 0) { pop @stack; next }
    my $top = $stack[-1];
    $top->[2]--;
    my ($tu, $func, $id, $nchildren) = ($top->[0], $top->[1]);
    if ($compact) {
        ($tu, $func) = (uleb(), uleb()) if @stack == 1;
        $id = uleb();
        uleb();
        $nchildren = uleb();
    } else {
        ($tu, $func, $id, undef, $nchildren) = take('VVQ<Q<VV', 32);
    }
    my $label = [$tu, $func, $id];
    my $prev = $top->[3];
    if ($prev && ($prev->[0] <=> $tu || $prev->[1] <=> $func || $prev->[2] <=> $id) >= 0) {
        print "node $seen after a sibling with label >= its own: tu $tu func $func path $id\n";
        exit 0;
    }
    $top->[3] = $label;
    $seen++;
    push @stack, [$tu, $func, $nchildren, undef] if $nchildren;
}
die "$file: $seen nodes read, the section announces $nodes\n" if $seen != $nodes;
die "$file: bytes after the forest\n" if $p != $kend;
print "canonical $seen nodes, $nroots roots\n";
