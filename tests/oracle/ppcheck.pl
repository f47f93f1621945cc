#!/usr/bin/perl
# ppcheck.pl - checks a `pathprof report --json` profile against what a test
# program says about itself, and against the plugin's direct edge counters.
#
#   ppcheck.pl sanity   JSON              structural checks on every function
#   ppcheck.pl expect   SRC JSON LEVEL    the program's `//! expect` lines
#   ppcheck.pl oracle   SRC JSON          derived edge counts == verify_edges
#   ppcheck.pl gcov     SRC JSON GCOV.json   marker lines against gcov (see cmd_gcov)
#   ppcheck.pl decode   JSON DECODED.json   the report against ppdecode.pl
#   ppcheck.pl spec     SRC KEY           print a `//! KEY ...` value (run, status...)
#   --meta DECODED.json (first): per-block lines from tests/oracle/ppdecode.pl
#   when the report gives lines per path only
#
# Output: one line per check, "ok<TAB>name" or "not ok<TAB>name", followed
# by "# ..." diagnostics; tests/lib/programs.sh turns them into TAP.
#
# ---- What a test program says about itself (comments in its C source) ----
#
# Markers: `/*@NAME*/` on a line names that line.  Put a marker on a line
# holding one statement of its own (a volatile update), never on a loop or
# `if` header line, whose code is spread over several blocks.
#
#   //! run ARGS...            arguments of the run (default none)
#   //! status N | signal N    how the program ends (default: status 0)
#   //! profile optional       the program may die before a profile is written
#   //! expect [O0|O2] FUNC QUERY = VALUE
#   //! abandoned FUNC K MARK[,MARK...]   (oracle, see below)
#
# FUNC is a function's name; `name.N`-style suffixes GCC adds (nested
# functions, clones) are accepted when exactly one function matches.
# QUERY is one of
#   total              sum of the counts of FUNC's paths
#   npaths             FUNC's number of path IDs (static)
#   paths(SEL ...)     sum of the counts of the paths matching every SEL
#   distinct(SEL ...)  number of executed paths matching every SEL
#   counts(SEL ...)    multiset of their counts; VALUE is a list "1 33 66"
#   absent             FUNC has no executed path at all
# SEL is one of
#   ^      the path starts at the function's entry;   !^  it does not
#   $      the path ends by returning (edge to EXIT);  !$  it does not
#   >      the path ends by taking a back edge (or an edge into a cut node)
#   |      the path ends at a block with no normal successor (noreturn call...)
#   MARK   the path covers marker MARK's line;         !MARK  it does not
# VALUE is an integer expression (digits, + - * / ( ) and ** only).
#
# A marker is held by the blocks with the narrowest line range containing it
# (see mark_owners).  Since an acyclic path visits a block at most once, paths(MARK) is the
# number of times MARK's line ran, whatever the numbering: most programs
# state that, plus the exact shape of the paths at -O0.
#
# ---- The edge oracle ----
#
# For every function with verify_edges, the count of every real CFG edge is
# derived from the path counts (the sum of the counts of the paths whose
# .edges contain it) and must equal the direct count, except for activations
# that never complete their current path (exit() in a callee, longjmp out of
# the frame): their partial path is not counted while its edges were.  For
# those, `//! abandoned FUNC K MARKS` states by construction that FUNC has K
# such partial paths, each ending in the block of one of the marker lines:
# then direct - derived must be >= 0 on every edge and form a flow whose
# sinks are exactly blocks covering those markers, K units in all; fewer
# only when a path starts in such a block (a partial path that started in
# the block where it was abandoned has no edge between blocks: invisible).
use strict;
use warnings;
use JSON::PP;

my @out;
sub result {
    my ($okv, $name, @diag) = @_;
    push @out, ($okv ? "ok" : "not ok") . "\t$name";
    push @out, map { "# $_" } map { split /\n/ } @diag unless $okv;
    return $okv;
}
END { print "$_\n" for @out; }

sub slurp { my $f = shift; open my $fh, '<', $f or die "$f: $!\n"; local $/; my $s = <$fh>; return $s; }

my $META;    # --meta JSON (ppdecode.pl output): block lines when the report lacks them
sub load_json {
    my $f = shift;
    my $j = load_json1($f);
    if ($META) {
        my $m = load_json1($META);
        my %bl = map { ("$_->{name}\0" . ($_->{file} // '')) => $_->{block_lines} } @{ $m->{functions} };
        for my $fn (@{ $j->{functions} }) {
            next if ref $fn->{block_lines} eq 'HASH';
            my $k = "$fn->{name}\0" . ($fn->{file} // '');
            $fn->{block_lines} = $bl{$k} if $bl{$k};
        }
    }
    return $j;
}
sub load_json1 {
    my $f = shift;
    my $txt = slurp($f);
    my $j = eval { JSON::PP->new->decode($txt) };
    die "$f: not JSON: $@\n" unless $j;
    die "$f: no functions[] array\n" unless ref $j->{functions} eq 'ARRAY';
    return $j;
}

# ------------------------------------------------------------ source specs
sub read_src {
    my $f = shift;
    my (%mark, @spec);
    open my $fh, '<', $f or die "$f: $!\n";
    while (my $l = <$fh>) {
        while ($l =~ m{/\*@(\w+)\*/}g) {
            die "$f:$.: marker $1 defined twice\n" if exists $mark{$1};
            $mark{$1} = $.;
        }
        push @spec, [$., $1] if $l =~ m{^\s*//!\s*(.*?)\s*$};
    }
    return (\%mark, \@spec);
}

sub spec_value {
    my ($specs, $key) = @_;
    for (@$specs) { return $1 if $_->[1] =~ /^\Q$key\E(?:\s+(.*))?$/ && defined $1; return '' if $_->[1] eq $key; }
    return undef;
}

# ------------------------------------------------------------ paths
sub pt_lines {    # set of source lines a path covers, whatever the JSON shape
    my ($p, $srcbase) = @_;
    my %set;
    my $add = sub { my ($a, $b) = @_; $b //= $a; $set{$_} = 1 for $a .. $b; };
    my $walk;
    $walk = sub {
        my $v = shift;
        if (!ref $v) {
            return unless defined $v;
            if ($v =~ /^\d+$/) { $add->($v); return; }
            if ($v =~ /^(?:(.*):)?(\d+)(?:-(\d+))?$/) {
                return if defined $1 && defined $srcbase && $1 ne '' && (split m{/}, $1)[-1] ne $srcbase;
                $add->($2, $3);
            }
            return;
        }
        if (ref $v eq 'ARRAY') { $walk->($_) for @$v; return; }
        if (ref $v eq 'HASH') {
            my $file = $v->{file};
            return if defined $file && defined $srcbase && (split m{/}, $file)[-1] ne $srcbase;
            my $a = $v->{first} // $v->{line_first} // $v->{from} // $v->{start} // $v->{line};
            my $b = $v->{last} // $v->{line_last} // $v->{to} // $v->{end} // $a;
            if (defined $a && !ref $a) { $add->($a, $b); return; }
            $walk->($v->{lines}) if exists $v->{lines};
            return;
        }
    };
    $walk->($p->{lines});
    return \%set;
}

sub pt_starts_at_entry {
    my $p = shift;
    return $p->{start} eq 'entry' ? 1 : 0 if defined $p->{start} && $p->{start} =~ /^[a-z]+$/;
    my $e = $p->{edges};
    return @$e && $e->[0][0] == 0 ? 1 : 0;
}

sub pt_end_kind {    # 'ret', 'back', 'term'
    my $p = shift;
    my @e = @{ $p->{edges} };
    my @b = @{ $p->{blocks} };
    return 'term' unless @e;
    my $last = $e[-1];
    return 'ret' if $last->[1] == 1;
    return 'back' if @b && $last->[0] == $b[-1];
    return 'term';
}

sub find_function {
    my ($j, $name) = @_;
    my @exact = grep { $_->{name} eq $name } @{ $j->{functions} };
    return ($exact[0]) if @exact == 1;
    return (undef, "function $name listed " . scalar(@exact) . " times") if @exact > 1;
    my @m = grep { $_->{name} =~ /^\Q$name\E(?:\.\w+)+$/ } @{ $j->{functions} };
    return ($m[0]) if @m == 1;
    if (!@m && $name =~ /^([^.]+)\./) {    # gcov's `inner.0`; the profile may say `inner`
        my ($f, $why) = find_function($j, $1);
        return ($f, $why && "$why (looked for $name)");
    }
    return (undef, "no function named $name in the profile") unless @m;
    return (undef, "several functions match $name: " . join(' ', map { $_->{name} } @m));
}

sub safe_eval {
    my $x = shift;
    die "bad value expression '$x'\n" unless $x =~ /^[\d\s+\-*\/()]+$/;
    my $v = eval $x;
    die "bad value expression '$x': $@\n" if $@;
    return $v;
}

# Lines of each block of F: {bb => [first, last]}, from .block_lines or from
# per-block .lines aligned with .blocks; undef when the report has neither.
sub block_ranges {
    my ($f, $srcbase) = @_;
    return $f->{_br} if exists $f->{_br};
    my %br;
    my $one = sub {
        my $l = pt_lines({ lines => $_[0] }, $srcbase);
        my @k = sort { $a <=> $b } keys %$l;
        return @k ? [ $k[0], $k[-1] ] : undef;
    };
    if (ref $f->{block_lines} eq 'HASH') {
        $br{$_} = $one->($f->{block_lines}{$_}) for keys %{ $f->{block_lines} };
    } else {
        for my $p (@{ $f->{paths} }) {
            my ($bl, $ln) = ($p->{blocks}, $p->{lines});
            return $f->{_br} = undef unless ref $ln eq 'ARRAY' && @$ln == @$bl;
            $br{ $bl->[$_] } //= $one->($ln->[$_]) for 0 .. $#$bl;
        }
    }
    return $f->{_br} = \%br;
}

# The blocks that hold marker line M: a block's lines are a range
# [first, last], and at -O2 a block may span lines of other blocks (a
# `goto` statement and its target, debug statements), so M belongs to the
# blocks with the narrowest range containing it.
sub mark_owners {
    my ($f, $m, $srcbase) = @_;
    my $br = block_ranges($f, $srcbase) or return undef;
    my ($best, @own);
    for my $b (keys %$br) {
        my $r = $br->{$b} or next;
        next unless $r->[0] <= $m && $m <= $r->[1];
        my $w = $r->[1] - $r->[0];
        if (!defined $best || $w < $best) { ($best, @own) = ($w, $b) }
        elsif ($w == $best) { push @own, $b }
    }
    return { map { $_ => 1 } @own };
}

sub select_paths {
    my ($f, $sels, $mark, $srcbase) = @_;
    my @r;
  PATH: for my $p (@{ $f->{paths} }) {
        my $lines;
        for my $sel (@$sels) {
            my $s = $sel;
            my $neg = $s =~ s/^!//;
            my $m;
            if ($s eq '^') { $m = pt_starts_at_entry($p) }
            elsif ($s eq '$') { $m = pt_end_kind($p) eq 'ret' }
            elsif ($s eq '>') { $m = pt_end_kind($p) eq 'back' }
            elsif ($s eq '|') { $m = pt_end_kind($p) eq 'term' }
            else {
                die "unknown marker $s\n" unless exists $mark->{$s};
                my $own = mark_owners($f, $mark->{$s}, $srcbase);
                if ($own) {
                    $m = (grep { $own->{$_} } @{ $p->{blocks} }) ? 1 : 0;
                } else {
                    $lines //= pt_lines($p, $srcbase);
                    $m = $lines->{ $mark->{$s} } ? 1 : 0;
                }
            }
            $m = !$m if $neg;
            next PATH unless $m;
        }
        push @r, $p;
    }
    return @r;
}

sub describe_paths {
    my ($f, $srcbase) = @_;
    my @d;
    for my $p (sort { $b->{count} <=> $a->{count} } @{ $f->{paths} }) {
        my @l = sort { $a <=> $b } keys %{ pt_lines($p, $srcbase) };
        push @d, sprintf "  id %s count %s %s%s lines %s blocks %s", $p->{id}, $p->{count},
          (pt_starts_at_entry($p) ? '^' : '-'), pt_end_kind($p), compress(@l), join(',', @{ $p->{blocks} });
        if (@d > 40) { push @d, '  ...'; last }
    }
    return @d;
}

sub compress {
    my @l = @_;
    my @r;
    while (@l) {
        my $a = shift @l; my $b = $a;
        $b = shift @l while @l && $l[0] == $b + 1;
        push @r, $a == $b ? $a : "$a-$b";
    }
    return join ',', @r;
}

# ------------------------------------------------------------ commands
sub cmd_sanity {
    my ($jf, $label) = @_;
    my $j = load_json($jf);
    $label //= '';
    my @bad;
    for my $f (@{ $j->{functions} }) {
        my $n = $f->{name} // '?';
        my (%ids, $sum);
        for my $k (qw(name npaths paths)) { push @bad, "$n: no .$k" unless defined $f->{$k} }
        next unless ref $f->{paths} eq 'ARRAY';
        for my $p (@{ $f->{paths} }) {
            my $id = $p->{id};
            push @bad, "$n: path without id" unless defined $id;
            next unless defined $id;
            push @bad, "$n: id $id listed twice" if $ids{$id}++;
            push @bad, "$n: id $id >= npaths $f->{npaths}" if defined $f->{npaths} && bigcmp($id, $f->{npaths}) >= 0;
            push @bad, "$n: id $id has count $p->{count}" unless defined $p->{count} && $p->{count} =~ /^\d+$/ && $p->{count} > 0;
            $sum += $p->{count} // 0;
            my @b = @{ $p->{blocks} // [] };
            my @e = @{ $p->{edges} // [] };
            push @bad, "$n: id $id has no blocks" unless @b;
            push @bad, "$n: id $id: length $p->{length} != " . scalar(@b) . " blocks"
              if defined $p->{length} && $p->{length} != @b;
            # the real edges must chain the blocks: [ENTRY,b0]? [b0,b1] ... [bn,EXIT or header]?
            my @chain;
            push @chain, [0, $b[0]] if @e && $e[0][0] == 0;
            push @chain, [ $b[$_], $b[ $_ + 1 ] ] for 0 .. $#b - 1;
            my $i = 0;
            my $okchain = 1;
            for my $c (@chain) {
                if ($i < @e && $e[$i][0] == $c->[0] && $e[$i][1] == $c->[1]) { $i++ }
                else { $okchain = 0 }
            }
            # what is left: at most one closing edge from the last block (return or back edge)
            $okchain = 0 if @e - $i > 1;
            $okchain = 0 if @e - $i == 1 && $e[$i][0] != $b[-1];
            push @bad, "$n: id $id: edges " . JSON::PP->new->encode($p->{edges}) . " do not chain blocks @b"
              unless $okchain || !@b;
            my %seen;
            for (@b) { push @bad, "$n: id $id visits block $_ twice (not acyclic)" if $seen{$_}++ }
            # docs/json.md: .end names how the path ends, the edges show it
            my %endword = (return => 'ret', backedge => 'back', cut => 'back', terminal => 'term');
            if (defined $p->{end} && $endword{ $p->{end} }) {
                my $k = pt_end_kind($p);
                push @bad, "$n: id $id: end '$p->{end}' but its edges end like '$k'" if $k ne $endword{ $p->{end} };
            }
        }
        push @bad, "$n: total $f->{total} != sum of counts $sum" if defined $f->{total} && defined $sum && $f->{total} != $sum;
    }
    splice @bad, 30, $#bad, '...' if @bad > 31;
    result(!@bad, "${label}profile is well formed (unique ids below npaths, counts > 0, edges chain blocks)", @bad);
}

sub bigcmp {    # compare non-negative integers given as numbers or strings
    my ($a, $b) = map { my $x = "$_"; $x =~ s/^0+(?=\d)//; $x } @_;
    return length($a) <=> length($b) || $a cmp $b;
}

sub cmd_expect {
    my ($src, $jf, $level, $label) = @_;
    $label //= '';
    my $j = load_json($jf);
    my ($mark, $specs) = read_src($src);
    my $srcbase = (split m{/}, $src)[-1];
    my $n = 0;
    for my $s (@$specs) {
        my ($line, $txt) = @$s;
        next unless $txt =~ s/^expect\s+//;
        if ($txt =~ s/^(O\d|Os)\s+//) { next unless $1 eq $level }
        $n++;
        my $name = "$label$srcbase:$line $txt";
        my ($fname, $q, $val) = $txt =~ /^(\S+)\s+(.*?)\s*(?:=\s*(.*))?$/
          or die "$src:$line: cannot parse '$txt'\n";
        my ($f, $why) = find_function($j, $fname);
        if ($q eq 'absent') {
            my $has = $f && grep { $_->{count} > 0 } @{ $f->{paths} };
            result(!$has, $name, $f ? describe_paths($f, $srcbase) : ());
            next;
        }
        unless ($f) { result(0, $name, $why, 'functions: ' . join(' ', map { $_->{name} } @{ $j->{functions} })); next }
        my $r = eval {
            if ($q eq 'total') {
                my $t = 0; $t += $_->{count} for @{ $f->{paths} };
                my $e = safe_eval($val);
                result($t == $e, $name, "got $t, expected $e", describe_paths($f, $srcbase));
            } elsif ($q eq 'npaths') {
                my $e = safe_eval($val);
                result(bigcmp($f->{npaths}, $e) == 0, $name, "got $f->{npaths}, expected $e");
            } elsif ($q =~ /^(paths|distinct|counts)\((.*)\)$/) {
                my ($kind, @sel) = ($1, split ' ', $2);
                my @p = select_paths($f, \@sel, $mark, $srcbase);
                if ($kind eq 'counts') {
                    my $got = join ' ', sort { $a <=> $b } map { $_->{count} } @p;
                    my $exp = join ' ', sort { $a <=> $b } map { safe_eval($_) } split ' ', $val;
                    result($got eq $exp, $name, "got {$got}, expected {$exp}", describe_paths($f, $srcbase));
                } else {
                    my $got = 0;
                    $got += $kind eq 'paths' ? $_->{count} : 1 for @p;
                    my $e = safe_eval($val);
                    result($got == $e, $name, "got $got, expected $e", describe_paths($f, $srcbase),
                      'markers: ' . join(' ', map { "$_=$mark->{$_}" } sort keys %$mark));
                }
            } else { die "$src:$line: unknown query '$q'\n" }
            1;
        };
        result(0, $name, "error: $@") unless $r;
    }
    result(0, "$label$srcbase has expectations for $level") unless $n;
}

sub cmd_oracle {
    my ($src, $jf, $label) = @_;
    $label //= '';
    my $j = load_json($jf);
    my ($mark, $specs) = read_src($src);
    my $srcbase = (split m{/}, $src)[-1];
    my %aband;
    for (@$specs) {
        next unless $_->[1] =~ /^abandoned\s+(\S+)\s+(\d+)\s+(\S+)$/;
        $aband{$1} = { k => $2, marks => [ split /,/, $3 ] };
    }
    my $nver = 0;
    for my $f (@{ $j->{functions} }) {
        my $ve = $f->{verify_edges};
        next unless ref $ve eq 'ARRAY';
        $nver++;
        (my $base = $f->{name}) =~ s/\..*//;
        my $ab = $aband{ $f->{name} } // $aband{$base};
        my (%direct, %derived);
        for (@$ve) { $direct{"$_->{src}>$_->{dst}"} += $_->{count} }
        for my $p (@{ $f->{paths} }) {
            $derived{"$_->[0]>$_->[1]"} += $p->{count} for @{ $p->{edges} };
        }
        my %all = (%direct, %derived);
        my @bad;
        # docs/format.md: the real edges of a path are those between blocks or
        # to EXIT; an ENTRY edge, if the report lists it, has no direct counter
        for my $e (grep { /^0>/ && !exists $direct{$_} } keys %all) { delete $all{$e}; delete $derived{$e} }
        for my $e (sort keys %all) {
            push @bad, "edge $e is on executed paths but has no direct counter" unless exists $direct{$e};
        }
        my $name = "$label$srcbase: $f->{name}: edge counts derived from paths";
        if (!$ab) {
            for my $e (sort keys %all) {
                my ($d, $v) = ($direct{$e} // 0, $derived{$e} // 0);
                push @bad, "edge $e: direct $d, derived $v" if $d != $v;
            }
            result(!@bad, "$name == direct counts", @bad, @bad ? describe_paths($f, $srcbase) : ());
            next;
        }
        # abandoned activations: diff = direct - derived is a flow of K units
        # from path starts to the blocks where the activations were abandoned
        my (%net, $neg);
        for my $e (keys %all) {
            my $d = ($direct{$e} // 0) - ($derived{$e} // 0);
            if ($d < 0) { push @bad, "edge $e: direct $direct{$e} < derived $derived{$e}"; next }
            next unless $d;
            my ($s, $t) = split />/, $e;
            $net{$s} -= $d; $net{$t} += $d;
        }
        my %sinkblocks;    # blocks covering the markers, from the paths' blocks and lines
        my @mlines = map { die "unknown marker $_\n" unless exists $mark->{$_}; $mark->{$_} } @{ $ab->{marks} };
        my $ksink = 0;
        for my $b (sort { $a <=> $b } keys %net) {
            next unless $net{$b} > 0;
            $ksink += $net{$b};
            push @bad, "block $b: $net{$b} partial path(s) end here" unless block_covers($f, $b, \@mlines, $srcbase);
        }
        # A partial path that started in the very block where it was
        # abandoned (the function's first block, a loop header, a cut node:
        # the plugin may cut paths before calls that can leave the frame)
        # has no edge between blocks, so it is invisible in the difference.
        if ($ksink != $ab->{k}) {
            my %starts;
            for my $p (@{ $f->{paths} }) { $starts{ $p->{blocks}[0] } = 1 if @{ $p->{blocks} } }
            my @zs = grep { $starts{$_} && block_covers($f, $_, \@mlines, $srcbase) } keys %starts;
            if ($ksink > $ab->{k} || !@zs) {
                push @bad, "$ksink partial paths found, expected $ab->{k}"
                  . (@zs ? '' : ' (no path starts in a block holding the markers, so none can be invisible)');
            }
        }
        result(!@bad, "$name: direct - derived = $ab->{k} abandoned partial paths ending at @{$ab->{marks}}",
          @bad, @bad ? (describe_paths($f, $srcbase), 'direct: ' . join(' ', map { "$_=$direct{$_}" } sort keys %direct)) : ());
    }
    result($nver > 0, "$label$srcbase: profile has verify_edges");
    for my $fn (sort keys %aband) {
        my ($f, $why) = find_function($j, $fn);
        result(defined $f, "$label$srcbase: function $fn with abandoned paths is in the profile", $why // ());
    }
}

# Does block B (a GCC bb index) cover one of LINES? A block's lines are
# known from the paths through it: the lines shared by all paths containing B
# minus nothing else is not available, so use JSON per-block data when the
# report gives it (.block_lines or nodes), else the intersection of the lines
# of the paths through B.
sub block_covers {
    my ($f, $b, $lines, $srcbase) = @_;
    if (block_ranges($f, $srcbase)) {
        for my $m (@$lines) { my $own = mark_owners($f, $m, $srcbase); return 1 if $own->{$b} }
        return 0;
    }
    if (ref $f->{block_lines} eq 'HASH' && exists $f->{block_lines}{$b}) {
        my $l = pt_lines({ lines => $f->{block_lines}{$b} }, $srcbase);
        return scalar grep { $l->{$_} } @$lines;
    }
    for my $p (@{ $f->{paths} }) {    # per-block .lines, aligned with .blocks
        my ($bl, $ln) = ($p->{blocks}, $p->{lines});
        next unless ref $ln eq 'ARRAY' && @$ln == @$bl;
        for my $i (0 .. $#$bl) {
            next unless $bl->[$i] == $b;
            my $l = pt_lines({ lines => $ln->[$i] }, $srcbase);
            return scalar grep { $l->{$_} } @$lines;
        }
    }
    my $inter;
    for my $p (@{ $f->{paths} }) {
        next unless grep { $_ == $b } @{ $p->{blocks} };
        my $l = pt_lines($p, $srcbase);
        if (!$inter) { $inter = {%$l} } else { delete $inter->{$_} for grep { !$l->{$_} } keys %$inter }
    }
    return 1 unless $inter;    # no completed path runs through B: cannot tell, accept
    return scalar grep { $inter->{$_} } @$lines;
}

if (@ARGV >= 2 && $ARGV[0] eq '--meta') { shift; $META = shift }
# gcov: GCC's own line counts (--coverage build of the same program) are
# the ground truth for marker lines: paths(MARK) must equal the line's gcov
# count, less the executions on abandoned partial paths, which the program
# states by construction as `//! gcov-extra MARK N` (default 0).
sub cmd_gcov {
    my ($src, $jf, $gf, $label) = @_;
    $label //= '';
    my $j = load_json($jf);
    my $g = JSON::PP->new->decode(slurp($gf));
    my ($mark, $specs) = read_src($src);
    my $srcbase = (split m{/}, $src)[-1];
    my %extra;
    for (@$specs) { $extra{$1} = $2 if $_->[1] =~ /^gcov-extra\s+(\w+)\s+(\d+)$/ }
    my %gl;    # line -> [count, function]
    for my $f (@{ $g->{files} }) {
        next unless (split m{/}, $f->{file})[-1] eq $srcbase;
        for my $l (@{ $f->{lines} }) { $gl{ $l->{line_number} } = [ $l->{count}, $l->{function_name} ] }
    }
    for my $m (sort { $mark->{$a} <=> $mark->{$b} } keys %$mark) {
        my $line = $mark->{$m};
        my $name = "$label$srcbase:$line marker $m: paths covering it = gcov line count"
          . ($extra{$m} ? " - $extra{$m} (abandoned)" : '');
        my $gc = $gl{$line};
        unless ($gc) { result(0, $name, "gcov has no count for line $line"); next }
        my ($gcount, $fname) = @$gc;
        my ($f, $why) = find_function($j, $fname);
        unless ($f) {
            result($gcount == 0, $name, "gcov count $gcount in $fname, " . ($why // ''));
            next;
        }
        my $got = 0;
        $got += $_->{count} for select_paths($f, [$m], $mark, $srcbase);
        my $want = $gcount - ($extra{$m} // 0);
        result($got == $want, $name, "paths covering line $line: $got; gcov: $gcount; expected $want",
            describe_paths($f, $srcbase));
    }
}

# decode: the report's decoding against tests/oracle/ppdecode.pl's, written
# from docs/format.md alone: same functions, npaths, path ids, counts,
# blocks, real edges, and direct edge counts.
sub cmd_decode {
    my ($jf, $df, $label) = @_;
    $label //= '';
    my $j = load_json1($jf);
    my $d = load_json1($df);
    my @bad;
    my $key = sub { my $f = shift; "$f->{name} ($f->{file})" };
    my %dk;
    push @{ $dk{ $key->($_) } }, $_ for @{ $d->{functions} };
    my %jk;
    push @{ $jk{ $key->($_) } }, $_ for @{ $j->{functions} };
    for my $k (sort keys %dk) {
        my ($ra, $rb) = ($jk{$k} || [], $dk{$k});
        if (@$ra != @$rb) { push @bad, "$k: " . scalar(@$ra) . " in the report, " . scalar(@$rb) . " in the file"; next }
        for my $i (0 .. $#$ra) {
            my ($x, $y) = ($ra->[$i], $rb->[$i]);
            push @bad, "$k: npaths $x->{npaths} vs $y->{npaths}" if "$x->{npaths}" ne "$y->{npaths}";
            my $ps = sub { join ';', map { my $p = $_;
                "$p->{id}:$p->{count}:" . join(',', @{ $p->{blocks} }) . ':' . join(',', map { "$_->[0]>$_->[1]" } @{ $p->{edges} })
            } sort { $a->{id} <=> $b->{id} } @{ $_[0]{paths} } };
            my ($px, $py) = ($ps->($x), $ps->($y));
            push @bad, "$k: paths differ:\n  report: " . substr($px, 0, 400) . "\n  file:   " . substr($py, 0, 400) if $px ne $py;
            my $vs = sub { join ' ', map { "$_->{src}>$_->{dst}=$_->{count}" } @{ $_[0]{verify_edges} || [] } };
            push @bad, "$k: verify_edges differ: " . $vs->($x) . ' vs ' . $vs->($y) if $vs->($x) ne $vs->($y);
        }
    }
    for my $k (sort keys %jk) { push @bad, "$k: in the report, not in the file" unless $dk{$k} }
    splice @bad, 20 if @bad > 20;
    result(!@bad, "${label}report --json decodes the profile like tests/oracle/ppdecode.pl (ids, counts, blocks, edges)", @bad);
}

my $cmd = shift // '';
if ($cmd eq 'sanity') { cmd_sanity(@ARGV) }
elsif ($cmd eq 'expect') { cmd_expect(@ARGV) }
elsif ($cmd eq 'oracle') { cmd_oracle(@ARGV) }
elsif ($cmd eq 'gcov') { cmd_gcov(@ARGV) }
elsif ($cmd eq 'decode') { cmd_decode(@ARGV) }
elsif ($cmd eq 'spec') {
    my ($m, $s) = read_src($ARGV[0]);
    my $v = spec_value($s, $ARGV[1]);
    print "$v\n" if defined $v;
    exit(defined $v ? 0 : 1);
}
else { die "usage: ppcheck.pl sanity|expect|oracle|spec ...\n" }
