#!/usr/bin/env bash
# Run it: services in the foreground, one process each; with no SERVICE, the two shipped ones with
# their defaults:
#   static-server  http://localhost:8080/   admin http://localhost:8081/health/ready, /metrics
#   rpc-server     localhost:9090           admin http://localhost:9091/health/ready, /metrics
#
#   deploy/run.sh [SERVICE...]
#     SERVICE   any service jar, by path (path/to/my-service.jar) or by module name: rpc-server,
#               static-server, or a module deploy/new-service.sh wrote (greeter-server:
#               greeter-server/target/portshare-greeter-server.jar); NAME-server also as NAME
#   deploy/run.sh greeter-server rpc-server
#   MY_SERVICE_ARGS="--port 8100" deploy/run.sh path/to/my-service.jar
#
# Builds a module's jar first when it is missing (BUILD=0: fails instead). Ctrl-C or SIGTERM drains
# and stops them all; if one service stops by itself, the others are stopped too and its exit code is
# returned. Each service's output lines start with its name: the jar's name without portshare- and
# -server (static, rpc, greeter, my-service).
# Launcher flags per service: NAME_ARGS, NAME upper-cased with - and . as _ (STATIC_ARGS, RPC_ARGS,
# GREETER_ARGS, MY_SERVICE_ARGS): STATIC_ARGS="--port 8088" RPC_ARGS="--instances 2" deploy/run.sh
# JVM flags for all: JAVA_OPTS (default -XX:+ExitOnOutOfMemoryError); java binary: JAVA.
set -uo pipefail

. "$(dirname "$0")/lib.sh"
portshare_me=run
portshare_help "$@"
java="${JAVA:-java}"
read -r -a java_opts <<< "${JAVA_OPTS:--XX:+ExitOnOutOfMemoryError}"

[ $# -gt 0 ] || set -- static-server rpc-server
jars=(); names=(); whos=(); modules=()
for s in "$@"; do
  case "$s" in
    -*) echo "run: \"$s\" is no SERVICE; launcher flags go in NAME_ARGS (deploy/run.sh --help)" >&2; exit 2 ;;
  esac
  portshare_service "$s" || exit 2
  jars+=("$portshare_service_jar")
  [ -z "$portshare_module" ] || modules+=("$portshare_module")
  name="$(basename "$portshare_service_jar" .jar)"
  name="${name#portshare-}"
  whos+=("$name")
  names+=("${name%-server}")
done
if [ ${#modules[@]} -gt 0 ]; then
  portshare_need_jars "${modules[@]}" || exit 1
fi
width=0
for n in "${names[@]}"; do [ ${#n} -le $width ] || width=${#n}; done

# $! stays the JVM's pid: the output prefix runs in a process substitution.
pids=()
for i in "${!jars[@]}"; do
  var="$(printf '%s' "${names[i]}" | tr 'a-z.-' 'A-Z__')_ARGS"
  read -r -a args <<< "${!var:-}"
  prefix="$(printf "%-$((width + 2))s " "[${names[i]}]")"
  "$java" "${java_opts[@]}" -jar "${jars[i]}" "${args[@]}" > >(awk -v p="$prefix" '{ print p $0; fflush() }') 2>&1 &
  pids+=($!)
done

stop_all() {
  trap '' TERM INT
  kill -TERM "${pids[@]}" 2>/dev/null
  local worst=0 p c
  for p in "${pids[@]}"; do
    wait "$p"; c=$?
    # 127: already reaped below, when it stopped by itself.
    [ $c -eq 127 ] && c=0
    [ $c -le $worst ] || worst=$c
  done
  exit $worst
}
trap stop_all TERM INT

# Wake up when one stops by itself (a bad flag, a port in use, a crash).
stopped=""
while [ -z "$stopped" ]; do
  for i in "${!pids[@]}"; do
    kill -0 "${pids[i]}" 2>/dev/null || { stopped=$i; break; }
  done
  [ -n "$stopped" ] || { sleep 0.5 & wait $! 2>/dev/null; }
done
wait "${pids[stopped]}"; code=$?
if [ ${#pids[@]} -gt 1 ]; then
  others="the others"
  [ ${#pids[@]} -gt 2 ] || others="the other"
  echo "run: ${whos[stopped]} stopped with code $code; stopping $others" >&2
else
  echo "run: ${whos[stopped]} stopped with code $code" >&2
fi
trap '' TERM INT
kill -TERM "${pids[@]}" 2>/dev/null
wait "${pids[@]}" 2>/dev/null
exit $(( code == 0 ? 1 : code ))
