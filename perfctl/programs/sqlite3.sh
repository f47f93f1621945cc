# shellcheck shell=bash disable=SC2034
# sqlite3 3.40.1 (Debian source package): the shell (shell.c) over the
# amalgamation, sqlite3.c, one translation unit of 243,646 lines (a
# bytecode VM, sqlite3VdbeExec, with a switch of ~190 opcodes; the b-tree;
# the query planner). What it stresses: the plugin on one huge TU (cc1's
# time and memory), thousands of functions in one object. The workload:
# perfctl/programs/work.sql (200,000 rows inserted in one transaction,
# indexes, joins, group-bys, window and JSON functions, recursive CTEs);
# its standard output is checked.
# The amalgamation is generated once, natively (configure, then make
# sqlite3.c shell.c, which needs tclsh: `apt-get install tcl`).
# The shell runs with `-heap 256M` (memsys5, compiled in): every
# allocation comes from one block, so the b-tree's and lookaside's pointer
# comparisons (rebuildPage, balance_nonroot, pageInsertArray,
# sqlite3DbMallocSize: SQLITE_WITHIN of a cell against a page buffer)
# branch the same way whatever else the process allocates; with malloc,
# the stream runtime's own allocations move the heap and those paths differ
# from counting mode's (docs/perfctl.md, "Robustness on further programs").
PROG_KIND=interpreter
PROG_DESC="sqlite3 shell over the amalgamation (one 243k-line TU), work.sql"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" sqlite3 main.mk)
    PROG_VERSION=$(basename "$SRC")
    SQ_AMAL=$PERFCTL_SRC_DIR/sqlite3-amalgamation
    [ -f "$SQ_AMAL/done" ] && return 0
    command -v tclsh >/dev/null ||
        { echo "perfctl: sqlite3: making the amalgamation needs tclsh (apt-get install tcl)" >&2; return 1; }
    rm -rf "$SQ_AMAL"
    mkdir -p "$SQ_AMAL"
    (cd "$SQ_AMAL" && "$SRC/configure" --quiet CC=gcc --disable-tcl && make sqlite3.c shell.c) \
        >"$SQ_AMAL/log" 2>&1 ||
        { echo "perfctl: sqlite3: making the amalgamation failed, see $SQ_AMAL/log" >&2; return 1; }
    touch "$SQ_AMAL/done"
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1
    compile_c "$b" "$3" "-O2 -w -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_ENABLE_MEMSYS5 -I$SQ_AMAL" \
        "$SQ_AMAL/sqlite3.c" "$SQ_AMAL/shell.c" || return 1
    # shellcheck disable=SC2046
    gcc -O2 "$3/sqlite3.o" "$3/shell.o" -o "$2/sqlite3" -lm $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    { echo "CREATE TABLE cfg(n); INSERT INTO cfg VALUES($(size_of "$2" 200000));"
      cat "$ROOT/perfctl/programs/work.sql"; } >"$1/work.$2.sql"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=("$1/sqlite3" -heap 256M :memory:)
    CMD_STDIN=$2/work.$3.sql
}
