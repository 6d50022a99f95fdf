#!/usr/bin/env bash
# Exact bytes and objects per close connection, by class: the server runs under Epsilon GC (no object
# is ever freed), so the difference of two class histograms over every object (GC.class_histogram -all)
# taken around a wrk pass is what the pass allocated; divided by wrk's requests (one per connection).
# The server must have been started with -XX:+UnlockExperimentalVMOptions -XX:+UseEpsilonGC -Xmx8g -Xms8g.
# usage: histogram-per-conn.sh PID URL SECONDS [TOP]
set -euo pipefail
pid=$1 url=$2 secs=$3 top=${4:-40}
tmp=$(mktemp -d)
jcmd "$pid" GC.class_histogram -all > "$tmp/before"
out=$(wrk -t1 -c32 -d"${secs}s" -H 'Connection: close' "$url")
jcmd "$pid" GC.class_histogram -all > "$tmp/after"
reqs=$(awk '/requests in/ {print $1}' <<<"$out")
errs=$(grep 'Socket errors' <<<"$out" || true)
echo "# url=$url seconds=$secs connections(requests)=$reqs${errs:+ $errs}"
# A lambda's class is named per run (Foo$$Lambda$123/0x...): one name for all of a class's lambdas.
sed -i -E 's/\$\$Lambda(\$[0-9]+)?\/0x[0-9a-f]+/$$Lambda/' "$tmp/before" "$tmp/after"
awk -v n="$reqs" -v top="$top" '
  FNR==NR && $1 ~ /^[0-9]+:$/ { c0[$4]+=$2; b0[$4]+=$3; next }
  $1 ~ /^[0-9]+:$/ { c1[$4]+=$2; b1[$4]+=$3 }
  END {
    for (k in b1) { db=b1[k]-b0[k]; if (db>0) { cls[k]=1; C[k]=c1[k]-c0[k]; B[k]=db; tot+=db } }
    printf "# total: %.0f B per connection\n# B/conn  objects/conn  class\n", tot/n
    for (k in cls) printf "%8.1f %8.2f  %s\n", B[k]/n, C[k]/n, k | "sort -rn | head -" top
  }' "$tmp/before" "$tmp/after"
rm -rf "$tmp"
