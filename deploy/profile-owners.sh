#!/usr/bin/env bash
# Where one server's CPU per request goes, by owner: the code the sampled frame belongs to (the
# kernel by part: sockets and tcp/ip, softirq, epoll, system-call entry, scheduler; the JVM's GC,
# compiler, interpreter and runtime; Netty, Vert.x core, vertx-web, portshare, the JDK; nginx,
# libc), in microseconds per request. One server of the ledger (router-portshare, router-stock,
# nginx: the ledger's command lines, one worker, pinned to CPU 1, the JVM with
# -XX:+PreserveFramePointer) under one workload of wrk (-t1 -c32, pinned to CPU 0): a warm-up of
# the same load, an unprofiled window, then a window under `perf record -g -p` on the server's
# processes; the JVM's JIT symbols from `jcmd PID Compiler.perfmap` right after it. Shares come from
# the samples; microseconds from the server's utime+stime (/proc/PID/stat) over the same window
# divided by wrk's requests. Each window goes to a 127.0.0.x of its own.
#
#   deploy/profile-owners.sh [--seconds S] [--warmup S] [--frequency HZ] [--port P] [--out FILE] SERVER WORKLOAD
#       SERVER    router-portshare | router-stock | nginx
#       WORKLOAD  hello-close | hello-keep-alive | 1k-keep-alive | 1k-close
#       defaults  --seconds 10 --warmup 20 --frequency 1999 --port 29600
#                 --out bench-results/profile-owners-SERVER-WORKLOAD-<time>.txt
#   deploy/profile-owners.sh combine --out FILE RAW...
#       the raw files of one commit as one table per workload: per owner the mean over the runs of
#       each server (min-max), shares beside, the differences between servers, top symbols per owner
#
# The raw file's header has the command, commit and load average at start. Needs perf, wrk, nginx
# (for its row), taskset; builds the bench jar when missing. As root it runs in a network namespace
# of its own, as the ledger does (deploy/lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. deploy/lib.sh
portshare_help "$@"
me=profile-owners
usage="usage: deploy/profile-owners.sh [--seconds S] [--warmup S] [--frequency HZ] [--port P] [--out FILE] SERVER WORKLOAD | combine --out FILE RAW..."
fail() { echo "$me: $*" >&2; exit 2; }   # what the arguments get wrong
die() { echo "$me: $*" >&2; exit 1; }    # what goes wrong in the run

if [ "${1:-}" = combine ]; then
  shift
  [ "${1:-}" = --out ] && [ $# -ge 3 ] || fail "combine takes --out FILE RAW...; $usage"
  out=$2; shift 2
  for f in "$@"; do [ -f "$f" ] || fail "no raw file $f"; done
  exec python3 deploy/profile-owners.py combine "deploy/profile-owners.sh combine --out $out $*" "$out" "$@"
fi

seconds=10 warmup=20 frequency=1999 port=29600 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds|--warmup|--frequency|--port)
      [ $# -ge 2 ] && [[ "$2" =~ ^[1-9][0-9]*$ ]] || fail "$1 takes a positive whole number, not '${2:-}'"
      declare "${1#--}=$2"; shift 2 ;;
    --out) [ $# -ge 2 ] || fail "--out takes a file"; out=$2; shift 2 ;;
    -*) fail "unknown flag $1; $usage" ;;
    *) break ;;
  esac
done
[ $# -eq 2 ] || fail "$usage"
server=$1 workload=$2
case "$server" in router-portshare|router-stock|nginx) ;; *) fail "unknown server '$server' (router-portshare, router-stock or nginx)" ;; esac
case "$workload" in
  hello-close) path=/hello close=yes column="hello close" ;;
  hello-keep-alive) path=/hello close=no column="hello keep-alive" ;;
  1k-keep-alive) path=/1k.bin close=no column="1k.bin keep-alive" ;;
  1k-close) path=/1k.bin close=yes column="1k.bin close" ;;
  *) fail "unknown workload '$workload' (hello-close, hello-keep-alive, 1k-keep-alive or 1k-close)" ;;
esac
for tool in perf wrk taskset python3 curl; do
  command -v "$tool" >/dev/null || fail "$tool is not installed"
done
[ "$server" != nginx ] || command -v nginx >/dev/null || fail "nginx is not installed"
[ -n "$out" ] || out="bench-results/profile-owners-$server-$workload-$(date +%Y%m%d-%H%M%S).txt"
if [ -z "${PORTSHARE_PROFILE_INNER:-}" ]; then
  [ "$server" = nginx ] || portshare_need_jars bench
  export PORTSHARE_PROFILE_INNER=1
  portshare_bench_exec "$0" --seconds "$seconds" --warmup "$warmup" --frequency "$frequency" --port "$port" --out "$out" "$server" "$workload"
fi
load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)
mkdir -p "$(dirname "$out")"
work=$(mktemp -d)
chmod 755 "$work"
mkdir -p "$work/site" "$work/run/tmp"
head -c 1024 /dev/urandom >"$work/site/1k.bin"
chmod 755 "$work/site" "$work/run"; chmod 644 "$work/site/1k.bin"
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  # jcmd Compiler.perfmap writes the JVM's map where perf looks for it, /tmp/perf-PID.map
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; rm -f "/tmp/perf-$p.map"; done
  rm -rf "$work"
}
trap cleanup EXIT

# The ledger's rows (bench's Contenders), with frame pointers kept for perf's call stacks.
jvm=(java -Xms256m -Xmx256m -XX:+ExitOnOutOfMemoryError -XX:+PreserveFramePointer)
jar=bench/target/portshare-bench.jar
case "$server" in
  router-portshare) cmd=("${jvm[@]}" -cp "$jar" io.portshare.runtime.launch.Launcher --service router --host 0.0.0.0
    --port "$port" --admin-port $((port + 1)) --instances 1 --mode reuseport --root "$work/site") ;;
  router-stock) cmd=("${jvm[@]}" -cp "$jar" io.vertx.launcher.application.VertxApplication
    io.portshare.bench.router.StockRouterVerticle -instances 1
    -options '{"eventLoopPoolSize":1,"preferNativeTransport":true}' -conf "{\"port\":$port,\"root\":\"$work/site\"}") ;;
  nginx)
    sed -e "s|@WORKERS@|1|; s|@RUN@|$work/run|g; s|@ROOT@|$work/site|; s|@PORT@|$port|; s|@REUSEPORT@| reuseport|; s|@SENDFILE@|on|" \
      bench/peers/nginx-static.conf.template >"$work/run/nginx.conf"
    cmd=(nginx -c "$work/run/nginx.conf" -e "$work/run/error.log") ;;
esac
taskset -c 1 "${cmd[@]}" >"$work/server.log" 2>&1 &
spid=$!; pids+=("$spid")
url="http://127.0.0.1:$port"
for _ in $(seq 100); do
  curl -sf -o /dev/null "$url/hello" && break
  kill -0 "$spid" 2>/dev/null || { tail -5 "$work/server.log" >&2; die "$server exited before it answered"; }
  sleep 0.3
done
# The ledger's answer check: 200 and exactly the body.
[ "$(curl -sf "$url/hello")" = hello ] || die "$server: GET /hello does not answer hello"
curl -sf "$url/1k.bin" | cmp -s - "$work/site/1k.bin" || die "$server: GET /1k.bin is not the file"
server_pids=$spid
[ "$server" = nginx ] && server_pids="$spid,$(pgrep -d, -P "$spid")"

wrk_args() { # ADDRESS SECONDS: sets wrk, the client's arguments (pinned by the caller)
  wrk=(wrk -t1 -c32 -d"$2"s)
  [ "$close" = yes ] && wrk+=(-H 'Connection: close')
  wrk+=("http://$1:$port$path")
}
wrk_shown() { # ADDRESS SECONDS: the client's command as a shell would take it
  wrk_args "$@"
  echo "taskset -c 0 ${wrk[*]}" | sed "s|Connection: close|'Connection: close'|"
}
cpu_ticks() { # utime+stime and utime of the server's processes, in clock ticks
  local p u=0 s=0 f
  for p in ${server_pids//,/ }; do
    read -r -a f <"/proc/$p/stat"
    u=$((u + f[13])); s=$((s + f[14]))
  done
  echo "$((u + s)) $u"
}
window() { # NAME ADDRESS [PREFIX...]: one client run on CPU 0 (behind PREFIX, a perf record), the server's ticks around it
  local name=$1 addr=$2 before after
  shift 2
  wrk_args "$addr" "$seconds"
  read -r -a before < <(cpu_ticks)
  taskset -c 0 "$@" "${wrk[@]}" >"$work/$name.wrk" 2>"$work/$name.err"
  read -r -a after < <(cpu_ticks)
  ! grep -q 'Non-2xx' "$work/$name.wrk" || die "$server: answers past 3xx in the $name window: $(grep Non-2xx "$work/$name.wrk")"
  echo "$name $addr $((after[0] - before[0])) $((after[1] - before[1]))" >>"$work/windows"
}
wrk_args 127.0.0.2 "$warmup"
taskset -c 0 "${wrk[@]}" >/dev/null
# cpu-clock where the machine (a VM) has no hardware counters.
event=cycles
perf stat -e cycles -x, -- true 2>&1 | grep -q '^[0-9]' || event=cpu-clock
window unprofiled 127.0.0.3
window profiled 127.0.0.4 perf record -q -e "$event" -F "$frequency" -g -p "$server_pids" -o "$work/perf.data" --
if [ "$server" != nginx ]; then
  taskset -c 0 jcmd "$spid" Compiler.perfmap >/dev/null || die "jcmd $spid Compiler.perfmap failed: Java frames would have no names"
  [ -s "/tmp/perf-$spid.map" ] || die "jcmd Compiler.perfmap wrote no perf map for $spid"
fi
{
  echo "command: deploy/profile-owners.sh --seconds $seconds --warmup $warmup --frequency $frequency --port $port $server $workload"
  commit=$(git rev-parse HEAD)
  [ -z "$(git status --porcelain --untracked-files=no)" ] || commit="$commit (with uncommitted changes)"
  echo "commit: $commit"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "load average at start: $load_at_start"
  echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "machine: CPUs $(nproc), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), kernel $(uname -r)"
  [ "$server" = nginx ] && echo "version: $(nginx -v 2>&1)" || echo "version: $(java -version 2>&1 | head -1)"
  if [ -n "${PORTSHARE_BENCH_NETNS:-}" ]; then echo "network: private network namespace $PORTSHARE_BENCH_NETNS"
  else echo "network: this host's network namespace"; fi
  echo "server name: $server"
  echo "workload: $column"
  echo "server: taskset -c 1 ${cmd[*]}" | sed "s|$work/site|SITE|g; s|$work/run|RUN|g"
  echo "client: $(wrk_shown 127.0.0.x "$seconds"), each window to its own address (unprofiled 127.0.0.3, profiled 127.0.0.4)"
  echo "warm-up: $(wrk_shown 127.0.0.2 "$warmup"), unmeasured"
  echo "perf: perf record -q -e $event -F $frequency -g -p SERVER_PIDS for exactly the profiled client run$([ "$server" = nginx ] || echo "; Java frames named by jcmd PID Compiler.perfmap right after it")"
  echo "CPU: utime+stime of the server's processes from /proc/PID/stat over each client run, over wrk's requests; shares from perf's samples, each charged to the frame it was taken in (JIT-compiled methods with what they inlined)"
} >"$work/header"
perf script -i "$work/perf.data" -F comm,tid,period,ip,sym,dso 2>/dev/null >"$work/perf.script"
python3 deploy/profile-owners.py one "$work/header" "$work/windows" "$work/perf.script" "$(getconf CLK_TCK)" \
  "$work/unprofiled.wrk" "$work/profiled.wrk" >"$work/table"
mv "$work/table" "$out"
echo "$me: wrote $out" >&2
