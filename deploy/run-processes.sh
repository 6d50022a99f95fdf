#!/usr/bin/env bash
# N supervised processes of one service on one port: each is `--instances 1 --mode reuseport`,
# so the kernel's SO_REUSEPORT hash spreads connections over N JVMs (the "processes" row of the
# scaling modes). Process i gets admin port ADMIN+i. The supervisor (the service jar's --supervise N)
# binds the N listening sockets once and hands each process its socket; it never closes them while
# it runs, so nothing a client sent is reset:
#   - a process that dies is restarted on the same socket (connections wait in its queue meanwhile);
#   - SIGHUP replaces every process, one at a time: the new one serves the socket, then the old drains;
#   - SIGTERM or Ctrl-C drains them all and exits 0 when all stopped cleanly.
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
  -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
. "$root/deploy/lib.sh"
jar="${SERVICE_JAR:-$(portshare_jar "$service")}"
if [ -z "${SERVICE_JAR:-}" ]; then
  portshare_need_jars "$service" || exit 1
fi
[ -f "$jar" ] || { echo "run-processes: no jar at $jar" >&2; exit 1; }
# The environment must not undo the supervisor's flags below.
unset PORTSHARE_PORT PORTSHARE_ADMIN_PORT PORTSHARE_INSTANCES PORTSHARE_MODE PORTSHARE_SUPERVISE

# The shell cannot hold a listening socket and pass it on, so the supervisor is the jar itself
# (exec: signals reach it directly, and no shell is left to die and orphan the processes).
# Its children run with the same JVM flags.
exec "$java" "${java_opts[@]}" -jar "$jar" --supervise "$count" --port "$port" --admin-port "$admin" "$@"
