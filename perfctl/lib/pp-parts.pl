#!/usr/bin/perl
# pp-parts.pl PROFILE: how many whole profiles PROFILE holds back to back
# (an accumulated file's parts, docs/format.md, section 3, "Parts"), and
# "+N" when N bytes after them are a torn part or no profile at all. The
# stats scripts beside it read one part only: perfctl merges a file of
# several first (pathprof merge -o ONE PROFILE).
use strict;
use warnings;

my $f = shift or die "usage: pp-parts.pl PROFILE\n";
open my $fh, '<:raw', $f or die "pp-parts.pl: $f: $!\n";
local $/;
my $d = <$fh>;
my ($o, $n) = (0, 0);
while ($o + 64 <= length $d && substr($d, $o, 8) eq 'PATHPROF') {
    my $end = $o + 72 + unpack('Q<', substr($d, $o + 48, 8));
    last if $end > length $d;
    ($o, $n) = ($end, $n + 1);
}
print $o == length $d ? "$n\n" : "$n+" . (length($d) - $o) . "\n";
