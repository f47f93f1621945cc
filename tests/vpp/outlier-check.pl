#!/usr/bin/perl
# outlier-check.pl - per-path outliers (tests/vpp-outliers.t), on
# `pathprof vpp --json` and `pathprof report --json` of one run at 1/1
# with PATHPROF_VPP_OUTLIER below F_OUT's path time and far above F_IN's:
#   outlier-check.pl VPP.json REPORT.json F_OUT F_IN
# F_OUT's loop path (its most frequent path in the report) keeps no timing
# and has every run set aside but those the runtime dropped (changed CPU);
# F_IN's loop path has fewer than 1% of its runs set aside; the header's
# outliers hold at least the records' sum.
use strict;
use warnings;
use JSON::PP;

sub slurp { local $/; open my $f, '<', $_[0] or die "$_[0]: $!\n"; decode_json(<$f>) }

my ($vf, $rf, $fout, $fin) = @ARGV;
my ($v, $r) = (slurp($vf), slurp($rf));
my %path;
$path{"$_->{function}/$_->{path_id}"} = $_ for @{ $v->{paths} }, @{ $v->{single} };

sub loop_path {
    my ($f) = @_;
    my ($fn) = grep { $_->{name} eq $f } @{ $r->{functions} } or die "no function $f\n";
    my ($best) = sort { $b->{count} <=> $a->{count} } @{ $fn->{paths} };
    return ($best->{id}, $best->{count});
}

my $bad = 0;
my ($oid, $ocount) = loop_path($fout);
my $o = $path{"$fout/$oid"} // {samples => 0, outliers => 0};
printf "%s path %d: %d runs, %d timings kept, %d set aside; %d dropped (changed CPU)\n",
    $fout, $oid, $ocount, $o->{samples}, $o->{outliers}, $v->{migrated};
$bad++ if $o->{samples} != 0 || $o->{outliers} > $ocount
    || $o->{outliers} + $v->{migrated} < $ocount;
my ($iid, $icount) = loop_path($fin);
my $i = $path{"$fin/$iid"} or die "no timings of $fin path $iid\n";
printf "%s path %d: %d runs, %d timings kept, %d set aside\n", $fin, $iid, $icount,
    $i->{samples}, $i->{outliers};
$bad++ if $i->{outliers} * 100 >= $icount || $i->{samples} == 0;
my $sum = 0;
$sum += $_->{outliers} for values %path;
printf "outliers: %d on the paths, %d in the header\n", $sum, $v->{outliers};
$bad++ if $sum > $v->{outliers};
exit !!$bad;
