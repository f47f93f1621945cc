#!/usr/bin/perl
# tppcheck.pl TPP.json BLPP.json - a TPP profile against a plain Ball-Larus
# profile of the same run (same program, same input, both built from the
# same -fprofile-use data), both as `pathprof report --json`.
#
# The two numberings differ, but both cut the function's executions into
# the same acyclic paths (the same back edges and start nodes end them), so
# a path is identified by its start, its real CFG edges and its end. Then:
#   - every path TPP measures has the very count BLPP gives it;
#   - an obvious path whose count is derived (docs/tpp.md) has the count of
#     its defining edge: the BLPP counts of every path that crosses it;
#   - a function's cold counter holds exactly the BLPP counts of the
#     executed paths TPP does not number (those through a cold edge), except
#     those that end where only obvious paths end (no counter there);
#   - without derived paths, TPP's total per function equals BLPP's.
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
my ($checked, $cold_total, $derived_funcs) = (0, 0, 0);
for my $tf (@{ $tpp->{functions} }) {
    my $name = fkey($tf);
    my $bf = $bfuncs{$name};
    unless ($bf) { print "not ok\t$name is in the BLPP profile\n"; next }
    unless ($tf->{tpp} && $tf->{tpp}{edge_profile}) {
        print "not ok\t$name was numbered by TPP\n# tpp: ", encode_json($tf->{tpp}), "\n";
        next;
    }
    my %bcount = map { key($_) => $_->{count} } @{ $bf->{paths} };
    # Obvious path ends: counted only through the derived paths' counters.
    my %obvious_end = map {; "$_->{end} $_->{last} $_->{to}" => 1 } @{ $tf->{tpp}{derived_list} || [] };
    my @bad;
    my %hot;
    for my $p (@{ $tf->{paths} }) {
        my $k = key($p);
        $hot{$k} = 1;
        my $want = $bcount{$k} // 0;
        if (my $d = $p->{derived_from}) {
            # every run path that crosses the defining edge, hot or cold
            $want = 0;
            for my $q (@{ $bf->{paths} }) {
                $want += $q->{count} if grep { $_->[0] == $d->[0] && $_->[1] == $d->[1] } @{ $q->{edges} };
            }
        }
        push @bad, "path $p->{id} ($k)" . ($p->{derived_from} ? " derived" : "") . ": TPP $p->{count}, want $want"
          if $p->{count} != $want;
    }
    # Derived paths that did not run are not in "paths": check from the list.
    my %tcount = map { $_->{id} => $_->{count} } @{ $tf->{paths} };
    for my $dp (@{ $tf->{tpp}{derived_list} || [] }) {
        my ($want, $got) = (0, $tcount{ $dp->{id} } // 0);
        for my $q (@{ $bf->{paths} }) {
            $want += $q->{count} if grep { $_->[0] == $dp->{from}[0] && $_->[1] == $dp->{from}[1] } @{ $q->{edges} };
        }
        push @bad, "derived path $dp->{id} (edge $dp->{from}[0]->$dp->{from}[1]): TPP $got, want $want" if $got != $want;
    }
    print @bad ? "not ok" : "ok", "\t$name: every measured path has its BLPP count, every derived one its defining edge's\n";
    print "# $_\n" for @bad;
    my $cold = 0;
    for my $q (@{ $bf->{paths} }) {
        next if $hot{ key($q) };
        my $to = $q->{end} =~ /^(backedge|cut)$/ ? $q->{edges}[-1][1] : -1;
        $cold += $q->{count} unless $obvious_end{"$q->{end} $q->{blocks}[-1] $to"};
    }
    my $got = $tf->{tpp}{cold};
    print $got == $cold ? "ok" : "not ok",
      "\t$name: cold counter $got = flow of BLPP paths TPP does not number, bar those ending where only obvious paths do ($cold)\n";
    if (!%obvious_end) {
        print $tf->{total} == $bf->{total} ? "ok" : "not ok",
          "\t$name: total $tf->{total} = BLPP total $bf->{total}\n";
    }
    $derived_funcs++ if %obvious_end;
    $checked++;
    $cold_total += $got;
}
print $checked ? "ok" : "not ok", "\tsome function was compared ($checked)\n";
# What the caller may want to assert about the run as a whole.
print "# cold $cold_total\n# derived_functions $derived_funcs\n";
