#!/usr/bin/env bash
# Profile file versions (docs/format.md, section 3): version 1 (FNV-1a-64
# trailer) is still read, as version 2 (hash64) is: the same hand-made
# profile (tests/cli/mkprofile.pl) written in each reads to the same
# report; a version-1 file with a flipped payload byte, or whose trailer
# is version 2's, is refused as damaged; `pathprof merge` of one of each
# writes version 2 with the counts doubled, and reads back.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
cli_require

perl "$MKPROFILE" --scenario small --file-version 1 "$T/v1.pp" || BAIL_OUT "mkprofile.pl failed"
perl "$MKPROFILE" --scenario small "$T/v2.pp" || BAIL_OUT "mkprofile.pl failed"
version() { perl -e 'open my $f, "<:raw", $ARGV[0] or die; read $f, my $h, 12; print unpack "V", substr $h, 8' "$1"; }
is "$(version "$T/v1.pp"):$(version "$T/v2.pp")" "1:2" "mkprofile.pl wrote versions 1 and 2"

cli_run report "$T/v1.pp" --json
is "$RC" 0 "version 1 reads"
v1=$OUT
cli_run report "$T/v2.pp" --json
is "$RC" 0 "version 2 reads"
is "$v1" "$OUT" "both versions report the same"

# A version-1 file is checked against its own trailer, not version 2's.
perl -I"$PP_CLI_DIR" -MPPWrite=hash64 -e 'local $/; open my $f, "<:raw", $ARGV[0] or die; my $d = <$f>;
    my $body = substr($d, 0, -8); open my $o, ">:raw", $ARGV[1] or die; print $o $body . hash64($body)' \
    "$T/v1.pp" "$T/v1-hash64.pp"
cli_run report "$T/v1-hash64.pp"
one_error_line "$T/v1-hash64.pp" 'checksum mismatch .*: the file is damaged$' "version 1 with a hash64 trailer"
perl -e 'local $/; open my $f, "<:raw", $ARGV[0] or die; my $d = <$f>; substr($d, 100, 1) ^= "\x01";
    open my $o, ">:raw", $ARGV[1] or die; print $o $d' "$T/v1.pp" "$T/v1-flip.pp"
cli_run report "$T/v1-flip.pp"
one_error_line "$T/v1-flip.pp" 'checksum mismatch .*: the file is damaged$' "version 1 with a flipped byte"

cli_run merge -o "$T/sum.pp" "$T/v1.pp" "$T/v2.pp"
is "$RC" 0 "merge of version 1 and version 2"
is "$(version "$T/sum.pp")" 2 "the merge writes version 2"
cli_run report "$T/sum.pp" --json
is "$RC" 0 "the merge reads back"
sum=$OUT
is "$(printf '%s' "$sum" | perl -MJSON::PP -0e 'my $j = decode_json(<>); my $t = 0;
        $t += $_->{count} for map { @{ $_->{paths} } } @{ $j->{functions} }; print $t')" \
   "$(printf '%s' "$v1" | perl -MJSON::PP -0e 'my $j = decode_json(<>); my $t = 0;
        $t += $_->{count} for map { @{ $_->{paths} } } @{ $j->{functions} }; print 2 * $t')" \
   "the merge's path counts are twice one input's"
done_testing
