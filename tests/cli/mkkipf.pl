#!/usr/bin/perl
# mkkipf.pl - writes a stream-mode profile with a KIPF section (docs/format.md,
# section 3, tag 4) whose k-iteration paths are known by construction: the
# k-IPF is computed here by brute force, counting every n-gram (n <= k) of
# each activation's stream of BL path IDs (the paper's Definition 2).
#
#   mkkipf.pl [--scenario fig3|copies] [--k K] [--claim-k K] [--reverse]
#             [--dup-root] [--map MAPFILE] OUT
#
# --claim-k writes another k in the section (with its number of levels) than
# the one the forest was built with: a damage test for depth > k.
#
# fig3: function `loop` (fig3.c) has the CFG of the paper's Figure 3 (A
# entry, B loop header, C/D the two arms, E the latch, F the exit) and runs
# once with the paper's stream 6 2 0 0 2 2 0 0 2 2 0 0 2 3. Its paths
# (ID: blocks, lines):
#   0: B D E (back)  4 7 8       1: B D E F  4 7 8 10
#   2: B C E (back)  4 5 8       3: B C E F  4 5 8 10
#   4: A B D E (back)            5: A B D E F
#   6: A B C E (back) 3 4 5 8    7: A B C E F
# Function `tiny` (fig3.c): S (line 20) then loop header H (21), back edge
# H -> H or return R (23); paths 0: S H (back), 1: S H R, 2: H (back),
# 3: H R. It runs [0 2 2 3] twice and [1] once.
# copies: `loop` in two TUs with the same checksum (merged by the CLI), the
# Fig. 3 stream in the first, 6 2 3 in the second; no `tiny`.
#
# Nodes are written in order of first occurrence in the streams (as an
# analyzer would), not sorted: the CLI must not depend on the order.
# --reverse writes every node's children in the reverse of that order (a
# second order, for tests/cli-merge-kipf.t); --dup-root writes the first
# root and its subtree a second time, after the last (siblings with the
# label: a damaged forest).
# The k-SF statistics are made up (the CLI only shows them): level i has
# 10 + i nodes, 5 internal, 9 children; hash operations 7.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use PPWrite qw(profile_bytes new_buf put);

use constant { REAL => 0, ENTRY_DUMMY => 1, EXIT_DUMMY => 2 };

my ($scenario, $k, $claim_k, $mapfile, $out, $reverse, $dup_root) = ('fig3', 4);
while (@ARGV) {
    my $a = shift @ARGV;
    if ($a eq '--scenario') { $scenario = shift @ARGV }
    elsif ($a eq '--k') { $k = shift @ARGV }
    elsif ($a eq '--claim-k') { $claim_k = shift @ARGV }
    elsif ($a eq '--map') { $mapfile = shift @ARGV }
    elsif ($a eq '--reverse') { $reverse = 1 }
    elsif ($a eq '--dup-root') { $dup_root = 1 }
    elsif ($a =~ /^-/) { die "mkkipf.pl: unknown option $a\n" }
    else { $out = $a }
}
die "usage: mkkipf.pl [--scenario fig3|copies] [--k K] [--claim-k K] [--reverse] [--dup-root] [--map MAPFILE] OUT\n" unless defined $out;

sub none_node { [$_[0], undef, 0, 0] }

sub loop_func {
    return {
        name => 'loop', file => 'fig3.c', line => 1, checksum => 0x0f16_0003, flags => 0,
        npaths => 8,
        nodes => [
            none_node(0), none_node(1),
            [2, 'fig3.c', 3, 3], [3, 'fig3.c', 4, 4], [4, 'fig3.c', 5, 5],
            [5, 'fig3.c', 7, 7], [6, 'fig3.c', 8, 8], [7, 'fig3.c', 10, 10],
        ],
        edges => [
            [0, 3, ENTRY_DUMMY, undef, 0, 0], [0, 2, REAL, undef, 4, 4],
            [2, 3, REAL, undef, 0, 0],
            [3, 5, REAL, undef, 0, 0], [3, 4, REAL, undef, 2, 2],
            [4, 6, REAL, undef, 0, 0],
            [5, 6, REAL, undef, 0, 0],
            [6, 1, EXIT_DUMMY, 3, 0, 0], [6, 7, REAL, undef, 1, 1],
            [7, 1, REAL, undef, 0, 0],
        ],
    };
}

my $tiny = {
    name => 'tiny', file => 'fig3.c', line => 19, checksum => 0x0719, flags => 0, npaths => 4,
    nodes => [none_node(0), none_node(1), [2, 'fig3.c', 20, 20], [3, 'fig3.c', 21, 21],
              [4, 'fig3.c', 23, 23]],
    edges => [
        [0, 2, REAL, undef, 0, 0], [0, 3, ENTRY_DUMMY, undef, 2, 2],
        [2, 3, REAL, undef, 0, 0],
        [3, 1, EXIT_DUMMY, 3, 0, 0], [3, 4, REAL, undef, 1, 1],
        [4, 1, REAL, undef, 0, 0],
    ],
};

my @fig3 = (6, 2, 0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 2, 3);
# TUs, each [functions], and activations: [tu, func, [ids]].
my (@tus, @acts);
if ($scenario eq 'fig3') {
    @tus = ([loop_func(), $tiny]);
    @acts = ([0, 0, \@fig3], [0, 1, [0, 2, 2, 3]], [0, 1, [0, 2, 2, 3]], [0, 1, [1]]);
} elsif ($scenario eq 'copies') {
    @tus = ([loop_func()], [loop_func()]);
    @acts = ([0, 0, \@fig3], [1, 0, [6, 2, 3]]);
} else {
    die "mkkipf.pl: unknown scenario $scenario\n";
}

# The k-IPF: a trie of n-grams; children in order of first occurrence.
my $forest = { kids => [], index => {} };
sub child {
    my ($node, $label) = @_;
    my $c = $node->{index}{$label};
    unless ($c) {
        $c = { label => $label, count => 0, kids => [], index => {} };
        $node->{index}{$label} = $c;
        push @{ $node->{kids} }, $c;
    }
    return $c;
}
my %bl;    # "tu func" -> {id -> count}: the Ball-Larus counts (1-grams)
for my $a (@acts) {
    my ($tu, $f, $ids) = @$a;
    for my $i (0 .. $#$ids) {
        $bl{"$tu $f"}{ $ids->[$i] }++;
        my $node = $forest;
        for my $j ($i .. ($i + $k - 1 < $#$ids ? $i + $k - 1 : $#$ids)) {
            $node = child($node, "$tu $f $ids->[$j]");
            $node->{count}++;
        }
    }
}

for my $t (0 .. $#tus) {
    for my $f (0 .. $#{ $tus[$t] }) {
        my $c = $bl{"$t $f"} // {};
        $tus[$t][$f]{records} = [map { [$_, $c->{$_}] } sort { $a <=> $b } keys %$c];
    }
}

my $s = new_buf();
my ($nnodes, $leaves, $depth_sum, $events) = (0, 0, 0, 0);
$events += @{ $_->[2] } for @acts;
$claim_k //= $k;
my $nlevels = $claim_k == 1 ? 1 : 2 * $claim_k - 2;
my @nodes_buf;
my $n = 0;
my $b = new_buf();
sub emit {
    my ($node, $depth) = @_;
    my ($tu, $f, $id) = split ' ', $node->{label};
    my $p = "node$n.";
    $n++;
    put($b, $p . 'tu', 'V', $tu);
    put($b, $p . 'func', 'V', $f);
    put($b, $p . 'id', 'Q<', $id);
    put($b, $p . 'count', 'Q<', $node->{count});
    put($b, $p . 'nchildren', 'V', scalar @{ $node->{kids} });
    put($b, $p . 'reserved', 'V', 0);
    unless (@{ $node->{kids} }) { $leaves++; $depth_sum += $depth; }
    emit($_, $depth + 1) for $reverse ? reverse @{ $node->{kids} } : @{ $node->{kids} };
}
my @roots = $reverse ? reverse @{ $forest->{kids} } : @{ $forest->{kids} };
push @roots, $roots[0] if $dup_root;
emit($_, 0) for @roots;

put($s, 'k', 'V', $claim_k);
put($s, 'flags', 'V', 0);
put($s, 'threads', 'Q<', 1);
put($s, 'events', 'Q<', $events);
my $ksf = 0;
$ksf += 10 + $_ for 0 .. $nlevels - 1;
put($s, 'ksf_nodes', 'Q<', $ksf);
put($s, 'kipf_nodes', 'Q<', $n);
put($s, 'hash_ops', 'Q<', 7);
put($s, 'nlevels', 'V', $nlevels);
put($s, 'reserved', 'V', 0);
for my $i (0 .. $nlevels - 1) {
    put($s, "level$i.nodes", 'Q<', 10 + $i);
    put($s, "level$i.internal", 'Q<', 5);
    put($s, "level$i.children", 'Q<', 9);
}
put($s, 'leaves', 'Q<', $leaves);
put($s, 'leaf_depth_sum', 'Q<', $depth_sum);
put($s, 'nroots', 'Q<', scalar @roots);
PPWrite::append($s, $b, '');

my %profile = (
    program => '/tmp/fig3', cmdline => './fig3', pid => 77, time => 1700000000, mode => 2,
    array_updates => 0, hash_updates => 0,
    tus => [map { { funcs => $_ } } @tus],
    extra_sections => [[4, $s, 'kipf.']],
);
my $file = profile_bytes(\%profile);
open my $fh, '>:raw', $out or die "$out: $!\n";
print $fh $file->{data};
close $fh or die "$out: $!\n";
if (defined $mapfile) {
    open my $mh, '>', $mapfile or die "$mapfile: $!\n";
    print $mh "$_->[0] $_->[1] $_->[2]\n" for @{ $file->{map} };
    close $mh;
}
