#!/usr/bin/perl
# oracle.pl - what `pathprof select` and `pathprof residual` should say,
# worked out independently from `pathprof report --json` (the executed
# paths of each profile) and the interesting-paths file read by a parser
# of docs/format.md of its own.
#   oracle.pl executed REPORT.json        "name file checksum id count" per executed path
#   oracle.pl only A.json B.json          "name file id" of paths A ran and B never did
#   oracle.pl interesting FILE            "name file checksum id" per line of the file
#                                          (version 3's LINE field left out)
# (PP_ORACLE_SEP=tab: executed and interesting join their fields by tabs)
#   oracle.pl residual RESIDUAL.json KEY  "name file id" of RESIDUAL's list KEY
#   oracle.pl covers REPORT.json FUNC LINE...  IDs of FUNC's executed paths that run any LINE
use strict;
use warnings;
use JSON::PP;

sub slurp { my ($f) = @_; open my $fh, '<', $f or die "oracle.pl: $f: $!\n"; local $/; return <$fh>; }
sub json { return JSON::PP->new->decode(slurp($_[0])); }

sub executed {
    my ($doc) = @_;
    my @out;
    for my $f (@{ $doc->{functions} }) {
        for my $p (@{ $f->{paths} }) {
            push @out, [ $f->{name}, $f->{file} // '-', $f->{checksum}, $p->{id}, $p->{count} ]
              if $p->{count} > 0;
        }
    }
    return @out;
}

# Fields are joined by blanks, or by tabs with PP_ORACLE_SEP=tab (names
# that hold blanks: C++ templates).
my $sep = ($ENV{PP_ORACLE_SEP} // '') eq 'tab' ? "\t" : ' ';
my $cmd = shift // '';
if ($cmd eq 'executed') {
    print join($sep, @$_), "\n" for executed(json(shift));
} elsif ($cmd eq 'only') {
    my @a = executed(json(shift));
    my %b = map { ("$_->[0] $_->[1] $_->[2] $_->[3]" => 1) } executed(json(shift));
    print "$_->[0] $_->[1] $_->[3]\n" for grep { !$b{"$_->[0] $_->[1] $_->[2] $_->[3]"} } @a;
} elsif ($cmd eq 'interesting') {
    my @lines = split /\n/, slurp(shift);
    my $head = shift @lines;
    die "oracle.pl: no version line\n" unless $head =~ /^pathprof-interesting-paths ([123])$/;
    my $version = $1;
    for (@lines) {
        my @f;
        # A field is a run of non-blanks up to '#', or "..." with \" \\ \t
        # \n \r \xHH inside (docs/format.md, version 2).
        while (1) {
            s/^[ \t\r]+//;
            last if $_ eq '' || /^#/;
            if (s/^"((?:[^"\\]|\\(?:["\\tnr]|x[0-9a-fA-F]{2}))*)"(?=[ \t\r#]|$)//) {
                my $q = $1;
                $q =~ s/\\(["\\tnr]|x([0-9a-fA-F]{2}))/
                    defined $2 ? chr(hex $2) : { '"' => '"', '\\' => '\\', t => "\t", n => "\n", r => "\r" }->{$1}/ge;
                push @f, $q;
            } elsif (s/^([^ \t\r#"][^ \t\r#]*)//) {
                push @f, $1;
            } else {
                die "oracle.pl: bad field in '$_'\n";
            }
        }
        next unless @f;
        # Version 3: FUNCTION FILE LINE CHECKSUM PATH-ID; the LINE is dropped
        # (the checksum tells this file's overloads apart).
        splice @f, 2, 1 if $version == 3 && @f == 5 && $f[2] =~ /^[1-9]\d*$/;
        die "oracle.pl: bad line '@f'\n" unless @f == 4 && $f[2] =~ /^0x[0-9a-f]{16}$/ && $f[3] =~ /^\d+$/;
        print join($sep, @f), "\n";
    }
} elsif ($cmd eq 'residual') {
    my ($doc, $key) = (json(shift), shift);
    print "$_->{function} ", $_->{file} // '-', " $_->{id}\n" for @{ $doc->{$key} };
} elsif ($cmd eq 'covers') {
    my ($doc, $func, @want) = (json(shift), shift, @ARGV);
    for my $f (grep { $_->{name} eq $func } @{ $doc->{functions} }) {
        for my $p (@{ $f->{paths} }) {
            my $hit = 0;
            for my $r (@{ $p->{lines} }) {
                my ($a, $b) = $r =~ /:(\d+)-(\d+)$/ or die "oracle.pl: bad range $r\n";
                $hit ||= grep { $_ >= $a && $_ <= $b } @want;
            }
            print "$p->{id}\n" if $hit && $p->{count} > 0;
        }
    }
} else {
    die "usage: oracle.pl executed|only|interesting|residual|covers ...\n";
}
