#!/usr/bin/perl
# perfctl/lib/ppp-summary.pl DIR - the ppp configuration's figures from a
# perfctl results directory, as Markdown on stdout (perfctl writes it to
# DIR/ppp.md) and the PPP paper's Fig. 16 data to DIR/figdata/ppp-lambda.dat:
#   - per program, Lambda over the functions numbered preferentially
#     (raw/PROG/ppp-lambda.txt): how many, how many interesting paths, the
#     share with Lambda <= 1.5 (the issue's goal: 90%), the largest;
#   - per program, the cost of native, fprofile-generate, count and ppp:
#     median user time over the runs and cachegrind's instructions (Ir),
#     each as overhead over native, and PPP's overhead as a fraction of
#     count's (the goal: at most 1/3);
#   - whether every ppp run counted what the training count run counted,
#     path for path (ppp_equal in raw/PROG/ppp/stats.N).
use strict;
use warnings;

my $dir = shift or die "usage: ppp-summary.pl DIR\n";
my @progs = sort map { m{/raw/([^/]+)/ppp-lambda\.txt$} ? $1 : () } glob "$dir/raw/*/ppp-lambda.txt";
die "ppp-summary.pl: no raw/*/ppp-lambda.txt in $dir (no ppp configuration run)\n" unless @progs;

sub median {
    my @v = sort { $a <=> $b } @_;
    return undef unless @v;
    return @v % 2 ? $v[$#v / 2] : ($v[@v / 2 - 1] + $v[@v / 2]) / 2;
}
sub field {    # FILE KEY -> value of "KEY value" lines
    my ($file, $key) = @_;
    open my $fh, '<', $file or return undef;
    while (<$fh>) { return $1 if /^\Q$key\E\s+(\S+)/ }
    return undef;
}

mkdir "$dir/figdata";
open my $dat, '>', "$dir/figdata/ppp-lambda.dat" or die "ppp-summary.pl: $dir/figdata/ppp-lambda.dat: $!\n";
print $dat "# program function interesting interval lambda (PPP paper, Fig. 16)\n";

print "## PPP: Lambda per function (interval size / interesting paths)\n\n";
print "| program | functions | interesting paths | Lambda <= 1.5 | Lambda = 1 | largest Lambda (function) |\n";
print "| --- | ---: | ---: | ---: | ---: | --- |\n";
my ($all, $good) = (0, 0);
for my $p (@progs) {
    open my $fh, '<', "$dir/raw/$p/ppp-lambda.txt" or next;
    my ($n, $i, $le, $one, $max, $maxf) = (0, 0, 0, 0, 0, '-');
    while (<$fh>) {
        my ($f, $int, $np, $size, $l) = split;
        $n++; $i += $int; $le++ if $l <= 1.5; $one++ if $l == 1;
        ($max, $maxf) = ($l, $f) if $l > $max;
        print $dat "$p $f $int $size $l\n";
    }
    $all += $n; $good += $le;
    printf "| %s | %d | %d | %d (%.0f%%) | %d | %.2f (%s) |\n", $p, $n, $i, $le,
        $n ? 100 * $le / $n : 0, $one, $max, $maxf;
}
printf "\nOver all programs: %d of %d functions (%.1f%%) have Lambda <= 1.5.\n\n", $good, $all,
    $all ? 100 * $good / $all : 0;

print "## PPP: cost against count (BLPP) and -fprofile-generate\n\n";
print "| program | config | user s (median) | overhead | Ir (cachegrind) | Ir overhead | hash updates / run | equal to count, path for path |\n";
print "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n";
for my $p (@progs) {
    my (%user, %ir);
    for my $c (qw(native fprofile-generate count ppp ppp-hash ppp-total)) {
        my $d = "$dir/raw/$p/$c";
        next unless -d $d;
        $user{$c} = median(grep { defined } map { field($_, 'user_s') } glob "$d/run-*.txt");
        $ir{$c} = field("$d/cg.txt", 'total Ir');
    }
    for my $c (qw(native fprofile-generate count ppp ppp-hash ppp-total)) {
        next unless exists $user{$c};
        my $d = "$dir/raw/$p/$c";
        my $ov = defined $user{$c} && $user{native} ? sprintf('%+.0f%%', 100 * ($user{$c} / $user{native} - 1)) : '-';
        my $irov = defined $ir{$c} && $ir{native} ? sprintf('%+.0f%%', 100 * ($ir{$c} / $ir{native} - 1)) : '-';
        my $hash = field("$d/stats.1", 'hash_updates') // '-';
        my @eq = map { field($_, 'ppp_equal') } glob "$d/stats.[0-9]*";
        my $eq = $c !~ /^ppp/ ? "" : $c eq "ppp-total" ? "(others as a total)" : !@eq ? '-' : (grep { ($_ // '') ne 'yes' } @eq) ? 'NO' : 'yes (' . scalar(@eq) . ' runs)';
        printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $p, $c,
            defined $user{$c} ? sprintf('%.3f', $user{$c}) : '-', $ov, $ir{$c} // '-', $irov, $hash, $eq;
    }
    for my $c (qw(ppp ppp-hash ppp-total)) {
        next unless $ir{native} && $ir{count} && $ir{$c} && $ir{count} > $ir{native};
        printf "| %s | %s / count | | | | %.2f of count's Ir overhead | | |\n", $p, $c,
            ($ir{$c} - $ir{native}) / ($ir{count} - $ir{native});
    }
}
