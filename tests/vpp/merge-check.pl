#!/usr/bin/perl
# merge-check.pl - oracles for merged VPP profiles (tests/vpp-merge.t), on
# `pathprof vpp --json` of the inputs and of the result, computed here from
# the inputs' numbers alone:
#   merge-check.pl sum MERGED.json IN.json...
#       per path (function, path ID): timings, total, outliers, event
#       readings and each time bucket are the inputs' sums, the basetime
#       their least, the largest their largest; the header's timings,
#       outliers, run ticks and migrated timings are sums, the bias the
#       least.  Prints what it compared; exits 0 when all agree.
#   merge-check.pl grown ACC.json BEFORE.json
#       ACC holds BEFORE plus at least one more timing: no path's figures
#       went down, at least one went up.
use strict;
use warnings;
use JSON::PP;

sub slurp { local $/; open my $f, '<', $_[0] or die "$_[0]: $!\n"; decode_json(<$f>) }

sub paths {
    my ($j) = @_;
    my %p;
    for my $p (@{ $j->{paths} }, @{ $j->{single} }) {
        my $k = "$p->{function}/$p->{path_id}";
        die "path $k listed twice\n" if $p{$k};
        $p{$k} = $p;
    }
    return \%p;
}

sub buckets_of { my ($p) = @_; my %t = map { $_->{bucket} => $_->{count} } @{ $p->{times} }; \%t }

my ($what, $out, @in) = @ARGV;
my $m = slurp($out);
my $mp = paths($m);
my @ins = map { slurp($_) } @in;

if ($what eq 'sum') {
    my (%want, $bad);
    for my $j (@ins) {
        my $p = paths($j);
        for my $k (keys %$p) {
            my ($s, $w) = ($p->{$k}, $want{$k} //= {samples => 0, total => 0, outliers => 0,
                event_samples => 0, events => 0, max => 0, times => {}});
            $w->{$_} += $s->{$_} for qw(samples total outliers event_samples events);
            $w->{max} = $s->{max} if $s->{max} > $w->{max};
            $w->{basetime} = $s->{basetime}
                if $s->{samples} && (!defined $w->{basetime} || $s->{basetime} < $w->{basetime});
            my $t = buckets_of($s);
            $w->{times}{$_} += $t->{$_} for keys %$t;
        }
    }
    my @miss = grep { !$mp->{$_} } keys %want;
    my @extra = grep { !$want{$_} } keys %$mp;
    print "missing path $_\n" for @miss;
    print "extra path $_\n" for @extra;
    $bad += @miss + @extra;
    for my $k (sort keys %want) {
        my ($w, $g) = ($want{$k}, $mp->{$k}) or next;
        next unless $g;
        for my $f (qw(samples total outliers event_samples events max)) {
            next if $w->{$f} == $g->{$f};
            print "$k: $f $g->{$f}, the inputs give $w->{$f}\n";
            $bad++;
        }
        if (($w->{basetime} // 0) != $g->{basetime}) {
            print "$k: basetime $g->{basetime}, the inputs give ", $w->{basetime} // 0, "\n";
            $bad++;
        }
        my $gt = buckets_of($g);
        for my $b (sort { $a <=> $b } keys %{ { %{ $w->{times} }, %$gt } }) {
            next if ($w->{times}{$b} // 0) == ($gt->{$b} // 0);
            print "$k: time bucket $b holds ", $gt->{$b} // 0, ", the inputs give ",
                $w->{times}{$b} // 0, "\n";
            $bad++;
        }
    }
    for my $f (qw(timed outliers run_ticks migrated orphans unattributed)) {
        my $s = 0;
        $s += $_->{$f} for @ins;
        next if $s == $m->{$f};
        print "header $f $m->{$f}, the inputs give $s\n";
        $bad++;
    }
    for my $f (qw(bias bias_median bias_p90)) {
        my ($least) = sort { $a <=> $b } map { $_->{$f} } @ins;
        next if $least == $m->{$f};
        print "header $f $m->{$f}, the least of the inputs is $least\n";
        $bad++;
    }
    printf "%d paths, %d timings compared; %d differences\n", scalar keys %want, $m->{timed},
        $bad // 0;
    exit !!$bad;
}
if ($what eq 'grown') {
    my $bp = paths($ins[0]);
    my ($bad, $up) = (0, 0);
    for my $k (sort keys %$bp) {
        my ($p0, $g) = ($bp->{$k}, $mp->{$k});
        if (!$g) { print "$k: gone\n"; $bad++; next }
        for my $f (qw(samples total outliers max)) {
            if ($g->{$f} < $p0->{$f}) { print "$k: $f went down\n"; $bad++ }
        }
        if ($p0->{samples} && $g->{basetime} > $p0->{basetime}) { print "$k: basetime went up\n"; $bad++ }
        my ($bt, $gt) = (buckets_of($p0), buckets_of($g));
        for (keys %$bt) { if (($gt->{$_} // 0) < $bt->{$_}) { print "$k: bucket $_ went down\n"; $bad++ } }
        $up++ if $g->{samples} > $p0->{samples};
    }
    printf "%d paths; %d with more timings; timed %d -> %d\n", scalar keys %$bp, $up,
        $ins[0]{timed}, $m->{timed};
    exit !($bad == 0 && $up > 0 && $m->{timed} > $ins[0]{timed}
           && $m->{run_ticks} > $ins[0]{run_ticks});
}
die "merge-check.pl: unknown check '$what'\n";
