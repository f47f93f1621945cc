#!/usr/bin/env bash
# pathprof html on a program whose counts are known by construction
# (tests/cli/html/known.c), opened in headless Chromium: every page loads
# without a script error or console message, a screenshot is taken, and
# the DOM after the scripts ran shows the functions and counts of the
# program, the line colours, a chosen path's lines lit, k-iteration trees
# and pruned bounds, and the source's markup-like text as text.
# Chromium is Debian's `chromium` (make check installs it); without it
# the checks of the files themselves still run and the browser's are skipped.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build

cp "$PP_CLI_DIR/html/known.c" "$T/"
cd "$T" || exit 1
line_of() { grep -n -- "$1" known.c | cut -d: -f1; }
QUARTER=$(line_of '/\* QUARTER \*/') REST=$(line_of '/\* REST \*/')
RARE_TEST=$(line_of '/\* RARE_TEST \*/') COLD=$(line_of '/\* COLD \*/')
PWNED=$(line_of "title='pwned'")

pp_cc "$T/known" known.c -O2 -fplugin-arg-pathprof-mode=stream || exit 1
PATHPROF_QUIET=1 PATHPROF_ANALYZER=blpp,ksf PATHPROF_K=3 PATHPROF_OUT=$T/k.pp "$T/known" >/dev/null
PATHPROF_QUIET=1 PATHPROF_ANALYZER=ksf-pruned PATHPROF_K=3 PATHPROF_PRUNE=64K \
    PATHPROF_OUT=$T/kp.pp "$T/known" >/dev/null

cli_run html -o site k.pp kp.pp
is "$RC:$ERR" "0:" "html: exit 0, nothing on stderr"
is "$OUT" "pathprof: wrote 2 pages to site/ (open site/index.html)" "html: says where the site is"
ok "index.html and one page per source file" test -s site/index.html -a -s site/f0.html
lacks "$(cat site/*.html)" "(src|href)=\"(https?:)?//" "no external resource: nothing fetched"

# func_count HTML NAME: the count in the functions table's row of NAME
func_count() {
    printf '%s\n' "$1" | sed -n "s|.*<td class=\"name\"><a href=\"[^\"]*\">$2</a></td><td>known\\.c:[0-9]*</td><td class=\"n count\">\\([0-9]*\\)</td>.*|\\1|p"
}
# line_row HTML N: "CLASS COUNT" of source line N
line_row() {
    printf '%s\n' "$1" | sed -n "s|.*<tr id=\"L$2\" class=\"\\([a-z ]*\\)\"><td class=\"ln\">$2</td><td class=\"cnt\">\\([0-9]*\\)</td>.*|\\1 \\2|p"
}
INDEX=$(cat site/index.html) PAGE=$(cat site/f0.html)
is "$(func_count "$INDEX" hot)" 1000 "index: hot ran 1000 times"
lacks "$INDEX" ">cold</a>" "index: cold never ran, not ranked"
is "$(line_row "$PAGE" "$QUARTER")" "hit 250" "line $QUARTER (QUARTER): ran 250 times"
is "$(line_row "$PAGE" "$REST")" "hit 750" "line $REST (REST): ran 750 times"
is "$(line_row "$PAGE" "$RARE_TEST")" "partial 1000" "line $RARE_TEST (RARE_TEST): ran, one way never taken"
is "$(line_row "$PAGE" "$COLD")" "miss 0" "line $COLD (COLD): never ran"
# The path of hot that ran 750 times: its row's ID and lit lines.
row=$(printf '%s\n' "$PAGE" | grep '<tr class="path"' | grep '<td class="n count">750</td>')
pid=$(printf '%s\n' "$row" | sed -n 's/.* id="\(p-[0-9]*-[0-9]*\)".*/\1/p')
lines=" $(printf '%s\n' "$row" | sed -n 's/.* data-lines="\([0-9 ]*\)".*/\1/p') "
ok "hot's 750-run path ($pid) runs REST (line $REST), not QUARTER ($QUARTER)" \
    test -n "$pid" -a "${lines/ $REST /}" != "$lines" -a "${lines/ $QUARTER /}" = "$lines"
is "$(printf '%s\n' "$PAGE" | sed -n '/^<section class="views" id="views[0-9]*"><h2>hot<\/h2>$/{n;p}')" \
    "<h3>k-iteration path trees (k.pp)</h3>" "hot's k-iteration trees, from the ksf profile"
like "$PAGE" "<h3>pruned k-iteration paths, with bounds \\(kp\\.pp\\)</h3>" "pruned bounds, from the ksf-pruned profile"

if ! command -v chromium >/dev/null 2>&1; then
    skip "chromium is not installed and could not be installed (make check installs Debian's chromium); the browser checks need it"
    done_testing
fi
# browse OUT ERR URL [ARGS...]: headless Chromium, its own profile directory
browse() {
    local out=$1 err=$2 url=$3
    shift 3
    timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --user-data-dir="$T/chromium" --enable-logging=stderr --v=0 "$@" "$url" >"$out" 2>"$err"
}
here=$(pwd)
browse idx.dom idx.err "file://$here/site/index.html" --dump-dom
browse page.dom page.err "file://$here/site/f0.html#$pid" --dump-dom
browse shot.out shot.err "file://$here/site/f0.html#$pid" --window-size=1280,900 --screenshot="$T/shot.png"
for f in idx page; do
    lacks "$(cat $f.dom)" "data-js-errors=" "$f: no script error (the page's error hook wrote none)"
    lacks "$(cat $f.err)" ":CONSOLE" "$f: nothing on the console"
done
like "$(cat idx.dom)" "<body data-ready=\"0\">" "index: its script ran to the end"
DOM=$(cat page.dom)
nrows=$(printf '%s\n' "$PAGE" | grep -c '<tr class="path"')
like "$DOM" "<body data-ready=\"$nrows\">" "source page: its script ran, $nrows paths selectable"
is "$(func_count "$(cat idx.dom)" hot)" 1000 "browser: the index shows hot with 1000 runs"
like "$DOM" "<div id=\"selected\">hot path [0-9]+: [0-9]+ lines lit</div>" "browser: the chosen path is named"
like "$DOM" "<tr id=\"L$REST\" class=\"hit on\">" "browser: the chosen path lights up REST (line $REST)"
lacks "$DOM" "<tr id=\"L$QUARTER\" class=\"[a-z]* on\">" "browser: ... and not QUARTER (line $QUARTER)"
like "$DOM" "<div id=\"steps\">starts at function entry; ends at return" "browser: the chosen path's steps are shown"
like "$DOM" "<title>known.c - pathprof</title>" "browser: the source's script tag did not run (title unchanged)"
like "$DOM" "<tr id=\"L$PWNED\" class=\"\"><td class=\"ln\">$PWNED</td><td class=\"cnt\"></td><td class=\"code\"> \\* &lt;/script&gt;&lt;script&gt;document.title='pwned'&lt;/script&gt; &lt;b&gt;bold&lt;/b&gt; &amp; &amp;amp;</td>" \
    "browser: markup in the source is shown as text"
ok "a screenshot was taken ($(wc -c <"$T/shot.png" 2>/dev/null) bytes)" \
    test "$(head -c 8 "$T/shot.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a -a \
    "$(wc -c <"$T/shot.png")" -gt 10000
done_testing
