#!/usr/bin/env bash
# Sampled runs (docs/sampling.md) of one build with sampling=yes, against
# the exact profile of the same binary (PATHPROF_SAMPLE=1/1, which
# tests/sampling-exact.t shows equals the unsampled profile):
#   - PATHPROF_SAMPLE=0: the same output as without pathprof, no path;
#   - any rate: no path is counted more often than it ran (a burst never
#     counts a partial path), also with recursion, longjmp out of sampled
#     frames, noreturn calls and a signal handler;
#   - the estimates converge: the largest relative error of a hot path
#     (>= 0.1% of all executions) falls as the rate rises;
#   - bad PATHPROF_SAMPLE / PATHPROF_BURST values and a bad plugin argument
#     are refused, naming them.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
CMP=$TAP_ROOT/tests/sampling/cmp.pl
MIX=$TAP_ROOT/tests/sampling/mix.c
export PATHPROF_QUIET=1
S=-fplugin-arg-pathprof-sampling=yes

pp_cc_plain "$T/plain" "$MIX" -O2 || BAIL_OUT "mix.c does not build"
pp_cc "$T/mix" "$MIX" -O2 "$S" || BAIL_OUT "mix.c does not build with sampling=yes"
pp_cc "$T/exact" "$MIX" -O2 || BAIL_OUT "mix.c does not build with pathprof"
"$T/plain" 200000 >"$T/plain.out"

# the exact profile: the unsampled build, and the sampled one at 1/1
pp_run "$T/e.prof" "$T/exact" 200000
pp_json "$T/e.prof" >"$T/e.json"
PATHPROF_SAMPLE=1/1 pp_run "$T/one.prof" "$T/mix" 200000
pp_json "$T/one.prof" >"$T/one.json"
ok "1/1: the same output as without pathprof" diff "$T/plain.out" "$T/one.prof.stdout"
ok "1/1: the profile equals the unsampled build's, path for path" \
    perl "$CMP" same "$T/e.json" "$T/one.json"

PATHPROF_SAMPLE=0 pp_run "$T/zero.prof" "$T/mix" 200000
pp_json "$T/zero.prof" >"$T/zero.json"
ok "0: the same output as without pathprof" diff "$T/plain.out" "$T/zero.prof.stdout"
like "$(cat "$T/zero.json")" '"paths_executed":0,' "0: no path counted"
like "$(cat "$T/zero.json")" '"sampling":."sample_n":0,' "0: the profile says it was never sampled"
like "$("$PP_CLI" report "$T/zero.prof")" 'sampled +never' "0: the report says so"

# Convergence; the limits are 4 to 10 times what 5 runs of each gave.
declare -A limit=([1/10000]=2 [1/1000]=0.4 [1/100]=0.15 [1/10]=0.05)
declare -A err
for rate in 1/10000 1/1000 1/100 1/10; do
    PATHPROF_SAMPLE=$rate PATHPROF_BURST=10 pp_run "$T/r.prof" "$T/mix" 200000
    pp_json "$T/r.prof" >"$T/r.json"
    cp "$T/r.json" "$T/r-${rate#1/}.json"
    ok "$rate: the same output as without pathprof" diff "$T/plain.out" "$T/r.prof.stdout"
    ok "$rate: no path counted more often than it ran" perl "$CMP" within "$T/one.json" "$T/r.json"
    read -r e found <<<"$(perl "$CMP" error "$T/one.json" "$T/r.json" 0.001)"
    err[$rate]=$e
    note "$rate, bursts of 10: largest hot-path error $e, hot paths found $found"
    ok "$rate: hot-path error $e <= ${limit[$rate]}" perl -e "exit !($e <= ${limit[$rate]})"
    like "$("$PP_CLI" report "$T/r.prof")" "sampled +$rate, bursts of 10 checks" \
        "$rate: the report says the profile is sampled"
done
ok "the error falls as the rate rises: ${err[1/10]} (1/10) < ${err[1/10000]} (1/10000)" \
    perl -e "exit !(${err[1/10]} < ${err[1/10000]})"
for rate in 1/100 1/10; do
    like "$(perl "$CMP" error "$T/one.json" "$T/r-${rate#1/}.json" 0.001)" ' ([0-9]+)/\1$' \
        "$rate: every hot path found"
done

# Recursion, longjmp out of sampled frames (bursts abandoned mid-way),
# noreturn calls: sampled counts never exceed the exact ones.
for p in recursion setjmp_longjmp noreturn early_return; do
    src=$TAP_ROOT/tests/programs/$p.c
    pp_cc "$T/$p" "$src" -O2 "$S" || { fail "$p builds with sampling=yes"; continue; }
    PATHPROF_SAMPLE=1/1 pp_run "$T/$p-1.prof" "$T/$p"
    pp_json "$T/$p-1.prof" >"$T/$p-1.json"
    for rate in 1/2 1/5; do
        PATHPROF_SAMPLE=$rate PATHPROF_BURST=2 pp_run "$T/$p-s.prof" "$T/$p"
        ok "$p at $rate: the same output as at 1/1" diff "$T/$p-1.prof.stdout" "$T/$p-s.prof.stdout"
        pp_json "$T/$p-s.prof" >"$T/$p-s.json"
        ok "$p at $rate, bursts of 2: no path counted more often than it ran" \
            perl "$CMP" within "$T/$p-1.json" "$T/$p-s.json"
    done
done

# Stream mode: at 1/1 blpp gives the exact profile; sampled, the trace has
# a BURST begin for every burst the profile counts, and no anomaly.
pp_cc "$T/mixs" "$MIX" -O2 "$S" -fplugin-arg-pathprof-mode=stream ||
    BAIL_OUT "mix.c does not build with sampling=yes in stream mode"
"$T/plain" 20000 >"$T/plain20.out"
pp_run "$T/e20.prof" "$T/exact" 20000
pp_json "$T/e20.prof" >"$T/e20.json"
PATHPROF_SAMPLE=1/1 pp_run "$T/s1.prof" "$T/mixs" 20000
pp_json "$T/s1.prof" >"$T/s1.json"
ok "stream, 1/1: blpp's profile equals the unsampled count-mode build's, path for path" \
    perl "$CMP" same "$T/e20.json" "$T/s1.json"
PATHPROF_SAMPLE=1/100 PATHPROF_BURST=10 PATHPROF_ANALYZER=blpp,trace \
    PATHPROF_TRACE="$T/s.trace" pp_run "$T/s.prof" "$T/mixs" 20000
pp_json "$T/s.prof" >"$T/s.json"
ok "stream, 1/100: the same output as without pathprof" diff "$T/plain20.out" "$T/s.prof.stdout"
"$PP_CLI" dump "$T/s.trace" >"$T/s.dump"
bursts=$(perl -MJSON::PP -e 'local $/; print decode_json(<STDIN>)->{sampling}{bursts}' <"$T/s.json")
is "$(grep -c ' BURST begin' "$T/s.dump")" "$bursts" "stream, 1/100: one BURST begin in the trace per burst counted"
ok "stream, 1/100: no anomaly in the trace (orphans, mismatches, resyncs)" \
    perl -ne 'exit 1 if /\b(orphan|mismatch|resync)\b/i' "$T/s.dump"
ok "stream, 1/100: no path counted more often than it ran" \
    perl "$CMP" within "$T/e20.json" "$T/s.json"

# Bad values: a warning naming the variable, the default in force, the
# program's output unchanged.
for bad in PATHPROF_SAMPLE=1/0 PATHPROF_SAMPLE=10 PATHPROF_SAMPLE=1/x PATHPROF_BURST=0 \
           PATHPROF_BURST=-3; do
    env "$bad" PATHPROF_OUT="$T/bad.prof" "$T/mix" 2000 >"$T/bad.out" 2>"$T/bad.err"
    like "$(cat "$T/bad.err")" "${bad%%=*}=${bad#*=} is not valid" "$bad: refused, naming it"
done
if "$PP_GCC" -fplugin="$PP_PLUGIN" -fplugin-arg-pathprof-sampling=maybe -c "$MIX" \
        -o "$T/x.o" 2>"$T/arg.err"; then
    fail "sampling=maybe: refused"
else
    like "$(cat "$T/arg.err")" "bad value .maybe. for plugin argument .sampling." \
        "sampling=maybe: refused, naming the argument"
fi
if "$PP_GCC" -fplugin="$PP_PLUGIN" -fplugin-arg-pathprof-sampling=yes -fplugin-arg-pathprof-verify \
        -c "$MIX" -o "$T/x.o" 2>"$T/arg.err"; then
    fail "sampling=yes with verify: refused"
else
    like "$(cat "$T/arg.err")" ".verify. and .sampling=yes. cannot be combined" \
        "sampling=yes with verify: refused, naming both"
fi
done_testing
