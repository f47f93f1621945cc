#!/usr/bin/perl
# edgecheck.pl - the edge oracle on `pathprof report --json` (stdin): for
# every function with verify_edges, the count of each real CFG edge derived
# from the path counts (sum of the counts of the paths whose .edges hold it)
# must equal the direct count. Prints "ok NAME@FILE" or "not ok NAME@FILE:
# differences" per function; exits 1 when one differs or none was checked.
use strict;
use warnings;
use JSON::PP;

my $doc = JSON::PP->new->decode(do { local $/; <STDIN> });
my ($checked, $bad) = (0, 0);
for my $f (@{ $doc->{functions} }) {
    next unless $f->{verify_edges};
    my (%derived, %direct);
    for my $p (@{ $f->{paths} }) {
        $derived{"$_->[0]->$_->[1]"} += $p->{count} for @{ $p->{edges} };
    }
    $direct{"$_->{src}->$_->{dst}"} = $_->{count} for @{ $f->{verify_edges} };
    my %all = (%derived, %direct);
    my @diff = map { "$_ derived " . ($derived{$_} // 0) . " direct " . ($direct{$_} // 'none') }
      grep { ($derived{$_} // 0) != ($direct{$_} // 0) || !exists $direct{$_} } sort keys %all;
    $checked++;
    if (@diff) { $bad++; print "not ok $f->{name}\@", $f->{file} // '', ": @diff\n"; }
    else { print "ok $f->{name}\@", $f->{file} // '', "\n"; }
}
exit($bad || !$checked ? 1 : 0);
