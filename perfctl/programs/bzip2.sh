# shellcheck shell=bash disable=SC2034
# bzip2 1.0.8 (Debian source package): loop-heavy. `bzip2 -c` of a
# generated, mostly text-like input (perfctl/lib/gen-input.c). Built with
# perfctl/lib/common.sh's build_bzip2, as perfctl/bzip2-bench builds it.
PROG_KIND=loop-heavy
PROG_DESC="bzip2 -c of a perfctl/lib/gen-input.c file"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-bzip2.sh" "$PERFCTL_SRC_DIR")
    # shellcheck source=../lib/common.sh
    . "$ROOT/perfctl/lib/common.sh"
    PROG_VERSION=$(basename "$SRC")
}
prog_build() {  # BUILD BINDIR OBJDIR
    build_bzip2 "$SRC" "$3" "$1" && cp "$3/bzip2" "$2/bzip2"
}
prog_input() {  # WORKDIR SIZE
    gen_input "$1/input.$2" "$(size_of "$2" 40000000)"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=("$1/bzip2" -c)
    CMD_STDIN=$2/input.$3
}
