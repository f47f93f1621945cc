#!/usr/bin/perl
# check.pl - the ksf-pruned analyzer against the exact ksf analyzer of the
# same run (one profile holding both sections, from one stream), reading
# the binary profile itself (docs/format.md: KIPF tag 4, KPRUNE tag 5):
#
#   check.pl bounds PROFILE [PHI]
#       per length n: N_n = the exact number of n-gram occurrences; every
#       listed sequence's [count - err, count] holds its exact count; every
#       exact sequence above the floor (and so every one above
#       max(PHI * N_n, floor)) is listed; with one analyzer thread
#       floor <= N_n / m; the peak memory is within the budget.
#   check.pl identical PROFILE
#       nothing was evicted: the pruned section lists exactly the exact
#       forest's sequences, with their counts, err 0, floor 0.
#   check.pl accuracy PROFILE PHI   (perfctl/micro/prune.sh) prints, over every
#       length: hot = exact sequences with count >= PHI x N_n, reported =
#       listed ones with upper bound >= PHI x N_n; "recall precision
#       max_rel_err avg_rel_err hot reported exact_bytes pruned_peak" with
#       the error of the upper bound over the hot sequences found, and
#       exact_bytes = (k-SF + k-IPF nodes) x 24, what the exact forests hold
#   check.pl offset PROFILE
#       prints the file offset of the KPRUNE section's body (damage tests).
# Prints one summary line, or the problems (at most 20) and exits 1.
use strict;
use warnings;

my @problems;
sub problem { push @problems, $_[0] if @problems < 20 }

sub slurp {
    my ($f) = @_;
    open my $h, '<:raw', $f or die "$f: $!\n";
    local $/;
    return scalar <$h>;
}

# KIPF: { "tu:func:id,..." => count } and the number of nodes per depth.
sub parse_kipf {
    my ($b) = @_;
    my ($k, $flags, undef, undef, undef, undef, undef, $nlevels) = unpack 'V V Q< Q< Q< Q< Q< V', $b;
    my $o = 56 + 24 * $nlevels + 16;
    my ($nroots) = unpack 'Q<', substr($b, $o, 8);
    $o += 8;
    my %paths;
    my $uleb = sub {    # unsigned LEB128 at $o (docs/format.md, compact nodes)
        my ($v, $shift) = (0, 0);
        while (1) {
            my $byte = ord substr($b, $o++, 1);
            $v |= ($byte & 0x7f) << $shift;
            return $v unless $byte & 0x80;
            $shift += 7;
        }
    };
    my $read;
    $read = sub {
        my ($prefix, $ptu, $pfn) = @_;
        my ($tu, $fn, $id, $c, $nch);
        if ($flags & 2) {
            ($tu, $fn) = defined $ptu ? ($ptu, $pfn) : ($uleb->(), $uleb->());
            ($id, $c, $nch) = ($uleb->(), $uleb->(), $uleb->());
        } else {
            ($tu, $fn, $id, $c, $nch) = unpack 'V V Q< Q< V', substr($b, $o, 32);
            $o += 32;
        }
        my $p = $prefix eq '' ? "$tu:$fn:$id" : "$prefix,$tu:$fn:$id";
        $paths{$p} = $c;
        $read->($p, $tu, $fn) for 1 .. $nch;
    };
    $read->('') for 1 .. $nroots;
    return { k => $k, paths => \%paths, body => $b };
}

sub parse_kprune {
    my ($b) = @_;
    my %s;
    @s{qw(k flags budget m threads events epochs analyzers peak)} = unpack 'V V Q< Q< Q< Q< Q< Q< Q<', $b;
    my $o = 64;
    for my $n (1 .. $s{k}) {
        my ($total, $floor, $ne) = unpack 'Q< Q< Q<', substr($b, $o, 24);
        $o += 24;
        my %e;
        for (1 .. $ne) {
            my ($tu, $fn, $c, $err) = unpack 'V V Q< Q<', substr($b, $o, 24);
            my @ids = unpack "Q<$n", substr($b, $o + 24, 8 * $n);
            $o += 24 + 8 * $n;
            my $key = join ',', map { "$tu:$fn:$_" } @ids;
            problem("length $n: $key listed twice") if exists $e{$key};
            problem("length $n: $key err $err > count $c") if $err > $c;
            $e{$key} = [$c, $err];
        }
        push @{ $s{len} }, { total => $total, floor => $floor, e => \%e };
    }
    problem("KPRUNE: " . (length($b) - $o) . " bytes after the last length") if $o != length $b;
    return \%s;
}

sub read_profile {
    my ($file) = @_;
    my $d = slurp($file);
    die "$file: not a profile\n" unless substr($d, 0, 8) eq 'PATHPROF';
    my ($nsections) = unpack 'V', substr($d, 40, 4);
    my ($kipf, $kp);
    my $at = 64;
    for (1 .. $nsections) {
        my ($tag, undef, $len) = unpack 'V V Q<', substr($d, $at, 16);
        my $body = substr($d, $at + 16, $len);
        $at += 16 + $len;
        $kipf = parse_kipf($body) if $tag == 4;
        $kp = parse_kprune($body) if $tag == 5;
    }
    die "$file: no KIPF section (run with PATHPROF_ANALYZER=ksf,ksf-pruned)\n" unless $kipf;
    die "$file: no KPRUNE section\n" unless $kp;
    die "$file: k differs: KIPF $kipf->{k}, KPRUNE $kp->{k}\n" if $kipf->{k} != $kp->{k};
    return ($kipf, $kp);
}

sub exact_by_length {
    my ($kipf) = @_;
    my (@byn, @total);
    while (my ($p, $c) = each %{ $kipf->{paths} }) {
        my $n = 1 + ($p =~ tr/,//);
        $byn[$n]{$p} = $c;
        $total[$n] += $c;
    }
    return (\@byn, \@total);
}

sub bounds {
    my ($file, $phi) = @_;
    $phi //= 0;
    my ($kipf, $kp) = read_profile($file);
    my ($byn, $total) = exact_by_length($kipf);
    my ($listed, $hot, $maxrel, $evicting) = (0, 0, 0, 0);
    problem("peak $kp->{peak} bytes > budget $kp->{budget}")
        if $kp->{budget} && $kp->{peak} > $kp->{budget};
    for my $n (1 .. $kp->{k}) {
        my $L = $kp->{len}[$n - 1];
        my $ex = $byn->[$n] // {};
        my $N = $total->[$n] // 0;
        problem("length $n: N $L->{total}, exact $N") if $L->{total} != $N;
        $evicting++ if $L->{floor} > 0;
        if ($kp->{m} && $kp->{analyzers} == 1 && $L->{floor} * $kp->{m} > $N) {
            problem("length $n: floor $L->{floor} > N/m = $N/$kp->{m}");
        }
        problem("length $n: " . scalar(keys %{ $L->{e} }) . " entries > m = $kp->{m} per analyzer")
            if $kp->{m} && keys %{ $L->{e} } > $kp->{m} * $kp->{analyzers};
        while (my ($p, $ce) = each %{ $L->{e} }) {
            my ($c, $err) = @$ce;
            my $t = $ex->{$p} // 0;
            problem("length $n: $p exact $t outside [" . ($c - $err) . ", $c]")
                if $t < $c - $err || $t > $c;
            $listed++;
        }
        my $thr = $phi * $N > $L->{floor} ? $phi * $N : $L->{floor};
        while (my ($p, $t) = each %$ex) {
            next unless $t > $thr;
            $hot++;
            if (!exists $L->{e}{$p}) {
                problem("length $n: $p (exact $t > threshold $thr) not listed");
                next;
            }
            my $rel = ($L->{e}{$p}[0] - $t) / $t;
            $maxrel = $rel if $rel > $maxrel;
        }
    }
    return sprintf "k=%d m=%d: %d listed, %d above threshold all listed (max rel. error %.4f), "
        . "%d lengths evicting, %d epochs, peak %d of %d bytes",
        $kp->{k}, $kp->{m}, $listed, $hot, $maxrel, $evicting, $kp->{epochs}, $kp->{peak},
        $kp->{budget};
}

sub identical {
    my ($file) = @_;
    my ($kipf, $kp) = read_profile($file);
    my ($byn) = exact_by_length($kipf);
    my $same = 0;
    for my $n (1 .. $kp->{k}) {
        my $L = $kp->{len}[$n - 1];
        my $ex = $byn->[$n] // {};
        problem("length $n: floor $L->{floor}") if $L->{floor};
        for my $p (sort keys %$ex) {
            my $e = $L->{e}{$p};
            if (!$e) { problem("length $n: $p ($ex->{$p}) not listed") }
            elsif ($e->[0] != $ex->{$p} || $e->[1] != 0) {
                problem("length $n: $p exact $ex->{$p}, pruned $e->[0] +/- $e->[1]");
            } else { $same++ }
        }
        for my $p (sort keys %{ $L->{e} }) {
            problem("length $n: $p listed, not in the exact forest") unless exists $ex->{$p};
        }
    }
    return "k=$kp->{k}: $same sequences identical to the exact forest, $kp->{epochs} epochs";
}

sub accuracy {
    my ($file, $phi) = @_;
    my ($kipf, $kp) = read_profile($file);
    my ($byn, $total) = exact_by_length($kipf);
    my ($hot, $rep, $both, $maxrel, $sumrel) = (0, 0, 0, 0, 0);
    for my $n (1 .. $kp->{k}) {
        my $L = $kp->{len}[$n - 1];
        my $ex = $byn->[$n] // {};
        my $thr = $phi * ($total->[$n] // 0);
        my %h = map { $_ => $ex->{$_} } grep { $ex->{$_} >= $thr } keys %$ex;
        $hot += keys %h;
        for my $p (keys %{ $L->{e} }) {
            next unless $L->{e}{$p}[0] >= $thr;
            $rep++;
            next unless exists $h{$p};
            $both++;
            my $rel = ($L->{e}{$p}[0] - $h{$p}) / $h{$p};
            $maxrel = $rel if $rel > $maxrel;
            $sumrel += $rel;
        }
    }
    my ($ksf, $nodes) = (unpack('V V Q< Q< Q< Q<', $kipf->{body}))[4, 5];
    return sprintf "%.4f %.4f %.5f %.5f %d %d %d %d", $hot ? $both / $hot : 1, $rep ? $both / $rep : 1,
        $maxrel, $both ? $sumrel / $both : 0, $hot, $rep, ($ksf + $nodes) * 24, $kp->{peak};
}

sub offset {
    my ($file) = @_;
    my $d = slurp($file);
    my ($nsections) = unpack 'V', substr($d, 40, 4);
    my $at = 64;
    for (1 .. $nsections) {
        my ($tag, undef, $len) = unpack 'V V Q<', substr($d, $at, 16);
        return $at + 16 if $tag == 5;
        $at += 16 + $len;
    }
    die "$file: no KPRUNE section\n";
}

my $mode = shift @ARGV // '';
my $msg = $mode eq 'bounds' ? bounds(@ARGV) : $mode eq 'identical' ? identical(@ARGV)
        : $mode eq 'offset' ? offset(@ARGV) : $mode eq 'accuracy' ? accuracy(@ARGV)
        : die "usage: check.pl bounds PROFILE [PHI] | identical PROFILE | offset PROFILE\n";
if (@problems) {
    print "$_\n" for @problems;
    exit 1;
}
print "$msg\n";
