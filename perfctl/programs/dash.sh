# shellcheck shell=bash disable=SC2034
# dash 0.5.12 (Debian source package, the Debian Almquist shell): a
# tree-walking interpreter of a parsed shell script (evaltree), its own
# pattern matcher and pathname expansion (configured as Debian does:
# --disable-fnmatch --disable-glob --disable-lineno), errors raised as
# longjmps to setjmp handlers (exraise; a subshell's error ends that
# subshell only), traps run at safe points after a signal, fork for every
# subshell, command substitution and pipeline element, vfork + exec for
# every external command. The workload: perfctl/programs/work.dash
# (arithmetic loops, parameter expansions, case and glob matching,
# recursive functions with locals, read from here-documents, errors caught
# in subshells, USR1/USR2/INT traps on signals it sends itself, command
# substitutions and pipelines between builtins, a few external commands and
# nested runs of the instrumented dash itself); its standard output is
# checked. configure and the generated files (builtins.c, init.c, nodes.c,
# signames.c, syntax.c, made by dash's host tools) are made once,
# natively; every dash file, the generated ones included, takes the
# build's flags.
#
# Two things the recipe changes, for every build alike (native included):
#  - dash ends every process, the main shell too, with _exit(2) in
#    exitshell (trap.c), so no profile would ever be written (a profile is
#    written at exit(3), docs/runtime.md "What is not counted"). The recipe
#    compiles a copy of trap.c whose exitshell calls exit(3) instead (dash
#    writes through its own buffers, flushed just before, and registers no
#    atexit handler: nothing else changes). The vfork child's _exit
#    (error.c, an exec that failed) stays: a vfork child must not write.
#  - every forked child (subshell, $(...), pipeline element) then writes a
#    profile at its exit. PATHPROF_ACCUMULATE=1 makes the profile the sum
#    of every process of the run (a child counts from 0 from the fork
#    on, docs/runtime.md "Many processes"). The trace analyzer,
#    ksf-pruned and ksf with workers refuse to start from 0 in a child (a
#    warning, so a failed run): runs whose PATHPROF_ANALYZER names trace or ksf-pruned (the
#    robustness modes ksf-8, ksf-pruned and trace+wpp, and the count and
#    -fprofile-use small runs they are compared with, which get the same
#    variable) run without it, and their profile and trace are the main
#    shell's alone: it waits for every child, so its profile and trace
#    are written last, over those of the children. prog_cmd's wrapper (the
#    system's uninstrumented sh) makes that choice.
PROG_KIND=interpreter
# robustness's verify mode (perfctl/lib/edgeflow.pl): every forked child
# leaves evaltree, shellexec and their callers by exit or exec, never by
# a return (abandoned partial paths), and the paths through fork in
# evalbackcmd, evalpipe and evalsubshell end in both processes (forked
# ones): both grow with the workload, so neither has a fixed bound here;
# every other edge must still agree.
PROG_ABANDON_MAX=any PROG_FORK_MAX=any
# Waiting for children (jobs.c): whether a child has ended when the shell
# asks (waitpid with WNOHANG, the SIGCHLD that interrupts sigsuspend)
# follows the scheduler, so the paths of these three differ between two
# runs of one build (crosscheck at --scale 0.05: waitone 599 in one run,
# 598 in the other, a dozen paths split differently); compared only as
# having run in both (pathcmp.pl and kipfcmp.pl --sched).
PROG_SCHED_FUNCS=waitone,dowait,waitproc
PROG_DESC="dash work.dash (fork, vfork+exec, longjmp error recovery, traps; profile summed over every process)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" dash mksignames.c)
    SRC=$(dirname "$SRC")
    PROG_VERSION=$(basename "$SRC")
    DASH_CFG=$PERFCTL_SRC_DIR/dash-configured
    [ -f "$DASH_CFG/done" ] && return 0
    rm -rf "$DASH_CFG"
    mkdir -p "$DASH_CFG/patched"
    # The autotools are made no-ops (Debian's patches may leave their
    # inputs newer than their outputs). make's status is not checked:
    # Debian's privmode patch adds priv.c to Makefile.am, not to the
    # Makefile.in shipped, so the native link fails; the generated files
    # are all that is wanted, and are checked.
    (cd "$DASH_CFG" && "$SRC/configure" --quiet CC=gcc --disable-fnmatch --disable-lineno --disable-glob &&
        { make -s -j2 ACLOCAL=true AUTOMAKE=true AUTOCONF=true AUTOHEADER=true MAKEINFO=true \
            CFLAGS="-O2 -w" || true; }) >"$DASH_CFG/log" 2>&1
    local f
    for f in config.h src/builtins.c src/init.c src/nodes.c src/signames.c src/syntax.c src/token.h; do
        [ -f "$DASH_CFG/$f" ] || { echo "perfctl: dash: configuring failed (no $f), see $DASH_CFG/log" >&2; return 1; }
    done
    # exitshell's _exit becomes exit (see the header); the only _exit of trap.c
    sed 's/^\t_exit(exitstatus);$/\texit(exitstatus);/' "$SRC/src/trap.c" >"$DASH_CFG/patched/trap.c"
    if [ "$(grep -c '^	exit(exitstatus);$' "$DASH_CFG/patched/trap.c")" != 1 ] ||
        grep -q '_exit' "$DASH_CFG/patched/trap.c"; then
        echo "perfctl: dash: trap.c's exitshell is not as expected (one _exit(exitstatus))" >&2
        return 1
    fi
    touch "$DASH_CFG/done"
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1 f srcs=()
    for f in alias arith_yacc arith_yylex cd error eval exec expand histedit input jobs mail main memalloc \
        miscbltin mystring options parser priv redir show output system var; do
        srcs+=("$SRC/src/$f.c")
    done
    for f in printf test times; do srcs+=("$SRC/src/bltin/$f.c"); done
    for f in builtins init nodes signames syntax; do srcs+=("$DASH_CFG/src/$f.c"); done
    srcs+=("$DASH_CFG/patched/trap.c")
    # onsig, dash's handler of every signal it catches, is not instrumented
    # (every build with the plugin): SIGCHLD arrives when a child ends,
    # interrupting whatever the shell runs, and an instrumented handler
    # that interrupts instrumented code makes a stream profile inexact by
    # design (docs/streaming.md, "Signal handlers"). Its calls also depend
    # on timing (the kernel merges the SIGCHLDs of children ending close
    # together). It calls only onint, for an untrapped SIGINT: none here.
    local x=
    case $(cflags_of "$b") in *-fplugin=*) x=-fplugin-arg-pathprof-exclude=onsig ;; esac
    # (after cflags_of's -fplugin, which PERFCTL_OPT follows)
    PERFCTL_OPT="${PERFCTL_OPT:-}${x:+ $x}" compile_c "$b" "$3" \
        "-O2 -w -include $DASH_CFG/config.h -DBSD=1 -DSHELL -I$DASH_CFG/src -I$SRC/src" "${srcs[@]}" || return 1
    # shellcheck disable=SC2046
    gcc -O2 "$3"/*.o -o "$2/dash" $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    cp "$ROOT/perfctl/programs/work.dash" "$1/work.dash"
    # the files work.dash's pathname expansions match (fixed names)
    local d=$1/globdir f
    rm -rf "$d"
    mkdir -p "$d"
    for f in a1.txt a2.txt b10.txt ab3.c bz9.h c.txt notes.md x7.txt; do : >"$d/$f"; done
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    # N: 20000 at scale 1 (2 s natively). The wrapper sets
    # PATHPROF_ACCUMULATE=1 unless the run's analyzers include trace or
    # ksf-pruned, or ksf with PATHPROF_KSF_WORKERS (perfctl's ksf-fanout),
    # none of which can start from 0 in a child (see the header); the system's sh is not instrumented and
    # execs dash, so dash sees the same environment in every run compared,
    # name for name. setsid gives dash a process group of its own, which
    # work.dash signals with kill 0 (it never expands $$: the number of
    # digits of a pid varies, and so would the paths that copy them).
    # shellcheck disable=SC2016 # the wrapper's own expansions
    CMD=(/bin/sh -c 'a=1
        case ",${PATHPROF_ANALYZER-}," in
            *,trace,*|*,ksf-pruned,*) a=0 ;;
            *,ksf,*) [ "${PATHPROF_KSF_WORKERS:-0}" = 0 ] || a=0 ;;
        esac
        [ $a = 0 ] || { PATHPROF_ACCUMULATE=1; export PATHPROF_ACCUMULATE; }
        exec "$@"' dash-wrapper
        setsid -w env LC_ALL=C "$1/dash" "$2/work.dash" "$(size_of "$3" 20000)" "$1/dash" "$2/globdir")
    CMD_STDIN=/dev/null
}
