#!/usr/bin/env bash
# Cold start: what a fresh server answers right after it reports ready, against its peer in the
# same run. Per round, each target starts fresh, waits for ready, and is hit at once:
#   static-server, nginx   httperf storm: RATE new connections/s (4000), CONNS connections (10000),
#                          one GET of the 4.1 KB demo index page each, 1 s timeout; then the same
#                          storm again (warm). Reports answered (2xx), errors, connection rate.
#   rpc-server, C echo     bench/peers/c-echo/rpcload, 64 B, one transaction per connection,
#                          INTERVALS (8) consecutive 2 s runs: the first against the median of the
#                          last three (warm), and the time until a run reaches 0.9x warm.
# For each Java runtime in JAVAS and each --warmup in WARMUPS; targets alternate order per round.
# Prints the median of ROUNDS (3) fresh starts per target; raw lines go to OUT (default
# bench-results/coldstart-<time>.txt), the command in its first line.
#
#   deploy/bench.sh coldstart                    # runs deploy/bench-coldstart.sh, which takes no arguments
#   JAVAS="java 25 25:-XX:+UseCompactObjectHeaders" WARMUPS="0 12s" deploy/bench.sh coldstart
#   JAVAS="java 25 25:aot" WARMUPS="0 12s" deploy/bench.sh coldstart
#
# A JAVAS entry is a java binary, or a major release N for the newest installed JDK N or later
# (deploy/java.sh), then optionally a colon and JVM flags separated by commas
# (25:-XX:+UseCompactObjectHeaders,-Xshare:off, /opt/jdk-25/bin/java:-Xshare:off). The flag aot (Java 25 or later)
# is an ahead-of-time cache this run trains first, per service, with that java and the jar it
# measures (deploy/aot-cache.sh: the runtime's 12 s warm-up, then SIGTERM); a given cache is
# -XX:AOTCache=FILE, @SERVICE@ in FILE the service's short name (static, rpc). Either runs with
# -XX:AOTMode=on, so a cache the JVM cannot use stops the run instead of measuring without it.
#
# Environment: ROUNDS, JAVAS (entries as above; default: java on PATH and 25 if installed), WARMUPS (default
# "12s"), JAVA_OPTS (service JVM flags), RATE, CONNS, INTERVALS, RPC_CONNS (rpcload connections,
# 32), PORT (18740; admin PORT+1), OUT, STATIC_JAR and RPC_JAR (the service jars). Each run uses its own 127.0.0.x destination (TIME_WAIT).
# Needs httperf, nginx, gcc. Hold the machine's benchmark lock around it on a shared machine.
set -euo pipefail

HERE=$(cd "$(dirname "$0")/.." && pwd)
cd "$HERE"
. deploy/lib.sh
portshare_help "$@"
[ $# -eq 0 ] || { echo "coldstart: takes no arguments, only the environment (deploy/bench.sh coldstart --help), not '$1'" >&2; exit 2; }
. deploy/java.sh
ROUNDS=${ROUNDS:-3}
# By default the runtime the services use (java on PATH) against Java 25 or later where installed.
JAVAS=${JAVAS:-java$(portshare_java_home_of 25 >/dev/null && echo " 25")}
WARMUPS=${WARMUPS:-12s}
JAVA_OPTS=${JAVA_OPTS:--XX:+ExitOnOutOfMemoryError}
RATE=${RATE:-4000}
CONNS=${CONNS:-10000}
INTERVALS=${INTERVALS:-8}
RPC_CONNS=${RPC_CONNS:-32}
PORT=${PORT:-18740}
ADMIN_PORT=$((PORT + 1))
OUT=${OUT:-bench-results/coldstart-$(date -u +%Y%m%dT%H%M%SZ).txt}
# Jars given by the caller are named in the raw file's command line (a run of another build's jars).
given_jars="${STATIC_JAR:+STATIC_JAR=$STATIC_JAR }${RPC_JAR:+RPC_JAR=$RPC_JAR }"
STATIC_JAR=${STATIC_JAR:-$(portshare_jar static-server)}
RPC_JAR=${RPC_JAR:-$(portshare_jar rpc-server)}
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
PEERS=bench/peers/c-echo

for tool in httperf gcc; do
  command -v "$tool" >/dev/null || { echo "coldstart: $tool is needed" >&2; exit 2; }
done
for j in $JAVAS; do
  case "${j%%:*}" in
    *[!0-9]*) ;;
    *) portshare_java_home_of "${j%%:*}" >/dev/null || { echo "coldstart: JAVAS names Java ${j%%:*}, and no JDK" \
         "${j%%:*} or later is installed under ${PORTSHARE_JVM_DIR:-/usr/lib/jvm}" >&2; exit 2; } ;;
  esac
done
[ -x "$NGINX" ] || { echo "coldstart: nginx is needed" >&2; exit 2; }
if [ ! -f "$STATIC_JAR" ] || [ ! -f "$RPC_JAR" ]; then
  portshare_need_jars static-server rpc-server
fi
[ -x "$PEERS/echo" ] && [ -x "$PEERS/rpcload" ] || "$PEERS/build.sh"

WORK=$(mktemp -d)
chmod 755 "$WORK" # nginx's workers run as another user
SERVER_PID=
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$WORK/site" "$WORK/tmp" "$(dirname "$OUT")"
unzip -q -o -j "$STATIC_JAR" 'io/portshare/statics/demo/index.html' -d "$WORK/site"

{
  echo "# command: ROUNDS=$ROUNDS JAVAS=\"$JAVAS\" WARMUPS=\"$WARMUPS\" RATE=$RATE CONNS=$CONNS INTERVALS=$INTERVALS RPC_CONNS=$RPC_CONNS ${given_jars}deploy/bench.sh coldstart  ($(date -u +%FT%TZ), $(nproc) CPUs, $(uname -r))"
  echo "# commit: $(portshare_record_commit)"
  echo "# load average at start: $(portshare_load)"
} >"$OUT"
echo "# target runtime warmup round ready_s answered errors conn_per_s warm_answered | first2s warm ratio full_speed_s" >>"$OUT"

next_host=10
host() { next_host=$((next_host + 1)); HOST=127.0.0.$next_host; }
now() { date +%s.%N; }
# A JAVAS entry: a java binary, then a colon and comma-separated flags (see the header).
jbin() {
  local bin="${1%%:*}"
  case "$bin" in
    *[!0-9]*) echo "$bin" ;;
    *) echo "$(portshare_java_home_of "$bin")/bin/java" ;;
  esac
}
jflags() { case "$1" in *:*) echo "${1#*:}" | tr ',' ' ' ;; esac; }
jlabel() { echo "$("$(jbin "$1")" -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/java\1/p')$(jflags "$1" | sed 's/-XX:+UseCompactObjectHeaders/+coh/; s/-XX:AOTCache=[^ ]*/+aot/; s/\baot\b/+aot/; s/ //g')"; }
# The trained caches: aot/JAVAS-INDEX-SERVICE.aot under WORK, made before the first round.
aot_file() { # entry service
  local i=0 e
  for e in $JAVAS; do
    [ "$e" = "$1" ] && break
    i=$((i + 1))
  done
  echo "$WORK/aot/$i-$2.aot"
}

# Starts a service jar and waits for /health/ready; READY: seconds from launch to ready.
start_java() { # java warmup jar host
  local t0 flags
  t0=$(now)
  # @SERVICE@ in a runtime's flags: the service's short name, e.g. -XX:AOTCache=caches/@SERVICE@.aot
  local service
  service=$(basename "$3" .jar | sed 's/^portshare-//; s/-server$//')
  flags=$(jflags "$1")
  flags=${flags//@SERVICE@/$service}
  flags=$(echo " $flags " | sed "s| aot | -XX:AOTCache=$(aot_file "$1" "$service") |")
  case "$flags" in *-XX:AOTCache=*) flags="$flags -XX:AOTMode=on" ;; esac
  # shellcheck disable=SC2086
  "$(jbin "$1")" $JAVA_OPTS $flags -jar "$3" --host "$4" --port "$PORT" --admin-port "$ADMIN_PORT" --warmup "$2" >"$WORK/server.log" 2>&1 &
  SERVER_PID=$!
  local ready=0
  portshare_admin_host=$4 portshare_await_ready "$ADMIN_PORT" "$SERVER_PID" 60 || ready=$?
  case "$ready" in
    0) READY=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }') ;;
    1) cat "$WORK/server.log" >&2; exit 1 ;;
    *) echo "coldstart: not ready in 60 s" >&2; exit 1 ;;
  esac
}

stop_server() {
  if [ -n "$SERVER_PID" ]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
  fi
}

# Waits until something accepts on host:port; READY: seconds from launch.
wait_port() { # host t0
  for _ in $(seq 1 400); do
    if (exec 3<>"/dev/tcp/$1/$PORT") 2>/dev/null; then
      READY=$(awk -v a="$2" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
      return
    fi
    sleep 0.02
  done
  echo "coldstart: nothing listens on $1:$PORT" >&2
  exit 1
}

storm() { # host -> "answered errors conn_per_s", or "killed killed killed"
  # httperf can spin forever once a storm goes wrong (seen: 25 minutes at 100% CPU); a storm
  # takes CONNS/RATE seconds plus its timeout, so a minute is plenty. A killed or failed httperf
  # measured nothing: the storm is reported as killed and kept out of the medians, not counted as
  # nothing answered.
  local rc=0
  timeout 60 httperf --hog --server "$1" --port "$PORT" --uri /index.html --rate "$RATE" --num-conns "$CONNS" \
    --num-calls 1 --timeout 1 >"$WORK/httperf.txt" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "httperf: killed or failed (exit $rc)" >>"$WORK/httperf.txt"
  fi
  cat "$WORK/httperf.txt" >>"$WORK/raw.txt"
  if [ "$rc" -ne 0 ] || ! grep -q '^Reply status:' "$WORK/httperf.txt"; then
    printf 'killed killed killed'
    return
  fi
  awk '/^Connection rate:/ { rate = $3 } /^Reply status:/ { split($4, a, "="); ok = a[2] } /^Errors: total/ { err = $3 }
       END { printf "%d %d %.0f", ok, err, rate }' "$WORK/httperf.txt"
}

rpc_runs() { # host -> "first2s warm ratio full_speed_s"
  local rates=()
  for _ in $(seq 1 "$INTERVALS"); do
    rates+=("$(timeout 30 "$PEERS/rpcload" -h "$1" -p "$PORT" -c "$RPC_CONNS" -s 64 -n 1 -d 2 2>>"$WORK/raw.txt" \
      | awk '/ trans\/s / { print $1 }')")
  done
  echo "rpc runs: ${rates[*]}" >>"$WORK/raw.txt"
  printf '%s\n' "${rates[@]}" | awk '{ r[NR] = $1 } END {
      n = NR; a = r[n-2]; b = r[n-1]; c = r[n]
      warm = (a > b) ? ((b > c) ? b : ((a > c) ? c : a)) : ((a > c) ? a : ((b > c) ? c : b))
      full = -1; for (i = 1; i <= n; i++) if (full < 0 && r[i] >= 0.9 * warm) full = (i - 1) * 2
      printf "%d %d %.2f %d", r[1], warm, r[1] / warm, full }'
}

run_static() { # java warmup round
  local h s w
  host
  h=$HOST
  start_java "$1" "$2" "$STATIC_JAR" "$h"
  s=$(storm "$h")
  w=$(storm "$h" | awk '{ print $1 }')
  echo "static-server $(jlabel "$1") $2 $3 $READY $s $w" >>"$OUT"
  grep -h "ready in" "$WORK/server.log" | sed 's/^/#   /' >>"$OUT" || true
  stop_server
}

run_nginx() { # round
  local h t0 s w
  host
  h=$HOST
  sed -e "s|@WORKERS@|$(nproc)|; s|@RUN@|$WORK|g; s|@ROOT@|$WORK/site|; s|listen @PORT@|listen $h:$PORT|" \
    -e "s|@SENDFILE@|on|; s|@REUSEPORT@||" bench/peers/nginx-static.conf.template >"$WORK/nginx.conf"
  # A placeholder the template gained and this script does not fill would make nginx refuse to
  # start, seen only as nothing listening: say which, and nginx's own reason for anything else.
  if grep -o '@[A-Z_]*@' "$WORK/nginx.conf" | sort -u | paste -sd' ' - | grep .; then
    echo "coldstart: bench/peers/nginx-static.conf.template has placeholders this script does not fill (above)" >&2
    exit 1
  fi
  "$NGINX" -t -q -c "$WORK/nginx.conf" -e "$WORK/nginx-error.log" || exit 1
  t0=$(now)
  # The template runs nginx in the foreground (daemon off), as a child of this script.
  "$NGINX" -c "$WORK/nginx.conf" -e "$WORK/nginx-error.log" >/dev/null 2>&1 &
  SERVER_PID=$!
  wait_port "$h" "$t0"
  s=$(storm "$h")
  w=$(storm "$h" | awk '{ print $1 }')
  echo "nginx nginx - $1 $READY $s $w" >>"$OUT"
  stop_server
}

run_rpc() { # java warmup round
  local h
  host
  h=$HOST
  start_java "$1" "$2" "$RPC_JAR" "$h"
  local runs
  runs=$(rpc_runs "$h")
  echo "rpc-server $(jlabel "$1") $2 $3 $READY - - - - | $runs" >>"$OUT"
  grep -h "ready in" "$WORK/server.log" | sed 's/^/#   /' >>"$OUT" || true
  stop_server
}

run_echo() { # round
  local h t0
  host
  h=$HOST
  t0=$(now)
  "$PEERS/echo" -p "$PORT" >"$WORK/echo.log" 2>&1 &
  SERVER_PID=$!
  wait_port "$h" "$t0"
  echo "c-echo c - $1 $READY - - - - | $(rpc_runs "$h")" >>"$OUT"
  stop_server
}

# The caches this run trains (an entry with the flag aot), before any is measured.
for j in $JAVAS; do
  case " $(jflags "$j") " in
    *" aot "*)
      : >"$WORK/aot-training.txt"
      for jar in "$STATIC_JAR" "$RPC_JAR"; do
        service=$(basename "$jar" .jar | sed 's/^portshare-//; s/-server$//')
        JAVA="$(jbin "$j")" deploy/aot-cache.sh "$jar" --port "$PORT" --out "$(aot_file "$j" "$service")" >/dev/null \
          2>>"$WORK/aot-training.txt" || { cat "$WORK/aot-training.txt" >&2; exit 1; }
      done
      grep -h "ready in" "$WORK/aot-training.txt" | sed 's/^/# /' >>"$OUT" ;;
  esac
done

for round in $(seq 1 "$ROUNDS"); do
  targets=()
  for j in $JAVAS; do
    for w in $WARMUPS; do
      targets+=("static|$j|$w" "rpc|$j|$w")
    done
  done
  targets+=(nginx echo)
  # Alternate: odd rounds in order, even rounds reversed.
  if [ $((round % 2)) -eq 0 ]; then
    for ((i = ${#targets[@]} - 1; i >= 0; i--)); do ordered+=("${targets[i]}"); done
  else
    ordered=("${targets[@]}")
  fi
  for t in "${ordered[@]}"; do
    IFS='|' read -r kind j w <<<"$t"
    case "$kind" in
      static) run_static "$j" "$w" "$round" ;;
      rpc) run_rpc "$j" "$w" "$round" ;;
      nginx) run_nginx "$round" ;;
      echo) run_echo "$round" ;;
    esac
    sleep 1
  done
  ordered=()
done

{
  echo "# raw httperf output and rpcload runs, in run order:"
  sed 's/^/#   /' "$WORK/raw.txt"
} >>"$WORK/tail.txt"

# Medians per target/runtime/warmup over the rounds.
summary=$(grep -v '^#' "$OUT" | awk '
  function med(s,   a, n, t, i, j) { n = split(s, a, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  function span(s,   a, n, lo, hi, i) { n = split(s, a, " "); lo = hi = a[1]; for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] } return lo "-" hi }
  { k = $1 " " $2 " " $3; keys[k] = 1; ready[k] = ready[k] " " $5
    if ($6 == "killed") killed[k]++
    else if ($6 != "-") { ans[k] = ans[k] " " $6; err[k] = err[k] " " $7; rate[k] = rate[k] " " $8 }
    if ($9 == "killed") wkilled[k]++
    else if ($6 != "-") warm[k] = warm[k] " " $9
    if ($10 == "|") { f[k] = f[k] " " $11; w2[k] = w2[k] " " $12; r[k] = r[k] " " $13; fs[k] = fs[k] " " $14 } }
  END { for (k in keys) {
      line = sprintf("%-32s ready %5.2f s (%s)", k, med(ready[k]), span(ready[k]))
      if (ans[k] != "") line = line sprintf("  answered %5d of '"$CONNS"' (%s), errors %d, %d conn/s", med(ans[k]), span(ans[k]), med(err[k]), med(rate[k]))
      if (warm[k] != "") line = line sprintf("; warm storm %d", med(warm[k]))
      if (killed[k] + wkilled[k] > 0) line = line sprintf("; FAILED: %d first and %d warm storm(s) killed, kept out of the medians", killed[k], wkilled[k])
      if (f[k] != "") line = line sprintf("  first 2 s %6d trans/s, warm %6d, ratio %.2f (%s), full speed after %d s", med(f[k]), med(w2[k]), med(r[k]), span(r[k]), med(fs[k]))
      print line } }' | sort)
{
  echo "# median of $ROUNDS fresh starts (min-max):"
  echo "$summary" | sed 's/^/# /'
  cat "$WORK/tail.txt"
} >>"$OUT"
echo "$summary"
echo "coldstart: raw results in $OUT"
