#!/usr/bin/perl
# perfctl/programs/gen-json.pl N - the input of perfctl/programs/jq.sh: N
# JSON records, one per line, from a fixed linear congruential generator
# (the same bytes on every machine and perl). Each record mixes what jq's
# parser, its values and perfctl/programs/work.jq branch on: strings with
# escapes (\n, \t, \", \\, \u00e9, a surrogate pair), integers, decimals and
# exponents, booleans, nulls, nested objects and arrays of varying depth
# (a tree of "children" for recurse), an e-mail address that a regex may or
# may not accept, and in some records a "score" that is a string, a null or
# missing (work.jq's try/catch turns those into errors and catches them).
use strict;
use warnings;

my $n = shift;
defined $n && $n =~ /^\d+$/ or die "usage: gen-json.pl N\n";
my $seed = 424242;
sub rnd { my ($m) = @_; $seed = ($seed * 1103515245 + 12345) % 2147483648; return int($seed / 65536) % $m }
my @words = qw(alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi
               rho sigma tau upsilon phi chi psi omega red green blue cyan magenta yellow black white);
my @kinds = qw(click view buy refund error login logout);
my @tlds = qw(com org net io);
sub word { return $words[rnd(scalar @words)] }
sub str {
    my $s = word();
    my $k = rnd(12);
    $s .= "\\n" . word() if $k == 0;
    $s .= "\\t" . word() if $k == 1;
    $s = "\\\"" . $s . "\\\"" if $k == 2;
    $s .= "\\\\" . word() if $k == 3;
    $s .= "\\u00e9" if $k == 4;
    $s .= " \\ud83d\\ude00" if $k == 5;
    $s = ucfirst($s) if $k == 6 || $k == 7;
    return "\"$s\"";
}
sub number {
    my $k = rnd(6);
    return rnd(100000) if $k < 3;
    return -rnd(1000) if $k == 3;
    return sprintf('%d.%03d', rnd(1000), rnd(1000)) if $k == 4;
    return sprintf('%de%d', 1 + rnd(9), rnd(8) - 4);
}
sub scalar_value {
    my $k = rnd(10);
    return str() if $k < 4;
    return number() if $k < 7;
    return ('true', 'false')[rnd(2)] if $k < 9;
    return 'null';
}
sub tree {
    my ($depth) = @_;
    my @c;
    if ($depth < 4) { push @c, tree($depth + 1) for 1 .. rnd(4 - $depth) }
    return sprintf('{"label":%s,"w":%s,"children":[%s]}', str(), number(), join(',', @c));
}
sub value {
    my ($depth) = @_;
    my $k = $depth >= 3 ? 9 : rnd(12);
    if ($k == 0) { return '[' . join(',', map { value($depth + 1) } 1 .. rnd(4)) . ']' }
    if ($k == 1) { return '{' . join(',', map { '"' . word() . "$_\":" . value($depth + 1) } 1 .. rnd(4)) . '}' }
    return scalar_value();
}

for my $id (1 .. $n) {
    my $first = ucfirst(word());
    my $last = ucfirst(word());
    my $mail = lc($first) . '.' . lc($last) . '@' . word() . '.' . $tlds[rnd(4)];
    my $m = rnd(10);
    $mail =~ s/\./_/ if $m == 0;     # no dot between the names
    $mail =~ s/@/ at / if $m == 1;   # no @
    $mail = uc($mail) if $m == 2;    # upper case
    my @f = ("\"id\":$id", "\"name\":\"$first $last\"", "\"email\":\"$mail\"");
    my $s = rnd(10);
    push @f, '"score":' . number() if $s < 7;
    push @f, "\"score\":\"" . rnd(1000) . "\"" if $s == 7;
    push @f, '"score":"n/a"' if $s == 8;
    push @f, '"score":null' if $s == 9 && rnd(2);
    push @f, '"tags":[' . join(',', map { '"' . word() . '"' } 1 .. rnd(6)) . ']';
    push @f, '"events":[' . join(',', map {
        sprintf('{"t":%d,"kind":"%s","v":%s}', rnd(86400), $kinds[rnd(scalar @kinds)], scalar_value())
    } 1 .. rnd(8)) . ']';
    push @f, '"attrs":' . value(0);
    push @f, '"tree":' . tree(0) if rnd(3);
    push @f, '"flag":' . ('true', 'false', 'null')[rnd(3)];
    print '{', join(',', @f), "}\n";
}
