#!/bin/bash
# 100 MB downloads: server CPU-s per GB. static-server (sendfile) and nginx with tcp_nopush on and
# off, alternated rounds, 20 curl downloads per measurement, each to its own 127.0.0.x.
# Usage: sendfile-nopush.sh JAR SITE ROUNDS OUTFILE [JVM-OPTS-FOR-B]
set -u
JAR=$1; SITE=$2; ROUNDS=$3; OUT=$4; BOPTS=${5:-}
HZ=$(getconf CLK_TCK); W=$(mktemp -d); chmod 755 $W; mkdir -p $W/tmp $W/b/tmp; chmod 755 $W/b
declare -A PORT=([ours]=28680 [oursB]=28780 [nginx]=28880 [nginx-nopush-off]=28980)
declare -A PIDS
JO="-Xms256m -Xmx256m -XX:+ExitOnOutOfMemoryError"
java $JO -jar $JAR --root $SITE --host 0.0.0.0 --port 28680 --admin-port 28681 --instances 2 > $W/ours.log 2>&1 & PIDS[ours]=$!
java $JO $BOPTS -jar $JAR --root $SITE --host 0.0.0.0 --port 28780 --admin-port 28781 --instances 2 > $W/oursB.log 2>&1 & PIDS[oursB]=$!
conf() { sed -e "s|@RUN@|$1|g" -e "s|@WORKERS@|2|g" -e "s|@PORT@|$2|g" -e "s|@ROOT@|$SITE|g" -e "s|@SENDFILE@|on|g" -e "s|daemon off;|daemon on;|" -e "s|tcp_nopush on|tcp_nopush $3|" "$(dirname $0)/../../peers/nginx-static.conf.template" > $1/nginx.conf; }
conf $W 28880 on; conf $W/b 28980 off
nginx -c $W/nginx.conf -e $W/nginx-error.log; nginx -c $W/b/nginx.conf -e $W/b/nginx-error.log
sleep 2; PIDS[nginx]="$(cat $W/nginx.pid) $(pgrep -P $(cat $W/nginx.pid) | tr '\n' ' ')"
PIDS[nginx-nopush-off]="$(cat $W/b/nginx.pid) $(pgrep -P $(cat $W/b/nginx.pid) | tr '\n' ' ')"
WHO=(ours oursB nginx nginx-nopush-off)
for who in ${WHO[@]}; do for i in $(seq 90); do curl -s -o /dev/null http://127.0.0.1:${PORT[$who]}/1k.bin && break; sleep 1; done
  cmp -s <(curl -s http://127.0.0.1:${PORT[$who]}/100m.bin) $SITE/100m.bin && echo "$who serves 100m.bin right" || echo "$who WRONG"; done
for who in ours oursB; do for i in $(seq 20); do curl -s -o /dev/null http://127.0.0.1:${PORT[$who]}/100m.bin; done; done
ticks() { local u=0 s=0; for p in "$@"; do set -- $(awk '{print $14, $15}' /proc/$p/stat); u=$((u+$1)); s=$((s+$2)); done; echo "$u $s"; }
echo "# server round cpu_s_per_gb user_s_per_gb sys_s_per_gb" > $OUT
n=60
for r in $(seq $ROUNDS); do
  order=(${WHO[@]}); [ $((r % 2)) -eq 0 ] && order=(nginx-nopush-off nginx oursB ours)
  for who in ${order[@]}; do
    n=$((n+1)); b=$(ticks ${PIDS[$who]}); bytes=0
    for i in $(seq 20); do x=$(curl -s -o /dev/null -w '%{size_download}' http://127.0.0.$n:${PORT[$who]}/100m.bin); bytes=$((bytes+x)); done
    a=$(ticks ${PIDS[$who]}); set -- $b $a
    echo "$who $r $(awk -v bu=$1 -v bs=$2 -v au=$3 -v as=$4 -v hz=$HZ -v b=$bytes 'BEGIN{g=b/1073741824; printf "%.3f %.3f %.3f", ((au-bu)+(as-bs))/hz/g, (au-bu)/hz/g, (as-bs)/hz/g}')" >> $OUT
  done
done
kill ${PIDS[ours]} ${PIDS[oursB]}; nginx -c $W/nginx.conf -s quit; nginx -c $W/b/nginx.conf -s quit; wait 2>/dev/null; rm -rf $W
