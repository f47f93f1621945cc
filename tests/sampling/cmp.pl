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
# Exit 0 when the check holds (error always holds), 1 otherwise, 2 on bad input.
use strict;
use warnings;
use JSON::PP;

sub load {
    my ($file) = @_;
    open my $fh, '<', $file or die "cmp.pl: $file: $!\n";
    local $/;
    my $j = decode_json(<$fh>);
    my %paths;
    for my $f (@{ $j->{functions} }) {
        my $key = "$f->{name}\@$f->{file}";
        die "cmp.pl: $file: function $key twice\n" if exists $paths{$key};
        my %p = map { $_->{id} => $_ } @{ $f->{paths} };
        $paths{$key} = { checksum => $f->{checksum}, sampled => $f->{sampled}, paths => \%p };
    }
    return ($j, \%paths);
}

my ($cmd, $ea, $sa, $share) = @ARGV;
die "usage: cmp.pl same|within|error EXACT SAMPLED [MIN_SHARE]\n" unless $cmd && $sa;
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
die "cmp.pl: unknown command $cmd\n";
