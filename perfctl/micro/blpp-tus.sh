#!/bin/bash
# The blpp analyzer on a stream that changes translation unit at every
# event (issue 13: an interpreter's VM calls into a dozen files): a program
# of TUS small TUs (one two-path function each) whose main loop calls one
# of them per iteration through a table, built in stream mode. For each
# runtime library given, the same binary runs ROUNDS times (libraries
# alternating) under PATHPROF_ANALYZER=blpp, and the analyzer's CPU time
# per event (the STREAM section's busy_ns over its events,
# perfctl/lib/pp-stream-stats.pl) is printed with its median. The
# profiles of every library must be equal path for path.
#
# Usage: perfctl/micro/blpp-tus.sh [--tus N] [--events N] [--rounds N] LIBDIR...
#   LIBDIR: a directory holding a libpathprof.so (e.g. build/lib, or that of
#   another commit's build); default build/lib
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
tus=12 events=20000000 rounds=3 libs=()
while [ $# -gt 0 ]; do
    case $1 in
        --tus) tus=$2; shift 2 ;;
        --events) events=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        -*) echo "perfctl/micro/blpp-tus.sh: unknown option '$1' (see the usage at the top)" >&2; exit 2 ;;
        *) libs+=("$(cd "$1" && pwd)"); shift ;;
    esac
done
[ ${#libs[@]} -gt 0 ] || libs=("$root/build/lib")
cli=$root/build/bin/pathprof
[ -x "$cli" ] || { echo "perfctl/micro/blpp-tus.sh: $cli missing: run make first" >&2; exit 1; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
{
    echo '#include <stdio.h>'
    echo '#include <stdlib.h>'
    for ((k = 0; k < tus; k++)); do
        printf 'unsigned f%d(unsigned x) { if (x & %du) return x * 3u + %du; return (x >> 1) ^ %du; }\n' \
            "$k" $((1 << (k % 5))) "$k" "$k" >"$d/tu$k.c"
        echo "unsigned f$k(unsigned);"
    done
    printf 'static unsigned (*const fs[])(unsigned) = {'
    for ((k = 0; k < tus; k++)); do printf 'f%d,' "$k"; done
    echo '};'
    cat <<'MAIN'
int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
    unsigned s = 1, m = sizeof fs / sizeof fs[0];
    for (unsigned long i = 0; i < n; i++)
        s = fs[(s ^ i) % m](s);
    printf("%u\n", s);
    return 0;
}
MAIN
} >"$d/main.c"
# shellcheck disable=SC2046
gcc $("$cli" config --cflags) -fplugin-arg-pathprof-mode=stream -O2 "$d/main.c" "$d"/tu*.c \
    $("$cli" config --libs) -o "$d/prog"
counts() {
    "$cli" report --json "$1" | perl -MJSON::PP -e 'my $d = decode_json(join "", <STDIN>);
        for my $f (@{ $d->{functions} }) { print "$f->{name} $_->{id} $_->{count}\n" for @{ $f->{paths} } }' | sort
}
echo "blpp-tus: $tus TUs, $((events / 2)) iterations ($events path events), $rounds rounds"
for ((r = 0; r < rounds; r++)); do
    for i in "${!libs[@]}"; do
        LD_LIBRARY_PATH=${libs[$i]} PATHPROF_ANALYZER=blpp PATHPROF_OUT=$d/p$i.pp "$d/prog" $((events / 2)) >/dev/null
        perl "$root/perfctl/lib/pp-stream-stats.pl" "$d/p$i.pp" | awk '{ printf "%.3f\n", $7 / $8 }' >>"$d/ns$i"
        counts "$d/p$i.pp" >"$d/c$i"
        cmp -s "$d/c0" "$d/c$i" || { echo "blpp-tus: ${libs[$i]}'s profile differs from ${libs[0]}'s" >&2; exit 1; }
    done
done
for i in "${!libs[@]}"; do
    printf '%s: analyzer CPU ns/event, median %s (runs: %s)\n' "${libs[$i]}" \
        "$(sort -n "$d/ns$i" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')" "$(tr '\n' ' ' <"$d/ns$i")"
done
