#!/usr/bin/perl
# check-layers.pl - keeps the tree's shape true (docs/architecture.md).
#
# Reads every `#include "..."` between the project's own files and fails
# when
#   - a lower layer includes a header of a higher one
#     (ringbuf < runtime < analyzers < cli; the plugin stands apart and
#     shares only the run-time ABI header with the others), or
#   - modules include each other in a loop.  A module is a .c/.cc file and
#     its header (report.c + report.h); a loop between modules is a loop of
#     calls, which is what makes a tree hard to read, even when no header
#     includes itself.
#
# Usage: scripts/check-layers.pl [ROOT]   (prints every finding, exits 1
# when there is one; tests/layers.t runs it in `make check`).
use strict;
use warnings;
use File::Find;

my $root = shift // '.';
chdir $root or die "check-layers.pl: cannot enter $root: $!\n";

my %rank = (ringbuf => 0, runtime => 1, analyzers => 2, cli => 3);
my @layers = sort { $rank{$a} <=> $rank{$b} } keys %rank;
my $abi = 'runtime/pathprof-abi.h';    # the contract the plugin shares
# The one plugin file that reads a profile (edge-profile=FILE of TPP,
# docs/tpp.md) does it with the CLI's reader, in C, linked into the plugin
# with its symbols hidden: these CLI headers and no others.
my %plugin_reader = ('plugin/edge-profile.c' => { map { $_ => 1 } 'cli/read/profile.h', 'cli/query/flow.h' });

my @files;
find({ no_chdir => 1, wanted => sub {
    push @files, $File::Find::name =~ s{^\./}{}r if /\.(c|cc|h)$/;
} }, grep { -d } @layers, 'plugin');
@files = sort @files;

my %by_base;    # header basename -> [paths]
for my $f (@files) {
    push @{ $by_base{ $f =~ s{.*/}{}r } }, $f if $f =~ /\.h$/;
}

sub layer_of { my ($f) = @_; return (split m{/}, $f)[0]; }
sub dir_of   { my ($f) = @_; return $f =~ m{^(.*)/} ? $1 : '.'; }
sub module_of { my ($f) = @_; return $f =~ s/\.(c|cc|h)$//r; }

# Where `#include "NAME"` in FILE leads, as the build's -I flags find it:
# the includer's own directory first, then its own layer, then the layers
# below it, then any (so that an upward include is found and reported).
sub resolve {
    my ($file, $name) = @_;
    my $here = dir_of($file) . "/$name";
    return $here if -f $here;
    my @cands = @{ $by_base{ $name =~ s{.*/}{}r } // [] };
    @cands = grep { m{(^|/)\Q$name\E$} } @cands;
    return undef unless @cands;
    my $own = layer_of($file);
    my @order = ($own, (grep { exists $rank{$own} && $rank{$_} < $rank{$own} }
                        reverse @layers), @layers, 'plugin');
    for my $l (@order) {
        my @in = grep { layer_of($_) eq $l } @cands;
        return $in[0] if @in == 1;
        return "AMBIGUOUS:" . join(',', @in) if @in > 1;
    }
    return undef;
}

my @findings;
my %edges;      # module -> module -> "file includes header"
for my $f (@files) {
    open my $fh, '<', $f or die "check-layers.pl: cannot read $f: $!\n";
    while (my $line = <$fh>) {
        next unless $line =~ /^\s*#\s*include\s+"([^"]+)"/;
        my $name = $1;
        my $to = resolve($f, $name);
        next unless defined $to;        # a system or GCC header
        if ($to =~ /^AMBIGUOUS:(.*)/) {
            push @findings, "$f: #include \"$name\" could be any of $1";
            next;
        }
        my ($lf, $lt) = (layer_of($f), layer_of($to));
        if ($lf eq 'plugin' || $lt eq 'plugin') {
            push @findings, "$f includes $to: the plugin shares only $abi with the other layers"
                if $lf ne $lt && $to ne $abi && !$plugin_reader{$f}{$to};
        } elsif ($rank{$lf} < $rank{$lt}) {
            push @findings, "$f includes $to: layer $lf sits below $lt "
                . "(ringbuf < runtime < analyzers < cli)";
        }
        my ($mf, $mt) = (module_of($f), module_of($to));
        $edges{$mf}{$mt} //= "$f includes $to" if $mf ne $mt;
    }
    close $fh;
}

# Loops: strongly connected components of the module graph (Tarjan).
my (%index, %low, %on, @stack, @sccs);
my $next = 0;
sub strongconnect {
    my ($v) = @_;
    $index{$v} = $low{$v} = $next++;
    push @stack, $v; $on{$v} = 1;
    for my $w (sort keys %{ $edges{$v} // {} }) {
        if (!exists $index{$w}) {
            strongconnect($w);
            $low{$v} = $low{$w} if $low{$w} < $low{$v};
        } elsif ($on{$w}) {
            $low{$v} = $index{$w} if $index{$w} < $low{$v};
        }
    }
    if ($low{$v} == $index{$v}) {
        my @c;
        while (1) { my $w = pop @stack; $on{$w} = 0; push @c, $w; last if $w eq $v; }
        push @sccs, [sort @c] if @c > 1;
    }
}
strongconnect($_) for grep { !exists $index{$_} } sort keys %edges;
for my $c (@sccs) {
    my %in = map { $_ => 1 } @$c;
    my @why = map { my $m = $_; map { $edges{$m}{$_} } grep { $in{$_} } sort keys %{ $edges{$m} } } @$c;
    push @findings, "modules in a loop: " . join(' ', @$c) . "\n    " . join("\n    ", @why);
}

if (@findings) {
    print STDERR "check-layers.pl: $_\n" for @findings;
    print STDERR "check-layers.pl: " . scalar(@findings) . " finding(s); the layers and "
        . "why are in docs/architecture.md\n";
    exit 1;
}
print "check-layers.pl: " . scalar(@files) . " files, no upward include, no loop between modules\n";
exit 0;
