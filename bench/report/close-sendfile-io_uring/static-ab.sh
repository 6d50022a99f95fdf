#!/bin/bash
# Static close path and keep-alive: ours on epoll, ours on epoll with TCP_DEFER_ACCEPT, ours on io_uring,
# nginx (sendfile on, tcp_nopush, reuseport, 2 workers), wrk -t2 -c64, alternated rounds.
# Usage: static-ab.sh JAR DEFERJAR ROUNDS DURATION OUTFILE
set -u
JAR=$1; DJAR=$2; ROUNDS=$3; DUR=$4; OUT=$5
HZ=$(getconf CLK_TCK); SITE=$WORK/site; W=$WORK/nginx-ab; mkdir -p $W/tmp
declare -A HOST=([epoll]=127.0.0.11 [defer]=127.0.0.12 [io_uring]=127.0.0.13 [nginx]=127.0.0.14)
declare -A PORT=([epoll]=28280 [defer]=28380 [io_uring]=28480 [nginx]=28580)
declare -A PIDS
JO="-Xms256m -Xmx256m -XX:+ExitOnOutOfMemoryError"
java $JO -jar $JAR --root $SITE --host 127.0.0.11 --port 28280 --admin-port 28281 --instances 2 --transport epoll > $W/epoll.log 2>&1 & PIDS[epoll]=$!
java $JO -Dportshare.defer-accept=1 -jar $DJAR --root $SITE --host 127.0.0.12 --port 28380 --admin-port 28381 --instances 2 --transport epoll > $W/defer.log 2>&1 & PIDS[defer]=$!
java $JO -jar $JAR --root $SITE --host 127.0.0.13 --port 28480 --admin-port 28481 --instances 2 --transport io_uring > $W/uring.log 2>&1 & PIDS[io_uring]=$!
sed -e "s|@RUN@|$W|g" -e "s|@WORKERS@|2|g" -e "s|@PORT@|127.0.0.14:28580|g" -e "s|@ROOT@|$SITE|g" -e "s|@SENDFILE@|on|g" -e "s|daemon off;|daemon on;|" ./bench/peers/nginx-static.conf.template > $W/nginx.conf
nginx -c $W/nginx.conf -e $W/nginx-error.log
sleep 2; PIDS[nginx]="$(cat $W/nginx.pid) $(pgrep -P $(cat $W/nginx.pid) | tr '\n' ' ')"
for who in epoll defer io_uring nginx; do for i in $(seq 90); do curl -s -o /dev/null http://${HOST[$who]}:${PORT[$who]}/1k.bin && break; sleep 1; done; done
for who in epoll defer io_uring nginx; do cmp <(curl -s http://${HOST[$who]}:${PORT[$who]}/16k.bin) $SITE/16k.bin && echo "$who serves the right bytes"; done
# JIT warm-up on the same paths (ours), a little for nginx
for i in 1 2 3; do for who in epoll defer io_uring; do
  wrk -t2 -c64 -d5s -H "Connection: close" http://${HOST[$who]}:${PORT[$who]}/1k.bin >/dev/null
  wrk -t2 -c64 -d3s http://${HOST[$who]}:${PORT[$who]}/1k.bin >/dev/null
  wrk -t2 -c64 -d2s -H "Connection: close" http://${HOST[$who]}:${PORT[$who]}/16k.bin >/dev/null
done; done
wrk -t2 -c64 -d3s http://127.0.0.14:28580/1k.bin >/dev/null
ticks() { local t=0 u=0 s=0; for p in "$@"; do set -- $(awk '{print $14, $15}' /proc/$p/stat); u=$((u+$1)); s=$((s+$2)); done; echo "$u $s"; }
echo "# case server round req_s user_us_per_req sys_us_per_req total_us_per_req requests errors" > $OUT
cases=("1k.bin close" "16k.bin close" "index.html close" "1k.bin keep-alive")
for r in $(seq 1 $ROUNDS); do
  order=(epoll defer io_uring nginx); [ $((r % 2)) -eq 0 ] && order=(nginx io_uring defer epoll)
  for c in "${cases[@]}"; do set -- $c; path=$1; conn=$2
    for who in "${order[@]}"; do
      hdr=(); [ $conn = close ] && hdr=(-H "Connection: close")
      b=$(ticks ${PIDS[$who]}); o=$(wrk -t2 -c64 -d$DUR "${hdr[@]}" http://${HOST[$who]}:${PORT[$who]}/$path); a=$(ticks ${PIDS[$who]})
      rps=$(echo "$o" | awk '/Requests\/sec/ {print $2}'); n=$(echo "$o" | awk '/ requests in / {print $1}')
      err=$(echo "$o" | awk '/Socket errors/ {gsub(/,/,""); print $4+$6+$8+$10} /Non-2xx/ {print $NF}' | paste -sd+ | bc 2>/dev/null); err=${err:-0}
      set -- $b $a
      echo "$path|$conn $who $r $rps $(awk -v bu=$1 -v bs=$2 -v au=$3 -v as=$4 -v hz=$HZ -v n=$n 'BEGIN{u=(au-bu)/hz*1e6/n; s=(as-bs)/hz*1e6/n; printf "%.1f %.1f %.1f", u, s, u+s}') $n $err" >> $OUT
    done
  done
done
# 100 MB: CPU per GB (10 downloads), per server, 3 rounds; plus per-thread split for ours/epoll and nginx
head -c $((100*1024*1024)) /dev/urandom > /dev/null
echo "# 100m server round cpu_s_per_gb user sys" >> $OUT
for r in 1 2 3; do for who in epoll io_uring nginx; do
  curl -s -o /dev/null http://${HOST[$who]}:${PORT[$who]}/100m.bin
  b=$(ticks ${PIDS[$who]}); bytes=0
  for i in $(seq 10); do n=$(curl -s -o /dev/null -w '%{size_download}' http://${HOST[$who]}:${PORT[$who]}/100m.bin); bytes=$((bytes+n)); done
  a=$(ticks ${PIDS[$who]}); set -- $b $a
  echo "100m|sendfile $who $r $(awk -v bu=$1 -v bs=$2 -v au=$3 -v as=$4 -v hz=$HZ -v b=$bytes 'BEGIN{g=b/1073741824; printf "%.3f %.3f %.3f", ((au-bu)+(as-bs))/hz/g, (au-bu)/hz/g, (as-bs)/hz/g}')" >> $OUT
done; done
$WORK/thr.sh ${PIDS[epoll]} bash -c "for i in \$(seq 10); do curl -s -o /dev/null http://127.0.0.11:28280/100m.bin; done" > $W/threads-100m-epoll.txt
perf record -F 999 -g -p ${PIDS[epoll]} -o $WORK/perf-sf.data -- bash -c "for i in \$(seq 10); do curl -s -o /dev/null http://127.0.0.11:28280/100m.bin; done" > /dev/null 2>&1
perf record -F 999 -g -p $(pgrep -P $(cat $W/nginx.pid) | paste -sd,) -o $WORK/perf-sf-nginx.data -- bash -c "for i in \$(seq 10); do curl -s -o /dev/null http://127.0.0.14:28580/100m.bin; done" > /dev/null 2>&1
kill ${PIDS[epoll]} ${PIDS[defer]} ${PIDS[io_uring]}; nginx -c $W/nginx.conf -s quit; wait 2>/dev/null
