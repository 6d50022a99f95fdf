#!/usr/bin/env bash
# Run it: both services with their defaults, in the foreground.
#   static-server  http://localhost:8080/   admin http://localhost:8081/health/ready, /metrics
#   rpc-server     localhost:9090           admin http://localhost:9091/health/ready, /metrics
# Builds the jars first when they are missing. Ctrl-C or SIGTERM drains and stops both; if one
# service stops by itself, the other is stopped too and its exit code is returned.
# Extra launcher flags per service: STATIC_ARGS="--port 8088" RPC_ARGS="--instances 2" deploy/run.sh
# JVM flags for both: JAVA_OPTS (default -XX:+ExitOnOutOfMemoryError); java binary: JAVA.
set -uo pipefail

. "$(dirname "$0")/lib.sh"
java="${JAVA:-java}"
read -r -a java_opts <<< "${JAVA_OPTS:--XX:+ExitOnOutOfMemoryError}"
read -r -a static_args <<< "${STATIC_ARGS:-}"
read -r -a rpc_args <<< "${RPC_ARGS:-}"
static_jar=$(portshare_jar static-server)
rpc_jar=$(portshare_jar rpc-server)
portshare_need_jars static-server rpc-server || exit 1

# $! stays the JVM's pid: the output prefix runs in a process substitution.
"$java" "${java_opts[@]}" -jar "$static_jar" "${static_args[@]}" > >(sed -u 's/^/[static] /') 2>&1 &
static_pid=$!
"$java" "${java_opts[@]}" -jar "$rpc_jar" "${rpc_args[@]}" > >(sed -u 's/^/[rpc]    /') 2>&1 &
rpc_pid=$!

stop_both() {
  trap '' TERM INT
  kill -TERM "$static_pid" "$rpc_pid" 2>/dev/null
  wait "$static_pid"; local s=$?
  wait "$rpc_pid"; local r=$?
  # 127: already reaped below, when it stopped by itself.
  [ $s -eq 127 ] && s=0
  [ $r -eq 127 ] && r=0
  exit $(( s > r ? s : r ))
}
trap stop_both TERM INT

# Wake up when either stops by itself (a bad flag, a port in use, a crash).
while kill -0 "$static_pid" 2>/dev/null && kill -0 "$rpc_pid" 2>/dev/null; do
  sleep 0.5 & wait $! 2>/dev/null
done
if ! kill -0 "$static_pid" 2>/dev/null; then
  wait "$static_pid"; code=$?; who=static-server
else
  wait "$rpc_pid"; code=$?; who=rpc-server
fi
echo "run: $who stopped with code $code; stopping the other" >&2
trap '' TERM INT
kill -TERM "$static_pid" "$rpc_pid" 2>/dev/null
wait "$static_pid" "$rpc_pid" 2>/dev/null
exit $(( code == 0 ? 1 : code ))
