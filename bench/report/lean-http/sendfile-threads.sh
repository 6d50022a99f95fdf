#!/bin/bash
# Where static-server's CPU goes per GB of sendfile, thread by thread, next to nginx's workers:
# 3 rounds of 20 downloads of 100 MB each, per-thread utime/stime ticks from /proc/PID/task/*/stat.
# Usage: sendfile-threads.sh JAR SITE OUT   (run inside a fresh network namespace)
set -u
JAR=$1; SITE=$2; OUT=$3
W=$(mktemp -d); chmod 755 $W; mkdir -p $W/tmp
java -Xms256m -Xmx256m -XX:+ExitOnOutOfMemoryError -jar $JAR --root $SITE --host 0.0.0.0 --port 28680 --admin-port 28681 --instances 2 > $W/ours.log 2>&1 & OURS=$!
sed -e "s|@RUN@|$W|g" -e "s|@WORKERS@|2|g" -e "s|@PORT@|28880|g" -e "s|@ROOT@|$SITE|g" -e "s|@SENDFILE@|on|g" -e "s|daemon off;|daemon on;|" "$(dirname $0)/../../peers/nginx-static.conf.template" > $W/nginx.conf
nginx -c $W/nginx.conf -e $W/nginx-error.log; sleep 2
for i in $(seq 90); do curl -s -o /dev/null http://127.0.0.1:28680/1k.bin && break; sleep 1; done
for port in 28680 28880; do
  cmp -s <(curl -s http://127.0.0.1:$port/100m.bin) $SITE/100m.bin || { echo "port $port does not serve 100m.bin's bytes" >&2; exit 1; }
done
echo "# command: bench/report/lean-http/sendfile-threads.sh JAR SITE OUT, in a fresh network namespace; both servers served 100m.bin byte for byte" > $OUT
echo "# server round thread cpu_user_s_per_gb cpu_sys_s_per_gb" >> $OUT
for i in $(seq 20); do curl -s -o /dev/null http://127.0.0.1:28680/100m.bin; curl -s -o /dev/null http://127.0.0.1:28880/100m.bin; done
snap() { for p in "$@"; do for t in /proc/$p/task/*; do echo "$p:$(basename $t) $(cat $t/comm | tr ' ' '_') $(awk '{print $14, $15}' $t/stat)"; done; done | sort; }
HZ=$(getconf CLK_TCK)
for r in 1 2 3; do
  for who in ours nginx; do
    if [ $who = ours ]; then PIDS="$OURS"; PORT=28680; else PIDS="$(pgrep -P $(cat $W/nginx.pid) | tr '\n' ' ')"; PORT=28880; fi
    snap $PIDS > $W/before; bytes=0
    for i in $(seq 20); do n=$(curl -s -o /dev/null -w '%{size_download}' http://127.0.0.1:$PORT/100m.bin); bytes=$((bytes+n)); done
    snap $PIDS > $W/after
    join $W/before $W/after | awk -v who=$who -v r=$r -v hz=$HZ -v b=$bytes '{u=$6-$3; s=$7-$4; if (u+s>0) printf "%s %d %s %.3f %.3f\n", who, r, $2, u/hz/(b/1073741824), s/hz/(b/1073741824)}' >> $OUT
  done
done
kill $OURS; nginx -c $W/nginx.conf -s quit; wait 2>/dev/null; rm -rf $W
