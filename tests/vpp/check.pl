#!/usr/bin/perl
# check.pl - assertions on `pathprof vpp --json` (and `report --json`) for
# tests/vpp.t.  Prints what it measured; exits 0 when the claim holds.
#   check.pl rank VPP.json F1 F2       F1's loop path ranks above F2's
#   check.pl base VPP.json F T PCT     F's loop path's basetime within PCT% of T
#   check.pl counts VPP.json REPORT.json F...
#                                      each F's loop path: timings <= count, and
#                                      the shortfall of all of them together is
#                                      at most the timings the runtime dropped
#                                      (the path changed CPU) and set aside
#   check.pl within VPP.json REPORT.json
#                                      no path timed more often than it ran
#   check.pl bias VPP.json             the bias is systematic (median <= 2 x min + resolution)
use strict;
use warnings;
use JSON::PP;

sub slurp { local $/; open my $f, '<', $_[0] or die "$_[0]: $!\n"; my $s = <$f>; decode_json($s) }

my ($what, $vf, @rest) = @ARGV;
my $v = slurp($vf);
my @all = (@{ $v->{paths} }, @{ $v->{single} });

# The path of function F with the most timings (its loop path).
sub loop_path {
    my ($f) = @_;
    my ($best, $rank, $r) = (undef, 0, 0);
    for my $p (@{ $v->{paths} }) {
        $r++;
        next unless $p->{function} eq $f;
        ($best, $rank) = ($p, $r) if !$best || $p->{samples} > $best->{samples};
    }
    die "no ranked path of $f\n" unless $best;
    return ($best, $rank);
}

if ($what eq 'rank') {
    my ($a, $ra) = loop_path($rest[0]);
    my ($b, $rb) = loop_path($rest[1]);
    printf "%s: rank %d, net %.0f over %d timings; %s: rank %d, net %.0f over %d timings\n",
        $rest[0], $ra, $a->{net}, $a->{samples}, $rest[1], $rb, $b->{net}, $b->{samples};
    exit !($ra < $rb && $a->{net} > 2 * $b->{net});
}
if ($what eq 'base') {
    my ($p) = loop_path($rest[0]);
    my $err = abs($p->{basetime} - $rest[1]) / $rest[1];
    printf "basetime %d, calibrated %d: %.1f%% off\n", $p->{basetime}, $rest[1], 100 * $err;
    exit !($err <= $rest[2] / 100);
}
if ($what eq 'counts' || $what eq 'within') {
    my $rep = slurp(shift @rest);
    my %count;
    for my $f (@{ $rep->{functions} }) {
        $count{"$f->{name}/$_->{id}"} = $_->{count} for @{ $f->{paths} };
    }
    my $bad = 0;
    if ($what eq 'within') {
        for my $p (@all) {
            my $c = $count{"$p->{function}/$p->{path_id}"} // 0;
            if ($p->{samples} > $c) { print "$p->{function} path $p->{path_id}: $p->{samples} timings, $c runs\n"; $bad++ }
        }
        printf "%d paths timed, %d timed more often than they ran\n", scalar @all, $bad;
        exit !!$bad;
    }
    my $short = 0;
    for my $f (@rest) {
        my ($p) = loop_path($f);
        my $c = $count{"$f/$p->{path_id}"} // 0;
        printf "%s path %d: %d timings, %d runs\n", $f, $p->{path_id}, $p->{samples}, $c;
        $bad++ if $p->{samples} > $c;
        $short += $c - $p->{samples};
    }
    my $dropped = $v->{migrated} + $v->{outliers};
    printf "%d runs not timed; %d timings dropped (changed CPU) or set aside\n", $short, $dropped;
    exit !!($bad || $short > $dropped);
}
if ($what eq 'bias') {
    printf "bias %d, median %d, 90%% %d ticks\n", $v->{bias}, $v->{bias_median}, $v->{bias_p90};
    exit !($v->{bias} > 0 && $v->{bias_median} <= 2 * $v->{bias} + 50);
}
die "check.pl: unknown check '$what'\n";
