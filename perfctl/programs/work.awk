# work.awk - perfctl's gawk workload (perfctl/programs/gawk.sh): every
# kind of line perfctl/lib/gen-input.c writes goes through the interpreter's
# string, regex, array and call paths. Deterministic: no time, no rand,
# traversals in sorted order.
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) }
function rev(s,    n) { n = length(s); return n <= 1 ? s : rev(substr(s, n / 2 + 1)) rev(substr(s, 1, n / 2)) }
function classify(w) {
    if (w ~ /^[0-9]+$/) return "num"
    if (w ~ /^0x[0-9a-f]+$/) return "hex"
    if (w ~ /^[A-Z]/) return "cap"
    if (length(w) > 8) return "long"
    return "word"
}
{
    lines++
    chars += length($0)
    if ($0 ~ /^[ \t]+/) { indented++; depth[match($0, /[^ \t]/)]++ }
    for (i = 1; i <= NF; i++) {
        w = $i
        kind[classify(w)]++
        count[w]++
        if (w ~ /^[0-9]+$/) sum += w % 1000
    }
    if (NF > 3) { n = split($0, parts, /[=:,]/); pieces += n }
    t = $0
    subs += gsub(/[aeiou]+/, "<&>", t)
    if (lines % 97 == 0) { r = rev($1); revd[r]++ ; key = sprintf("%05d:%s", NF, toupper(substr($1, 1, 3))); keys[key]++ }
    if (lines % 4001 == 0) fibs += fib(15 + lines % 5)
}
END {
    printf "lines %d chars %d indented %d pieces %d subs %d sum %d fibs %d\n", lines, chars, indented, pieces, subs, sum, fibs
    PROCINFO["sorted_in"] = "@ind_str_asc"
    for (k in kind) printf "kind %s %d\n", k, kind[k]
    PROCINFO["sorted_in"] = "@ind_num_asc"
    for (d in depth) printf "depth %d %d\n", d, depth[d]
    PROCINFO["sorted_in"] = "@val_num_desc"
    n = 0
    for (w in count) { if (++n > 40) break; printf "top %s %d\n", w, count[w] }
    PROCINFO["sorted_in"] = "@ind_str_asc"
    n = 0
    for (k in keys) if (++n <= 30) printf "key %s %d\n", k, keys[k]
    m = 0
    for (r in revd) m += length(r) * revd[r]
    printf "distinct %d rev %d keys %d\n", length(count), m, length(keys)
}
