#!/usr/bin/perl
# atmost.pl PART.json FULL.json - a profile that lost events (PART) against
# an exact one of the same program and input (FULL): the same functions
# (name, file, checksum, npaths), and no path counted more often in PART
# than in FULL (a lost event can only lower a count).  Prints the
# differences (at most 20) and exits 1, or prints "N paths, none over".
use strict;
use warnings;
use JSON::PP;

sub load {
    my $f = shift;
    open my $j, '<', $f or die "$f: $!\n";
    local $/;
    return JSON::PP->new->allow_bignum->decode(<$j>);
}
my ($part, $full) = map { load($_) } @ARGV[0, 1];
my (%fp, %ff, %cp, %cf, @bad);
for ([$part, \%fp, \%cp], [$full, \%ff, \%cf]) {
    my ($p, $fn, $c) = @$_;
    for my $f (@{ $p->{functions} }) {
        my $k = join ' ', $f->{name}, $f->{file} // 'null';
        $fn->{$k} = "$f->{checksum} $f->{npaths}";
        $c->{"$k $_->{id}"} += $_->{count} for @{ $f->{paths} };
    }
}
for my $k (sort keys %{ { %fp, %ff } }) {
    push @bad, "function $k: " . ($fp{$k} // 'absent') . " vs " . ($ff{$k} // 'absent')
        if ($fp{$k} // '') ne ($ff{$k} // '');
}
for my $k (sort keys %cp) {
    push @bad, "path $k: $cp{$k} counted, only " . ($cf{$k} // 0) . " ran"
        if $cp{$k} > ($cf{$k} // 0);
}
if (@bad) {
    print "$_\n" for @bad[0 .. ($#bad < 19 ? $#bad : 19)];
    exit 1;
}
printf "%d paths, none over\n", scalar keys %cp;
