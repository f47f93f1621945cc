#!/usr/bin/perl
# wpp-row.pl RUN NATIVE_S BLPP_S WPP_S PROFILE JSON: one row of
# perfctl/micro/wpp.sh's table from a wpp run's profile (its STREAM
# section, through pp-stream-stats.pl) and `pathprof wpp --json`.
use strict;
use warnings;
use JSON::PP;
use FindBin;
my ($run, $tn, $tb, $tw, $prof, $json) = @ARGV;
my @s = split ' ', `perl $FindBin::Bin/pp-stream-stats.pl $prof`;
my ($events, $nthreads, $busy) = @s[0, 5, 6];
open my $f, '<', $json or die "$json: $!\n";
local $/;
my $j = decode_json(<$f>);
my $sps = $busy ? $events / ($busy / 1e9) / $nthreads : 0;
printf "| %d | %.3f | %.3f | %.3f | %.1f | %d | %.2f M | %d | %.0f | %d | %.1f | %s |\n",
    $run, $tn, $tb, $tw, $tw / ($tn || 1e-9), $j->{words}, $sps / 1e6, $j->{grammar_bytes},
    $j->{grammar_bytes} / (($j->{words} || 1) / 1e6), $j->{rules}, $j->{ratio},
    defined $j->{xz_bytes} ? sprintf("%.2f", $j->{ratio_vs_xz}) : "-";
