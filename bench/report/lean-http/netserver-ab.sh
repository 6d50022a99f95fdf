#!/bin/bash
# Close path and keep-alive, three servers in one run: static-server on Vert.x's HttpServer (BASEJAR),
# static-server on Netty's HttpRequestDecoder and FileResponder on a Vert.x NetServer (JAR), and nginx (sendfile, tcp_nopush, reuseport, 2 workers). wrk -t2 -c64, alternated rounds,
# each run to its own 127.0.0.x (TIME_WAIT). Server CPU from /proc/PID/stat, wrk's from time(1).
# Usage: netserver-ab.sh BASEJAR JAR SITE ROUNDS DURATION OUTFILE
set -u
BASE=$1; JAR=$2; SITE=$3; ROUNDS=$4; DUR=$5; OUT=$6
HZ=$(getconf CLK_TCK); W=$(mktemp -d); chmod 755 $W; mkdir -p $W/tmp
declare -A PORT=([httpserver]=28680 [netserver]=28780 [nginx]=28880)
declare -A PIDS
JO="-Xms256m -Xmx256m -XX:+ExitOnOutOfMemoryError"
java $JO -jar $BASE --root $SITE --host 0.0.0.0 --port 28680 --admin-port 28681 --instances 2 > $W/httpserver.log 2>&1 & PIDS[httpserver]=$!
java $JO -jar $JAR --root $SITE --host 0.0.0.0 --port 28780 --admin-port 28781 --instances 2 > $W/netserver.log 2>&1 & PIDS[netserver]=$!
sed -e "s|@RUN@|$W|g" -e "s|@WORKERS@|2|g" -e "s|@PORT@|28880|g" -e "s|@ROOT@|$SITE|g" -e "s|@SENDFILE@|on|g" -e "s|daemon off;|daemon on;|" "$(dirname $0)/../../peers/nginx-static.conf.template" > $W/nginx.conf
nginx -c $W/nginx.conf -e $W/nginx-error.log
sleep 2; PIDS[nginx]="$(cat $W/nginx.pid) $(pgrep -P $(cat $W/nginx.pid) | tr '\n' ' ')"
n=30; addr() { n=$((n+1)); [ $n -gt 250 ] && n=31; A=127.0.0.$n; }
for who in httpserver netserver nginx; do for i in $(seq 90); do curl -s -o /dev/null http://127.0.0.1:${PORT[$who]}/1k.bin && break; sleep 1; done; done
for who in httpserver netserver nginx; do for f in 1k.bin 16k.bin index.html; do
  cmp -s <(curl -s http://127.0.0.1:${PORT[$who]}/$f) $SITE/$f && echo "$who serves $f right" || echo "$who serves $f WRONG"; done; done
for i in 1 2 3; do for who in httpserver netserver; do
  addr; wrk -t2 -c64 -d6s -H "Connection: close" http://$A:${PORT[$who]}/1k.bin >/dev/null
  addr; wrk -t2 -c64 -d3s http://$A:${PORT[$who]}/1k.bin >/dev/null
  addr; wrk -t2 -c64 -d2s -H "Connection: close" http://$A:${PORT[$who]}/16k.bin >/dev/null
done; done
addr; wrk -t2 -c64 -d3s http://$A:28880/1k.bin >/dev/null
ticks() { local u=0 s=0; for p in "$@"; do set -- $(awk '{print $14, $15}' /proc/$p/stat); u=$((u+$1)); s=$((s+$2)); done; echo "$u $s"; }
echo "# case server round req_s user_us_per_req sys_us_per_req total_us_per_req wrk_us_per_req requests errors" > $OUT
cases=("1k.bin close" "16k.bin close" "index.html close" "1k.bin keep-alive")
for r in $(seq 1 $ROUNDS); do
  order=(httpserver netserver nginx); [ $((r % 2)) -eq 0 ] && order=(nginx netserver httpserver)
  for c in "${cases[@]}"; do set -- $c; path=$1; conn=$2
    for who in "${order[@]}"; do
      hdr=(); [ $conn = close ] && hdr=(-H "Connection: close")
      addr; b=$(ticks ${PIDS[$who]})
      o=$( { /usr/bin/time -f "WRKCPU %U %S" wrk -t2 -c64 -d$DUR "${hdr[@]}" http://$A:${PORT[$who]}/$path; } 2>&1 )
      a=$(ticks ${PIDS[$who]})
      rps=$(echo "$o" | awk '/Requests\/sec/ {print $2}'); nreq=$(echo "$o" | awk '/ requests in / {print $1}')
      wc=$(echo "$o" | awk '/WRKCPU/ {print $2+$3}')
      err=$(echo "$o" | awk '/Socket errors/ {gsub(/,/,""); print $4+$6+$8+$10} /Non-2xx/ {print $NF}' | paste -sd+ | bc 2>/dev/null); err=${err:-0}
      set -- $b $a
      echo "$path|$conn $who $r $rps $(awk -v bu=$1 -v bs=$2 -v au=$3 -v as=$4 -v hz=$HZ -v n=$nreq -v wc=$wc 'BEGIN{u=(au-bu)/hz*1e6/n; s=(as-bs)/hz*1e6/n; printf "%.1f %.1f %.1f %.1f", u, s, u+s, wc*1e6/n}') $nreq $err" >> $OUT
    done
  done
done
kill ${PIDS[httpserver]} ${PIDS[netserver]}; nginx -c $W/nginx.conf -s quit; wait 2>/dev/null; rm -rf $W
