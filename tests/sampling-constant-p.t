#!/usr/bin/env bash
# __builtin_constant_p and the dual code (plugin/constant-p.cc): GNU sed
# at -O3 -flto with sampling=yes counted path 19 of ck_fwrite.part.0 (the
# call in glibc's fwrite_unlocked) where the counting build counted the
# putc loop (docs/perfctl.md, finding 5): GCC answered the test after
# inlining, and the two builds inline differently. Now the plugin answers
# 0 before numbering, in every mode. Oracle: the plain build's output
# and the counting build's profile (PATHPROF_SAMPLE=1/1 = count, path
# for path), at -O2, -O3 and -O3 -flto.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
SRC=$TAP_ROOT/tests/sampling/constant-p.c
N=3000

pp_cc_plain "$T/plain" "$SRC" -O2 || fail "plain build"
"$T/plain" $N >"$T/plain.out"
for opts in "-O2" "-O3" "-O3 -flto"; do
    tag=${opts// /}
    # shellcheck disable=SC2086
    if ! pp_cc "$T/s$tag" "$SRC" $opts -fplugin-arg-pathprof-sampling=yes -fplugin-arg-pathprof-verbose; then
        fail "$opts: sampled build"; continue
    fi
    # shellcheck disable=SC2086
    pp_cc "$T/c$tag" "$SRC" $opts || { fail "$opts: count build"; continue; }
    PATHPROF_SAMPLE=1/1 pp_run "$T/s$tag.pp" "$T/s$tag" $N
    pp_run "$T/c$tag.pp" "$T/c$tag" $N
    is "$(cat "$T/s$tag.pp.stdout")" "$(cat "$T/plain.out")" "$opts: sampled output = plain"
    is "$(cat "$T/c$tag.pp.stdout")" "$(cat "$T/plain.out")" "$opts: count output = plain"
    cp=$(pp_path_counts "$T/c$tag.pp")
    like "$cp" "ck_fwrite" "$opts: the count profile has ck_fwrite's paths"
    is "$(pp_path_counts "$T/s$tag.pp")" "$cp" "$opts: PATHPROF_SAMPLE=1/1 = count, path for path"
done
like "$(cat "$T/s-O3.log")" "'?ck_fwrite[.a-z0-9]*'?: [0-9]+ '?__builtin_constant_p'? answered 0 before numbering" \
    "verbose names the answered tests"
done_testing
