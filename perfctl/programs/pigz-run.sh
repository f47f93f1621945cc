# shellcheck shell=sh
# pigz-run.sh PIGZ IN ZIN (perfctl/programs/pigz.sh): the pigz workload,
# one pigz process per step, run by the system's (uninstrumented) sh.
# IN is compressed with 4 threads, 1 thread and 4 independent-block
# threads, ZIN (small) with zopfli (-11); each result is decompressed with
# pigz -d and compared with its input. Prints every compressed stream's
# bytes, then one line per step (pigz's exit status, the decompressed
# output against the input): native's bytes are the reference, and pigz's
# output does not depend on its threads' scheduling.
# A pigz exit status other than 0 ends the script with it.
#
# The profile: PATHPROF_ACCUMULATE=1, the sum over the 8 processes, unless
# the run's analyzers include trace or ksf-pruned, or ksf with
# PATHPROF_KSF_WORKERS (they cannot add to a profile, docs/runtime.md):
# then the profile and trace are those of the zopfli compression alone
# (`pigz -p 4 -11`: zopfli is where pigz's own code runs most, a reader,
# a writer and compression threads around it; the other steps' pigz code
# only drives zlib, hundreds of paths), the other processes' go to
# /dev/null (pigz reads no variable of the runtime's, so that changes
# none of its paths).
set -u
pigz=$1 in=$2 zin=$3
main=1
case ",${PATHPROF_ANALYZER-}," in
    *,trace,*|*,ksf-pruned,*) main=0 ;;
    *,ksf,*) [ "${PATHPROF_KSF_WORKERS:-0}" = 0 ] || main=0 ;;
esac
if [ $main = 1 ]; then PATHPROF_ACCUMULATE=1; export PATHPROF_ACCUMULATE; fi
rm -f "${PATHPROF_OUT:-pathprof.out}"
# run MAIN COMMAND...: with MAIN 0 the profile and trace are not kept
run() {
    if [ $main = 1 ] || [ "$1" = 1 ]; then shift; "$@"
    else shift; PATHPROF_OUT=/dev/null PATHPROF_TRACE=/dev/null "$@"; fi
}
step() {    # NAME INPUT OPTION...: compress INPUT into NAME.gz, decompress it
    n=$1 i=$2 m=0
    shift 2
    [ "$n" = zopfli ] && m=1
    # -n: no name and no time in the header (stdin has neither, but the
    # header must not depend on the clock if pigz ever looked)
    run $m "$pigz" -n -c "$@" <"$i" >"$n.gz" || { s=$?; echo "$n: pigz $* exit status $s"; exit $s; }
    run 0 "$pigz" -d -c <"$n.gz" >"$n.out" || { s=$?; echo "$n: pigz -d exit status $s"; exit $s; }
    if cmp -s "$n.out" "$i"; then r="= input"; else r="DIFFERS from the input"; fi
    echo "$n: pigz $* $(wc -c <"$n.gz") bytes; pigz -d $r" >>steps.txt
    rm -f "$n.out"
}
: >steps.txt
step p4 "$in" -p 4
step p1 "$in" -p 1
step ind "$in" -p 4 --independent
# zopfli (-11) on a small input, 4 threads, one zopfli job per 32K block;
# -J 2: at most 2 split blocks per job (with zopfli's default, 15, its
# block splitting made 378 M paths of the small workload's 8K, and the
# trace 3 GB; 10.8 M with -J 2)
step zopfli "$zin" -p 4 -11 -I 5 -b 32 -J 2
cat p4.gz p1.gz ind.gz zopfli.gz
if cmp -s p4.gz p1.gz; then echo "-p 4 = -p 1" >>steps.txt; else echo "-p 4 != -p 1" >>steps.txt; fi
cat steps.txt
rm -f p4.gz p1.gz ind.gz zopfli.gz steps.txt
