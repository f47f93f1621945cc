#!/usr/bin/env bash
# ksf-pruned end to end: tests/prune/shapes.c (one loop whose body takes
# one of 4096 BL paths) streams adversarial shapes - one path forever,
# round-robin over more distinct paths than the budget holds, Zipf 0.8 and
# 1.5, dense routine entries, phases - and runs with
# PATHPROF_ANALYZER=ksf,ksf-pruned, so the exact KIPF and the pruned
# KPRUNE section come from one stream.  tests/prune/check.pl compares
# them: N_n exact, every listed bound holds the exact count, every exact
# sequence above its length's floor is listed, floor <= N_n / m, the peak
# memory within the budget.  A budget larger than needed (and no budget)
# gives exactly the exact forest.  Then the report (bounds, the PRUNED
# header, JSON lo/hi) and damaged sections (clear errors).
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
# The programs below must run quiet (their stderr is checked): tap.sh has
# read PATHPROF_BUILD already, and the runtime would warn about it.
unset PATHPROF_BUILD
CHECK=$TAP_ROOT/tests/prune/check.pl
STREAM=-fplugin-arg-pathprof-mode=stream
PP_CLI=${PP_CLI:-$PP_BUILD/bin/pathprof}

pp_cc "$T/shapes" "$TAP_ROOT/tests/prune/shapes.c" $STREAM -O2 ||
    BAIL_OUT "tests/prune/shapes.c did not build"

# run NAME K BUDGET ARGS...: one run of shapes with both analyzers
run() {
    local name=$1 k=$2 budget=$3; shift 3
    R=$T/$name
    PATHPROF_ANALYZER=ksf,ksf-pruned PATHPROF_K=$k PATHPROF_PRUNE=$budget PATHPROF_OUT=$R.out \
        PATHPROF_QUIET=1 "$T/shapes" "$@" >"$R.stdout" 2>"$R.stderr"
    [ -s "$R.out" ] || { fail "$name: profile written" "$(head -n 5 "$R.stderr")"; return 1; }
    # PATHPROF_QUIET: any line is a warning (an overrun of the budget, lost events)
    [ -s "$R.stderr" ] && { fail "$name: the runtime is quiet" "$(head -n 5 "$R.stderr")"; return 1; }
    return 0
}

# check MODE NAME K BUDGET ARGS...
check() {
    local mode=$1 name=$2 out rc; shift 2
    run "$name" "$@" || return
    out=$(perl "$CHECK" "$mode" "$R.out" 1e-3 2>&1); rc=$?
    if [ $rc = 0 ]; then pass "$name: $out"; else fail "$name: pruned vs exact ($mode)" "$out"; fi
}

check bounds single-k2 2 64K single 30000
check bounds single-k64 64 64K single 30000
check bounds robin-k2 2 64K robin 3000 30000
check bounds robin-k8 8 64K robin 3000 30000
check bounds robin-k64 64 256K robin 1500 20000
check bounds zipf08-k2 2 64K zipf 0.8 60000
check bounds zipf08-k8 8 64K zipf 0.8 60000
check bounds zipf15-k8 8 64K zipf 1.5 60000
check bounds zipf15-k16 16 128K zipf 1.5 40000
check bounds calls-k8 8 64K calls 20000
check bounds calls-k64 64 256K calls 5000
check bounds mixed-k8 8 64K mixed 40000
check identical big-zipf-k8 8 1G zipf 0.8 20000
check identical big-calls-k8 8 1G calls 5000
check identical off-mixed-k4 4 off mixed 20000
# The k-SF build of the epochs (PATHPROF_KSF_BUILD=slabs; the default is
# the k-IPF through suffix links), and k = 64 on 64 KiB, which falls back
# to it by itself (analyzers/ksf-pruned/core.h, kp_core_links).
PATHPROF_KSF_BUILD=slabs check bounds zipf08-k8-slabs 8 64K zipf 0.8 60000
PATHPROF_KSF_BUILD=slabs check bounds calls-k8-slabs 8 64K calls 20000
PATHPROF_KSF_BUILD=slabs check identical big-zipf-k8-slabs 8 1G zipf 0.8 20000

# Several analyzer threads: their summaries are merged (floors added).
if pp_cc "$T/threads" "$TAP_ROOT/tests/programs/threads.c" $STREAM -O2 -pthread; then
    R=$T/threads
    PATHPROF_ANALYZERS=2 PATHPROF_ANALYZER=ksf,ksf-pruned PATHPROF_K=4 PATHPROF_PRUNE=64K \
        PATHPROF_OUT=$R.out PATHPROF_QUIET=1 "$T/threads" >"$R.stdout" 2>"$R.stderr"
    if out=$(perl "$CHECK" bounds "$R.out" 2>&1); then pass "threads, 2 analyzers: $out"
    else fail "threads, 2 analyzers: pruned vs exact" "$out"; fi
else
    skip "threads.c did not build" 1
fi

# fork with epochs flushed before and after: parent and child each write a
# profile (%p) whose pruned section holds against its exact one.
# TSan cannot start threads in the child of a multithreaded fork, and the
# runtime restarts its analyzer there (docs/install.md, "Sanitizer suites").
if [ "${PP_SANITIZE:-}" = thread ]; then
    skip "fork under TSan: no threads in a multithreaded fork's child" 3
else
    rm -rf "$T/fork"; mkdir -p "$T/fork"
    PATHPROF_ANALYZER=ksf,ksf-pruned PATHPROF_K=8 PATHPROF_PRUNE=64K \
        PATHPROF_OUT="$T/fork/p.%p.out" PATHPROF_QUIET=1 "$T/shapes" fork 60000 \
        >"$T/fork/stdout" 2>"$T/fork/stderr"
    is "$(find "$T/fork" -name 'p.*.out' | wc -l) $(wc -l <"$T/fork/stdout")" "2 2" \
        "fork: parent and child each finish and write a profile"
    for f in "$T"/fork/p.*.out; do
        [ -e "$f" ] || continue
        if out=$(perl "$CHECK" bounds "$f" 1e-3 2>&1); then pass "fork, $(basename "$f"): $out"
        else fail "fork, $(basename "$f"): pruned vs exact" "$out"; fi
    done
fi

# PATHPROF_PRUNE without ksf-pruned: nothing is pruned, and the runtime says so.
R=$T/noprune
PATHPROF_ANALYZER=ksf PATHPROF_PRUNE=64K PATHPROF_OUT=$R.out PATHPROF_QUIET=1 \
    "$T/shapes" single 100 >"$R.stdout" 2>"$R.stderr"
if grep -q 'PATHPROF_PRUNE is read by the ksf-pruned analyzer only' "$R.stderr"; then
    pass "PATHPROF_PRUNE without ksf-pruned: a warning"
else
    fail "PATHPROF_PRUNE without ksf-pruned: a warning" "$(cat "$R.stderr")"
fi

# The checker can fail: a pruned section against another run's exact one
# (round-robin's counts are spread thinly: its pruned counts miss).
if perl "$CHECK" identical "$T/robin-k8.out" >/dev/null 2>&1; then
    fail "check.pl identical rejects an evicting summary"
else
    pass "check.pl identical rejects an evicting summary"
fi

# The report.
Z=$T/zipf15-k8.out
# Both sections: --k shows the exact one, --pruned the bounds.
if "$PP_CLI" report --k --top 3 "$Z" 2>&1 | grep -q '^k-SF '; then
    pass "report --k with KIPF and KPRUNE shows the exact forest"
else
    fail "report --k with KIPF and KPRUNE shows the exact forest"
fi
text=$("$PP_CLI" report --pruned --top 3 "$Z" 2>&1)
if grep -q '^PRUNED     counts are bounds, not exact: ksf-pruned held at most 64.0 KiB per analyzer thread (PATHPROF_PRUNE=65536), m = [0-9]* counters per length' <<<"$text"
then pass "report --pruned: a PRUNED header with the budget and m"
else fail "report --pruned: a PRUNED header" "$(head -n 15 <<<"$text")"; fi
if grep -qE '^    count [0-9]+ \(\+/- [0-9]+\), between [0-9]+ and [0-9]+ ' <<<"$text"; then
    pass "report --pruned: counts with their bounds"
else
    fail "report --pruned: counts with their bounds" "$(head -n 30 <<<"$text")"
fi
json=$("$PP_CLI" report --pruned --json --phi 1e-3 "$Z" 2>&1)
if grep -q '"kprune":{"k":8,"pruned":true,"budget":65536' <<<"$json" &&
   grep -qE '"count":[0-9]+,"lo":[0-9]+,"hi":[0-9]+' <<<"$json"; then
    pass "report --pruned --json: budget, lo and hi"
else
    fail "report --pruned --json: budget, lo and hi" "$(head -n 10 <<<"$json")"
fi
# Only a KPRUNE section: --k shows it.
R=$T/only
PATHPROF_ANALYZER=ksf-pruned PATHPROF_K=4 PATHPROF_PRUNE=64K PATHPROF_OUT=$R.out PATHPROF_QUIET=1 \
    "$T/shapes" zipf 1.5 20000 >/dev/null 2>&1
if "$PP_CLI" report --k "$R.out" 2>&1 | grep -q '^PRUNED '; then
    pass "report --k on a profile with only KPRUNE shows the pruned paths"
else
    fail "report --k on a profile with only KPRUNE shows the pruned paths"
fi
if "$PP_CLI" report --k --phi 2 "$R.out" >/dev/null 2>&1; then
    fail "report --phi 2 is refused"
else
    pass "report --phi 2 is refused"
fi

# Damaged sections: report --k needs the KPRUNE section, so one clear
# error line naming it, exit status 2 (docs/cli.md, "Damaged profiles").
PATCH=$TAP_ROOT/tests/cli/patch.pl
B=$(perl "$CHECK" offset "$R.out")
damaged() {
    local name=$1 re=$2 err rc; shift 2
    perl "$PATCH" "$R.out" "$T/bad.out" "$@" --reseal || BAIL_OUT "patch.pl failed"
    err=$("$PP_CLI" report --k "$T/bad.out" 2>&1 >/dev/null); rc=$?
    if [ $rc = 2 ] && [ "$(grep -c '' <<<"$err")" = 1 ] &&
       grep -qE "^pathprof: $T/bad.out: .* are unreadable \(.*\): section [0-9]+ \(KPRUNE, at byte [0-9]+\): $re" <<<"$err"; then
        pass "damaged KPRUNE: $name"
    else
        fail "damaged KPRUNE: $name" "exit $rc: $err"
    fi
}
damaged "k = 65" 'k = 65 \(1 to 64\)$' set:$B:4:65
damaged "unknown flags" 'unknown flags 0x1$' set:$((B + 4)):4:1
damaged "no analyzer thread" '0 analyzer threads$' set:$((B + 48)):8:0
damaged "floor above the total" 'sequences of 1 BL paths: floor [0-9]+ above the [0-9]+ occurrences$' \
    set:$((B + 72)):8:281474976710655
damaged "sequences that cannot fit" 'sequences of 1 BL paths: 1099511627776 sequences do not fit' \
    set:$((B + 80)):8:1099511627776
damaged "no such TU" 'sequences of 1 BL paths: sequence 0: TU 7, the profile has [0-9]+ TU sections$' \
    set:$((B + 88)):4:7
damaged "error above the count" 'sequences of 1 BL paths: sequence 0: count [0-9]+ with error 99999999999' \
    set:$((B + 104)):8:99999999999
done_testing
