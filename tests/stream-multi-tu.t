#!/usr/bin/env bash
# stream-multi-tu.t - issue 3: a program of four TUs whose events change
# TU at nearly every event (tests/stream/multi_tu): the blpp analyzer counts
# the small TUs' events in its flat array and finds the big one's (wide.c,
# 2^17 paths) through its cache, its sorted list of TUs met, or the
# runtime, and its report must equal counting mode's exactly, with one and
# two analyzer threads and with small chunks.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
. "$(dirname "$0")/stream/lib.sh"
pp_require_build
M=$STREAM_DIR/multi_tu

pp_cc_plain "$T/plain" "$M/main.c" -O2 "$M/parse.c" "$M/hash.c" "$M/wide.c" &&
    pp_cc "$T/count" "$M/main.c" -O2 "$M/parse.c" "$M/hash.c" "$M/wide.c" &&
    pp_cc "$T/stream" "$M/main.c" -O2 $STREAM "$M/parse.c" "$M/hash.c" "$M/wide.c" ||
    BAIL_OUT "multi_tu does not build"

d=$T/run
mkdir -p "$d"
srun "$d" plain -- "$T/plain" 300000
srun "$d" count -- "$T/count" 300000
is "$(perl -MJSON::PP -e 'local $/; my $p = decode_json(<STDIN>);
        my %f; $f{$_->{file} =~ s{.*/}{}r}++ for @{ $p->{functions} }; print join(" ", sort keys %f)' \
        <"$d/count.json")" "hash.c main.c parse.c wide.c" "count mode: functions of four TUs"
for cfg in "default:" "2 analyzer threads:PATHPROF_ANALYZERS=2" "16-event chunks:PATHPROF_CHUNK=16"; do
    label=${cfg%%:*} name=s-${label%% *}
    # shellcheck disable=SC2086
    srun "$d" "$name" ${cfg#*:} -- "$T/stream" 300000
    same_behaviour "$d" "$name" plain "$label"
    same_profile "$d" "$name" count "$label"
    is "$(sfacts "$d/$name.json" exact unknown)" "true 0" "$label: exact, no event of an unknown TU"
done
done_testing
