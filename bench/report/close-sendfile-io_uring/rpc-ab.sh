#!/bin/bash
# RPC: rpc-server on epoll and on io_uring against the C echo server, C rpcload as the client.
# Usage: rpc-ab.sh JAR ROUNDS SECONDS OUTFILE
set -u
JAR=$1; ROUNDS=$2; SECS=$3; OUT=$4
HZ=$(getconf CLK_TCK)
C=$WORK/c
declare -A PORT=([epoll]=29190 [io_uring]=29290 [c]=29390)
declare -A PID
java -Xms256m -Xmx256m -jar $JAR --host 127.0.0.1 --port 29190 --admin-port 29191 --instances 2 --mode reuseport --transport epoll > $WORK/rpc-epoll.log 2>&1 & PID[epoll]=$!
java -Xms256m -Xmx256m -jar $JAR --host 127.0.0.1 --port 29290 --admin-port 29291 --instances 2 --mode reuseport --transport io_uring > $WORK/rpc-uring.log 2>&1 & PID[io_uring]=$!
$C/echo -p 29390 -t 2 > $WORK/rpc-c.log 2>&1 & PID[c]=$!
sleep 8
for s in epoll io_uring; do grep -q "ready in" $WORK/rpc-$( [ $s = epoll ] && echo epoll || echo uring).log || sleep 10; done
ticks() { awk '{print $14+$15}' /proc/$1/stat; }
cells=("64 1" "64 1024" "1024 1")
# warm-up: the JIT on both Java servers, every cell
for who in epoll io_uring; do for c in "${cells[@]}"; do set -- $c; $C/rpcload -h 127.0.0.1 -p ${PORT[$who]} -c 32 -s $1 -n $2 -d 5 >/dev/null; done; done
echo "# cell server round trans_per_s server_cpu_us_per_trans client_out" > $OUT
for r in $(seq 1 $ROUNDS); do
  order=(epoll io_uring c); [ $((r % 2)) -eq 0 ] && order=(c io_uring epoll)
  for c in "${cells[@]}"; do set -- $c
    for who in "${order[@]}"; do
      b=$(ticks ${PID[$who]}); line=$($C/rpcload -h 127.0.0.1 -p ${PORT[$who]} -c 32 -s $1 -n $2 -d $SECS); a=$(ticks ${PID[$who]})
      tps=$(echo "$line" | awk '{print $1}'); n=$(echo "$line" | sed -E 's/.*\(([0-9]+) in.*/\1/')
      cpu=$(awk -v t=$((a-b)) -v hz=$HZ -v n=$n 'BEGIN{ if (n>0) printf "%.1f", t/hz*1e6/n; else print 0 }')
      echo "${1}B|${2}x $who $r $tps $cpu | $line" >> $OUT
    done
  done
done
kill ${PID[epoll]} ${PID[io_uring]} ${PID[c]}
wait 2>/dev/null
