#!/usr/bin/perl
# perfctl/lib/kipfcmp.pl [--totals-only F,...] [--sched F,...] [--max-forked N|any]
#                        COUNT.json KSF.json KSF-K.json [MAXDIFF]
# - does a ksf profile (stream mode, PATHPROF_ANALYZER=ksf, k >= 2) agree
# with counting mode on the same program and workload? perfctl/crosscheck's
# oracle for the k-iteration analyzer (--analyzers ...,ksf).
#
#   COUNT.json  `pathprof report --json` of the counting-mode profile
#   KSF.json    `pathprof report --json` of the ksf profile (for its STREAM
#               section: "exact"; it has no path records of its own)
#   KSF-K.json  `pathprof report --k --json --min-length 1` of the ksf
#               profile: every node of the k-IPF (no --top: it would cut)
#
# What must hold exactly (docs/kiterations.md, Definition 2: the k-IPF
# counts every n-gram, n <= k, of one activation's consecutive BL paths;
# analyzers/ksf/ipf.c, write.c; docs/perfctl.md "crosscheck ... ksf"):
#
#   roots     the k-IPF's roots (1-grams) count each BL path as often as
#             it ran: every (function, path ID) equal to counting mode;
#             and their sum is the KIPF section's `events`
#   levels    (k >= 2) every level against the one below: [x, s] is a path
#             x of s's activation just before the sequence s, so by the BL
#             paths' own ends (the counting report's "start" and "end"),
#             for each sequence s of n < k paths, with c(s) its count,
#             in(s) the sum of the counts of every [x, s] and out(s) of
#             every [s, y]:
#               s's first path starts at "entry"       in(s) = 0 (a new
#                                                      activation)
#               it starts at "loop" or "cut"           in(s) = c(s) (the
#                                                      path before it ended
#                                                      with that back edge
#                                                      or cut edge)
#               it starts at "other"                   in(s) <= c(s) (setjmp
#                                                      receiver, landing pad)
#               s's last path ends at "return"         out(s) = 0
#               it ends otherwise                      out(s) <= c(s) (an
#                                                      activation left by
#                                                      exit, longjmp or an
#                                                      exception in its next
#                                                      path: the shortfall
#                                                      of the roots is
#                                                      printed)
#             and every suffix of a sequence is in the forest. With the
#             roots equal to counting mode this pins each level's sums to
#             the counts: a count lost or doubled at any depth breaks one.
#   exact     the ksf profile's STREAM section says exact
#
# Prints one line of facts on stdout:
#   functions F paths P total T roots equal|no levels ok|no|n/a exact yes|no|n/a
# (F, P, T from the counting profile as pathcmp.pl gives them) and on
# stderr the first MAXDIFF (default 10) functions whose roots differ,
# largest difference first, and the first MAXDIFF sequences that break a
# level rule.
# Exit status 0 when everything holds, 1 otherwise, 2 on unreadable input.
#
# --totals-only and --sched as in pathcmp.pl (the program file's
# PROG_CLOCK_FUNCS and PROG_SCHED_FUNCS): a clock function's roots are
# compared by their sum only, a scheduling-dependent one only has to have
# run in both; neither is checked by the level rules (its paths are the
# run's).
#
# --max-forked (the program file's PROG_FORK_MAX; default 0): a forked
# child's profile, added to its parent's with PATHPROF_ACCUMULATE=1,
# starts every open activation's sequences at the fork, as if they began
# there (docs/runtime.md, "fork"), so a sequence of the child that starts
# at a loop header or a cut has no predecessor there: in(s) < c(s). Up to
# N such missing predecessors in all ('any': no limit, a shell forking in
# its evaluator loops) are allowed and printed; in(s) > c(s) never is.
#
# The k-IPF JSON names a function by name and file only (no checksum): a
# function is keyed by (name, file), and where the counting profile has
# two functions of one name and file with different CFG checksums (a
# static inline function of a header whose copies were built apart), their
# counts are added per path ID on both sides and the pair is counted as
# "merged" in a line on stderr: still an exact equality, only coarser.
# Both documents are read line by line as pathcmp.pl does (docs/json.md
# puts every path and every k-iteration path on a line of its own).
use strict;
use warnings;

my (%totals_only, %sched);
my $max_forked = 0;
while (@ARGV && $ARGV[0] =~ /^--(totals-only|sched|max-forked)$/) {
    shift;
    if ($1 eq 'max-forked') {
        my $v = shift;
        defined $v && $v =~ /^(\d+|any)$/ or die "kipfcmp.pl: --max-forked needs a number or 'any'\n";
        $max_forked = $v eq 'any' ? 9**9**9 : $v;
        next;
    }
    my $set = $1 eq 'sched' ? \%sched : \%totals_only;
    defined $ARGV[0] or die "kipfcmp.pl: --$1 needs a list of function names (may be empty)\n";
    $set->{$_} = 1 for split /,/, shift;
}
my ($cfile, $sfile, $kfile, $maxdiff) = @ARGV;
die "usage: kipfcmp.pl [--totals-only F,...] [--sched F,...] [--max-forked N|any] COUNT.json KSF.json KSF-K.json [MAXDIFF]\n"
    unless defined $kfile;
$maxdiff //= 10;

my $str = qr/"((?:[^"\\]|\\.)*)"/;

sub bad_input { print STDERR "kipfcmp: $_[0]\n"; exit 2 }

# base NAME: the source function of a GCC clone's name (as pathcmp.pl)
sub base {
    my ($n) = @_;
    1 while $n =~ s/\.(?:part|isra|constprop|cold|lto_priv|clone)(?:\.\d+)?$//;
    return $n;
}

# The counting profile: per "name\tfile" the path counts, the paths'
# start and end kinds, and the checksums seen.
my (%c, %cstart, %cend, %csums, $cmode);
{
    open my $fh, '<', $cfile or bad_input("$cfile: $!");
    my $cur;
    while (my $l = <$fh>) {
        if ($l =~ /^\s*\{"name":$str,"file":(null|$str),"line":\d+,"checksum":"(0x[0-9a-f]+)"/) {
            $cur = join "\t", $1, ($3 // '-');
            $csums{$cur}{$4} = 1;
            $c{$cur} //= {};
        } elsif ($l =~ /^\s*\{"id":(\d+),"count":(\d+)/) {
            defined $cur or bad_input("$cfile: a path before any function");
            my ($id, $n) = ($1, $2);
            $c{$cur}{$id} += $n;
            # the last "start" of the line: the path's own (a file name in
            # "lines" cannot hold a quote unescaped)
            my ($st, $en);
            ($st, $en) = ($1, $2) while $l =~ /"start":"(\w+)","end":"(\w+)"/g;
            defined $st or bad_input("$cfile: path $id of $cur has no start and end (an older pathprof?)");
            # copies of one (name, file) with other graphs: a path ID may
            # start or end differently in each; such an ID is not checked
            # at level 2 (marked '?')
            for ([\%cstart, $st], [\%cend, $en]) {
                my ($h, $v) = @$_;
                $h->{$cur}{$id} = defined $h->{$cur}{$id} && $h->{$cur}{$id} ne $v ? '?' : $v;
            }
        } elsif ($l =~ /^\s*"mode":"(\w+)"/) {
            $cmode = $1;
        }
    }
    close $fh;
    defined $cmode or bad_input("$cfile: no \"mode\": not a pathprof report --json document");
}
$cmode eq 'count' or print STDERR "kipfcmp: $cfile is a $cmode profile, not a counting one\n";

my ($smode, $exact);
{
    open my $fh, '<', $sfile or bad_input("$sfile: $!");
    while (my $l = <$fh>) {
        if ($l =~ /^\s*"mode":"(\w+)"/) {
            $smode = $1;
        } elsif ($l =~ /^\s*"stream":\{"exact":(true|false)/) {
            $exact = $1 eq 'true' ? 'yes' : 'no';
        }
    }
    close $fh;
    defined $smode or bad_input("$sfile: no \"mode\": not a pathprof report --json document");
}
$smode eq 'stream' or print STDERR "kipfcmp: $sfile is a $smode profile, not a stream one\n";

# The k-IPF: roots per "name\tfile" and path ID; every node's count by
# "name\tfile\0ids", and per sequence the sums of its one-path extensions
# to the left (%in) and to the right (%out).
my (%r, %node, %in, %out, $kk, $events, $kmode, $minlen, $listed);
my $nodes = 0;
{
    open my $fh, '<', $kfile or bad_input("$kfile: $!");
    while (my $l = <$fh>) {
        if ($l =~ /^\s*\{"function":$str,"file":(null|$str),"ids":\[([0-9,]+)\],"count":(\d+)/) {
            my ($key, $ids, $n) = (join("\t", $1, ($3 // '-')), $4, $5);
            $nodes++;
            $node{"$key\0$ids"} += $n;
            if ($ids =~ /^(\d+)$/) {
                $r{$key}{$1} += $n;
            } else {
                $ids =~ /^(\d+),(.*)$/ and $in{"$key\0$2"} += $n;
                $ids =~ /^(.*),(\d+)$/ and $out{"$key\0$1"} += $n;
            }
        } elsif ($l =~ /^\s*"kipf":\{"k":(\d+),"pruned":(\w+),"threads":\d+,"events":(\d+)/) {
            ($kk, $events) = ($1, $3);
            $2 eq 'false' or bad_input("$kfile: a pruned forest: its counts are bounds, not counts");
        } elsif ($l =~ /^\s*"mode":"(\w+)"/) {
            $kmode = $1;
        } elsif ($l =~ /^\s*"min_length":(\d+)/) {
            $minlen = $1;
        } elsif ($l =~ /^\s*"total":(\d+)/) {
            $listed = $1;  # sequences selected: all of them (no --top)
        }
    }
    close $fh;
    defined $kk or bad_input("$kfile: no \"kipf\": not a pathprof report --k --json document");
}
$minlen == 1 or bad_input("$kfile: made with --min-length $minlen: the roots are not in it (use --min-length 1)");
$listed == $nodes or bad_input("$kfile: $nodes of $listed k-iteration paths listed (made with --top?)");

sub sum { my $t = 0; $t += $_ for values %{ $_[0] // {} }; $t }

my ($nf, $np, $total) = (0, 0, 0);
for my $k (keys %c) {
    my @ids = keys %{ $c{$k} } or next;
    $nf++;
    $np += @ids;
    $total += $_ for values %{ $c{$k} };
}
my @merged = sort grep { keys %{ $csums{$_} } > 1 && %{ $c{$_} } } keys %csums;
printf STDERR "kipfcmp: %d function name(s) with copies of other CFG checksums in one file, their "
    . "paths added per ID on both sides: %s\n", scalar @merged, join(', ', map { (split /\t/)[0] } @merged)
    if @merged;

# Roots against counting mode, as pathcmp.pl compares two BL profiles.
my (%all, @diff, @schedrows);
$all{$_} = 1 for keys %c, keys %r;
for my $k (keys %all) {
    my ($cp, $rp) = ($c{$k} // {}, $r{$k} // {});
    my $bn = base((split /\t/, $k)[0]);
    my ($ct, $rt) = (sum($cp), sum($rp));
    if ($sched{$bn}) {
        if (($ct > 0) == ($rt > 0)) { push @schedrows, [$k, $ct, $rt] if $ct; next; }
    }
    my %ids = map { $_ => 1 } keys %$cp, keys %$rp;
    my @bad = sort { $a <=> $b } grep { ($cp->{$_} // 0) != ($rp->{$_} // 0) } keys %ids;
    next unless @bad;
    next if $totals_only{$bn} && $ct == $rt;
    push @diff, [abs($ct - $rt), $k, $ct, $rt, \@bad, $cp, $rp,
                 !%$cp ? ' (only in ksf)' : !%$rp ? ' (only in count)' : ''];
}
@diff = sort { $b->[0] <=> $a->[0] || $a->[1] cmp $b->[1] } @diff;
my $rsum = 0;
$rsum += sum($_) for values %r;
if (@diff) {
    my $split = grep { $_->[2] == $_->[3] } @diff;
    printf STDERR "kipfcmp: roots of %d function(s) differ from counting mode%s; %d with the same total "
        . "(paths split differently), %d with different totals (events lost or gained):\n", scalar @diff,
        @diff > $maxdiff ? " (the first $maxdiff by difference)" : '', $split, @diff - $split;
    for my $d (@diff[0 .. ($#diff < $maxdiff - 1 ? $#diff : $maxdiff - 1)]) {
        my ($k, $ct, $rt, $bad, $cp, $rp, $why) = @$d[1 .. 7];
        my ($name, $file) = split /\t/, $k;
        my @ex = map { sprintf 'path %s %s/%s', $_, $cp->{$_} // 0, $rp->{$_} // 0 } @$bad[0 .. ($#$bad < 3 ? $#$bad : 3)];
        printf STDERR "  %s (%s)%s: count %s, ksf roots %s; %d path(s) differ: %s%s\n",
            $name, $file, $why, $ct, $rt, scalar @$bad, join(', ', @ex), @$bad > 4 ? ', ...' : '';
    }
}
my $events_ok = $rsum == $events;
print STDERR "kipfcmp: the roots add up to $rsum, the KIPF section says $events path events\n" unless $events_ok;
if (@schedrows) {
    printf STDERR "kipfcmp: %d scheduling-dependent function(s) not compared (count/ksf roots): %s\n", scalar @schedrows,
        join ', ', map { sprintf '%s %s/%s', (split /\t/, $_->[0])[0], $_->[1], $_->[2] } sort { $a->[0] cmp $b->[0] } @schedrows;
}

# Every level against the one below, by the BL paths' ends (the counting
# report's start and end kinds) and the k-IPF's own counts, so that what
# is checked here is the forest's consistency, apart from any root
# difference above. For a k-iteration path s of n < k BL paths, with c(s)
# its count: in(s), the sum of the counts of [x, s], is c(s) when s's
# first path starts at a loop header or a cut (it always has a
# predecessor in its activation), 0 when it starts at the entry, at most
# c(s) otherwise; out(s), the sum of [s, y], is 0 when s's last path ends
# at a return, at most c(s) otherwise (an activation left by exit,
# longjmp or an exception in its next path: the shortfall of the roots is
# printed). At n = 1 this is the level-2 rule of the header.
my @lv;
my ($short, $shortn) = (0, 0);
my ($forked, $forkedn) = (0, 0);  # loop/cut starts without their predecessor
my $levels = 'n/a';
if ($kk >= 2) {
    my %skip;
    for my $k (keys %all) {
        my $bn = base((split /\t/, $k)[0]);
        $skip{$k} = 1 if $sched{$bn} || $totals_only{$bn};
    }
    for my $s (keys %in) {
        exists $node{$s} and next;
        my ($k, $ids) = split /\0/, $s;
        push @lv, "$k [$ids]: a suffix of k-iteration paths ($in{$s} in all) but not itself in the forest" unless $skip{$k};
    }
    for my $s (sort keys %node) {
        my ($k, $ids) = split /\0/, $s;
        next if $skip{$k};
        my @p = split /,/, $ids;
        next if @p >= $kk;  # no extension fits in the forest
        my ($n, $i, $o) = ($node{$s}, $in{$s} // 0, $out{$s} // 0);
        my ($st, $en) = ($cstart{$k}{$p[0]}, $cend{$k}{$p[-1]});
        # a path the counting profile does not have: the roots said so
        next unless defined $st && defined $en;
        my $what = (split /\t/, $k)[0] . " [$ids] (count $n)";
        if ($st eq 'entry' && $i) { push @lv, "$what starts at the entry, yet follows another path $i time(s)" }
        elsif (($st eq 'loop' || $st eq 'cut') && $i > $n) { push @lv, "$what starts at a $st, yet follows another path $i time(s)" }
        elsif (($st eq 'loop' || $st eq 'cut') && $i < $n) {
            if ($max_forked) { $forked += $n - $i; $forkedn++ }
            else { push @lv, "$what starts at a $st, yet follows another path $i time(s)" }
        }
        elsif ($i > $n) { push @lv, "$what (start $st) follows other paths $i time(s)" }
        if ($en eq 'return' && $o) { push @lv, "$what ends at a return, yet another path follows it $o time(s)" }
        elsif ($o > $n) { push @lv, "$what (end $en) is followed $o time(s)" }
        elsif (@p == 1 && $en ne 'return' && $en ne '?' && $o < $n) { $short += $n - $o; $shortn++ }
    }
    push @lv, "$forked sequence start(s) at a loop or cut without their predecessor, more than --max-forked $max_forked"
        if $forked > $max_forked;
    $levels = @lv ? 'no' : 'ok';
    if (@lv) {
        printf STDERR "kipfcmp: %d k-iteration path(s) disagree with the level below%s:\n", scalar @lv,
            @lv > $maxdiff ? " (the first $maxdiff)" : '';
        print STDERR "  $_\n" for @lv[0 .. ($#lv < $maxdiff - 1 ? $#lv : $maxdiff - 1)];
    }
    print STDERR "kipfcmp: $shortn path(s) not ending at a return were last in their activation $short time(s) "
        . "(exit, longjmp or an exception in the next path)\n" if $shortn;
    print STDERR "kipfcmp: $forkedn sequence(s) starting at a loop or cut lack their predecessor $forked time(s) "
        . "(begun before a fork, counted in the child from the fork on)\n" if $forkedn;
}
$exact //= 'n/a';
printf "functions %d paths %d total %s roots %s levels %s exact %s\n", $nf, $np, $total,
    @diff || !$events_ok ? 'no' : 'equal', $levels, $exact;
exit(@diff || !$events_ok || $levels eq 'no' || $exact ne 'yes' ? 1 : 0);
