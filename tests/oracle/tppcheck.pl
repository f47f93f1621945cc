#!/usr/bin/perl
# tppcheck.pl TPP.json BLPP.json - a TPP profile against a plain Ball-Larus
# profile of the same run (same program, same input, both built from the
# same -fprofile-use data), both as `pathprof report --json`.
#
# The two numberings differ, and TPP may end paths at more edges (the
# entry and exit edges of disconnected loops, its "truncated" list), so
# BLPP's paths are first split at those edges, as the TPP paper does
# (section 5, footnote 5). A path is then identified by its blocks and its
# real CFG edges. Checked per function:
#   - every path TPP measures has the count BLPP gives it;
#   - every obvious path whose count is derived (docs/tpp.md) has the count
#     of its defining edge: when the BLPP build has `verify` (the plugin's
#     direct edge counters, "verify_edges"), that edge's count; otherwise
#     the BLPP counts of every path that crosses it, run or not, which
#     misses the activations abandoned after the edge (a longjmp or exit
#     in a callee: the edge ran, the path never completed; dash's
#     evaltree, tests/tpp-longjmp.t);
#   - the cold counter holds exactly the BLPP counts of the run paths TPP
#     does not number (those through a cold edge), except those that end
#     where only obvious paths end (no counter there);
#   - without derived paths, TPP's total equals BLPP's (split) total.
# A function BLPP cut (max-paths) and TPP did not, whose BLPP paths are
# pieces of TPP's, is compared piece by piece (compare_pieces, below).
# --sched F,... names functions whose paths follow the scheduling of the
# program's threads (or the clock): the TPP and the BLPP runs are two
# runs, so such a function's paths differ between them whatever TPP
# does (pigz's lock waits and job lists, perfctl/programs/pigz.sh). Each
# is reported "ok ... not compared" and not checked; GCC's clones of one
# (NAME.part.N, .isra.N, .constprop.N, .cold) are listed with it.
# Output: "ok<TAB>name" / "not ok<TAB>name" lines with "# ..." diagnostics
# (tests/lib/programs.sh's pp_tap_lines turns them into TAP), then
# "# cold N" and "# derived_functions N".
use strict;
use warnings;
use JSON::PP;
use FindBin;
use lib "$FindBin::Bin/../../perfctl/lib";
use TppPaths qw(load_json path_key split_path copy_id);

my %sched;
if (@ARGV && $ARGV[0] eq '--sched') {
    shift;
    defined $ARGV[0] or die "tppcheck.pl: --sched needs a list of function names (may be empty)\n";
    $sched{$_} = 1 for split /,/, shift;
}
my ($tfile, $bfile) = @ARGV;
die "usage: tppcheck.pl [--sched F,...] TPP.json BLPP.json\n" unless $bfile;
# base NAME: the source function of a GCC clone's name
sub base {
    my ($n) = @_;
    1 while $n =~ s/\.(?:part|isra|constprop|cold|lto_priv|clone)(?:\.\d+)?$//;
    return $n;
}
my ($tpp, $blpp) = (load_json($tfile), load_json($bfile));

sub fkey { "$_[0]{file}:$_[0]{name}" }
# How a path ends: R a return, T a block with no normal successor, C
# taking an edge that ends the path (back edge, cut, truncated edge).
sub end_key {
    my ($blocks, $edges) = @_;
    my $last = $blocks->[-1];
    my $e = @$edges ? $edges->[-1] : undef;
    return "R $last" if $e && $e->[0] == $last && $e->[1] == 1;
    return "C $last $e->[1]" if $e && $e->[0] == $last && @$edges >= @$blocks;
    return "T $last";
}
my %end_letter = (return => 'R', terminal => 'T', backedge => 'C', cut => 'C', loop => 'C');

# Functions are matched copy for copy (TppPaths.pm's copy_id): a header's
# static function compiled into several TUs is an entry per copy, and its
# bb indices mean other code in each. BLPP entries of one copy (the same
# blocks, other graphs) are taken together, their paths summed by blocks
# and edges. Where TPP numbered one copy as several entries (their cold
# edges differed, so the report did not merge them), only the sum of
# their totals is compared with BLPP's.
my (%bcopies, %tcopies);
push @{ $bcopies{ copy_id($_) } }, $_ for @{ $blpp->{functions} };
push @{ $tcopies{ copy_id($_) } }, $_ for @{ $tpp->{functions} };
my ($checked, $cold_total, $derived_funcs) = (0, 0, 0);
my %summed;
for my $tf (@{ $tpp->{functions} }) {
    my $id = copy_id($tf);
    my $name = fkey($tf);
    if ($sched{ base($tf->{name}) }) {
        print "ok\t$name: not compared (--sched: its paths follow the threads' scheduling)\n";
        next;
    }
    my @bfs = @{ $bcopies{$id} || [] };
    unless (@bfs) { print "not ok\t$name is in the BLPP profile\n"; next }
    unless ($tf->{tpp} && $tf->{tpp}{edge_profile}) {
        print "not ok\t$name was numbered by TPP\n# tpp: ", encode_json($tf->{tpp}), "\n";
        next;
    }
    my @tfs = @{ $tcopies{$id} };
    if (@tfs > 1) {
        next if $summed{$id}++;
        my ($t, $b) = (0, 0);
        $t += $_->{total} for @tfs;
        $b += $_->{total} for @bfs;
        my $derived = grep { @{ $_->{tpp}{derived_list} || [] } } @tfs;
        print $derived || $t == $b ? "ok" : "not ok",
          "\t$name: " . @tfs . " TPP entries of one copy, total $t = BLPP total $b" . ($derived ? " (derived paths: not compared)" : '') . "\n";
        $checked++;
        $cold_total += $_->{tpp}{cold} for @tfs;
        next;
    }
    my %cut = map { ("$_->[0]-$_->[1]" => 1) } @{ $tf->{tpp}{truncated} };
    my @bpaths = map { @{ $_->{paths} } } @bfs;
    # BLPP cut the function to respect max-paths (more than 2^32 paths by
    # default) where TPP, numbering only the hot paths, did not: a BLPP
    # path ending at such a cut is a piece of a TPP path, and matching
    # whole paths blamed TPP for every crossing of a cut
    # (sqlite3WindowCodeStep: TPP's path 0, 2 runs, is BLPP's pieces 1
    # and 121927690 joined at the cut edge 11->13; "TPP 2, BLPP 0", "cold
    # 0 against 4", "total 8 against 10"). Such a function is compared
    # piece by piece instead (compare_pieces). (A path thrown into a
    # landing pad ends "cut" too, with or without max-paths: only a
    # function BLPP flags cut and TPP does not is taken for this case.)
    my %tpp_ends = %cut;
    for my $p (@{ $tf->{paths} }) {
        $tpp_ends{"$p->{edges}[-1][0]-$p->{edges}[-1][1]"} = 1 if ($p->{end} // '') eq 'cut' && @{ $p->{edges} };
    }
    my $only_bcut = (grep { $_ eq 'cut' } map { @{ $_->{flags} || [] } } @bfs)
      && !grep { $_ eq 'cut' } @{ $tf->{flags} || [] };
    my %bcut_edges;
    for my $q ($only_bcut ? @bpaths : ()) {
        next unless ($q->{end} // '') eq 'cut' && @{ $q->{edges} };
        my $e = "$q->{edges}[-1][0]-$q->{edges}[-1][1]";
        $bcut_edges{$e} = 1 unless $tpp_ends{$e};
    }
    if (%bcut_edges) {
        compare_pieces($tf, $name, \@bpaths, \%cut, \%bcut_edges, \@bfs);
        $checked++;
        $cold_total += $tf->{tpp}{cold};
        next;
    }
    my @pieces = map { split_path($_, \%cut) } @bpaths;
    my %bcount;
    my $btotal = 0;
    for my $p (@pieces) { $bcount{ path_key($p->[0], $p->[1]) } += $p->[2]; $btotal += $p->[2] }
    my @derived = @{ $tf->{tpp}{derived_list} };
    my %obvious_end = map { ("$end_letter{$_->{end}} $_->{last}" . ($_->{to} >= 0 ? " $_->{to}" : '') => 1) } @derived;
    # Measured paths are summed per key as BLPP's pieces are: two paths
    # may have the same blocks and edges and differ only in how they
    # start (from the entry, or after a cut edge into the same block: lua's
    # luaV_execute at -O0, whose `goto startfunc` re-enters block 2), and
    # comparing each with the sum of both failed a correct profile.
    my (@bad, %hot, %tsum, %tids);
    for my $p (@{ $tf->{paths} }) {
        my $k = path_key($p->{blocks}, $p->{edges});
        $hot{$k} = 1;
        next if $p->{derived_from};
        $tsum{$k} += $p->{count};
        push @{ $tids{$k} }, $p->{id};
    }
    for my $k (sort keys %tsum) {
        my $want = $bcount{$k} // 0;
        push @bad, "path @{ $tids{$k} } ($k): TPP $tsum{$k}, BLPP $want" if $tsum{$k} != $want;
    }
    push @bad, derived_bad($tf, \@bpaths, \@bfs);
    print @bad ? "not ok" : "ok",
      "\t$name: every measured path has its BLPP count, every derived one its defining edge's\n";
    print "# $_\n" for @bad;
    my $cold = 0;
    for my $p (@pieces) {
        next if $hot{ path_key($p->[0], $p->[1]) };
        $cold += $p->[2] unless $obvious_end{ end_key($p->[0], $p->[1]) };
    }
    my $got = $tf->{tpp}{cold};
    print $got == $cold ? "ok" : "not ok",
      "\t$name: cold counter $got = flow of BLPP paths TPP does not number, bar those ending where only obvious paths do ($cold)\n";
    if (!@derived) {
        print $tf->{total} == $btotal ? "ok" : "not ok", "\t$name: total $tf->{total} = BLPP total $btotal\n";
    }
    $derived_funcs++ if @derived;
    $checked++;
    $cold_total += $got;
}
print $checked ? "ok" : "not ok", "\tsome function was compared ($checked)\n";
print "# cold $cold_total\n# derived_functions $derived_funcs\n";

# Each derived path's count against its defining edge's: with verify
# edges in BLPP's entries of the function (BFS), the edge's direct count;
# else the BLPP counts of every path crossing it (a cut does not change
# them: an edge ending a cut path is in that path alone), which leave out
# activations abandoned after the edge. The diagnostics of those that
# differ.
sub derived_bad {
    my ($tf, $bpaths, $bfs) = @_;
    my %tcount = map { ($_->{id} => $_->{count}) } @{ $tf->{paths} };
    my @verified = grep { grep { $_ eq 'verify' } @{ $_->{flags} || [] } } @$bfs;
    my %vcount;
    for my $f (@verified) { $vcount{"$_->{src}-$_->{dst}"} += $_->{count} for @{ $f->{verify_edges} || [] } }
    my @bad;
    for my $dp (@{ $tf->{tpp}{derived_list} }) {
        my ($want, $got, $d) = (0, $tcount{ $dp->{id} } // 0, $dp->{from});
        if (@verified) {
            $want = $vcount{"$d->[0]-$d->[1]"} // 0;
        } else {
            for my $q (@$bpaths) {
                $want += $q->{count} if grep { $_->[0] == $d->[0] && $_->[1] == $d->[1] } @{ $q->{edges} };
            }
        }
        push @bad, "derived path $dp->{id} (edge $d->[0]->$d->[1]): TPP $got, want $want" . (@verified ? " (verify edge count)" : " (BLPP paths crossing it)")
          if $got != $want;
    }
    return @bad;
}

# A function BLPP cut at edges BCUT where TPP did not. TPP's measured
# paths are split there too, and every piece key (blocks and edges) is
# summed on both sides: no piece may have more runs in TPP than in BLPP
# (the rest are pieces of cold and obvious paths). Each TPP run has
# exactly one first piece, the one that does not start after an edge of
# BCUT; so the first pieces BLPP has beyond TPP's measured ones are the
# cold runs (without derived paths: exactly the cold counter, and TPP's
# total is BLPP's first pieces; with derived paths, whose runs are among
# them and whose cold runs ending where only obvious paths end are in no
# counter, at least the cold counter). Derived paths as always.
sub compare_pieces {
    my ($tf, $name, $bpaths, $trunc, $bcut, $bfs) = @_;
    my %split = (%$trunc, %$bcut);
    my %cut_dst = map { ((split /-/)[1] => 1) } keys %$bcut;
    my (%b, %bfirst, %m, %mfirst);
    for my $q (@$bpaths) {
        my @pc = split_path($q, \%split);
        my $cont = ($q->{start} // '') eq 'cut' && $cut_dst{ $q->{blocks}[0] };
        for my $i (0 .. $#pc) {
            my $k = path_key($pc[$i][0], $pc[$i][1]);
            $b{$k} += $pc[$i][2];
            $bfirst{$k} += $pc[$i][2] unless $i == 0 && $cont;
        }
    }
    for my $p (@{ $tf->{paths} }) {
        next if $p->{derived_from};
        my @pc = split_path($p, \%split);
        for my $i (0 .. $#pc) {
            my $k = path_key($pc[$i][0], $pc[$i][1]);
            $m{$k} += $pc[$i][2];
            $mfirst{$k} += $pc[$i][2] if $i == 0;
        }
    }
    my $edges = join(' ', sort keys %$bcut);
    my @bad = map { "piece ($_): TPP $m{$_}, BLPP " . ($b{$_} // 0) } grep { $m{$_} > ($b{$_} // 0) } sort keys %m;
    push @bad, derived_bad($tf, $bpaths, $bfs);
    print @bad ? "not ok" : "ok",
      "\t$name: BLPP cut it (max-paths) where TPP did not, at edges $edges: piece by piece, no piece has more runs in TPP than in BLPP, every derived path its defining edge's\n";
    print "# $_\n" for @bad;
    my ($first, $rest) = (0, 0);
    $first += $_ for values %bfirst;
    $rest += $bfirst{$_} - ($mfirst{$_} // 0) for keys %bfirst;
    my $cold = $tf->{tpp}{cold};
    if (@{ $tf->{tpp}{derived_list} }) {
        print $cold <= $rest ? "ok" : "not ok",
          "\t$name: cold counter $cold at most the first pieces BLPP has beyond TPP's measured paths ($rest)\n";
    } else {
        print $cold == $rest ? "ok" : "not ok",
          "\t$name: cold counter $cold = the first pieces BLPP has beyond TPP's measured paths ($rest)\n";
        print $tf->{total} == $first ? "ok" : "not ok", "\t$name: total $tf->{total} = BLPP's first pieces $first\n";
    }
}
