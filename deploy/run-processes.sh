#!/usr/bin/env bash
# N supervised processes of one service on one port: each is `--instances 1 --mode reuseport`,
# so the kernel's SO_REUSEPORT hash spreads connections over N JVMs (the "processes" row of the
# scaling modes). Process i gets admin port ADMIN+i. A process that dies is logged and restarted;
# SIGTERM or Ctrl-C drains them all and exits 0 when all stopped cleanly.
#
#   deploy/run-processes.sh SERVICE [N] [LAUNCHER FLAGS...]
#     SERVICE   rpc-server | static-server (or rpc | static)
#     N         processes, default: CPUs of this machine
#   Environment:
#     PORTSHARE_PORT        shared traffic port (default: the service's, 9090 / 8080)
#     PORTSHARE_ADMIN_PORT  admin port of process 0; process i uses +i (default 9091 / 8081)
#     JAVA                  java binary (default: java on PATH)
#     JAVA_OPTS             JVM flags for every process (default: -Xmx256m -XX:+ExitOnOutOfMemoryError)
#     SERVICE_JAR           the jar to run (default: SERVICE/target/portshare-SERVICE.jar, built if missing)
set -uo pipefail

usage() {
  echo "usage: deploy/run-processes.sh rpc-server|static-server [N] [launcher flags...]" >&2
  exit 2
}

root="$(cd "$(dirname "$0")/.." && pwd)"
[ $# -ge 1 ] || usage
case "$1" in
  rpc|rpc-server) service=rpc-server; port=9090; admin=9091 ;;
  static|static-server) service=static-server; port=8080; admin=8081 ;;
  -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "run-processes: unknown service \"$1\"; expected rpc-server or static-server" >&2; exit 2 ;;
esac
shift
count="$(nproc)"
if [ $# -ge 1 ] && [[ "$1" != --* ]]; then
  if ! [[ "$1" =~ ^[1-9][0-9]*$ ]] || [ "$1" -gt 512 ]; then
    echo "run-processes: invalid process count \"$1\"; expected 1..512" >&2
    exit 2
  fi
  count="$1"
  shift
fi
port="${PORTSHARE_PORT:-$port}"
admin="${PORTSHARE_ADMIN_PORT:-$admin}"
for v in "$port" "$admin"; do
  if ! [[ "$v" =~ ^[0-9]+$ ]] || [ "$v" -lt 1 ] || [ $((v + count - 1)) -gt 65535 ]; then
    # Port 0 would give every process its own port: there would be nothing to share.
    echo "run-processes: invalid port \"$v\"; expected 1..65535 (port 0 cannot be shared)" >&2
    exit 2
  fi
done
java="${JAVA:-java}"
read -r -a java_opts <<< "${JAVA_OPTS:--Xmx256m -XX:+ExitOnOutOfMemoryError}"
jar="${SERVICE_JAR:-$root/$service/target/portshare-$service.jar}"
if [ ! -f "$jar" ] && [ -z "${SERVICE_JAR:-}" ]; then
  echo "run-processes: $jar is missing; building (./mvnw -q -B package -DskipTests)" >&2
  (cd "$root" && ./mvnw -q -B package -DskipTests) || exit 1
fi
[ -f "$jar" ] || { echo "run-processes: no jar at $jar" >&2; exit 1; }
# The environment must not undo the per-process flags below.
unset PORTSHARE_PORT PORTSHARE_ADMIN_PORT PORTSHARE_INSTANCES PORTSHARE_MODE

log() { echo "run-processes: $*" >&2; }

declare -a pids started
stopping=0

start_one() {
  local i=$1
  shift
  # Output goes through a per-process prefix; $! stays the JVM's pid (process substitution).
  "$java" "${java_opts[@]}" -jar "$jar" --instances 1 --mode reuseport \
      --port "$port" --admin-port $((admin + i)) "$@" \
      > >(sed -u "s/^/[$service#$i] /") 2>&1 &
  pids[i]=$!
  started[i]=$SECONDS
  log "$service #$i started (pid ${pids[i]}, port $port, admin port $((admin + i)))"
}

stop_all() {
  stopping=1
  log "stopping: draining ${#pids[@]} processes"
  for i in "${!pids[@]}"; do
    kill -TERM "${pids[i]}" 2>/dev/null
  done
  local failed=0
  for i in "${!pids[@]}"; do
    wait "${pids[i]}"
    local code=$?
    if [ "$code" -ne 0 ]; then
      log "$service #$i (pid ${pids[i]}) exited with code $code"
      failed=1
    fi
  done
  log "all stopped"
  exit $failed
}
trap stop_all TERM INT

for ((i = 0; i < count; i++)); do
  start_one "$i" "$@"
done

declare -a restarts
while true; do
  # A background sleep waited on lets the TERM trap run at once instead of after the sleep.
  sleep 0.5 & wait $! 2>/dev/null
  [ "$stopping" = 1 ] && continue
  for i in "${!pids[@]}"; do
    if ! kill -0 "${pids[i]}" 2>/dev/null; then
      wait "${pids[i]}" 2>/dev/null
      code=$?
      [ "$stopping" = 1 ] && break
      if [ "$code" -eq 2 ]; then
        # Bad usage or config: every restart would fail the same way.
        log "$service #$i exited with code 2 (bad usage or config); stopping all"
        unset 'pids[i]'
        stop_all
      fi
      restarts[i]=$(( ${restarts[i]:-0} + 1 ))
      log "$service #$i (pid ${pids[i]}) died with code $code after $((SECONDS - started[i])) s; restarting (restart ${restarts[i]})"
      # A process that dies at once again and again is not restarted in a hot loop.
      if [ $((SECONDS - started[i])) -lt 2 ] && [ "${restarts[i]}" -gt 3 ]; then
        sleep 2 & wait $! 2>/dev/null
        [ "$stopping" = 1 ] && break
      fi
      start_one "$i" "$@"
    fi
  done
done
