#!/usr/bin/perl
# tppcheck.pl TPP.json BLPP.json - a TPP profile against a plain Ball-Larus
# profile of the same run (same program, same input, both built from the
# same -fprofile-use data), both as `pathprof report --json`.
#
# The two numberings differ, but both cut the function's executions into
# the same acyclic paths (the same back edges and start nodes end them), so
# a path is identified by its start, its real CFG edges and its end. Then:
#   - every path TPP counts has the very count BLPP gives it;
#   - a function's cold counter holds exactly the BLPP counts of the
#     executed paths TPP does not count (those through a cold edge);
#   - TPP's total per function equals BLPP's.
# Output: "ok<TAB>name" / "not ok<TAB>name" lines with "# ..." diagnostics
# (tests/lib/programs.sh's pp_tap_lines turns them into TAP).
use strict;
use warnings;
use JSON::PP;

my ($tfile, $bfile) = @ARGV;
die "usage: tppcheck.pl TPP.json BLPP.json\n" unless $bfile;
sub load { local $/; open my $fh, '<', $_[0] or die "$_[0]: $!\n"; decode_json(<$fh>) }
my ($tpp, $blpp) = (load($tfile), load($bfile));

sub key { my $p = $_[0]; join ' ', $p->{start}, (map { "$_->[0]-$_->[1]" } @{ $p->{edges} }), $p->{end} }
sub fkey { "$_[0]{file}:$_[0]{name}" }

my %bfuncs = map { fkey($_) => $_ } @{ $blpp->{functions} };
my ($checked, $cold_total) = (0, 0);
for my $tf (@{ $tpp->{functions} }) {
    my $name = fkey($tf);
    my $bf = $bfuncs{$name};
    unless ($bf) { print "not ok\t$name is in the BLPP profile\n"; next }
    unless ($tf->{tpp} && $tf->{tpp}{edge_profile}) {
        print "not ok\t$name was numbered by TPP\n# tpp: ", encode_json($tf->{tpp}), "\n";
        next;
    }
    my %bcount = map { key($_) => $_->{count} } @{ $bf->{paths} };
    my @bad;
    my %hot;
    for my $p (@{ $tf->{paths} }) {
        my $k = key($p);
        $hot{$k} = 1;
        my $want = $bcount{$k} // 0;
        push @bad, "path $p->{id} ($k): TPP $p->{count}, BLPP $want" if $p->{count} != $want;
    }
    print @bad ? "not ok" : "ok", "\t$name: every counted path has its BLPP count\n";
    print "# $_\n" for @bad;
    my $cold = 0;
    $cold += $bcount{$_} for grep { !$hot{$_} } keys %bcount;
    my $got = $tf->{tpp}{cold};
    print $got == $cold ? "ok" : "not ok",
      "\t$name: cold counter $got = flow of BLPP paths TPP does not count ($cold)\n";
    print $tf->{total} == $bf->{total} ? "ok" : "not ok",
      "\t$name: total $tf->{total} = BLPP total $bf->{total}\n";
    $checked++;
    $cold_total += $got;
}
print $checked ? "ok" : "not ok", "\tsome function was compared ($checked)\n";
# What the caller may want to assert about the run as a whole.
print "# cold $cold_total\n";
