#!/usr/bin/env bash
# stream-signal-overwrite.t - an instrumented asynchronous signal handler
# that comes inside probes (tests/stream/overwrite_prog.c: a call-free
# loop holds the cursor in a register, SIGALRM every 3 ms, a handler of
# one path).  The interrupted code stores its event over the handler's:
# those events are lost, and the profile used to say exact all the same.
# The handler now runs under libpathprof's trampoline (signal-wrap.c),
# which notes where its first event went; the chunk's publication checks
# it.  Whatever the timing, nothing is lost unsaid: the handler's counted
# paths plus the `late` words cover every run of it, and a profile that
# says exact has every count by construction.  Also: the program sees its
# own handler through sigaction and signal, and counting mode is not
# disturbed.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/stream/lib.sh"
pp_require_build
P=$STREAM_DIR/overwrite_prog.c
pp_cc_plain "$T/plain" "$P" -O2 && pp_cc "$T/count" "$P" -O2 && pp_cc "$T/stream" "$P" -O2 $STREAM ||
    BAIL_OUT "overwrite_prog does not build"
d=$T/run
mkdir -p "$d"
N=600000
srun "$d" plain -- "$T/plain" $N
srun "$d" count -- "$T/count" $N
totals() {  # JSON: "on_alarm main" path totals
    perl -MJSON::PP -e 'local $/; my $j = JSON::PP->new->allow_bignum->decode(<STDIN>); my %t;
        for my $f (@{ $j->{functions} }) { $t{ $f->{name} } += $_->{count} for @{ $f->{paths} } }
        print $t{on_alarm} // 0, " ", $t{main} // 0' <"$1"
}
read -r _ main_ref <<<"$(totals "$d/count.json")"
ok "count: same stdout as the plain build" cmp "$d/plain.out" "$d/count.out"
runs=0 lost_said=0
for i in 1 2 3 4 5 6; do
    for cfg in "1M-event chunks:PATHPROF_CHUNK=1048576" "default chunks:"; do
        label="${cfg%%:*}, run $i" name=s$i-${cfg%%-*}
        # shellcheck disable=SC2086
        srun "$d" "$name" ${cfg#*:} -- "$T/stream" $N
        handled=$(sed -n 's/^handled //p' "$d/$name.err")
        if [ "$(cat "$d/$name.st")" != 0 ] || [ -z "$handled" ] || [ ! -s "$d/$name.json" ]; then
            fail "$label: runs and writes a profile" "$(head -n 5 "$d/$name.err")"
            continue
        fi
        runs=$((runs + 1))
        read -r alarm main <<<"$(totals "$d/$name.json")"
        read -r exact late <<<"$(sfacts "$d/$name.json" exact late)"
        [ "$alarm" -lt "$handled" ] && lost_said=$((lost_said + 1))
        if [ "$exact" = true ]; then
            is "$alarm $main" "$handled $main_ref" "$label: said exact, so on_alarm counted every run ($handled) and main as in counting mode"
        else
            ok "$label: not exact, and the handler's counted runs ($alarm) plus late ($late) cover its $handled runs" \
                test $((alarm + late)) -ge "$handled"
        fi
        ok "$label: same stdout as the plain build" cmp "$d/plain.out" "$d/$name.out"
    done
done
note "$lost_said of $runs runs lost handler events"
ok "SIGALRM came: the handler ran in every run" test "$runs" -gt 0

# Each window of a probe made on purpose (tests/stream/overwrite_window.c):
# "store", after the probe's store of its event and before that of the
# cursor (the handler's first event went over the interrupted code's, and
# the profile said exact: about one run in forty of the loop above; the
# handler's events now start after it), "jump", the same with a handler
# that leaves by siglongjmp (nothing lost), "load", after the probe's load
# of the cursor and before its stores, and no window ("none").
W=$STREAM_DIR/overwrite_window.c
pp_cc "$T/wcount" "$W" -O2 && pp_cc "$T/wstream" "$W" -O2 $STREAM || BAIL_OUT "overwrite_window does not build"
srun "$d" wcount -- "$T/wcount" none
read -r wusr_ref wmain_ref <<<"$(perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>); my %t;
    for my $f (@{ $j->{functions} }) { $t{ $f->{name} } += $_->{count} for @{ $f->{paths} } }
    print $t{on_usr1} // 0, " ", $t{work} // 0' <"$d/wcount.json")"
is "$wusr_ref $wmain_ref" "1 3" "overwrite_window, counting mode: on_usr1 ran once, work three times"
for w in none store jump load; do
    srun "$d" "w-$w" -- "$T/wstream" $w
    read -r exact late <<<"$(sfacts "$d/w-$w.json" exact late)"
    counts=$(perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>); my %t;
        for my $f (@{ $j->{functions} }) { $t{ $f->{name} } += $_->{count} for @{ $f->{paths} } }
        print(($t{on_usr1} // 0) + ($t{on_usr2} // 0), " ", $t{work} // 0)' <"$d/w-$w.json")
    case $w in
    none) is "$exact $late $counts" "true 0 1 3" "window $w: nothing lost, exact" ;;
    store) is "$exact $late $counts" "false 1 0 3" "window $w: work's event kept, the handler's under the next one is one late word, not exact" ;;
    jump) is "$exact $late $counts" "true 0 1 3" "window $w: the handler left by siglongjmp, nothing lost, exact" ;;
    load) is "$exact $late $counts" "false 1 0 3" "window $w: the handler's event under work's is one late word, not exact" ;;
    esac
    is "$(cat "$d/w-$w.out")" "$w 38 1" "window $w: the program computed what it computes uninstrumented"
done

# The program sees its own handler as the old one, through both calls.
cat >"$T/old.c" <<'C'
#include <signal.h>
#include <stdio.h>
#include <string.h>
static void h1(int s) { (void)s; }
static void h2(int s, siginfo_t *i, void *u) { (void)s; (void)i; (void)u; }
int main(void)
{
    struct sigaction a, o;
    memset(&a, 0, sizeof a);
    a.sa_handler = h1;
    sigaction(SIGUSR1, &a, NULL);
    sigaction(SIGUSR1, NULL, &o);
    int ok1 = o.sa_handler == h1 && !(o.sa_flags & SA_SIGINFO);
    a.sa_sigaction = h2;
    a.sa_flags = SA_SIGINFO;
    sigaction(SIGUSR1, &a, &o);
    int ok2 = o.sa_handler == h1;
    int ok3 = signal(SIGUSR1, SIG_DFL) == (void (*)(int))(void *)h2;
    int ok4 = signal(SIGUSR1, h1) == SIG_DFL && signal(SIGUSR1, SIG_IGN) == h1;
    raise(SIGUSR1);
    printf("%d %d %d %d\n", ok1, ok2, ok3, ok4);
    return 0;
}
C
pp_cc "$T/old" "$T/old.c" -O2 $STREAM || BAIL_OUT "old.c does not build"
is "$(PATHPROF_QUIET=1 PATHPROF_OUT=$T/old.pp "$T/old")" "1 1 1 1" "sigaction and signal give back the program's own handlers"
done_testing
