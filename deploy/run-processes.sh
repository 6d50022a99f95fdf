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
#     SERVICE   any service jar, by path (path/to/my-service.jar) or by module name: rpc-server,
#               static-server, or a module deploy/new-service.sh wrote (greeter-server:
#               greeter-server/target/portshare-greeter-server.jar); NAME-server also as NAME
#               (rpc, static, greeter). A module's jar is built when missing.
#     N         processes, default: CPUs of this machine
#   deploy/run-processes.sh greeter-server 2
#   deploy/run-processes.sh path/to/my-service.jar 4 --config my-service.yaml
#   Environment:
#     PORTSHARE_PORT        shared traffic port (default: the service's own; rpc-server 9090, static-server 8080)
#     PORTSHARE_ADMIN_PORT  admin port of process 0; process i uses +i (default: the service's own; 9091 / 8081)
#     JAVA                  java binary (default: java on PATH)
#     JAVA_OPTS             JVM flags for every process (default: -Xmx256m -XX:+ExitOnOutOfMemoryError)
#     SERVICE_JAR           the jar to run instead of SERVICE's (SERVICE still picks the default ports)
#     BUILD=0               never build a module's jar: a missing one is an error
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
. "$root/deploy/lib.sh"
portshare_me=run-processes
portshare_help "$@"

usage() {
  echo "usage: deploy/run-processes.sh SERVICE [N] [launcher flags...]  (SERVICE: a service jar's path or a module name such as rpc-server; --help says more)" >&2
  exit 2
}

[ $# -ge 1 ] || usage
case "$1" in
  -*) echo "run-processes: \"$1\" is no SERVICE; expected a service jar or module name first (--help says more)" >&2; exit 2 ;;
esac
portshare_service "$1" || exit 2
port=""; admin=""
# The shipped services' ports are given as they always were; any other service starts on its own.
case "$portshare_module" in
  rpc-server) port=9090; admin=9091 ;;
  static-server) port=8080; admin=8081 ;;
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
ports=()
for flag in port admin; do
  v="${!flag}"
  [ -n "$v" ] || continue
  if ! [[ "$v" =~ ^[0-9]+$ ]] || [ "$v" -lt 1 ] || [ $((v + count - 1)) -gt 65535 ]; then
    # Port 0 would give every process its own port: there would be nothing to share.
    echo "run-processes: invalid port \"$v\"; expected 1..65535 (port 0 cannot be shared)" >&2
    exit 2
  fi
  if [ "$flag" = port ]; then ports+=(--port "$v"); else ports+=(--admin-port "$v"); fi
done
java="${JAVA:-java}"
read -r -a java_opts <<< "${JAVA_OPTS:--Xmx256m -XX:+ExitOnOutOfMemoryError}"
if [ -n "${SERVICE_JAR:-}" ]; then
  jar="$SERVICE_JAR"
elif [ -n "$portshare_module" ]; then
  jar="$portshare_service_jar"
  portshare_need_jars "$portshare_module" || exit 1
else
  jar="$portshare_service_jar"
fi
[ -f "$jar" ] || { echo "run-processes: no service jar at $jar" >&2; exit 2; }
# The environment must not undo the supervisor's flags below.
unset PORTSHARE_PORT PORTSHARE_ADMIN_PORT PORTSHARE_INSTANCES PORTSHARE_MODE PORTSHARE_SUPERVISE

# The shell cannot hold a listening socket and pass it on, so the supervisor is the jar itself
# (exec: signals reach it directly, and no shell is left to die and orphan the processes).
# Its children run with the same JVM flags.
exec "$java" "${java_opts[@]}" -jar "$jar" --supervise "$count" "${ports[@]}" "$@"
