#!/usr/bin/env bash
# One itemised run of the Router verticle (bench's router service) on the portshare runtime: the server
# alone under Epsilon GC with one event loop, 5 s of close load on each path unrecorded, then histogram-per-conn.sh on
# /1k.bin and /hello, each raw file headed by its command, commit and load average at start.
# usage: run.sh JAR COMMIT OUTDIR [PORT] [extra launcher flags...]
set -euo pipefail
jar=$1 commit=$2 out=$3 port=${4:-18480}; shift $(( $# < 4 ? $# : 4 ))
here=$(cd "$(dirname "$0")" && pwd)
root=$(mktemp -d); head -c 1024 /dev/urandom > "$root/1k.bin"
mkdir -p "$out"
# Epsilon frees nothing: the four passes' objects stay. On a quiet machine the build with the idle sweep took
# about 38,000 connections a second of about 16 KB each: 8 GB ran out in the passes of 10 s and 16 GB in the
# second, so 16 GB and passes of 5 s (about 190,000 connections each, 12 GB in all).
java -XX:+UnlockExperimentalVMOptions -XX:+UseEpsilonGC -Xmx16g -cp "$jar" io.portshare.runtime.launch.Launcher \
  --service router --host 127.0.0.1 --port "$port" --admin-port $((port + 1)) --instances 1 --mode reuseport \
  --root "$root" --warmup 0 "$@" > "$out/server.log" 2>&1 &
pid=$!
trap 'kill $pid; rm -rf "$root"' EXIT
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$port/hello" && break; sleep 0.2; done
wrk -t1 -c32 -d5s -H 'Connection: close' "http://127.0.0.1:$port/1k.bin" > /dev/null
wrk -t1 -c32 -d5s -H 'Connection: close' "http://127.0.0.1:$port/hello" > /dev/null
for path in 1k.bin hello; do
  f="$out/histogram-${path%.bin}.txt"
  { echo "# command: run.sh portshare-bench.jar $commit OUT $port $* (router-portshare: bench's router service on the runtime, under Epsilon GC, 5 s of close load on each path unrecorded, then: histogram-per-conn.sh PID http://127.0.0.1:$port/$path 5 200)"
    echo "# commit: $commit"
    echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
    "$here/histogram-per-conn.sh" "$pid" "http://127.0.0.1:$port/$path" 5 200; } > "$f"
done
