#!/usr/bin/env bash
# `make fuzz`: builds the driver (fuzz/build.sh) and the seeds
# (fuzz/seeds.sh), runs afl-fuzz on them for SECONDS with a fixed RNG seed,
# then turns every crash or hang into a sealed file that reproduces it with
# the plain CLI. Exit 0 when nothing was found, 1 when something was, 2
# when the fuzzer could not run. See docs/fuzzing.md.
# Usage: fuzz/run.sh BUILD OUTDIR SECONDS [RNG-SEED]
set -eu
build=${1:?usage: fuzz/run.sh BUILD OUTDIR SECONDS [RNG-SEED]}
out=${2:?} seconds=${3:?} rng=${4:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
command -v afl-fuzz >/dev/null || { echo "fuzz/run.sh: afl-fuzz not found (apt-get install afl++)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)

"$root/fuzz/build.sh" "$out" || exit 2
rm -rf "$out/seeds" "$out/afl" "$out/findings"
"$root/fuzz/seeds.sh" "$build" "$out/seeds" || exit 2

# The machine is shared (no CPU binding, no frequency check); a core
# pattern piping to a crash reporter only delays crash detection. ASan and
# UBSan abort on the first finding, and a length field must never turn into
# a huge allocation (the readers check lengths against the bytes left), so
# anything over 256 MB is a finding too. Leaks are findings (LSan).
export AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_NO_UI=1 AFL_QUIET=1
export AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
export ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks=1:max_allocation_size_mb=256:allocator_may_return_null=0
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:symbolize=0
# -t: every reader is linear in its input and takes milliseconds on a seed;
# 10 s is a hang even at nice 19 on a busy machine, where a niced process
# gets a hundredth of a core. Source files named by a profile are read
# relative to the current directory: an empty one.
mkdir -p "$out/cwd"
cd "$out/cwd"
echo "fuzz/run.sh: afl-fuzz for ${seconds}s, RNG seed $rng, $(ls "$out/seeds" | wc -l) seeds, output $out/afl" >&2
afl-fuzz -i "$out/seeds" -o "$out/afl" -V "$seconds" -s "$rng" -t 10000 -m none \
    -x "$root/fuzz/pathprof.dict" -- "$out/driver" @@ >"$out/afl.log" 2>&1 ||
    { echo "fuzz/run.sh: afl-fuzz failed:" >&2; tail -n 20 "$out/afl.log" >&2; exit 2; }

stats=$out/afl/default/fuzzer_stats
[ -f "$stats" ] || { echo "fuzz/run.sh: afl-fuzz wrote no statistics" >&2; exit 2; }
execs=$(sed -n 's/^execs_done *: //p' "$stats")
paths=$(sed -n 's/^corpus_count *: //p' "$stats")
found=0 stalls=0
mkdir -p "$out/findings"
for kind in crashes hangs; do
    for f in "$out/afl/default/$kind"/id:*; do
        [ -e "$f" ] || continue
        # A niced fuzzer on a busy machine can be starved for longer than
        # -t: such a "hang" runs in milliseconds when tried again alone
        # (the first one-hour run saw two, consecutive, in one stall).
        if [ "$kind" = hangs ]; then
            rc=0
            (cd "$out/cwd" && exec timeout -k 5 60 "$out/driver" "$f") >/dev/null 2>&1 || rc=$?
            if [ "$rc" -le 2 ]; then
                stalls=$((stalls + 1))
                echo "fuzz/run.sh: $(basename "$f") timed out under afl-fuzz but ends (exit $rc) when tried again: the machine stalled, not a finding" >&2
                continue
            fi
        fi
        found=$((found + 1))
        "$out/driver" --seal "$f" "$out/findings/$kind-$found"
    done
done
echo "fuzz/run.sh: ${seconds}s, $execs executions, $paths inputs in the corpus, $found crashes or hangs ($stalls timeouts of a stalled machine)" >&2
if [ "$found" -gt 0 ]; then
    echo "fuzz/run.sh: each sealed input is in $out/findings; reproduce with" >&2
    echo "  $out/driver FILE            (every command, under ASan/UBSan)" >&2
    echo "  $build/bin/pathprof report FILE   (or dump, show, ...: the plain CLI)" >&2
    exit 1
fi
