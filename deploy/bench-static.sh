#!/usr/bin/env bash
# Static files: static-server against nginx on the same files, in one run on one machine.
#
#   deploy/bench-static.sh                 # about 5 minutes
#   DURATION=2s ROUNDS=1 deploy/bench-static.sh   # quick look
#
# Drives wrk against both servers, alternating which goes first in each round, and prints the
# median req/s (with min-max over rounds), latency and the ratio ours/nginx for 1, 8, 16, 24 KB
# objects and the 4.1 KB index page, keep-alive and one request per connection (Connection: close).
# Then, for a 100 MB file, the server's CPU seconds per GB (utime+stime from /proc/PID/stat),
# with sendfile and with --no-sendfile, and nginx's for reference.
#
# Everything goes over loopback; load generator and servers share the CPUs, so on a busy machine
# the absolute figures move a lot; the ratio of two servers measured back to back moves less.
#
# Environment: DURATION (wrk run, default 3s), ROUNDS (default 3), CONNS (default 64),
# THREADS (wrk threads, default 2), WORKERS (nginx workers and our event loops, default CPUs),
# PORT (ours, default 18080; admin PORT+1), NGINX_PORT (default 18090), BIG_ROUNDS (default 3),
# BIG_FETCHES (100 MB downloads per measurement, default 10), MODE (ours: reuseport|shared),
# JAVA_OPTS (extra JVM flags for ours), WARMUP (seconds of load on ours before measuring, default 30).
set -euo pipefail

DURATION=${DURATION:-3s}
WARMUP=${WARMUP:-30}
ROUNDS=${ROUNDS:-3}
CONNS=${CONNS:-64}
THREADS=${THREADS:-2}
WORKERS=${WORKERS:-$(nproc)}
PORT=${PORT:-18080}
ADMIN_PORT=$((PORT + 1))
NGINX_PORT=${NGINX_PORT:-18090}
BIG_ROUNDS=${BIG_ROUNDS:-3}
BIG_FETCHES=${BIG_FETCHES:-10}
MODE=${MODE:-reuseport}
JAVA_OPTS=${JAVA_OPTS:-}
HOST=127.0.0.1
HZ=$(getconf CLK_TCK)

cd "$(dirname "$0")/.."
HERE=$(pwd)
JAR=$HERE/static-server/target/portshare-static-server.jar

say() { printf '%s\n' "$*" >&2; }

install_tools() {
  local missing=()
  command -v wrk >/dev/null || missing+=(wrk)
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
  command -v curl >/dev/null || missing+=(curl)
  if [ ${#missing[@]} -gt 0 ]; then
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    say "installing ${missing[*]} with apt-get"
    $sudo apt-get install -y "${missing[@]}" >/dev/null 2>&1 \
      || { $sudo apt-get update >/dev/null && $sudo apt-get install -y "${missing[@]}" >/dev/null; }
  fi
}

NGINX=$(command -v nginx || echo /usr/sbin/nginx)
OURS_PID=""
WORK=""

cleanup() {
  [ -n "$OURS_PID" ] && kill "$OURS_PID" 2>/dev/null && wait "$OURS_PID" 2>/dev/null || true
  if [ -n "$WORK" ] && [ -f "$WORK/nginx.pid" ]; then
    "$NGINX" -c "$WORK/nginx.conf" -s quit 2>/dev/null || kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
  fi
  [ -n "$WORK" ] && rm -rf "$WORK"
}
trap cleanup EXIT

wait_http() { # url
  for _ in $(seq 1 200); do
    curl -fs -o /dev/null "$1" && return 0
    sleep 0.1
  done
  say "no answer from $1"; return 1
}

start_ours() { # extra flags...
  # shellcheck disable=SC2086
  java $JAVA_OPTS -jar "$JAR" --root "$WORK/site" --host "$HOST" --port "$PORT" --admin-port "$ADMIN_PORT" \
    --instances "$WORKERS" --mode "$MODE" "$@" >"$WORK/ours.log" 2>&1 &
  OURS_PID=$!
  wait_http "http://$HOST:$PORT/1k.bin"
}

stop_ours() {
  kill "$OURS_PID" 2>/dev/null || true
  wait "$OURS_PID" 2>/dev/null || true
  OURS_PID=""
}

start_nginx() { # sendfile on|off
  sed -e "s|@WORK@|$WORK|g" -e "s|@WORKERS@|$WORKERS|g" -e "s|@HOST@|$HOST|g" -e "s|@PORT@|$NGINX_PORT|g" \
    -e "s|sendfile on;|sendfile $1;|" "$HERE/bench/peers/nginx-static.conf.template" >"$WORK/nginx.conf"
  "$NGINX" -c "$WORK/nginx.conf" -e "$WORK/nginx-error.log" 2>/dev/null || "$NGINX" -c "$WORK/nginx.conf"
  wait_http "http://$HOST:$NGINX_PORT/1k.bin"
}

stop_nginx() {
  local pid
  pid=$(cat "$WORK/nginx.pid" 2>/dev/null || true)
  "$NGINX" -c "$WORK/nginx.conf" -s quit 2>/dev/null || true
  while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  rm -f "$WORK/nginx.pid"
}

# One wrk run: prints "req/s avg_latency_ms p99_latency_ms errors requests".
run_wrk() { # url close(0|1)
  local out hdr=()
  [ "$2" = 1 ] && hdr=(-H "Connection: close")
  out=$(wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency "${hdr[@]}" "$1" 2>&1)
  awk '
    function ms(v) { if (v ~ /us$/) return v/1000; if (v ~ /ms$/) return v+0; if (v ~ /s$/) return v*1000; return v }
    /Requests\/sec/ { rps = $2 }
    /^    Latency/ { avg = ms($2) }
    /^ +99%/ { p99 = ms($2) }
    /Socket errors/ { gsub(/,/, ""); err = $4 + $6 + $8 + $10 }
    /Non-2xx/ { err += $NF }
    / requests in / { n = $1 }
    END { printf "%.0f %.2f %.2f %d %d\n", rps, avg, p99, err, n }' <<<"$out"
}

median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
minmax() { sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s-%s", lo, hi }'; }

# CPU seconds (utime+stime) of a process and, for nginx, its workers.
cpu_ticks() { # pid...
  local t=0 p
  for p in "$@"; do
    t=$((t + $(awk '{ print $14 + $15 }' "/proc/$p/stat")))
  done
  echo "$t"
}

cpu_per_gb() { # url pids...
  local url=$1; shift
  curl -s -o /dev/null "$url" # warm up: page cache, JIT
  local before after bytes=0 n
  before=$(cpu_ticks "$@")
  for _ in $(seq 1 "$BIG_FETCHES"); do
    n=$(curl -s -o /dev/null -w '%{size_download}' "$url")
    bytes=$((bytes + n))
  done
  after=$(cpu_ticks "$@")
  awk -v t=$((after - before)) -v hz="$HZ" -v b="$bytes" 'BEGIN { printf "%.3f\n", (t / hz) / (b / 1073741824) }'
}

main() {
  install_tools
  if [ ! -f "$JAR" ]; then
    say "building $JAR"
    ./mvnw -q -B -pl static-server -am package -DskipTests
  fi
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-static.XXXXXX")
  chmod 755 "$WORK"
  mkdir -p "$WORK/site" "$WORK/nginx-tmp"
  for kb in 1 8 16 24; do head -c $((kb * 1024)) /dev/urandom >"$WORK/site/${kb}k.bin"; done
  unzip -p "$JAR" io/portshare/statics/demo/index.html >"$WORK/site/index.html"
  head -c $((100 * 1024 * 1024)) /dev/urandom >"$WORK/site/100m.bin"
  chmod -R a+rX "$WORK"

  say "wrk -t$THREADS -c$CONNS -d$DURATION, $ROUNDS rounds, servers alternate first; $WORKERS nginx workers / event loops ($MODE)"
  start_ours
  start_nginx on
  say "warming up (${WARMUP}s of load on ours: the JIT needs tens of CPU-seconds on a busy 2-core box)"
  local w=$((WARMUP / 10 > 0 ? WARMUP / 10 : 1))
  for path in 1k.bin 8k.bin 16k.bin 24k.bin index.html; do
    DURATION=${w}s run_wrk "http://$HOST:$PORT/$path" 0 >/dev/null
    DURATION=${w}s run_wrk "http://$HOST:$PORT/$path" 1 >/dev/null
  done
  DURATION=${w}s run_wrk "http://$HOST:$NGINX_PORT/1k.bin" 0 >/dev/null

  local results="$WORK/results"
  : >"$results"
  local cases=("1k.bin 0" "8k.bin 0" "16k.bin 0" "24k.bin 0" "index.html 0" "1k.bin 1" "8k.bin 1" "16k.bin 1" "24k.bin 1" "index.html 1")
  for round in $(seq 1 "$ROUNDS"); do
    for c in "${cases[@]}"; do
      set -- $c
      local order=(ours nginx)
      [ $((round % 2)) -eq 0 ] && order=(nginx ours)
      for who in "${order[@]}"; do
        local port=$PORT pids=$OURS_PID
        if [ "$who" = nginx ]; then
          port=$NGINX_PORT
          pids="$(cat "$WORK/nginx.pid") $(pgrep -P "$(cat "$WORK/nginx.pid")" | tr '\n' ' ')"
        fi
        local before after line
        # shellcheck disable=SC2086
        before=$(cpu_ticks $pids)
        line=$(run_wrk "http://$HOST:$port/$1" "$2")
        # shellcheck disable=SC2086
        after=$(cpu_ticks $pids)
        # Server CPU per request: steadier than req/s when the machine is shared.
        echo "$1 $2 $who $round $line $(awk -v t=$((after - before)) -v hz="$HZ" -v l="$line" \
          'BEGIN { split(l, f, " "); if (f[5] > 0) printf "%.1f", t / hz * 1e6 / f[5]; else print 0 }')" >>"$results"
      done
    done
    say "round $round of $ROUNDS done"
  done

  printf '\n%-11s %-10s %24s %24s %6s %18s %18s %14s\n' object conn "ours req/s (min-max)" "nginx req/s (min-max)" ratio \
    "lat ours avg/p99" "lat nginx avg/p99" "CPU us/req o/n"
  for c in "${cases[@]}"; do
    set -- $c
    local conn=keep-alive
    [ "$2" = 1 ] && conn=close
    local o n ol nl ratio errs
    o=$(awk -v f="$1" -v c="$2" '$1 == f && $2 == c && $3 == "ours" { print $5 }' "$results" | median)
    n=$(awk -v f="$1" -v c="$2" '$1 == f && $2 == c && $3 == "nginx" { print $5 }' "$results" | median)
    ol=$(awk -v f="$1" -v c="$2" '$1 == f && $2 == c && $3 == "ours" { print $5 }' "$results" | minmax)
    nl=$(awk -v f="$1" -v c="$2" '$1 == f && $2 == c && $3 == "nginx" { print $5 }' "$results" | minmax)
    local la lb
    la=$(awk -v f="$1" -v c="$2" '$1 == f && $2 == c && $3 == "ours" { print $6 }' "$results" | median)/$(awk -v f="$1" -v c="$2" '$1 == f && $2 == c && $3 == "ours" { print $7 }' "$results" | median)
    lb=$(awk -v f="$1" -v c="$2" '$1 == f && $2 == c && $3 == "nginx" { print $6 }' "$results" | median)/$(awk -v f="$1" -v c="$2" '$1 == f && $2 == c && $3 == "nginx" { print $7 }' "$results" | median)
    ratio=$(awk -v a="$o" -v b="$n" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
    errs=$(awk -v f="$1" -v c="$2" '$1 == f && $2 == c { e += $8 } END { print e + 0 }' "$results")
    local co cn
    co=$(awk -v f="$1" -v c="$2" '$1 == f && $2 == c && $3 == "ours" { print $10 }' "$results" | median)
    cn=$(awk -v f="$1" -v c="$2" '$1 == f && $2 == c && $3 == "nginx" { print $10 }' "$results" | median)
    printf '%-11s %-10s %10s (%s) %10s (%s) %6s %18s %18s %14s%s\n' "$1" "$conn" "$o" "$ol" "$n" "$nl" "$ratio" "$la ms" "$lb ms" "$co/$cn" \
      "$([ "$errs" -gt 0 ] && echo "  [$errs errors/non-2xx]")"
  done

  say ""
  say "100 MB file: server CPU seconds per GB ($BIG_FETCHES downloads per measurement, $BIG_ROUNDS rounds)"
  local sf=() cp=() ng=()
  for round in $(seq 1 "$BIG_ROUNDS"); do
    sf+=("$(cpu_per_gb "http://$HOST:$PORT/100m.bin" "$OURS_PID")")
    ng+=("$(cpu_per_gb "http://$HOST:$NGINX_PORT/100m.bin" $(pgrep -P "$(cat "$WORK/nginx.pid")") "$(cat "$WORK/nginx.pid")")")
  done
  stop_ours
  start_ours --no-sendfile
  # A fresh JVM: warm the copying path as much as the sendfile one was, or JIT time inflates it.
  for _ in 1 2 3 4 5; do curl -s -o /dev/null "http://$HOST:$PORT/100m.bin"; done
  for round in $(seq 1 "$BIG_ROUNDS"); do
    cp+=("$(cpu_per_gb "http://$HOST:$PORT/100m.bin" "$OURS_PID")")
  done
  stop_ours
  stop_nginx
  start_nginx off
  local ngc=()
  for round in $(seq 1 "$BIG_ROUNDS"); do
    ngc+=("$(cpu_per_gb "http://$HOST:$NGINX_PORT/100m.bin" $(pgrep -P "$(cat "$WORK/nginx.pid")") "$(cat "$WORK/nginx.pid")")")
  done
  local msf mcp
  msf=$(printf '%s\n' "${sf[@]}" | median)
  mcp=$(printf '%s\n' "${cp[@]}" | median)
  printf '\n%-34s %10s %14s\n' "100 MB file" "CPU-s/GB" "(min-max)"
  printf '%-34s %10s %14s\n' "ours, sendfile" "$msf" "($(printf '%s\n' "${sf[@]}" | minmax))"
  printf '%-34s %10s %14s\n' "ours, --no-sendfile (copying)" "$mcp" "($(printf '%s\n' "${cp[@]}" | minmax))"
  printf '%-34s %10s %14s\n' "nginx, sendfile on" "$(printf '%s\n' "${ng[@]}" | median)" "($(printf '%s\n' "${ng[@]}" | minmax))"
  printf '%-34s %10s %14s\n' "nginx, sendfile off" "$(printf '%s\n' "${ngc[@]}" | median)" "($(printf '%s\n' "${ngc[@]}" | minmax))"
  printf '%-34s %10s\n' "ours sendfile / ours copying" "$(awk -v a="$msf" -v b="$mcp" 'BEGIN { if (b > 0) printf "%.2f", a / b }')"
}

main "$@"
