#!/usr/bin/perl
# edgeflow.pl [--max N] PROFILE.json - counting mode's paths against the
# plugin's direct edge counters (`verify`) on a real program, where no
# source states what ran: perfctl/robustness's `verify` mode.
#
# For every function with verify_edges, each real CFG edge's count is
# derived from the path counts (the sum of the counts of the paths whose
# edges hold it) and compared with the edge's direct count. The direct
# counters sit on the edges, not on the numbering, so a path numbered,
# placed or counted wrongly shows here even where stream mode agrees with
# counting mode (perfctl/crosscheck compares two users of one numbering).
#
# direct == derived on every edge, but for two things a program can do:
#   - abandon an activation: exit() in a callee, longjmp out of the frame,
#     a thread cancelled. The path's first edges ran, the path was never
#     counted: direct - derived > 0 on them.
#   - fork in mid-path: the path's first edges ran once, in the parent,
#     and the path ends, and is counted, in both processes (the profile
#     sums them, docs/runtime.md): direct - derived < 0 on those edges.
# So diff = direct - derived is, per function, a flow of partial paths
# out of the blocks where paths start: positive into the blocks where
# activations were abandoned, negative into those where the process
# forked. Per function its positive sinks add up to the abandoned partial
# paths, its negative ones to the forked ones (a partial path that never
# left its first block is invisible here; an abandoned and a forked one
# on the same edges cancel). Every edge of an executed path must have a
# direct counter. The program passes when the abandoned partial paths of
# all functions add up to at most --max (default 64: the frames on the
# stack at exit, a few longjmps) and the forked ones to at most
# --max-forked (default 0: a program that does not fork has none, so
# there derived <= direct on every edge, checked edge by edge); the
# functions with either are listed, most first. 'any' lifts a limit (a shell whose every forked
# child exits from deep in its evaluator: perfctl/programs/dash.sh).
# Output: "edges E, functions F, abandoned A (FUNC=K ...), forked B
# (FUNC=K ...)" on stdout; problems on stderr. Exit 0 on pass, 1 on fail,
# 2 on bad input.
use strict;
use warnings;
use JSON::PP;

my ($max, $max_forked) = (64, 0);
while (@ARGV > 1 && $ARGV[0] =~ /^--max(-forked)?$/) {
    my $o = shift;
    my $v = shift;
    defined $v && $v =~ /^(\d+|any)$/ or do { print STDERR "edgeflow.pl: $o wants a whole number or 'any'\n"; exit 2 };
    $v = 9**99 if $v eq 'any';
    $o eq '--max' ? ($max = $v) : ($max_forked = $v);
}
die "usage: edgeflow.pl [--max N] [--max-forked N] PROFILE.json\n" unless @ARGV == 1;
open my $fh, '<', $ARGV[0] or do { print STDERR "edgeflow.pl: $ARGV[0]: $!\n"; exit 2 };
my $j = eval { local $/; JSON::PP->new->allow_bignum->decode(<$fh>) };
unless ($j && ref $j->{functions} eq 'ARRAY') { print STDERR "edgeflow.pl: $ARGV[0]: not a pathprof report --json\n"; exit 2 }

my ($nedges, $nfun, $total, $total_forked, @bad, %aband, %forked) = (0, 0, 0, 0);
for my $f (@{ $j->{functions} }) {
    my $ve = $f->{verify_edges};
    next unless ref $ve eq 'ARRAY';
    $nfun++;
    my $name = "$f->{name} ($f->{file})";
    my (%direct, %derived);
    $direct{"$_->{src}>$_->{dst}"} += $_->{count} for @$ve;
    for my $p (@{ $f->{paths} }) {
        $derived{"$_->[0]>$_->[1]"} += $p->{count} for @{ $p->{edges} };
    }
    # docs/format.md: an ENTRY edge, when listed, has no direct counter
    delete $derived{$_} for grep { /^0>/ && !exists $direct{$_} } keys %derived;
    my %net;
    for my $e (sort keys %{ { %direct, %derived } }) {
        $nedges++;
        unless (exists $direct{$e}) { push @bad, "$name: edge $e is on executed paths but has no direct counter"; next }
        my $d = $direct{$e} - ($derived{$e} // 0);
        next unless $d;
        # Without forks, no path ends more often than one of its edges ran
        # (a path counted too often along a whole loop iteration makes a
        # cycle of the flow, invisible in its sinks).
        push @bad, "$name: edge $e: paths through it counted $derived{$e}, the edge ran $direct{$e}"
            if $d < 0 && !$max_forked;
        my ($s, $t) = split />/, $e;
        $net{$s} -= $d;
        $net{$t} += $d;
    }
    # A block's net is what flows in less what flows out: an abandoned
    # flow's sink is positive, its source (where the path started)
    # negative; a forked flow the other way round. Each flow is counted
    # once, at its sinks: the blocks, other than those where paths start
    # (the entry, loop headers), with a net of either sign. (A sink in a
    # block where other paths start is missed: the check is then weaker,
    # never wrong.)
    # The first block (the only one no real edge enters) starts paths
    # even in a function that never completed one (it always execs or
    # exits: dash's shellexec).
    my (%starts, %entered);
    for (@$ve) { $entered{ $_->{dst} } = 1; $starts{ $_->{src} } = 1 }
    delete @starts{ keys %entered };
    for my $p (@{ $f->{paths} }) { $starts{ $p->{blocks}[0] } = 1 if @{ $p->{blocks} || [] } }
    my ($k, $kf) = (0, 0);
    for my $b (grep { !$starts{$_} } keys %net) {
        $k += $net{$b} if $net{$b} > 0;
        $kf -= $net{$b} if $net{$b} < 0;
    }
    if ($k) { $aband{$name} = $k; $total += $k }
    if ($kf) { $forked{$name} = $kf; $total_forked += $kf }
}
unless ($nfun) { print STDERR "edgeflow.pl: $ARGV[0]: no function has verify_edges (not a verify build?)\n"; exit 2 }
push @bad, "$total abandoned partial paths in all, more than --max $max" if $total > $max;
push @bad, "$total_forked forked partial paths in all (paths counted more often than their first edges ran), more than --max-forked $max_forked"
    if $total_forked > $max_forked;
sub listing {
    my ($h) = @_;
    my @top = sort { $h->{$b} <=> $h->{$a} || $a cmp $b } keys %$h;
    return '' unless @top;
    return ' (' . join(' ', map { (split / /, $_)[0] . "=$h->{$_}" } @top[0 .. ($#top < 7 ? $#top : 7)]) . (@top > 8 ? ' ...' : '') . ')';
}
print "edges $nedges, functions $nfun, abandoned $total" . listing(\%aband) . ", forked $total_forked" . listing(\%forked) . "\n";
if ($total_forked > $max_forked) {
    my $n = 0;
    for my $fn (sort { $forked{$b} <=> $forked{$a} } keys %forked) { last if ++$n > 5; print STDERR "$fn: $forked{$fn} forked partial paths\n" }
}
print STDERR "$_\n" for @bad[0 .. ($#bad < 19 ? $#bad : 19)];
exit(@bad ? 1 : 0);
