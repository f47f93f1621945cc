#!/usr/bin/env bash
# A damaged PPP profile (the PPP flag, ppp_size, the table after the
# verify edges): truncated and with bytes flipped, with and without the
# checksum re-sealed (tests/cli/patch.pl --sweep, every 7th offset), every
# command must end in exit 0, 1 or 2 with at most one line, never a crash
# or a hang (the promises of tests/cli-sweep.t, checked by its sweep.sh).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build

cp "$TAP_ROOT/tests/ppp/residual.c" "$T/"
cd "$T" || exit 1
pp_cc r residual.c -O2 && pp_run r.pp ./r "abc 123 XY!" || BAIL_OUT "cannot build and run residual.c"
cli_run select r.pp --cover 0.6
printf '%s\n' "$OUT" >int.txt
pp_cc rp residual.c -O2 -fplugin-arg-pathprof-verify -fplugin-arg-pathprof-ppp=int.txt &&
    pp_run rp.pp ./rp "abc 123 XY!" || BAIL_OUT "cannot build and run the PPP build"
cli_run report rp.pp
like "$OUT" "^ppp        preferential path profile" "the undamaged profile reads as PPP"
mkdir sweep
perl "$PP_CLI_DIR/patch.pl" --sweep rp.pp sweep 7 || BAIL_OUT "patch.pl --sweep failed"
out=$( (pp_ulimit_v 262144; timeout 600 bash "$PP_CLI_DIR/sweep.sh" "$PP_CLI" sweep \
    "trunc flip rflip rflip1 rtrunc" 1 "$T/progress") )
rc=$?
if [ $rc = 124 ]; then
    fail "damaged PPP profile" "timed out (hang?) on $(cat "$T/progress")"
elif [ $rc != 0 ] || [ -n "$out" ]; then
    fail "damaged PPP profile: every 7th offset, every command" "$(printf '%s\n' "$out" | head -n 10)"
else
    pass "damaged PPP profile ($(stat -c %s rp.pp) bytes): every 7th offset, every command"
fi
done_testing
