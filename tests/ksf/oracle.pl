#!/usr/bin/perl
# oracle.pl - brute-force oracle of the ksf analyzer, independent of its
# code and of the CLI: reads the binary trace (docs/format.md, section 4)
# and the binary profile (section 3: TU and KIPF sections) itself.
#
#   oracle.pl check PROFILE TRACE   every n-gram (n <= k) of consecutive path
#       events of one activation (docs/streaming.md, section 2: START pushes,
#       RET pops, ENTER pushes, RESUME pops to its activation or resyncs),
#       counted by brute force, equals the KIPF exactly; plus the section's
#       own consistency (node and leaf statistics, property 1 of the paper's
#       section 2.2, distinct sibling labels) and, when the profile has blpp
#       counts, level 1 = the Ball-Larus counts (= the whole forest for k=1)
#   oracle.pl contain PROFILE_K PROFILE_K1   property 2: every path of the
#       first k-IPF is in the second with the same count
#   oracle.pl same PROFILE_A PROFILE_B   the two KIPF sections have the
#       same k, events, threads, nodes, leaves and paths with the same
#       counts (the statistics of the k-SFs may differ: PATHPROF_KSF_WORKERS
#       splits a stream among several k-SFs)
# Prints "ok" lines summarising, or problems (at most 20), exit 1 on any.
use strict;
use warnings;

my @problems;
sub problem { push @problems, $_[0] if @problems < 20 }

sub slurp {
    my ($f) = @_;
    open my $h, '<:raw', $f or die "$f: $!\n";
    local $/;
    my $d = <$h>;
    return $d;
}

# Function table of a metadata blob: [ [counter_offset, npaths], ... ]
sub meta_funcs {
    my ($blob) = @_;
    my ($magic, $ver, $nfuncs) = unpack 'a4 V V', $blob;
    die "bad metadata blob\n" unless $magic eq 'PPTM';
    my @f;
    for my $i (0 .. $nfuncs - 1) {
        my $hsize = $ver >= 2 ? 40 : 32;    # header grew in version 2
        my ($npaths, $off) = unpack 'Q< Q<', substr($blob, $hsize + 64 * $i + 24, 16);
        push @f, [$off, $npaths];
    }
    return \@f;
}

# Profile: TU blobs in section order, blpp counts, the KIPF section parsed.
sub read_profile {
    my ($file) = @_;
    my $d = slurp($file);
    die "$file: not a profile\n" unless substr($d, 0, 8) eq 'PATHPROF';
    my ($nsections) = unpack 'V', substr($d, 40, 4);
    my $p = { tus => [], blpp => {}, file => $file };
    my $at = 64;
    for (1 .. $nsections) {
        my ($tag, undef, $len) = unpack 'V V Q<', substr($d, $at, 16);
        my $body = substr($d, $at + 16, $len);
        $at += 16 + $len;
        if ($tag == 2) {
            my ($mlen) = unpack 'Q<', $body;
            my $blob = substr($body, 8, $mlen);
            my $sec = @{ $p->{tus} };
            push @{ $p->{tus} }, $blob;
            my $o = 8 + $mlen + (8 - $mlen % 8) % 8;
            my $funcs = meta_funcs($blob);
            for my $fi (0 .. $#$funcs) {
                my ($nrec) = unpack 'Q<', substr($body, $o, 8);
                $o += 8;
                for (1 .. $nrec) {
                    my ($id, $c) = unpack 'Q< Q<', substr($body, $o, 16);
                    $o += 16;
                    $p->{blpp}{"$sec:$fi:$id"} += $c;
                    $p->{blpp_total} += $c;
                }
                # VERIFY counts are not used by stream-mode builds.
            }
        } elsif ($tag == 4) {
            die "$file: two KIPF sections\n" if $p->{kipf};
            $p->{kipf} = parse_kipf($body);
        }
    }
    die "$file: no KIPF section\n" unless $p->{kipf};
    return $p;
}

sub parse_kipf {
    my ($b) = @_;
    my %k;
    @k{qw(k flags threads events ksf_nodes kipf_nodes hash_ops nlevels)} =
        unpack 'V V Q< Q< Q< Q< Q< V', $b;
    my $o = 56;
    for (1 .. $k{nlevels}) {
        push @{ $k{levels} }, [unpack 'Q< Q< Q<', substr($b, $o, 24)];
        $o += 24;
    }
    @k{qw(leaves leaf_depth_sum nroots)} = unpack 'Q< Q< Q<', substr($b, $o, 24);
    $o += 24;
    my (%paths, $nodes, $leaves, $depth_sum);
    # Preorder with child counts: a stack of [prefix, children left].
    my $compact = $k{flags} & 2;
    my $uleb = sub {    # unsigned LEB128 at $o
        my ($v, $shift) = (0, 0);
        while (1) {
            problem("KIPF: a number runs past the section"), return 0 if $o >= length $b;
            my $byte = ord substr($b, $o++, 1);
            $v |= ($byte & 0x7f) << $shift;
            return $v unless $byte & 0x80;
            $shift += 7;
        }
    };
    my $read;
    $read = sub {
        my ($prefix, $depth, $parent_count, $siblings, $ptu, $pfn) = @_;
        my ($tu, $fn, $id, $c, $nch);
        if ($compact) {
            ($tu, $fn) = defined $ptu ? ($ptu, $pfn) : ($uleb->(), $uleb->());
            ($id, $c, $nch) = ($uleb->(), $uleb->(), $uleb->());
        } else {
            ($tu, $fn, $id, $c, $nch) = unpack 'V V Q< Q< V', substr($b, $o, 32);
            $o += 32;
        }
        $nodes++;
        my $label = "$tu:$fn:$id";
        problem("KIPF: two siblings labelled $label under '$prefix'") if $siblings->{$label}++;
        my $path = $prefix eq '' ? $label : "$prefix,$label";
        $paths{$path} = $c;
        problem("KIPF: node $path has count 0") if $c == 0;
        my ($sum, %seen) = (0);
        for (1 .. $nch) {
            $sum += $read->($path, $depth + 1, $c, \%seen, $tu, $fn);
        }
        problem("KIPF: node $path count $c < its children's sum $sum") if $sum > $c;
        if ($nch == 0) {
            $leaves++;
            $depth_sum += $depth;
        }
        return $c;
    };
    my %roots;
    $read->('', 0, 0, \%roots) for 1 .. $k{nroots};
    problem("KIPF: " . (length($b) - $o) . " bytes after the forest") if $o != length $b;
    problem("KIPF: kipf_nodes $k{kipf_nodes}, forest has " . ($nodes // 0)) if $k{kipf_nodes} != ($nodes // 0);
    problem("KIPF: leaves $k{leaves}/$k{leaf_depth_sum}, forest has " . ($leaves // 0) . "/" . ($depth_sum // 0))
        if $k{leaves} != ($leaves // 0) || $k{leaf_depth_sum} != ($depth_sum // 0);
    my $want_levels = $k{k} == 1 ? 1 : 2 * $k{k} - 2;
    problem("KIPF: nlevels $k{nlevels}, want $want_levels") if $k{nlevels} != $want_levels;
    my $lvl_nodes = 0;
    $lvl_nodes += $_->[0] for @{ $k{levels} };
    problem("KIPF: level nodes sum $lvl_nodes != ksf_nodes $k{ksf_nodes}") if $lvl_nodes != $k{ksf_nodes};
    $k{paths} = \%paths;
    return \%k;
}

# Trace: per thread its events in order; TUs with bases and blobs.
sub read_trace {
    my ($file) = @_;
    my $d = slurp($file);
    die "$file: not a trace\n" unless substr($d, 0, 8) eq "PPTRACE\0";
    my (%ev, @tus);
    my $at = 64;
    my $end = length($d) - 8;
    while ($at < $end) {
        my ($type, $tid, $len) = unpack 'V V Q<', substr($d, $at, 16);
        my $body = substr($d, $at + 16, $len);
        $at += 16 + $len;
        if ($type == 1) {
            push @{ $ev{$tid} }, unpack 'Q<*', $body;
        } elsif ($type == 2) {
            my ($id, $base, $fnbase, $mlen) = unpack 'Q< Q< Q< Q<', $body;
            push @tus, { id => $id, base => $base, blob => substr($body, 32, $mlen) };
        } elsif ($type == 3) {
            last;
        } else {
            die "$file: record type $type\n";
        }
    }
    return (\%ev, \@tus);
}

sub check {
    my ($pfile, $tfile) = @_;
    my $p = read_profile($pfile);
    my ($ev, $tus) = read_trace($tfile);
    my $kp = $p->{kipf};
    my $k = $kp->{k};
    # Global path index -> "section:function:id": the trace's TU is the
    # profile's first TU section with the same blob.
    my @ranges;
    for my $t (@$tus) {
        my ($sec) = grep { $p->{tus}[$_] eq $t->{blob} } 0 .. $#{ $p->{tus} };
        if (!defined $sec) {
            problem("trace TU $t->{id} has no TU section in the profile");
            next;
        }
        my $funcs = meta_funcs($t->{blob});
        for my $fi (0 .. $#$funcs) {
            push @ranges, [$t->{base} + $funcs->[$fi][0], $funcs->[$fi][1], "$sec:$fi:"];
        }
    }
    @ranges = sort { $a->[0] <=> $b->[0] } @ranges;
    my %cache;
    my $label = sub {
        my ($g) = @_;
        return $cache{$g} //= do {
            my ($lo, $hi) = (0, scalar @ranges);
            while ($lo < $hi) {
                my $m = int(($lo + $hi) / 2);
                if ($ranges[$m][0] <= $g) { $lo = $m + 1 } else { $hi = $m }
            }
            my $r = $lo ? $ranges[$lo - 1] : undef;
            defined $r && $g - $r->[0] < $r->[1] ? $r->[2] . ($g - $r->[0]) : "unknown:$g";
        };
    };
    my ($MARK, $RET, $START) = (1 << 63, 1 << 62, 1 << 61);
    my $MASK = (1 << 61) - 1;
    my (%ng, $events);
    for my $tid (sort { $a <=> $b } keys %$ev) {
        my @e = @{ $ev->{$tid} };
        my @stack; # each: { func, frame, how, win => [labels] }
        for (my $i = 0; $i < @e; $i++) {
            my $w = $e[$i];
            if ($w & $MARK) {
                my $frame = $e[++$i];
                my $kind = ($w >> 56) & 0x7f;
                my $fn = $w & ((1 << 56) - 1);
                if ($kind == 1) {
                    push @stack, { func => $fn, frame => $frame, how => 'enter', win => [] };
                } elsif ($kind == 2) {
                    my $j = $#stack;
                    $j-- while $j >= 0 && !($stack[$j]{how} ne 'path' && $stack[$j]{frame} == $frame
                                             && $stack[$j]{func} == $fn);
                    if ($j >= 0) { splice @stack, $j + 1 }
                    else { push @stack, { func => $fn, frame => $frame, how => 'resync', win => [] } }
                }
                next;
            }
            $events++;
            push @stack, { how => 'path', frame => 0, func => -1, win => [] }
                if ($w & $START) || !@stack;
            my $win = $stack[-1]{win};
            push @$win, $label->($w & $MASK);
            shift @$win if @$win > $k;
            for my $n (1 .. @$win) {
                $ng{ join ',', @$win[$#$win - $n + 1 .. $#$win] }++;
            }
            pop @stack if $w & $RET;
        }
    }
    my $paths = $kp->{paths};
    my ($agree, $missing, $extra) = (0, 0, 0);
    for my $s (sort keys %ng) {
        if (!exists $paths->{$s}) {
            problem("n-gram $s: oracle $ng{$s}, not in the KIPF");
        } elsif ($paths->{$s} != $ng{$s}) {
            problem("n-gram $s: oracle $ng{$s}, KIPF $paths->{$s}");
        } else {
            $agree++;
        }
    }
    for my $s (sort keys %$paths) {
        problem("KIPF path $s ($paths->{$s}) is not an n-gram of the trace") unless exists $ng{$s};
    }
    problem("KIPF events $kp->{events}, trace has " . ($events // 0) . " path events")
        if $kp->{events} != ($events // 0);
    problem("KIPF threads $kp->{threads}, trace has " . scalar(keys %$ev))
        if $kp->{threads} < scalar(grep { @{ $ev->{$_} } } keys %$ev);
    if (%{ $p->{blpp} }) {
        my %roots = map { $_ => $paths->{$_} } grep { !/,/ } keys %$paths;
        for my $l (sort keys %{ { %roots, %{ $p->{blpp} } } }) {
            my ($a, $b) = ($roots{$l} // 0, $p->{blpp}{$l} // 0);
            problem("path $l: KIPF level 1 $a, blpp $b") if $a != $b;
        }
        problem("k=1 forest has deeper nodes") if $k == 1 && grep { /,/ } keys %$paths;
    }
    return sprintf "k=%d: %d n-grams agree, %d events, %d threads, %d k-SF nodes, %d hash ops%s",
        $k, $agree, $events // 0, $kp->{threads}, $kp->{ksf_nodes}, $kp->{hash_ops},
        %{ $p->{blpp} } ? ', level 1 = blpp' : '';
}

sub contain {
    my ($fa, $fb) = @_;
    my ($a, $b) = (read_profile($fa)->{kipf}, read_profile($fb)->{kipf});
    my $n = 0;
    for my $s (sort keys %{ $a->{paths} }) {
        my $want = $a->{paths}{$s};
        my $got = $b->{paths}{$s};
        if (!defined $got) { problem("k=$a->{k} path $s not in the k=$b->{k} forest") }
        elsif ($got != $want) { problem("path $s: k=$a->{k} $want, k=$b->{k} $got") }
        else { $n++ }
    }
    return "k=$a->{k} in k=$b->{k}: $n paths";
}

sub same {
    my ($fa, $fb) = @_;
    my ($a, $b) = (read_profile($fa)->{kipf}, read_profile($fb)->{kipf});
    for my $f (qw(k events threads kipf_nodes leaves leaf_depth_sum nroots)) {
        problem("$f: $a->{$f} and $b->{$f}") if $a->{$f} != $b->{$f};
    }
    my $n = 0;
    for my $s (sort keys %{ { %{ $a->{paths} }, %{ $b->{paths} } } }) {
        my ($x, $y) = ($a->{paths}{$s} // 'none', $b->{paths}{$s} // 'none');
        if ($x ne $y) { problem("path $s: $x and $y") }
        else { $n++ }
    }
    return "k=$a->{k}: the same $n paths and counts, $a->{events} events";
}

my $mode = shift @ARGV // '';
my $msg = $mode eq 'check' ? check(@ARGV) : $mode eq 'contain' ? contain(@ARGV)
        : $mode eq 'same' ? same(@ARGV)
        : die "usage: oracle.pl check PROFILE TRACE | contain PROFILE_K PROFILE_K1 | same PROFILE_A PROFILE_B\n";
if (@problems) {
    print "$_\n" for @problems;
    exit 1;
}
print "$msg\n";
