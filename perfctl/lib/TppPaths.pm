# perfctl/lib/TppPaths.pm - how a TPP profile's paths and functions are
# matched with a plain Ball-Larus profile's, for the two scripts that
# compare them: tests/oracle/tppcheck.pl (the oracle: path for path) and
# perfctl/lib/tpp-stats.pl (the TPP paper's attribution of definite flow).
# Both take `pathprof report --json` documents.
package TppPaths;
use strict;
use warnings;
use JSON::PP;
use Exporter 'import';
our @EXPORT_OK = qw(load_json path_key split_path copy_id);

sub load_json { local $/; open my $fh, '<', $_[0] or die "$_[0]: $!\n"; decode_json(<$fh>) }

# A path, across numberings: its blocks and its real CFG edges.
sub path_key { my ($blocks, $edges) = @_; join(' ', @$blocks) . ' | ' . join(' ', map { "$_->[0]-$_->[1]" } @$edges) }

# Path Q (a report's path: blocks, edges, count) split at the edges of CUT
# ("src-dst" => 1): [blocks, edges, count] pieces. Q's edges: edges[i]
# joins blocks[i] and blocks[i + 1], then the closing or returning edge,
# if any. TPP ends paths at more edges than BLPP (the entry and exit edges
# of disconnected loops, its "truncated" list), so BLPP's paths are split
# there, as the TPP paper does (section 5, footnote 5).
sub split_path {
    my ($q, $cut) = @_;
    my @b = @{ $q->{blocks} };
    my @e = @{ $q->{edges} };
    my (@pieces, @pb, @pe);
    for my $i (0 .. $#b) {
        push @pb, $b[$i];
        next unless $i < $#b;
        push @pe, $e[$i];
        if ($cut->{"$e[$i][0]-$e[$i][1]"}) { push @pieces, [ [@pb], [@pe], $q->{count} ]; @pb = @pe = () }
    }
    push @pe, @e[ $#b .. $#e ] if @e > $#b;
    return (@pieces, [ \@pb, \@pe, $q->{count} ]);
}

# Which copy of a function an entry is. A static (inline) function of a
# header is compiled into every TU that includes it, each copy with the
# blocks and edges GCC made of it there. The report merges the copies
# that are one build (same checksum and graph) and lists the others
# apart: zstd's ZSTD_count, in six TUs, is three entries of one name and
# file, one of which runs; matching entries by file and name alone
# compared one copy's paths with another's (tpp-stats.pl scored plain
# BLPP 87% against itself). Where the copies' blocks differ, a bb index
# means other code in each. A TPP checksum is not BLPP's (it covers the
# numbering), so a copy is told by name, file, line and the source lines
# of its blocks (block_lines: bb index -> lines), which every build of one
# TU takes from the same CFG before numbering. Entries with one copy_id
# have the same blocks, and their paths, keyed by blocks and edges, can be
# summed (ZSTD_count's three entries; or copies BLPP merged and TPP, their
# cold edges differing, did not).
sub copy_id {
    my $f = shift;
    my $bl = $f->{block_lines} || {};
    join("\0", $f->{file} // '', $f->{name}, $f->{line} // 0, map { "$_=$bl->{$_}" } sort { $a <=> $b } keys %$bl);
}

1;
