#!/bin/bash
# Close-path profile of static-server (epoll, 2 loops): perf with JIT symbols, per-thread CPU.
set -u
JAR=$1; OUTDIR=$2; mkdir -p $OUTDIR
java -Xms256m -Xmx256m -XX:+UnlockDiagnosticVMOptions -XX:+PreserveFramePointer -jar $JAR --root $WORK/site --host 127.0.0.1 --port 28180 --admin-port 28181 --instances 2 > $OUTDIR/server.log 2>&1 &
P=$!
for i in $(seq 60); do sleep 1; curl -s -o /dev/null http://127.0.0.1:28180/1k.bin && break; done
for i in 1 2 3; do wrk -t2 -c64 -d10s -H "Connection: close" http://127.0.0.1:28180/1k.bin > /dev/null; wrk -t2 -c64 -d3s http://127.0.0.1:28180/1k.bin > /dev/null; done
HZ=$(getconf CLK_TCK)
b=$(awk '{print $14, $15}' /proc/$P/stat)
perf record -F 499 -g -p $P -o $OUTDIR/perf-close.data -- wrk -t2 -c64 -d10s -H "Connection: close" http://127.0.0.1:28180/1k.bin > $OUTDIR/wrk-close.txt 2>&1
a=$(awk '{print $14, $15}' /proc/$P/stat)
echo "before $b after $a hz $HZ" > $OUTDIR/cpu.txt
jcmd $P Compiler.perfmap > /dev/null 2>&1
cp /tmp/perf-$P.map $OUTDIR/ 2>/dev/null
$WORK/thr.sh $P wrk -t2 -c64 -d5s -H "Connection: close" http://127.0.0.1:28180/1k.bin > $OUTDIR/threads-close.txt 2>&1
kill $P; wait
