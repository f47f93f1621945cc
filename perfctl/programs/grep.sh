# shellcheck shell=bash disable=SC2034
# GNU grep 3.8 (Debian source package, with Debian's patches): a searcher
# that picks its matcher from the pattern. A literal (or a list of them,
# -F or not) goes to kwsearch.c and kwset.c (Boyer-Moore for one string,
# Aho-Corasick for many); anything else to dfasearch.c, which runs
# gnulib's DFA (dfa.c: its "must" strings through kwset first, then
# dfaexec) and, when the pattern has a back-reference, answers only
# "maybe": gnulib's regex (re_search) then backtracks on each candidate
# line. configure runs once, --with-included-regex, so that regex is
# compiled in rather than glibc's; no NLS, no PCRE (-P), no libsigsegv.
#
# Which files take the build's flags: grep's own 5 (grep.c, dfasearch.c,
# kwsearch.c, kwset.c, searchutils.c) and the 3 of gnulib's lib/ that do
# the matching: dfa.c, regex.c (one TU: regcomp.c, regexec.c,
# regex_internal.c) and localeinfo.c (the DFA's tables of the locale's
# characters). The rest of lib/ (libgreputils.a: xalloc, quotearg,
# argmatch, exclude, fts, c-stack, ...) is grep's plumbing, not its
# search, and is built once, natively; our objects come first on the link
# line, so the linker takes only what they leave undefined from it.
#
# One change, in every build alike (native included): grep.c's read
# buffer is allocated page-aligned (posix_memalign) instead of with
# ximalloc, in a copy of grep.c. fillbuf reads into the buffer from its
# first page boundary on and rounds each read down to whole pages, so
# where the 96 KiB reads of a file begin and end, and with them which
# lines each search of kwset, the DFA or regex sees at once, followed the
# buffer's address modulo the page size: the heap's layout, which the
# runtime's own allocations change (count and stream builds differ, so
# did their paths in Fexecute and acexec_trans; docs/perfctl.md, grep's
# finding 1). Lines longer than the buffer (about 96 KiB; none here) would
# still grow it with xpalloc, unaligned.
#
# The workload: perfctl/programs/work.grep, a script of the system's
# (uninstrumented) sh that runs the instrumented grep 48 times over
# perfctl/programs/gen-grep.pl's text (2 MB at scale 1), its list of 500
# fixed strings and its 19 regexes, in the C locale: literals, the DFA,
# back-references, -i, -w, -x, -c, -o, -v, -n, -b, -m, context, --color,
# -F -f and -E -f; and 7 times in the C.UTF-8 locale over a UTF-8 text an
# eighth that size (regex's multibyte matcher; see work.grep). Its standard
# output is checked.
#
# Many processes: each grep writes a profile at exit. The wrapper sets
# PATHPROF_ACCUMULATE=1, so the profile is the sum over the 48 runs
# (docs/runtime.md, "Many processes"), except for runs whose
# PATHPROF_ANALYZER names trace or ksf-pruned: a trace is one process's
# (each grep would replace the last one's), and ksf-pruned's bounds and
# memory peak are checked against one analyzer's budget; those runs (the
# robustness modes ksf-8, ksf-pruned, trace+wpp, and the count and
# -fprofile-use small runs compared with them, which get the same
# variable) keep the last grep's profile and trace alone. work.grep's last
# run is its broadest (-E -i -n --color -f over all 19 regexes, the
# back-reference included) for that reason.
PROG_KIND=regex
PROG_DESC="sh work.grep: 48 grep runs over gen-grep.pl text, 7 in UTF-8 (kwset, gnulib dfa + regex; profile summed over them)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" grep kwsearch.c)
    SRC=$(dirname "$SRC")
    PROG_VERSION=$(basename "$SRC")
    GREP_CFG=$PERFCTL_SRC_DIR/grep-configured
    [ -f "$GREP_CFG/done" ] && [ -f "$GREP_CFG/patched/grep.c" ] && return 0
    rm -rf "$GREP_CFG"
    mkdir -p "$GREP_CFG"
    # The autotools, makeinfo and help2man are made no-ops (Debian's
    # patches may leave their inputs newer than their outputs). The native
    # grep and libgreputils.a are checked, not make's status.
    (cd "$GREP_CFG" && "$SRC/configure" --quiet CC=gcc --disable-nls --disable-perl-regexp \
            --with-included-regex --without-libsigsegv-prefix &&
        { make -s -j2 ACLOCAL=true AUTOMAKE=true AUTOCONF=true AUTOHEADER=true MAKEINFO=true HELP2MAN=true \
            CFLAGS="-O2 -w" || true; }) >"$GREP_CFG/log" 2>&1
    if ! [ -f "$GREP_CFG/lib/libgreputils.a" ] || ! [ -x "$GREP_CFG/src/grep" ] || ! [ -f "$GREP_CFG/config.h" ]; then
        echo "perfctl: grep: configuring failed, see $GREP_CFG/log" >&2
        return 1
    fi
    # --with-included-regex must have taken: gnulib's regex renames
    # regcomp and re_search (rpl_...), and our regex.o must replace it
    if ! grep -q 'define re_search rpl_re_search' "$GREP_CFG/config.h"; then
        echo "perfctl: grep: configure did not select gnulib's regex (no rpl_re_search in $GREP_CFG/config.h)" >&2
        return 1
    fi
    # grep.c's read buffer becomes page-aligned (see the header); the only
    # ximalloc of the buffer in grep.c
    mkdir -p "$GREP_CFG/patched"
    sed 's/^  buffer = ximalloc (bufalloc);$/  { void *p; if (posix_memalign (\&p, pagesize, bufalloc)) xalloc_die (); buffer = p; }/' \
        "$SRC/src/grep.c" >"$GREP_CFG/patched/grep.c"
    if [ "$(grep -c 'posix_memalign (&p, pagesize, bufalloc)' "$GREP_CFG/patched/grep.c")" != 1 ] ||
        grep -q 'buffer = ximalloc' "$GREP_CFG/patched/grep.c"; then
        echo "perfctl: grep: grep.c's buffer allocation is not as expected (one 'buffer = ximalloc (bufalloc);')" >&2
        return 1
    fi
    touch "$GREP_CFG/done"
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1 f srcs=()
    srcs+=("$GREP_CFG/patched/grep.c")
    for f in dfasearch kwsearch kwset searchutils; do srcs+=("$SRC/src/$f.c"); done
    for f in dfa regex localeinfo; do srcs+=("$SRC/lib/$f.c"); done
    compile_c "$b" "$3" "-O2 -w -DHAVE_CONFIG_H -I$GREP_CFG -I$GREP_CFG/lib -I$SRC/src -I$SRC/lib" \
        "${srcs[@]}" || return 1
    # shellcheck disable=SC2046
    gcc -O2 "$3"/*.o "$GREP_CFG/lib/libgreputils.a" -o "$2/grep" $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    local g=$ROOT/perfctl/programs/gen-grep.pl f=$1/input.$2 n
    n=$(size_of "$2" 2000000)
    # made once per size (FILE.n records the size asked); the UTF-8 text
    # an eighth of it (UTF-8 regex matching is 5-10x slower)
    if ! [ "$(head -c 64 "$f.n" 2>/dev/null)" = "$n" ] || ! [ -s "$f" ] || ! [ -s "$f.utf8" ]; then
        perl "$g" text "$n" >"$f" && perl "$g" text "$((n / 8))" utf8 >"$f.utf8" && echo "$n" >"$f.n" || return 1
    fi
    perl "$g" words 500 >"$1/words" && perl "$g" regexes >"$1/regexes" || return 1
    cp "$ROOT/perfctl/programs/work.grep" "$1/work.grep"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    # shellcheck disable=SC2016 # the wrapper's own expansions
    CMD=(/bin/sh -c 'case ",${PATHPROF_ANALYZER-}," in
            *,trace,*|*,ksf-pruned,*) ;;
            *) PATHPROF_ACCUMULATE=1; export PATHPROF_ACCUMULATE ;;
        esac
        exec "$@"' grep-wrapper
        env LC_ALL=C /bin/sh "$2/work.grep" "$1/grep" "$2/input.$3" "$2/words" "$2/regexes" "$2/input.$3.utf8")
    CMD_STDIN=/dev/null
}
