# work.make - perfctl's GNU make workload (perfctl/programs/make.sh): a
# POSIX shell script, run by the system's (uninstrumented) sh as
#   sh work.make MAKE TEMPLATE [serial]
# where TEMPLATE is perfctl/programs/gen-make.pl's tree (made once per size
# by prog_input). Every step works on a fresh copy of it (cp -a keeps the
# generator's fixed mtimes) in ./tree, runs the instrumented MAKE there and
# prints make's standard output and error (make's messages are part of
# what is checked) and its exit status. What each step exercises in make:
#  1. a full build: reading the makefiles (read.c, variables, $(eval),
#     $(foreach), $(call), $(shell), conditionals), remaking the included
#     gen/vars.mk and gen/deps.mk and exec'ing itself again, the DAG
#     (remake.c), implicit rule search (implicit.c: pattern rules tried
#     and rejected, a chain through an intermediate file), secondary
#     expansion, vpath, a touch per target (job.c: posix_spawn, reaping)
#  2. the same: nothing to do (every file stat'ed, every date compared)
#  3. one source made newer (touch -d, a fixed date): -n prints what a
#     build would run, -q answers 1
#  4. the rebuild of that source's chain (STAMP on the command line)
#  5. the check target: every function of function.c the makefile uses
#  6. -k: a failing recipe and a missing prerequisite, the rest made
#  7. -j2 --output-sync=target: 40 independent targets and a chain (the
#     jobserver's pipe, pselect, the SIGCHLD handler, several children at
#     once); the output sorted, since the order of targets follows the
#     scheduler
#  8. -j2: two recursive $(MAKE)s at once (sub1, sub2), which share the
#     jobserver: three instrumented makes run together and each adds its
#     profile to the same file at exit
#  9. last, the broadest serial run again: a fresh full build with check
#     and log, -k broken. Runs that keep only the last process's profile
#     (make.sh's header) see it.
# With "serial" the -j2 steps (7, 8) are left out: every make of the run
# is then serial and its paths follow the tree only, so two profiles can
# be compared path for path in the functions -j2 makes follow the
# scheduler too (make.sh's PROG_SCHED_FUNCS; docs/perfctl.md, "make").
set -u
m=$1 t=$2 steps=${3:-all}
st() { echo "status=$1"; }
fresh() { rm -rf tree && cp -a "$t" tree; }
# resort DIR...: each DIR made again with its entries moved into it in
# sorted order (mv keeps their mtimes). make reads a directory's entries
# in readdir order, into its hash tables (dir.c), and on a file system
# whose readdir follows creation order (tmpfs) the order the -j2 jobs
# created their files in would show in the next make's paths; ext4
# returns a hash order of the names, the same either way.
resort() {
    for d in "$@"; do
        # shellcheck disable=SC2012 # the generator's names: letters, digits, _ and .
        mkdir "$d.new" && ls -A "$d" | LC_ALL=C sort | while read -r f; do mv "$d/$f" "$d.new/$f"; done &&
            rmdir "$d" && mv "$d.new" "$d"
    done
}

echo "== 1 full build"
fresh
(cd tree && "$m" all 2>&1); st $?
echo "== 2 nothing to do"
(cd tree && "$m" all 2>&1); st $?
echo "== 3 -n and -q after a touch"
touch -d @1600000500 tree/src/m1_003.c
(cd tree && "$m" -n all 2>&1); st $?
(cd tree && "$m" -q all 2>&1); st $?
echo "== 4 rebuild"
(cd tree && "$m" STAMP=1600000600 all 2>&1); st $?
(cd tree && "$m" -q all 2>&1); st $?
echo "== 5 check"
(cd tree && "$m" -s check log 2>&1); st $?
(cd tree && OPT=0 "$m" -s -e check 2>&1 | grep -e '^origin' -e '^tag'); st $?
echo "== 6 -k"
(cd tree && "$m" -k broken 2>&1); st $?
(cd tree && "$m" broken 2>&1); st $?
if [ "$steps" != serial ]; then
echo "== 7 -j2"
(cd tree && { "$m" -j2 --output-sync=target parallel 2>&1; st $?; } | sort)
resort tree/par
(cd tree && "$m" -j2 parallel 2>&1); st $?
(cd tree && { "$m" -j2 -B --output-sync=target parallel 2>&1; st $?; } | sort)
echo "== 8 recursive make, -j2"
(cd tree && { "$m" -j2 subs 2>&1; st $?; } | sort)
resort tree/sub1/obj tree/sub1 tree/sub2/obj tree/sub2
(cd tree && { "$m" -j2 subs 2>&1; st $?; } | sort)
fi
echo "== 9 full build, check, log, -k broken"
fresh
(cd tree && "$m" -k all check log broken 2>&1); st $?
rm -rf tree
