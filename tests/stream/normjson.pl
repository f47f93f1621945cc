#!/usr/bin/perl
# normjson.pl JSON - a normalized listing of a `pathprof report --json`
# document, for comparing a counting-mode profile with a stream-mode one
# of the same program and input: what both modes must agree on, and
# nothing that legitimately differs (program path, pid, time, mode, the
# STREAM section, array/hash update totals, and the flags that only say
# how a function was counted: "stream", "resume", "hash", "atomic").
#
# One line for the totals, one per function (identity, DAG and totals),
# its block lines, then one per executed path sorted by ID (count and
# the decoded path: blocks, edges, start, end, lines).
use strict;
use warnings;
use JSON::PP;

my $file = shift // die "usage: normjson.pl JSON\n";
my $p = do { local $/; open my $j, '<', $file or die "$file: $!\n"; JSON::PP->new->allow_bignum->decode(<$j>) };
my %how = map { $_ => 1 } qw(stream resume hash atomic);
print "paths_executed $p->{paths_executed}\n";
print "functions ", scalar @{ $p->{functions} }, "\n";
for my $f (@{ $p->{functions} }) {
    my @flags = grep { !$how{$_} } @{ $f->{flags} };
    printf "F %s file=%s line=%s checksum=%s npaths=%s flags=%s total=%s executed=%s copies=%s\n",
        $f->{name}, $f->{file} // 'null', $f->{line}, $f->{checksum}, $f->{npaths},
        join(',', @flags), $f->{total}, $f->{executed_paths}, $f->{copies};
    my $bl = $f->{block_lines} // {};
    print "  blocks ", join(' ', map { "$_=$bl->{$_}" } sort { $a <=> $b } keys %$bl), "\n";
    # ids are 64-bit: compare them as decimal strings of equal length
    my @paths = sort { length($a->{id}) <=> length($b->{id}) || $a->{id} cmp $b->{id} }
        @{ $f->{paths} };
    for my $q (@paths) {
        printf "  %s -> %s  [%s] %s..%s edges=%s lines=%s\n", $q->{id}, $q->{count},
            join(' ', @{ $q->{blocks} }), $q->{start}, $q->{end},
            join(' ', map { "$_->[0]>$_->[1]" } @{ $q->{edges} }), join(' ', @{ $q->{lines} });
    }
}
