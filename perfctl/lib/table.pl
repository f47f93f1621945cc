#!/usr/bin/perl
# table.pl DIR: perfctl's tables from DIR/raw (written by `perfctl run`).
# Writes, for every program P, DIR/P.md and DIR/P.csv (one row per
# configuration, every column), DIR/results.md (all programs, with the
# machine and which counters it counts), and DIR/figdata/*.dat for plot.sh.
# A value that was not measured is "n/c" (event not counted by the machine)
# or "-" (not applicable / not run); never a 0 that was not counted.
use strict;
use warnings;

my $dir = shift or die "usage: table.pl DIR\n";
-d "$dir/raw" or die "table.pl: $dir/raw is missing: run perfctl run --out $dir first\n";

sub slurp_kv {    # FILE: { key => rest of line }
    my %h;
    open my $fh, '<', $_[0] or return {};
    while (<$fh>) { chomp; my ($k, $v) = split / /, $_, 2; $h{$k} = $v // ''; }
    return \%h;
}
sub median {
    my @v = sort { $a <=> $b } @_;
    return undef unless @v;
    return @v % 2 ? $v[$#v / 2] : ($v[@v / 2 - 1] + $v[@v / 2]) / 2;
}
sub fnum {    # a number for a table: integers with no decimals
    my ($v, $d) = @_;
    return '-' unless defined $v;
    return $v if $v !~ /^-?[\d.eE+]+$/;
    return sprintf('%.*f', $d, $v) if defined $d;
    return sprintf('%.0f', $v);
}
sub ratio { my ($a, $b, $d) = @_; return (defined $a && defined $b && $b > 0) ? sprintf('%.*f', $d // 2, $a / $b) : '-'; }
sub pct { my ($a, $b) = @_; return (defined $a && defined $b && $b > 0) ? sprintf('%.3f', 100 * $a / $b) : '-'; }

my $meta = slurp_kv("$dir/meta.txt");
my @programs = split ' ', ($meta->{programs} // '');
my @configs = split ' ', ($meta->{configs} // '');
my @hw = qw(cycles instructions l1d-misses llc-misses branch-misses);
my @sw = qw(task-clock context-switches cpu-migrations page-faults);

# Which events the machine counted (from the probe, and from the runs).
my (%probe_no);
if (open my $fh, '<', "$dir/probe.txt") {
    while (<$fh>) { chomp; my ($e, $yes, $why) = split / /, $_, 3; $probe_no{$e} = $why // '' if $yes eq 'no'; }
}

my (%fig, @summary, %xsum);
my @csv_cols = (qw(program kind configuration build env status note runs time_median_s time_min_s time_max_s x_native x_count
                   user_s sys_s maxrss_kb), @sw, qw(task_clock_x_native), @hw,
                qw(cpi profile_bytes trace_bytes events lost blocked_s analyzer_busy_s analyzer_threads produced_meps analyzer_meps
                   ksf_nodes_per_kid k ksf_nodes kipf_nodes hash_ops
                   hash_ops_per_path_id prune_budget prune_peak prune_epochs paths_executed hash_updates
                   cg_Ir cg_x_native cg_x_count cg_D1_miss_pct cg_LL_miss_pct cg_branch_mispred_pct
                   cg_program_Ir cg_runtime_Ir cg_analyzer_Ir cg_analyzer_D1_miss_pct cg_analyzer_LL_miss_pct
                   wpp_threads wpp_symbols wpp_distinct_paths wpp_rules wpp_grammar_bytes wpp_raw_bytes wpp_xz_bytes));

for my $p (@programs) {
    my $R = "$dir/raw/$p";
    next unless -d $R;
    my $prog = slurp_kv("$R/program.txt");
    my (%row);
    for my $c (@configs) {
        my $d = "$R/$c";
        next unless -d $d;
        my $cfg = slurp_kv("$d/config.txt");
        my %r = (configuration => $c, build => $cfg->{build} // '-', env => $cfg->{env} // '', k => $cfg->{k} || '-');
        $r{env} =~ s/\s+$//;
        my @runs = glob("$d/run-*.txt");
        if (-f "$d/broken") {
            open my $fh, '<', "$d/broken"; my $why = <$fh> // ''; chomp $why;
            $r{status} = "BROKEN: $why";
        } elsif (!@runs) {
            $r{status} = 'not run';
        } else {
            $r{status} = 'ok';
            if (open my $fh, '<', "$d/note") { $r{note} = <$fh> // ''; chomp $r{note}; }
        }
        $r{runs} = @runs;
        if ($r{status} eq 'ok') {
            my (%vals, %nc);
            for my $f (@runs) {
                my $h = slurp_kv($f);
                push @{$vals{wall}}, $h->{wall_s};
                push @{$vals{$_}}, $h->{$_} for qw(user_s sys_s maxrss_kb);
                open my $fh, '<', $f;
                while (<$fh>) {
                    next unless /^event (\S+) (.*)/;
                    my ($e, $v) = ($1, $2);
                    if ($v =~ /^n\/c\s*(.*)/) { $nc{$e} = $1 } else { $v =~ s/ scaled//; push @{$vals{$e}}, $v }
                }
                (my $s = $f) =~ s/run-(\d+)\.txt$/stats.$1/;
                my $st = slurp_kv($s);
                push @{$vals{"st_$_"}}, $st->{$_} for keys %$st;
            }
            $r{time_median_s} = median(@{$vals{wall}});
            $r{time_min_s} = (sort { $a <=> $b } @{$vals{wall}})[0];
            $r{time_max_s} = (sort { $b <=> $a } @{$vals{wall}})[0];
            $r{$_} = median(@{$vals{$_}}) for qw(user_s sys_s maxrss_kb);
            for my $e (@sw, @hw) {
                $r{$e} = $nc{$e} ? 'n/c' : median(@{$vals{$e} // []});
                $r{$e} = 'n/c' unless defined $r{$e};
            }
            $r{'task-clock'} = $r{'task-clock'} / 1e9 if $r{'task-clock'} ne 'n/c';
            $r{cpi} = ($r{cycles} ne 'n/c' && $r{instructions} ne 'n/c') ? sprintf('%.3f', $r{cycles} / $r{instructions}) : 'n/c';
            my %st = map { (substr($_, 3) => median(@{$vals{$_}})) } grep { /^st_/ } keys %vals;
            $r{profile_bytes} = $st{profile_bytes};
            $r{trace_bytes} = $st{trace_bytes};
            $r{events} = $st{events};
            $r{lost} = defined $st{dropped} ? $st{dropped} + ($st{late} // 0) : undef;
            $r{blocked_s} = defined $st{blocked_ns} ? $st{blocked_ns} / 1e9 : undef;
            $r{analyzer_busy_s} = defined $st{busy_ns} ? $st{busy_ns} / 1e9 : undef;
            $r{analyzer_threads} = $st{analyzer_threads};
            $r{$_} = $st{$_} for qw(ksf_nodes kipf_nodes hash_ops paths_executed hash_updates prune_budget prune_peak prune_epochs);
            $r{$_} = $st{$_} for grep { /^wpp_/ } keys %st;
            $r{path_ids} = $st{kipf_events} // $st{prune_events};
            $r{hash_ops_per_path_id} = (defined $st{hash_ops} && $st{kipf_events}) ? sprintf('%.4f', $st{hash_ops} / $st{kipf_events}) : undef;
            # Rates (issue 13): what the program emitted per second of its
            # wall time, and what one analyzer thread consumed per second of
            # its own CPU time (busy_ns sums the analyzer threads, so this
            # is the rate of one); k-SF nodes made per 1000 path IDs (a
            # forest that keeps growing is one whose walks miss the cache).
            $r{produced_meps} = ($r{events} && $r{time_median_s}) ? sprintf('%.1f', $r{events} / $r{time_median_s} / 1e6) : undef;
            $r{analyzer_meps} = ($r{events} && $r{analyzer_busy_s}) ? sprintf('%.1f', $r{events} / $r{analyzer_busy_s} / 1e6) : undef;
            $r{ksf_nodes_per_kid} = ($st{ksf_nodes} && $r{path_ids}) ? sprintf('%.1f', 1000 * $st{ksf_nodes} / $r{path_ids}) : undef;
        }
        if (-f "$d/cg.txt") {
            my %cg;
            open my $fh, '<', "$d/cg.txt";
            while (<$fh>) { my ($cl, $e, $v) = split; $cg{$cl}{$e} = $v; }
            my $rate = sub {
                my ($cl, @m) = @_;
                my $refs = ($cg{$cl}{Dr} // 0) + ($cg{$cl}{Dw} // 0);
                my $miss = 0; $miss += $cg{$cl}{$_} // 0 for @m;
                return pct($miss, $refs);
            };
            $r{cg_Ir} = $cg{total}{Ir};
            $r{cg_D1_miss_pct} = $rate->('total', qw(D1mr D1mw));
            $r{cg_LL_miss_pct} = $rate->('total', qw(DLmr DLmw));
            $r{cg_branch_mispred_pct} = pct(($cg{total}{Bcm} // 0) + ($cg{total}{Bim} // 0), ($cg{total}{Bc} // 0) + ($cg{total}{Bi} // 0));
            $r{"cg_${_}_Ir"} = $cg{$_}{Ir} for qw(program runtime analyzer);
            $r{cg_analyzer_D1_miss_pct} = $cg{analyzer}{Ir} ? $rate->('analyzer', qw(D1mr D1mw)) : '-';
            $r{cg_analyzer_LL_miss_pct} = $cg{analyzer}{Ir} ? $rate->('analyzer', qw(DLmr DLmw)) : '-';
        } elsif (-f "$d/cg-failed") {
            $r{cg_Ir} = 'timeout';
        }
        $row{$c} = \%r;
    }
    my $nat = $row{native};
    my $cnt = $row{count};
    for my $c (keys %row) {
        my $r = $row{$c};
        next unless ($r->{status} // '') eq 'ok';
        $r->{x_native} = ratio($r->{time_median_s}, $nat && $nat->{time_median_s});
        $r->{x_count} = ratio($r->{time_median_s}, $cnt && $cnt->{status} eq 'ok' ? $cnt->{time_median_s} : undef);
        $r->{task_clock_x_native} = ($r->{'task-clock'} ne 'n/c' && $nat && ($nat->{'task-clock'} // 'n/c') ne 'n/c')
            ? ratio($r->{'task-clock'}, $nat->{'task-clock'}) : 'n/c';
        if (($r->{cg_Ir} // '') =~ /^\d+$/) {
            $r->{cg_x_native} = ratio($r->{cg_Ir}, $nat && $nat->{cg_Ir});
            $r->{cg_x_count} = ratio($r->{cg_Ir}, $cnt && ($cnt->{cg_Ir} // '') =~ /^\d+$/ ? $cnt->{cg_Ir} : undef);
        }
    }

    for my $c (keys %row) {
        my $r = $row{$c};
        $xsum{$c}{$p} = $r->{status} eq 'ok' ? "$r->{x_native} / $r->{task_clock_x_native}" . ($r->{cg_x_native} ? " / $r->{cg_x_native}" : '')
                      : $r->{status} =~ /^BROKEN/ ? 'broken' : '-';
    }

    # CSV: every column.
    open my $csv, '>', "$dir/$p.csv" or die "table.pl: $dir/$p.csv: $!\n";
    print $csv join(',', @csv_cols), "\n";
    for my $c (grep { $row{$_} } @configs) {
        my $r = $row{$c};
        my %x = (%$r, program => $p, kind => $prog->{kind} // '');
        print $csv join(',', map {
            my $v = $x{$_} // '-';
            $v = sprintf('%.6g', $v) if $v =~ /^-?\d+\.\d+$/;
            $v =~ /[,"]/ ? '"' . ($v =~ s/"/""/gr) . '"' : $v;
        } @csv_cols), "\n";
    }
    close $csv;

    # Markdown.
    my @md;
    push @md, "## $p ($prog->{kind}): $prog->{desc}", '';
    push @md, "$prog->{version}; timed workload: `$prog->{workload}`" . ($prog->{cg_workload} ? "; cachegrind workload: `$prog->{cg_workload}`" : '') . '.', '';
    push @md, "Time: wall seconds, median of the runs (min, max); x native and x count: median / the native and counting-mode medians of the same `perfctl run`. task-clock: CPU time of all the program's threads (the analyzer threads included), less disturbed than wall time by other load on the machine. Counters: medians; n/c = not counted by this machine.", '';
    push @md, '| configuration | status | runs | median s | min s | max s | x native | x count | task-clock s | task-clock x native | ctx switches | migrations | cycles | instructions | CPI | L1d misses | LLC misses | branch misses |';
    push @md, '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |';
    for my $c (grep { $row{$_} } @configs) {
        my $r = $row{$c};
        if ($r->{status} ne 'ok') {
            push @md, "| $c | **$r->{status}** |" . (' - |' x 16);
            next;
        }
        push @md, '| ' . join(' | ', $c, $r->{note} ? "ok, $r->{note}" : 'ok', $r->{runs}, fnum($r->{time_median_s}, 3), fnum($r->{time_min_s}, 3), fnum($r->{time_max_s}, 3),
            $r->{x_native}, $r->{x_count}, fnum($r->{'task-clock'}, 3), $r->{task_clock_x_native}, fnum($r->{'context-switches'}), fnum($r->{'cpu-migrations'}),
            fnum($r->{cycles}), fnum($r->{instructions}), $r->{cpi}, fnum($r->{'l1d-misses'}), fnum($r->{'llc-misses'}), fnum($r->{'branch-misses'})) . ' |';
    }
    push @md, '';
    if (grep { defined $row{$_}{cg_Ir} } keys %row) {
        push @md, "Cachegrind (valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes; simulated caches, one run on the small workload): instructions (Ir) and miss rates per data reference (D1, LL) and per branch. \"analyzer\": code in pathprof's analyzers/ (the analyzer threads), split by source file.", '';
        push @md, '| configuration | Ir | x native | x count | D1 miss % | LL miss % | branch mispredict % | program + libc Ir | runtime Ir | analyzer Ir | analyzer D1 miss % | analyzer LL miss % |';
        push @md, '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |';
        for my $c (grep { $row{$_} && defined $row{$_}{cg_Ir} } @configs) {
            my $r = $row{$c};
            push @md, '| ' . join(' | ', $c, fnum($r->{cg_Ir}), $r->{cg_x_native} // '-', $r->{cg_x_count} // '-', $r->{cg_D1_miss_pct} // '-', $r->{cg_LL_miss_pct} // '-',
                $r->{cg_branch_mispred_pct} // '-', fnum($r->{cg_program_Ir}), fnum($r->{cg_runtime_Ir}), fnum($r->{cg_analyzer_Ir}),
                $r->{cg_analyzer_D1_miss_pct} // '-', $r->{cg_analyzer_LL_miss_pct} // '-') . ' |';
        }
        push @md, '';
    }
    push @md, "Profiles and analyzers (medians over the timed runs): peak RSS = the process's maximum resident set (GNU time); events = words in the stream (path IDs + markers); produced = events / median wall time; analyzer = events / analyzer busy time (CPU time in consume, summed over analyzer threads: the rate of one thread); lost = dropped + late; blocked = producers' wait for a chunk; path IDs / hash ops / nodes from the KIPF section; k-SF nodes / 1k path IDs: how fast the forest grows (each new node is a walk into memory no cache holds; 0 when the k-IPF is built through suffix links, PATHPROF_KSF_BUILD=links, the default: configuration BASE\@KSF_BUILD=slabs for the k-SF's figures); count mode: paths counted and hash-table updates.", '';
    push @md, '| configuration | profile bytes | peak RSS KB | events | produced M events/s | analyzer M events/s | lost | blocked s | analyzer busy s | k | path IDs | k-SF nodes | k-SF nodes / 1k path IDs | k-IPF nodes | hash ops | hash ops / path ID | pruned: budget / peak bytes, epochs |';
    push @md, '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |';
    for my $c (grep { $row{$_} && $row{$_}{status} eq 'ok' && $row{$_}{build} =~ /^(count|count-atomic|stream|stream-inloop)$/ } @configs) {
        my $r = $row{$c};
        my $ev = $r->{build} =~ /^count/ ? fnum($r->{paths_executed}) . ' paths' : fnum($r->{events});
        $ev .= ' (trace file ' . fnum($r->{trace_bytes}) . ' bytes)' if defined $r->{trace_bytes};
        my $hops = $r->{build} =~ /^count/ ? fnum($r->{hash_updates}) . ' (hash-mode functions)' : fnum($r->{hash_ops});
        push @md, '| ' . join(' | ', $c, fnum($r->{profile_bytes}), fnum($r->{maxrss_kb}), $ev, $r->{produced_meps} // '-', $r->{analyzer_meps} // '-',
            fnum($r->{lost}), fnum($r->{blocked_s}, 3), fnum($r->{analyzer_busy_s}, 3),
            $r->{k}, fnum($r->{path_ids}), fnum($r->{ksf_nodes}), $r->{ksf_nodes_per_kid} // '-', fnum($r->{kipf_nodes}), $hops, $r->{hash_ops_per_path_id} // '-',
            defined $r->{prune_budget} ? fnum($r->{prune_budget}) . ' / ' . fnum($r->{prune_peak}) . ', ' . fnum($r->{prune_epochs}) : '-') . ' |';
    }
    push @md, '';

    # WPP (issue 16): the WPP paper's Table 1 columns for every
    # configuration with a wpp analyzer, from `pathprof wpp --json` of its
    # profiles (medians; xz -9 from the first run, when it was run).
    my @wpp = grep { $row{$_} && $row{$_}{status} eq 'ok' && defined $row{$_}{wpp_symbols} } @configs;
    if (@wpp) {
        push @md, "Whole program paths (issue 16; the WPP paper's Table 1 columns): time = native median s; trace = raw stream (8 bytes a word), MB = 10^6 bytes; trace/s and WPP/s = MB per second of the wpp run's median wall time; WPP = the profile's grammars (binary: the paper's are text, about twice the size); symbols/s = stream words per second of one analyzer thread's CPU time; xz/WPP = xz -9 of the raw trace over the grammars (first run; '-': not run, see PERFCTL_WPP_XZ_MAX).", '';
        push @md, '| configuration | time s | trace MB | trace MB/s | WPP MB | WPP MB/s | trace/WPP | xz/WPP | WPP bytes per M symbols | threads | distinct paths | rules | rules/path | M symbols/s per analyzer thread | >= 30 M |';
        push @md, '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |';
        for my $c (@wpp) {
            my $r = $row{$c};
            my $wall = $r->{time_median_s};
            my $mbs = sub { (defined $_[0] && $wall) ? sprintf('%.2f', $_[0] / 1e6 / $wall) : '-' };
            my $rate = $r->{analyzer_meps};
            push @md, '| ' . join(' | ', $c, fnum($nat && $nat->{time_median_s}, 3), fnum(defined $r->{wpp_raw_bytes} ? $r->{wpp_raw_bytes} / 1e6 : undef, 1),
                $mbs->($r->{wpp_raw_bytes}), fnum(defined $r->{wpp_grammar_bytes} ? $r->{wpp_grammar_bytes} / 1e6 : undef, 3), $mbs->($r->{wpp_grammar_bytes}),
                ratio($r->{wpp_raw_bytes}, $r->{wpp_grammar_bytes}, 1),
                (defined $r->{wpp_xz_bytes} && $r->{wpp_xz_bytes} > 0) ? ratio($r->{wpp_xz_bytes}, $r->{wpp_grammar_bytes}) : '-',
                ($r->{wpp_symbols} && defined $r->{wpp_grammar_bytes}) ? fnum($r->{wpp_grammar_bytes} / ($r->{wpp_symbols} / 1e6)) : '-',
                fnum($r->{wpp_threads}), fnum($r->{wpp_distinct_paths}), fnum($r->{wpp_rules}),
                ratio($r->{wpp_rules}, $r->{wpp_distinct_paths}, 1), $rate // '-', defined $rate ? ($rate >= 30 ? 'yes' : 'no') : '-') . ' |';
        }
        push @md, '';
    }

    # Goals (issue 13, docs/performance.md): each a ratio of medians of
    # this run; "-" when a configuration is missing or broken.
    my $t = sub { my $r = $row{$_[0]}; return ($r && ($r->{status} // '') eq 'ok') ? $r->{time_median_s} : undef; };
    my @goals = (
        ['stream-blpp', 'fprofile-generate', 1, 'stream + blpp <= -fprofile-generate (default update)'],
        ['count', 'fprofile-generate', 1, 'counting mode <= -fprofile-generate (single)'],
        ['count-atomic', 'fprofile-generate-atomic', 1, 'counting mode <= -fprofile-generate (both atomic)'],
        ['ksf-8', 'stream-blpp', 1.25, 'ksf k=8 <= 1.25 x stream + blpp'],
        ['ksf-16', 'stream-blpp', 1.5, 'ksf k=16 <= 1.5 x stream + blpp'],
        ['ksf-pruned', 'ksf-8', 1, 'ksf-pruned k=8 <= ksf k=8'],
        ['ksf-pruned-16', 'ksf-16', 1, 'ksf-pruned k=16 <= ksf k=16'],
    );
    my @gmd = ('Goals (issue 13): wall-time ratios of medians from this run.', '',
               '| goal | ratio | target | met |', '| --- | ---: | ---: | --- |');
    for my $g (@goals) {
        my ($a, $b, $target, $what) = @$g;
        my $r = ratio($t->($a), $t->($b));
        my $met = $r eq '-' ? '-' : ($r <= $target ? 'yes' : 'no');
        push @gmd, "| $what | $r | $target | $met |";
    }
    # ksf-pruned's memory (issue 13): peak RSS within native + budget +
    # 10%, the budget being PATHPROF_PRUNE per analyzer thread.
    my $nat_rss = $nat && ($nat->{status} // '') eq 'ok' ? $nat->{maxrss_kb} : undef;
    for my $c ('ksf-pruned', 'ksf-pruned-16') {
        my $r = $row{$c};
        next unless $r && ($r->{status} // '') eq 'ok' && defined $r->{prune_budget} && defined $nat_rss;
        my $threads = ($r->{analyzer_threads} // '-') =~ /^\d+$/ ? $r->{analyzer_threads} : 1;
        my $allowed = $nat_rss + $threads * $r->{prune_budget} / 1024;
        my $rr = ratio($r->{maxrss_kb}, $allowed);
        my $met = $rr eq '-' ? '-' : ($rr <= 1.1 ? 'yes' : 'no');
        push @gmd, "| $c peak RSS <= 1.1 x (native RSS + budget) | $rr | 1.1 | $met |";
    }
    my $an = $row{'stream-blpp'};
    push @gmd, "| blpp analyzer >= 300 M events/s per thread | " . (($an && $an->{analyzer_meps}) // '-') . " | 300 | "
        . (($an && $an->{analyzer_meps}) ? ($an->{analyzer_meps} >= 300 ? 'yes' : 'no') : '-') . ' |';
    my $k8 = $row{'ksf-8'};
    push @gmd, "| ksf k=8 analyzer >= 150 M events/s per thread | " . (($k8 && $k8->{analyzer_meps}) // '-') . " | 150 | "
        . (($k8 && $k8->{analyzer_meps}) ? ($k8->{analyzer_meps} >= 150 ? 'yes' : 'no') : '-') . ' |';
    push @md, @gmd, '';
    open my $md, '>', "$dir/$p.md" or die "table.pl: $dir/$p.md: $!\n";
    print $md join("\n", @md), "\n";
    close $md;
    push @summary, @md;

    # Figure data: Figs. 8-10 of the k-BLPP paper, over k.
    my $blpp = $row{'stream-blpp'};
    for my $c (@configs) {
        my $r = $row{$c} or next;
        next unless $r->{status} eq 'ok' && $r->{k} ne '-' && $c =~ /^ksf-\d+$/;
        my $k = $r->{k};
        $fig{fig8}{$k}{$p} = ratio($r->{time_median_s}, $blpp && $blpp->{status} eq 'ok' ? $blpp->{time_median_s} : undef, 4);
        $fig{fig9}{$k}{$p} = $r->{hash_ops_per_path_id} // '-';
        $fig{cpi}{$k}{$p} = $r->{cpi};
        my $hw_l1 = ($r->{'l1d-misses'} ne 'n/c' && $r->{instructions} ne 'n/c') ? sprintf('%.3f', 1000 * $r->{'l1d-misses'} / $r->{instructions}) : undef;
        $fig{l1}{$k}{$p} = $r->{cg_D1_miss_pct} // '-';
        $fig{ll}{$k}{$p} = $r->{cg_LL_miss_pct} // '-';
        $fig{l1hw}{$k}{$p} = $hw_l1 // '-';
        $fig{llhw}{$k}{$p} = ($r->{'llc-misses'} ne 'n/c' && $r->{instructions} ne 'n/c') ? sprintf('%.3f', 1000 * $r->{'llc-misses'} / $r->{instructions}) : '-';
        $fig{anl1}{$k}{$p} = $r->{cg_analyzer_D1_miss_pct} // '-';
        $fig{anll}{$k}{$p} = $r->{cg_analyzer_LL_miss_pct} // '-';
    }
}

mkdir "$dir/figdata";
for my $f (keys %fig) {
    open my $fh, '>', "$dir/figdata/$f.dat" or die "table.pl: $dir/figdata/$f.dat: $!\n";
    print $fh join("\t", '# k', @programs), "\n";
    for my $k (sort { $a <=> $b } keys %{$fig{$f}}) {
        print $fh join("\t", $k, map { my $v = $fig{$f}{$k}{$_} // '-'; $v =~ /^[\d.]+$/ ? $v : '?' } @programs), "\n";
    }
    close $fh;
}

# results.md: the machine, the counters, every program.
my @counted = grep { !exists $probe_no{$_} } (@hw, @sw);
my @missing = grep { exists $probe_no{$_} } (@hw, @sw);
my $nohw = grep { exists $probe_no{$_} } @hw;
open my $out, '>', "$dir/results.md" or die "table.pl: $dir/results.md: $!\n";
print $out "# perfctl results\n\n";
print $out "$meta->{date}; pathprof $meta->{commit} (build " . ($meta->{build} // '?') . "); $meta->{machine}; load average $meta->{load_start} at the start, " . ($meta->{load_end} // '?') . " at the end.\n";
print $out "Runs per configuration: $meta->{runs}" . (($meta->{runs_for} // '-') ne '-' ? " ($meta->{runs_for})" : '') . "; workload scale $meta->{scale}; stream runs with PATHPROF_POLICY=block and the other PATHPROF_* at their defaults unless the configuration says otherwise.\n\n";
print $out "Counters counted by this machine: " . (join(', ', @counted) || 'none') . ".\n";
if (@missing) {
    print $out "**Not counted here** (shown as n/c): " . join('; ', map { "$_ ($probe_no{$_})" } @missing) . ".\n";
}
if ($nohw) {
    print $out "**Hardware events are missing: fallback to software events"
        . ($meta->{cachegrind} ? " plus valgrind --tool=cachegrind for instruction counts and simulated cache miss rates"
           : " only: no instruction counts (cachegrind not run: --cachegrind " . ($meta->{cachegrind_mode} // '?') . ")")
        . ".**\n";
}
my @present = grep { -d "$dir/raw/$_" } @programs;
print $out "\n## Summary: cost relative to native\n\n";
print $out "Each cell: wall time x native / task-clock (CPU time, all threads) x native" . ($meta->{cachegrind} ? " / cachegrind instructions x native (small workload)" : '') . "; medians of the same run. broken: see the program's table.\n\n";
print $out '| configuration | ' . join(' | ', @present) . " |\n";
print $out '| --- |' . (' ---: |' x @present) . "\n";
for my $c (grep { $xsum{$_} } @configs) {
    print $out "| $c | " . join(' | ', map { $xsum{$c}{$_} // '-' } @present) . " |\n";
}
print $out "\n", join("\n", @summary), "\n";
close $out;
print STDERR "table.pl: wrote $dir/results.md, " . join(', ', map { "$_.md/.csv" } @programs) . "\n";
