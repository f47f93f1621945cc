#!/usr/bin/perl
# perfctl/programs/gen-grep.pl - the inputs of perfctl/programs/grep.sh,
# from a fixed linear congruential generator (the same bytes on every
# machine and perl):
#   gen-grep.pl text BYTES [utf8]   about BYTES bytes of text lines (stops
#                            at the first line end past BYTES); with utf8
#                            the one non-ASCII character (e acute) is
#                            written in UTF-8 (two bytes), else as the
#                            single byte 0xE9 (Latin-1)
#   gen-grep.pl words N      N fixed strings, one a line (grep -F -f: kwset's
#                            Aho-Corasick over many keywords); about a third
#                            never occur in the text
#   gen-grep.pl regexes      a few dozen -E patterns, one a line (grep -E -f:
#                            one DFA for all of them; the last has a
#                            back-reference, so regex checks what the DFA
#                            lets through)
# The text mixes what grep's matchers branch on: log lines (dates, levels
# in several cases, key=value fields, hex ids, IPv4 addresses), prose with
# words from a syllable grammar (some doubled, "the the", for
# back-references; some capitalised or upper case, for -i), e-mail
# addresses, identifiers glued with _ and digits (word boundaries for -w),
# long lines, empty lines, tabs, and a few bytes above 127 (single bytes in
# the C locale; valid UTF-8 with utf8, else a UTF-8 grep would call the
# file binary). No NUL: grep would call the file binary.
use strict;
use warnings;

my ($what, $n, $enc) = @ARGV;
my $usage = "usage: gen-grep.pl text BYTES [utf8] | words N | regexes\n";
defined $what or die $usage;
!defined $enc || ($what eq 'text' && $enc eq 'utf8') or die $usage;
my $eacute = defined $enc ? "\xc3\xa9" : "\xe9";
my $seed = 20261201;
sub rnd { my ($m) = @_; $seed = ($seed * 1103515245 + 12345) % 2147483648; return int($seed / 65536) % $m }
my @syl = qw(ka lo mi ser tan ver qu ex or al in th ing ed ba ne ro cu de fi pa sto gra mon lux);
my @levels = qw(INFO INFO INFO DEBUG WARN warn Warning ERROR error FATAL);
my @users = qw(alice bob carol dave erin frank grace heidi ivan judy mallory oscar);
my @tlds = qw(com org net io);

sub word {
    my $w = '';
    $w .= $syl[rnd(scalar @syl)] for 0 .. rnd(3);
    my $k = rnd(20);
    return ucfirst($w) if $k < 3;
    return uc($w) if $k == 3;
    return $w;
}
sub prose {
    my @w;
    my $len = 3 + rnd(14);
    for (1 .. $len) {
        my $x = word();
        push @w, $x;
        my $k = rnd(30);
        push @w, $x if $k == 0;                           # doubled word
        push @w, 'the', 'the' if $k == 1;
        push @w, "$x$x" if $k == 2;                       # doubled inside a word
        push @w, sprintf('%s_%d', $x, rnd(100)) if $k == 3;
        push @w, "caf$eacute" if $k == 4;                 # a byte above 127
    }
    my $s = join(' ', @w);
    $s .= '.' if rnd(3) == 0;
    return $s;
}
# rnd draws below 2^15: two of them make up to 24 bits (1 to 6 hex digits)
sub big { return rnd(1 << 15) * 512 + rnd(512) }
sub ip { return join('.', rnd(256), rnd(256), rnd(256), rnd(256)) }
sub email { return sprintf('%s.%s@%s.%s', $users[rnd(scalar @users)], lc(word()), lc(word()), $tlds[rnd(scalar @tlds)]) }
sub logline {
    my $s = sprintf('%04d-%02d-%02d %02d:%02d:%02d %s user=%s id=%x', 2020 + rnd(7), 1 + rnd(12), 1 + rnd(28),
        rnd(24), rnd(60), rnd(60), $levels[rnd(scalar @levels)], $users[rnd(scalar @users)], big());
    my $k = rnd(6);
    $s .= ' from=' . ip() if $k < 2;
    $s .= ' to=' . email() if $k == 2;
    $s .= "\tmsg=" . prose();
    return $s;
}

if ($what eq 'text') {
    defined $n && $n =~ /^\d+$/ or die $usage;
    my $bytes = 0;
    while ($bytes < $n) {
        my $k = rnd(20);
        my $line;
        if ($k < 9) { $line = logline() }
        elsif ($k < 15) { $line = prose() }
        elsif ($k == 15) { $line = 'contact: ' . email() . ', ' . email() }
        elsif ($k == 16) { $line = '' }
        elsif ($k == 17) { $line = join(' ', map { prose() } 1 .. 8 + rnd(12)) }   # long
        elsif ($k == 18) { $line = sprintf("\t%s = 0x%08x; /* %s */", lc(word()) . '_' . rnd(1000), big() * 64, prose()) }
        else { $line = uc(prose()) }
        print $line, "\n";
        $bytes += length($line) + 1;
    }
} elsif ($what eq 'words') {
    defined $n && $n =~ /^\d+$/ or die $usage;
    my %seen;
    my $made = 0;
    while ($made < $n) {
        my $w = lc(word());
        $w .= 'zq' . rnd(100) if rnd(3) == 0;           # absent from the text
        $w = 'user=' . $users[rnd(scalar @users)] if rnd(40) == 0;
        next if $seen{$w}++;
        print "$w\n";
        $made++;
    }
} elsif ($what eq 'regexes') {
    print "$_\n" for (
        '^[0-9]{4}-0[1-3]-[0-9]{2} 0[0-5]:',
        'user=(alice|bob) id=[0-9a-f]*ff\b',
        'from=10\.[0-9]+\.',
        '[A-Z]{3,}[a-z]+[A-Z]',
        'id=[0-9a-f]{6}$',
        '(ka|lo|mi){3}',
        '^\t[a-z_0-9]+ = 0x0',
        '@[a-z]+\.(io|net) ',
        'caf.\.$',
        '(^| )[A-Z][a-z]+ing\b',
        'stogra[^ ]*lux',
        '[[:upper:]]{4}[[:digit:]]',
        '\bex(or|al)+in\b',
        'FATAL.*(ser|tan)+',
        '(ba|ne|ro){2,4}cu',
        '[[:space:]]{2}',
        '^[^ ]+_[0-9]+ ',
        'monmon|luxlux|stosto',
        '\b([a-z]{3,}) \1\b',
    );
} else {
    die $usage;
}
