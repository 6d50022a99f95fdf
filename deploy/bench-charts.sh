#!/usr/bin/env bash
# The charts of a bench run, drawn by gnuplot from its raw files (nothing is measured again):
#   DIR/results.csv -> DIR/chart.png: grouped bars of one metric's median over the rounds, a group
#                      per column, a bar per row (METRIC, default the first metric the file names;
#                      the RPC tables: tps_1e4)
#   DIR/latency.csv -> DIR/latency-COLUMN.png: per column, each server's percentiles (p50 to max,
#                      log scale) at the highest share of the maximum at or below 100%
#
#   deploy/bench.sh charts bench/report/rpc-matrix
#   METRIC=server_cpu_us deploy/bench-charts.sh bench-results/20261203-1322
set -euo pipefail

cd "$(dirname "$0")/.."
. deploy/lib.sh
portshare_help "$@"
dir=${1:?usage: deploy/bench-charts.sh DIR}
command -v gnuplot >/dev/null || { echo "bench-charts: gnuplot is not installed (Debian: gnuplot-nox)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
drawn=0

if [ -f "$dir/results.csv" ]; then
  metric=${METRIC:-$(grep -v '^#' "$dir/results.csv" | awk -F, 'NR > 1 { print $7; exit }')}
  # One line per table column (a group of bars), one field per row (a bar): the median over the rounds (the middle round, or
  # the mean of the two middle ones).
  grep -v '^#' "$dir/results.csv" | awk -F, -v m="$metric" '
    NR > 1 && $7 == m {
      if (!($2 in seenRow)) { seenRow[$2] = 1; rows[++nr] = $2 }
      if (!($3 in seenCol)) { seenCol[$3] = 1; cols[++nc] = $3 }
      k = $2 SUBSEP $3; n[k]++; v[k, n[k]] = $8
    }
    function median(k,   i, j, t, c) {
      c = n[k]; if (c == 0) return "-"
      for (i = 1; i <= c; i++) a[i] = v[k, i]
      for (i = 2; i <= c; i++) { t = a[i]; for (j = i - 1; j > 0 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      return c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
    }
    END {
      printf "column"; for (r = 1; r <= nr; r++) printf "\t\"%s\"", rows[r]; print ""
      for (c = 1; c <= nc; c++) {
        printf "\"%s\"", cols[c]; for (r = 1; r <= nr; r++) printf "\t%s", median(rows[r] SUBSEP cols[c]); print ""
      }
    }' > "$tmp/bars.dat"
  series=$(head -1 "$tmp/bars.dat" | awk -F'\t' '{ print NF - 1 }')
  gnuplot <<EOF
set terminal pngcairo size 900,420 noenhanced font "sans,10"
set output "$dir/chart.png"
set title "$metric, median of the rounds ($(basename "$dir"))"
set style data histograms
set style histogram clustered gap 1
set style fill solid border -1
set key outside bottom horizontal
set yrange [0:*]
set grid ytics
set datafile missing "-"
set key autotitle columnhead
plot for [c=2:$((series + 1))] "$tmp/bars.dat" using c:xtic(1)
EOF
  echo "written: $dir/chart.png ($metric)"
  drawn=1
fi

if [ -f "$dir/latency.csv" ]; then
  grep -v '^#' "$dir/latency.csv" > "$tmp/latency.csv"
  awk -F, 'NR > 1 { print $1 }' "$tmp/latency.csv" | awk '!seen[$0]++' > "$tmp/columns"
  while IFS= read -r column; do
    share=$(awk -F, -v w="$column" 'NR > 1 && $1 == w && $3 != "closed" { s = $3; sub("%", "", s); if (s + 0 <= 100 && s + 0 > best) best = s + 0 }
      END { print best + 0 }' "$tmp/latency.csv")
    [ "$share" -gt 0 ] || continue
    # One block per server: x the percentile's place, y its latency in ms.
    awk -F, -v w="$column" -v s="$share%" 'NR > 1 && $1 == w && $3 == s {
        printf "\"%s%s\"\n", $2, ($NF != "" ? " *" : ""); split("p50 p90 p99 p99.9 p99.99 max", p, " ")
        for (i = 0; i < 6; i++) printf "%d %s %.3f\n", i, p[i + 1], $(7 + i) / 1000
        printf "\n\n"; asked = $4 }
      END { print asked > "/dev/stderr" }' "$tmp/latency.csv" > "$tmp/series.dat" 2> "$tmp/asked"
    blocks=$(grep -c '^"' "$tmp/series.dat")
    out="$dir/latency-$(printf %s "$column" | sed 's/[^A-Za-z0-9.-]\{1,\}/_/g').png"
    gnuplot <<EOF
set terminal pngcairo size 700,420 noenhanced font "sans,10"
set output "$out"
set title "$column at $share% ($(cat "$tmp/asked")/s): latency from the due time, ms"
set logscale y
set grid
set key top left
plot for [b=0:$((blocks - 1))] "$tmp/series.dat" index b using 1:3:xtic(2) with linespoints title columnhead(1)
EOF
    echo "written: $out"
    drawn=1
  done < "$tmp/columns"
fi
[ "$drawn" = 1 ] || { echo "bench-charts: no results.csv or latency.csv in $dir" >&2; exit 2; }
