#!/usr/bin/perl
# exact-lines.pl - checks the lines `pathprof show` prints for a path
# against GCC's own view of the blocks (tests/cli-exact-lines.t).
#
#   exact-lines.pl DUMP FUNC SHOW...
#
# DUMP is the plugin's pass dump (-fdump-ipa-all-lineno: each function as
# numbered, every statement with [file:line:col]); SHOW files hold the
# output of `pathprof show PROFILE FUNC ID`. For each, the lines named in
# its "lines" section must be exactly the lines of the statements of the
# blocks its "blocks" line lists: statements that run (not a debug binding,
# a label, or an edge's goto, which GCC prints with the edge's location),
# -g's "# DEBUG BEGIN_STMT" markers included (a statement begins there).
# Prints one line per difference, nothing when all agree.
use strict;
use warnings;

my ($dump, $func, @shows) = @ARGV;
die "usage: exact-lines.pl DUMP FUNC SHOW...\n" unless defined $func;

# function -> bb -> { "file:line" => 1 }
my (%lines, $fn, $bb);
open my $d, '<', $dump or die "$dump: $!\n";
while (<$d>) {
    chomp;
    if (/^[^\s;{}#].*?\b([A-Za-z_][\w.]*) \(/) {
        ($fn, $bb) = ($1, undef);
    } elsif (/^;;\s+basic block (\d+)/) {
        $bb = $1;
        $lines{$fn}{$bb} //= {} if defined $fn;
    } elsif (defined $fn && defined $bb && /^  \[([^\]]+):(\d+):\d+\] (.*)$/) {
        my ($file, $line, $stmt) = ($1, $2, $3);
        next if $line == 0;
        next if $stmt =~ /^# DEBUG (?!BEGIN_STMT)/ || $stmt =~ /^goto <bb \d+>/ ||
            $stmt =~ /^<[^>]*>(?: \[[^\]]*\])?:$/;
        $lines{$fn}{$bb}{"$file:$line"} = 1;
    }
}
close $d;
die "$dump: no function $func\n" unless $lines{$func};

for my $show (@shows) {
    open my $s, '<', $show or die "$show: $!\n";
    my (@blocks, %printed, $in_lines);
    while (<$s>) {
        chomp;
        if (/^blocks\s+(.*)$/) {
            @blocks = split ' ', $1;
        } elsif (/^lines$/) {
            $in_lines = 1;
        } elsif ($in_lines && /^  (\S.*):([\d,-]+)$/ && !/^  branch /) {
            my $file = $1;
            for my $r (split /,/, $2) {
                my ($a, $b) = $r =~ /^(\d+)(?:-(\d+))?$/ or die "$show: bad range $r\n";
                $printed{"$file:$_"} = 1 for $a .. ($b // $a);
            }
        }
    }
    close $s;
    my %ran;
    for my $b (@blocks) {
        die "$show: block $b of $func is not in $dump\n" unless $lines{$func}{$b};
        $ran{$_} = 1 for keys %{ $lines{$func}{$b} };
    }
    for (sort keys %printed) {
        print "$show: prints $_, a line no statement of its blocks (@blocks) comes from\n"
            unless $ran{$_};
    }
    for (sort keys %ran) {
        print "$show: does not print $_, a line of a statement of its blocks (@blocks)\n"
            unless $printed{$_};
    }
}
