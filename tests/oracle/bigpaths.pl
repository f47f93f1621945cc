#!/usr/bin/perl
# bigpaths.pl SPEC.json REPORT.json DECODED.json MAXPATHS - checks the
# profile of tests/lib/gen-bigpaths.pl's `stacked` function: every path is
# a segment of the block sequence of one or more of the known inputs
#   C0 [T0] C1 [T1] ... C(N-1) [T(N-1)] RET      (Ti when input bit i is 1)
# (the DAG of a function with more paths than the bound is cut, so one call
# is several segments), its count is exactly the sum of the
# multiplicities of the inputs it is a segment of, and every input's
# sequence is tiled by reported segments from the entry to the return.
# Blocks are identified by their line ranges (DECODED.json: ppdecode.pl).
# Output: "ok<TAB>name" / "not ok<TAB>name" + "# diag" lines.
use strict;
use warnings;
use JSON::PP;
my ($specf, $repf, $decf, $max) = @ARGV;
sub load { open my $fh, '<', $_[0] or die "$_[0]: $!\n"; local $/; JSON::PP->new->decode(<$fh>) }
my ($spec, $rep, $dec) = (load($specf), load($repf), load($decf));
my @out;
sub result { my ($ok, $name, @d) = @_; push @out, ($ok ? "ok" : "not ok") . "\t$name"; push @out, map {"# $_"} @d unless $ok; }
END { print "$_\n" for @out }

my ($f) = grep { $_->{name} eq 'stacked' } @{ $rep->{functions} };
my ($fd) = grep { $_->{name} eq 'stacked' } @{ $dec->{functions} };
unless ($f && $fd) { result(0, 'function stacked is in the profile'); exit 0 }
my $N = $spec->{n};
result(cmp_big($f->{npaths}, $max) <= 0, "npaths $f->{npaths} <= bound $max");
result(($fd->{flags} & 2) != 0, 'function is flagged CUT (2^' . $N . " paths > $max)", "flags $fd->{flags}");

# element of each block, by its line range
my %elem_of_line;
$elem_of_line{ $spec->{cond}[$_] } = "C$_" for 0 .. $N - 1;
$elem_of_line{ $spec->{then}[$_] } = "T$_" for 0 .. $N - 1;
$elem_of_line{ $spec->{ret} } = 'R';
my %elem;
my @bad;
for my $b (keys %{ $fd->{block_lines} }) {
    my $r = $fd->{block_lines}{$b};
    next unless defined $r;
    my ($a, $z) = $r =~ /^(\d+)-(\d+)$/ or next;
    my @e = grep { defined } map { $elem_of_line{$_} } $a .. $z;
    push @bad, "block $b (lines $r) holds several elements: @e" if @e > 1;
    $elem{$b} = $e[0] if @e == 1;
}
my @seq = map {
    my $in = $_;
    [ (map { ("C$_", $in->[$_] ? "T$_" : ()) } 0 .. $N - 1), 'R' ]
} @{ $spec->{inputs} };
my @mult = @{ $spec->{mult} };

# decoded paths by id (blocks, start, end, closing edge) for each reported path
my %dp = map { $_->{id} => $_ } @{ $fd->{paths} };
my (%by_start, $nseg);
for my $p (@{ $f->{paths} }) {
    my $d = $dp{ $p->{id} };
    unless ($d) { push @bad, "id $p->{id}: not in the profile file"; next }
    my @el = map { $elem{$_} // "?$_" } @{ $p->{blocks} };
    # blocks without lines of their own (none expected here) are skipped
    @el = grep { !/^\?/ } @el;
    # -O0 splits `return acc;` into two blocks of the same line: one element
    @el = map { $_ == 0 || $el[$_] ne $el[ $_ - 1 ] ? $el[$_] : () } 0 .. $#el;
    unless (@el) { push @bad, "id $p->{id}: no known block in @{$p->{blocks}}"; next }
    my $next;    # element after the segment when it ends at a cut
    if ($d->{end} eq 'back') {
        my $last = $d->{edges}[-1];
        $next = $elem{ $last->[1] } // "?$last->[1]";
    }
    my $expect = 0;
    my @ins;
    for my $j (0 .. $#seq) {
        my $s = $seq[$j];
        my ($pos) = grep { $s->[$_] eq $el[0] } 0 .. $#$s;
        next unless defined $pos;
        next if $d->{start} eq 'entry' && $pos != 0;
        next if $pos + @el > @$s;
        next if grep { $s->[ $pos + $_ ] ne $el[$_] } 0 .. $#el;
        my $after = $pos + @el;
        if ($d->{end} eq 'return') { next unless $after == @$s }
        elsif ($d->{end} eq 'back') { next unless $after < @$s && $s->[$after] eq $next }
        else { next }
        $expect += $mult[$j];
        push @ins, $j;
    }
    $nseg++;
    push @bad, "id $p->{id} count $p->{count}, expected $expect (segment of inputs @ins): "
      . join(' ', @el) . ($next ? " -> $next" : '') if $p->{count} != $expect;
    push @{ $by_start{ $el[0] } }, [ \@el, $d, $p ];
}
result(!@bad, "every one of the $nseg reported paths is a segment of the known inputs with the exact count", @bad[ 0 .. ($#bad > 20 ? 20 : $#bad) ]);

# tiling: each input's sequence is covered by reported segments, entry to return
my @tb;
for my $j (0 .. $#seq) {
    my $s = $seq[$j];
    my $pos = 0;
    my $n = 0;
    while ($pos < @$s) {
        my $found;
        for my $c (@{ $by_start{ $s->[$pos] } || [] }) {
            my ($el, $d) = @$c;
            next if ($pos == 0) != ($d->{start} eq 'entry');
            next if $pos + @$el > @$s || grep { $s->[ $pos + $_ ] ne $el->[$_] } 0 .. $#$el;
            my $after = $pos + @$el;
            next unless ($d->{end} eq 'return' && $after == @$s)
              || ($d->{end} eq 'back' && $after < @$s && ($elem{ $d->{edges}[-1][1] } // '') eq $s->[$after]);
            $found = $after;
            last;
        }
        unless (defined $found) { push @tb, "input $j: no reported path covers it from $s->[$pos] (position $pos)"; last }
        $pos = $found;
        $n++;
    }
}
result(!@tb, 'every input\'s run is reported as a chain of paths from the entry to the return', @tb);

sub cmp_big {
    my ($a, $b) = map { my $x = "$_"; $x =~ s/^0+(?=\d)//; $x } @_;
    return length($a) <=> length($b) || $a cmp $b;
}
