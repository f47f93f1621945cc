#!/usr/bin/perl
# perfctl/lib/pathcmp.pl [--totals-only F,...] COUNT.json STREAM.json [MAXDIFF] - are two
# `pathprof report --json` documents of one program (counting mode and
# stream mode + blpp) equal path for path? perfctl/crosscheck's oracle.
#
# Prints one line of facts on stdout:
#   functions F paths P total T equal yes|no exact yes|no|n/a
# (F functions that ran, P distinct (function, path ID) pairs, T the sum of
# their counts, all from the counting profile; exact: the stream profile's
# STREAM section) and, on stderr, the first MAXDIFF (default 10) functions
# whose counts differ, with both counts of their first differing paths,
# after a line that says how many differing functions have the same total
# in both runs (flow split differently: the program's own nondeterminism)
# and how many have different totals (events lost or gained).
# Exit status 0 when equal and exact, 1 otherwise, 2 on unreadable input.
#
# --totals-only names functions whose branches read the clock (a CLI's
# "compressed in N ms"): their paths are compared only by their sum, the
# number of paths that ran, which must still be equal.
# --sched names functions whose paths, and how many of them ran, follow
# the scheduling of the program's threads (pigz's lock waits, buffer pools
# and job lists: two runs of one binary differ): they are not compared,
# only required to have run in both profiles, and one line on stderr gives
# both totals.
# Both lists name functions as written in the source: a copy GCC made of
# one (free_lock_.part.0 of fnsplit at -O3 -flto, .isra.N, .constprop.N,
# .cold) is treated as the function itself.
#
# A function of several copies (one name and file, several CFG checksums
# in one profile: a C++ template or inline function that TUs compiled
# with different early inlining, each TU's copy with its own graph; the
# linker keeps one out-of-line copy, and a copy the IPA inliner put into a
# caller counts as its TU's, a choice the two modes' probes move) is
# compared by the total of its copies when its copies' counts differ:
# equal totals are a note on stderr, not a difference (docs/perfctl.md,
# finding 4); another total is a difference.
#
# The documents are read line by line, not with a JSON parser: docs/json.md
# puts every function header and every path on a line of its own, and
# JSON::PP needs minutes for lua's tens of megabytes. A function is keyed
# by name, file and CFG checksum, so the same name with another graph is a
# difference, not a match.
use strict;
use warnings;

my (%totals_only, %sched);
while (@ARGV && $ARGV[0] =~ /^--(totals-only|sched)$/) {
    shift;
    my $set = $1 eq 'sched' ? \%sched : \%totals_only;
    defined $ARGV[0] or die "pathcmp.pl: --$1 needs a list of function names (may be empty)\n";
    $set->{$_} = 1 for split /,/, shift;
}
my ($cfile, $sfile, $maxdiff) = @ARGV;
die "usage: pathcmp.pl [--totals-only F,...] [--sched F,...] COUNT.json STREAM.json [MAXDIFF]\n" unless defined $sfile;
$maxdiff //= 10;

my $str = qr/"((?:[^"\\]|\\.)*)"/;

# read FILE: ({ "name\tfile\tchecksum" => { id => count } }, mode, exact)
sub read_report {
    my ($file) = @_;
    open my $fh, '<', $file or do { print STDERR "pathcmp: $file: $!\n"; exit 2 };
    my (%f, $cur, $mode, $exact);
    while (my $l = <$fh>) {
        if ($l =~ /^\s*\{"name":$str,"file":(null|$str),"line":\d+,"checksum":"(0x[0-9a-f]+)"/) {
            $cur = join "\t", $1, ($3 // '-'), $4;
            $f{$cur} //= {};
        } elsif ($l =~ /^\s*\{"id":(\d+),"count":(\d+)/) {
            defined $cur or do { print STDERR "pathcmp: $file: a path before any function\n"; exit 2 };
            $f{$cur}{$1} += $2;
        } elsif ($l =~ /^\s*"mode":"(\w+)"/) {
            $mode = $1;
        } elsif ($l =~ /^\s*"stream":\{"exact":(true|false)/) {
            $exact = $1 eq 'true' ? 'yes' : 'no';
        }
    }
    close $fh;
    defined $mode or do { print STDERR "pathcmp: $file: no \"mode\": not a pathprof report --json document\n"; exit 2 };
    return (\%f, $mode, $exact);
}

my ($c, $cmode) = read_report($cfile);
my ($s, $smode, $exact) = read_report($sfile);
$cmode eq 'count' or print STDERR "pathcmp: $cfile is a $cmode profile, not a counting one\n";
$smode eq 'stream' or print STDERR "pathcmp: $sfile is a $smode profile, not a stream one\n";

my ($nf, $np, $total) = (0, 0, 0);
for my $k (keys %$c) {
    my @ids = keys %{$c->{$k}} or next;
    $nf++;
    $np += @ids;
    $total += $_ for values %{$c->{$k}};
}

sub sum { my $t = 0; $t += $_ for values %{$_[0]}; $t }

# base NAME: the source function of a GCC clone's name (see the header)
sub base {
    my ($n) = @_;
    1 while $n =~ s/\.(?:part|isra|constprop|cold|lto_priv|clone)(?:\.\d+)?$//;
    return $n;
}

# Functions of several copies: each profile's copies folded into one
# entry of the group, its paths named CHECKSUM/ID.
my (%ncopies, %in_one, @copies);
for my $p ([c => $c], [s => $s]) {
    for (keys %{ $p->[1] }) {
        my $g = join "\t", (split /\t/)[0, 1];
        $ncopies{$g}{ (split /\t/)[2] } = 1;
        $in_one{$g}{ $p->[0] }++;
    }
}
# Several copies in one profile at least: one checksum in each, but not
# the same, is one function with another graph, a difference.
for my $g (grep { ($in_one{$_}{c} // 0) > 1 || ($in_one{$_}{s} // 0) > 1 } keys %ncopies) {
    my ($cg, $sg) = ({}, {});
    for my $ck (keys %{ $ncopies{$g} }) {
        my $k = "$g\t$ck";
        my ($cp, $sp) = (delete $c->{$k} // {}, delete $s->{$k} // {});
        $cg->{"$ck/$_"} = $cp->{$_} for keys %$cp;
        $sg->{"$ck/$_"} = $sp->{$_} for keys %$sp;
    }
    my $differ = grep { ($cg->{$_} // 0) != ($sg->{$_} // 0) } keys %$cg, keys %$sg;
    my ($ct, $st) = (sum($cg), sum($sg));
    if ($differ && $ct == $st) {
        push @copies, [$g, scalar keys %{ $ncopies{$g} }, $ct];
        next;
    }
    ($c->{"$g\tcopies"}, $s->{"$g\tcopies"}) = ($cg, $sg);
}

# Functions that differ, the biggest absolute difference first, so the
# first lines name where most events went missing.
my %all = map { $_ => 1 } keys %$c, keys %$s;
my (@diff, @sched);
for my $k (keys %all) {
    my ($cp, $sp) = ($c->{$k} // {}, $s->{$k} // {});
    if ($sched{base((split /\t/, $k)[0])}) {
        my ($ct, $st) = (sum($cp), sum($sp));
        # not compared, but a function that ran in one run only lost
        # (or gained) every event of its own
        if (($ct > 0) == ($st > 0)) { push @sched, [$k, $ct, $st] if $ct; next; }
    }
    my %ids = map { $_ => 1 } keys %$cp, keys %$sp;
    my @bad = sort { ($a =~ /^\d+$/ && $b =~ /^\d+$/) ? $a <=> $b : $a cmp $b }
        grep { ($cp->{$_} // 0) != ($sp->{$_} // 0) } keys %ids;
    next unless @bad;
    my ($ct, $st) = (sum($cp), sum($sp));
    next if $totals_only{base((split /\t/, $k)[0])} && $ct == $st;
    push @diff, [abs($ct - $st), $k, $ct, $st, \@bad, $cp, $sp,
                 !exists $c->{$k} ? ' (only in stream)' : !exists $s->{$k} ? ' (only in count)' : ''];
}
@diff = sort { $b->[0] <=> $a->[0] || $a->[1] cmp $b->[1] } @diff;
if (@diff) {
    printf STDERR "pathcmp: %d function(s) differ%s:\n", scalar @diff,
        @diff > $maxdiff ? ", the first $maxdiff by difference" : '';
    # A function whose total is the same in both runs lost no event: its
    # flow went down other paths (a program that compares heap addresses
    # or names random files takes other branches run to run; count the
    # same mode twice to see it). A different total is events lost or
    # gained.
    my $split = grep { $_->[2] == $_->[3] } @diff;
    printf STDERR "pathcmp: %d with the same total in both (paths split differently), "
        . "%d with different totals (events lost or gained)\n", $split, @diff - $split;
    for my $d (@diff[0 .. ($#diff < $maxdiff - 1 ? $#diff : $maxdiff - 1)]) {
        my ($k, $ct, $st, $bad, $cp, $sp, $why) = @$d[1 .. 7];
        my ($name, $file) = split /\t/, $k;
        my @ex = map { sprintf 'path %s %s/%s', $_, $cp->{$_} // 0, $sp->{$_} // 0 } @$bad[0 .. ($#$bad < 3 ? $#$bad : 3)];
        printf STDERR "  %s (%s)%s: count %s, stream %s; %d path(s) differ: %s%s\n",
            $name, $file, $why, $ct, $st, scalar @$bad, join(', ', @ex), @$bad > 4 ? ', ...' : '';
    }
}
if (@copies) {
    printf STDERR "pathcmp: %d function(s) of several copies whose copies' counts differ, compared by their total (equal): %s\n",
        scalar @copies, join ', ', map { sprintf '%s (%s, %d copies) %s', (split /\t/, $_->[0]), $_->[1], $_->[2] }
        sort { $a->[0] cmp $b->[0] } @copies;
}
if (@sched) {
    printf STDERR "pathcmp: %d scheduling-dependent function(s) not compared (count/stream totals): %s\n", scalar @sched,
        join ', ', map { sprintf '%s %s/%s', (split /\t/, $_->[0])[0], $_->[1], $_->[2] } sort { $a->[0] cmp $b->[0] } @sched;
}
$exact //= 'n/a';
printf "functions %d paths %d total %s equal %s exact %s\n", $nf, $np, $total, @diff ? 'no' : 'yes', $exact;
exit(@diff || $exact ne 'yes' ? 1 : 0);
