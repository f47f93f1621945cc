#!/usr/bin/perl
# cmp.pl - compares the path counts of two `pathprof report --json` profiles
# of one build (tests/sampling-*.t).
#
#   cmp.pl same EXACT.json SAMPLED.json
#       every function has the same checksum and the same paths with the
#       same counts in both (SAMPLED's raw counts); prints the differences
#   cmp.pl within EXACT.json SAMPLED.json
#       every path's raw count in SAMPLED is at most its count in EXACT
#       (a burst never counts a path that did not run), and SAMPLED counted
#       something; prints the sum of raw counts
#   cmp.pl error EXACT.json SAMPLED.json MIN_SHARE
#       the largest relative error |estimate - exact| / exact over the paths
#       with at least MIN_SHARE of all exact path executions (hot paths);
#       prints it, with the recall of those paths
#   cmp.pl cover EXACT.json SAMPLED.json MIN_SHARE
#       over the same hot paths: how many exact counts lie in SAMPLED's
#       interval (estimate_interval; a hot path not seen is not covered),
#       and, for contrast, in a naive Poisson interval that takes each path
#       seen as an independent draw (estimate +- 1.96 sqrt(count) x scale);
#       prints "covered naive_covered hot"
#   cmp.pl grid EXACT.json SAMPLED.json MIN_SHARE
#       the accuracy figures of docs/sampling.md: recall (hot paths of
#       EXACT whose estimate is hot too), precision (paths hot by their
#       estimate that are hot in EXACT), the largest relative error of a
#       hot path's estimate, and Arnold and Ryder's overlap (the sum over
#       all paths of the smaller of their two shares, in %); prints
#       "recall precision error overlap"
#   cmp.pl kcover EXACT.json SAMPLED.json MIN_SHARE   (report --k --json)
#       the k-iteration paths of EXACT with at least MIN_SHARE of the
#       largest one's count: how many SAMPLED estimates (a sampled count is
#       never shown without one) have them in their interval, the largest
#       relative error of an estimate (an unsampled function's exact count
#       is its own), and how many SAMPLED lists at all;
#       prints "covered hot error found"
# Exit 0 when the check holds (error always holds), 1 otherwise, 2 on bad input.
use strict;
use warnings;
use JSON::PP;

sub load {
    my ($file) = @_;
    open my $fh, '<', $file or die "cmp.pl: $file: $!\n";
    local $/;
    my $j = decode_json(<$fh>);
    my (%paths, %seen);
    for my $f (@{ $j->{functions} }) {
        # A header's static function compiled in several TUs is one entry
        # per copy (zstd's ZSTD_updateRep): the copies are told apart by
        # their order, the same in two profiles of one program's builds.
        my $key = "$f->{name}\@$f->{file}";
        $key .= "#" . $seen{$key} if $seen{$key}++;
        my %p = map { $_->{id} => $_ } @{ $f->{paths} };
        $paths{$key} = { checksum => $f->{checksum}, sampled => $f->{sampled}, paths => \%p };
    }
    return ($j, \%paths);
}

my ($cmd, $ea, $sa, $share) = @ARGV;
die "usage: cmp.pl same|within|error EXACT SAMPLED [MIN_SHARE]\n" unless $cmd && $sa;
if ($cmd eq 'kcover') {
    my %k;
    for my $i (0, 1) {
        open my $fh, '<', ($ea, $sa)[$i] or die "cmp.pl: $!\n";
        local $/;
        for my $p (@{ decode_json(<$fh>)->{paths} }) {
            $k{$i}{"$p->{function}\@$p->{file}:@{ $p->{ids} }"} = $p;
        }
    }
    my $max = 0;
    $max < $_->{count} and $max = $_->{count} for values %{ $k{0} };
    my ($hot, $in, $worst, $found) = (0, 0, 0, 0);
    for my $key (sort keys %{ $k{0} }) {
        my $x = $k{0}{$key}{count};
        next if $x < $share * $max;
        $hot++;
        my $p = $k{1}{$key};
        unless ($p) { $worst = 1 if $worst < 1; next }
        $found++;
        # A function with no checking copy (computed gotos: lua's
        # luaV_execute) counts exactly at every rate: its count is its own
        # estimate. A sampled one is never shown without an estimate.
        my ($est, $lo, $hi) = ($p->{count}, $p->{count}, $p->{count});
        if ($p->{sampled}) {
            die "cmp.pl: $sa: $key has no estimate\n" unless defined $p->{estimate};
            ($est, $lo, $hi) = ($p->{estimate}, @{ $p->{estimate_interval} });
        }
        $in++ if $lo <= $x && $x <= $hi;
        my $err = abs($est - $x) / $x;
        $worst = $err if $err > $worst;
    }
    printf "%d %d %.6f %d\n", $in, $hot, $worst, $found;
    exit 0;
}
my ($ej, $e) = load($ea);
my ($sj, $s) = load($sa);
my $bad = 0;
for my $k (sort keys %$e) {
    unless ($s->{$k}) { print "missing function $k\n"; $bad++; next }
    if ($s->{$k}{checksum} ne $e->{$k}{checksum}) {
        print "$k: checksum $e->{$k}{checksum} vs $s->{$k}{checksum}\n"; $bad++;
    }
}
for my $k (sort keys %$s) {
    next if $e->{$k};
    print "extra function $k\n"; $bad++;
}
exit 1 if $bad;

if ($cmd eq 'same') {
    for my $k (sort keys %$e) {
        my ($ep, $sp) = ($e->{$k}{paths}, $s->{$k}{paths});
        for my $id (sort { $a <=> $b } keys %{ { %$ep, %$sp } }) {
            my $x = $ep->{$id} ? $ep->{$id}{count} : 0;
            my $y = $sp->{$id} ? $sp->{$id}{count} : 0;
            next if $x == $y;
            print "$k path $id: $x exact, $y sampled\n";
            $bad++;
        }
    }
    exit($bad ? 1 : 0);
}
if ($cmd eq 'within') {
    my $sum = 0;
    for my $k (sort keys %$s) {
        my ($ep, $sp) = ($e->{$k}{paths}, $s->{$k}{paths});
        for my $id (keys %$sp) {
            my $x = $ep->{$id} ? $ep->{$id}{count} : 0;
            $sum += $sp->{$id}{count};
            next if $sp->{$id}{count} <= $x;
            print "$k path $id: $sp->{$id}{count} sampled > $x exact\n";
            $bad++;
        }
    }
    print "$sum\n";
    exit($bad || !$sum ? 1 : 0);
}
if ($cmd eq 'error') {
    my $total = 0;
    for my $k (keys %$e) { $total += $_->{count} for values %{ $e->{$k}{paths} } }
    my ($worst, $hot, $found) = (0, 0, 0);
    for my $k (sort keys %$e) {
        my ($ep, $sp) = ($e->{$k}{paths}, $s->{$k}{paths});
        for my $id (keys %$ep) {
            my $x = $ep->{$id}{count};
            next if $x < $share * $total;
            $hot++;
            my $est = 0;
            if ($sp->{$id}) {
                $found++;
                $est = $s->{$k}{sampled} ? $sp->{$id}{estimate} : $sp->{$id}{count};
                $est = 0 unless defined $est;
            }
            my $err = abs($est - $x) / $x;
            $worst = $err if $err > $worst;
        }
    }
    printf "%.6f %d/%d\n", $worst, $found, $hot;
    exit 0;
}
if ($cmd eq 'grid') {
    my (%x, %y, $tx, $ty);
    for my $k (keys %$e) {
        for my $p (values %{ $e->{$k}{paths} }) { $x{"$k:$p->{id}"} = $p->{count}; $tx += $p->{count} }
    }
    for my $k (keys %$s) {
        for my $p (values %{ $s->{$k}{paths} }) {
            my $v = $s->{$k}{sampled} ? $p->{estimate} // 0 : $p->{count};
            $y{"$k:$p->{id}"} = $v;
            $ty += $v;
        }
    }
    die "cmp.pl: nothing counted\n" unless $tx && $ty;
    my ($hot, $found, $claimed, $right, $worst, $overlap) = (0, 0, 0, 0, 0, 0);
    for my $key (keys %{ { %x, %y } }) {
        my ($a, $b) = ($x{$key} // 0, $y{$key} // 0);
        my ($ha, $hb) = ($a >= $share * $tx, $b >= $share * $ty);
        $hot++ if $ha;
        $found++ if $ha && $hb;
        $claimed++ if $hb;
        $right++ if $hb && $ha;
        if ($ha) { my $err = abs($b - $a) / $a; $worst = $err if $err > $worst }
        my ($sa, $sb) = ($a / $tx, $b / $ty);
        $overlap += $sa < $sb ? $sa : $sb;
    }
    printf "%.4f %.4f %.4f %.2f\n", $hot ? $found / $hot : 1, $claimed ? $right / $claimed : 1,
        $worst, 100 * $overlap;
    exit 0;
}
if ($cmd eq 'cover') {
    my $total = 0;
    for my $k (keys %$e) { $total += $_->{count} for values %{ $e->{$k}{paths} } }
    my $scale = $sj->{sampling} && $sj->{sampling}{scale};
    die "cmp.pl: $sa: no scale to estimate with\n" unless $scale;
    my ($hot, $in, $naive) = (0, 0, 0);
    for my $k (sort keys %$e) {
        next unless $s->{$k}{sampled};
        my ($ep, $sp) = ($e->{$k}{paths}, $s->{$k}{paths});
        for my $id (keys %$ep) {
            my $x = $ep->{$id}{count};
            next if $x < $share * $total;
            $hot++;
            my $p = $sp->{$id} or next;
            my ($lo, $hi) = @{ $p->{estimate_interval} };
            $in++ if $lo <= $x && $x <= $hi;
            my $half = 1.96 * sqrt($p->{count}) * $scale;
            $naive++ if abs($p->{estimate} - $x) <= $half;
        }
    }
    print "$in $naive $hot\n";
    exit 0;
}
die "cmp.pl: unknown command $cmd\n";
