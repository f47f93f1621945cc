#!/bin/bash
# perfctl/lib/plot.sh DIR [FIGDIR]: the k-BLPP paper's Figs. 8-10 for perfctl's
# programs, from DIR/figdata/*.dat (written by table.pl), as SVG with gnuplot.
#   fig8-overhead.svg   time of ksf at each k relative to stream blpp (Fig. 8)
#   fig9-hashops.svg    k-SF hash-table operations per path ID, i.e. relative
#                       to a hash-table BLPP's one per path ID (Fig. 9)
#   fig10-cpi.svg       cycles per instruction (Fig. 10a), when the machine
#                       counts cycles and instructions
#   fig10-l1.svg        L1 data cache miss rate (Fig. 10b)
#   fig10-ll.svg        last-level cache miss rate (Fig. 10c)
# Fig. 10b/c use the hardware counters (misses per 1000 instructions) when
# they were counted, else cachegrind's simulated caches (misses per 100 data
# references, whole process and the analyzer's code alone); each plot says
# which in its title. PERFCTL_PLOT_FORMAT=png: PNG. A figure with no data is not drawn (and says so).
set -euo pipefail
dir=${1:?usage: plot.sh DIR [FIGDIR]}
fig=${2:-$dir/figures}
data=$dir/figdata
command -v gnuplot >/dev/null || { echo "perfctl/lib/plot.sh: gnuplot is not installed (apt-get install gnuplot-nox; make perfctl does)" >&2; exit 1; }
mkdir -p "$fig"
# PERFCTL_PLOT_FORMAT=png draws PNG (pngcairo) instead of SVG.
fmt=${PERFCTL_PLOT_FORMAT:-svg}
case $fmt in svg|png) ;; *) echo "perfctl/lib/plot.sh: PERFCTL_PLOT_FORMAT is svg or png, not '$fmt'" >&2; exit 2 ;; esac

has_data() { [ -f "$1" ] && awk '!/^#/ { for (i = 2; i <= NF; i++) if ($i != "?") f = 1 } END { exit !f }' "$1"; }
ncols() { head -n 1 "$1" | awk -F'\t' '{ print NF }'; }

# plot FILE.dat OUT.svg TITLE YLABEL [REFLINE] (LOGY=1: logarithmic y axis)
plot() {
    local f=$1 out=${2%.svg}.$fmt title=$3 ylabel=$4 ref=${5:-}
    if ! has_data "$f"; then
        echo "perfctl/lib/plot.sh: no data for $(basename "$out") (${f##*/}): not drawn" >&2
        rm -f "$out"
        return 0
    fi
    local n
    n=$(ncols "$f")
    {
        if [ "$fmt" = png ]; then echo "set terminal pngcairo size 640,420 font 'sans,10'"
        else echo "set terminal svg size 640,420 dynamic font 'sans,11'"; fi
        echo "set output '$out'"
        echo "set title \"$title\""
        echo "set xlabel 'k'"
        echo "set ylabel \"$ylabel\""
        echo "set datafile missing '?'"
        echo "set datafile separator '\t'"
        echo "set key outside right top"
        echo "set grid ytics"
        echo "set offsets graph 0, graph 0, graph 0.05, graph 0"
        echo "set xtics (1, 2, 3, 4, 6, 8, 11, 16)"
        if [ "${LOGY:-0}" = 1 ]; then echo "set logscale y 2"; else echo "set yrange [0:*]"; fi
        printf 'plot '
        [ -n "$ref" ] && printf '%s with lines dashtype 2 lc rgb "gray" title "%s", ' "${ref%%:*}" "${ref#*:}"
        local i sep=''
        for ((i = 2; i <= n; i++)); do
            # a program without a value in this series is left out of the key
            awk -F'\t' -v i="$i" '!/^#/ && $i != "?" { f = 1 } END { exit !f }' "$f" || continue
            printf '%s"%s" using 1:%d with linespoints lw 2 lc %d pt %d title columnhead(%d)' "$sep" "$f" "$i" "$((i - 1))" "$((i + 4))" "$i"
            sep=', '
        done
        echo
    } >"$fig/.plot.gp"
    # The header's first column is "# k": make gnuplot read the names.
    sed -i "s|\"$f\"|\"$f.gp\"|g" "$fig/.plot.gp"
    sed '1s/^# //' "$f" >"$f.gp"
    gnuplot "$fig/.plot.gp"
    rm -f "$fig/.plot.gp" "$f.gp"
    echo "perfctl/lib/plot.sh: wrote $out" >&2
}

LOGY=1 plot "$data/fig8.dat" "$fig/fig8-overhead.svg" "Fig. 8: time of k-BLPP (ksf) relative to BLPP (stream blpp)" "time(ksf k) / time(blpp)" "1:BLPP"
plot "$data/fig9.dat" "$fig/fig9-hashops.svg" "Fig. 9: hash-table operations of k-BLPP relative to BLPP" "hash ops / path ID" "1:BLPP"
plot "$data/cpi.dat" "$fig/fig10-cpi.svg" "Fig. 10a: cycles per instruction (hardware counters)" "CPI"
if has_data "$data/l1hw.dat"; then
    plot "$data/l1hw.dat" "$fig/fig10-l1.svg" "Fig. 10b: L1 data cache misses (hardware counters)" "L1d misses / 1000 instructions"
    plot "$data/llhw.dat" "$fig/fig10-ll.svg" "Fig. 10c: last-level cache misses (hardware counters)" "LLC misses / 1000 instructions"
else
    plot "$data/l1.dat" "$fig/fig10-l1.svg" "Fig. 10b: D1 miss rate, whole process (cachegrind, simulated)" "D1 misses / 100 data refs"
    plot "$data/ll.dat" "$fig/fig10-ll.svg" "Fig. 10c: LL miss rate, whole process (cachegrind, simulated)" "LL misses / 100 data refs"
    plot "$data/anl1.dat" "$fig/fig10-l1-analyzer.svg" "Fig. 10b: D1 miss rate, analyzer code only (cachegrind)" "D1 misses / 100 data refs"
    plot "$data/anll.dat" "$fig/fig10-ll-analyzer.svg" "Fig. 10c: LL miss rate, analyzer code only (cachegrind)" "LL misses / 100 data refs"
fi
