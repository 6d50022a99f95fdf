#!/usr/bin/env bash
# Bytes a running JVM server allocates per close connection, as the ledger counts them: every thread's
# allocated bytes (jcmd PID Thread.print -e) before and after a wrk pass, over the connections wrk made
# (one request per connection under 'Connection: close', so its request count).
# usage: bytes-per-conn.sh PID URL [SECONDS]
set -euo pipefail
pid=$1 url=$2 secs=${3:-10}
total() {
  jcmd "$pid" Thread.print -e | sed -n 's/^"\(.*\)" .* allocated=\([0-9]*\)\([BKMG]\).*/\1\t\2\t\3/p' |
    awk -F'\t' '{m=($3=="K")?1024:($3=="M")?1048576:($3=="G")?1073741824:1; s+=$2*m} END {printf "%.0f\n", s}'
}
before=$(total)
out=$(wrk -t1 -c32 -d"${secs}s" -H 'Connection: close' "$url")
after=$(total)
reqs=$(awk '/requests in/ {print $1}' <<<"$out")
errs=$(awk '/Socket errors/ {print}' <<<"$out")
echo "url=$url seconds=$secs requests=$reqs allocated=$((after - before)) B/conn=$(( (after - before) / reqs ))${errs:+ $errs}"
