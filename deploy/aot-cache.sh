#!/usr/bin/env bash
# An ahead-of-time cache for a service on Java 25 or later (JEP 483, 514 and 515): the classes the
# service loads and links, and the JIT's method profiles, from one training run, so that a fresh JVM
# given the cache starts and warms up sooner. The training is the runtime's own warm-up before
# ready (the service's own exchanges over loopback, --warmup), then SIGTERM: the JVM writes the cache
# as it exits. Then the cache is checked: the service starts with it under -XX:AOTMode=on, which
# stops a JVM that cannot use its cache, and must say ready.
#
#   deploy/aot-cache.sh SERVICE [--out FILE] [--warmup DURATION] [--port PORT] [-- SERVICE_FLAGS...]
#   deploy/aot-cache.sh rpc-server                     # aot/rpc-server.aot
#   deploy/aot-cache.sh static-server --warmup 20s -- --root /srv/www
#   java -XX:AOTCache=aot/rpc-server.aot -jar rpc-server/target/portshare-rpc-server.jar
#
#   SERVICE    any service jar, by path (path/to/my-service.jar) or by module name (rpc-server,
#              static-server, a module deploy/new-service.sh wrote; NAME-server also as NAME)
#   --out      the cache file (default aot/NAME.aot, NAME the jar's name without portshare-)
#   --warmup   the training: the runtime's warm-up before ready (default 12s, the launcher's own)
#   --port     the training's port on 127.0.0.1, its admin port PORT+1 (default 18790)
#   -- ...     launcher flags for the training and the check (e.g. --instances 2, --root DIR)
#
# A cache fits one JDK build and one jar: start the same jar with the same java. Given another, a JVM
# says so and runs without the cache (-XX:AOTMode=on: it stops instead). docs/warm-start.md has the
# measurement. Environment: JAVA (default: the newest JDK 25 or later under the JVM directory,
# deploy/java.sh); BUILD=0 to never build a module's jar.
set -euo pipefail

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/java.sh"
portshare_me=aot-cache
portshare_help "$@"

usage() { echo "aot-cache: $1 (deploy/aot-cache.sh --help)" >&2; exit 2; }

service=""
out=""
warmup=12s
port=18790
flags=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || usage "--out needs a FILE"; out="$2"; shift 2 ;;
    --out=*) out="${1#--out=}"; shift ;;
    --warmup) [ $# -ge 2 ] || usage "--warmup needs a DURATION"; warmup="$2"; shift 2 ;;
    --warmup=*) warmup="${1#--warmup=}"; shift ;;
    --port) [ $# -ge 2 ] || usage "--port needs a PORT"; port="$2"; shift 2 ;;
    --port=*) port="${1#--port=}"; shift ;;
    --) shift; flags=("$@"); break ;;
    -*) usage "unknown option \"$1\"" ;;
    *) [ -z "$service" ] || usage "one SERVICE, not \"$service\" and \"$1\""; service="$1"; shift ;;
  esac
done
[ -n "$service" ] || usage "which SERVICE? a service jar or a service module"
[[ "$port" =~ ^[0-9]+$ ]] && [ "$port" -ge 1 ] && [ "$port" -le 65534 ] \
  || usage "--port must be a port from 1 to 65534 (it is '$port'; the admin port is PORT+1)"
[[ "$warmup" =~ ^[0-9]+(ms|s|m)?$ ]] || usage "--warmup must be a duration such as 12s or 500ms (it is '$warmup')"

java="${JAVA:-}"
if [ -z "$java" ]; then
  home="$(portshare_java_home_of 25 || true)"
  [ -n "$home" ] || { echo "aot-cache: needs Java 25 or later, and none is installed under ${PORTSHARE_JVM_DIR:-/usr/lib/jvm} (or give JAVA)" >&2; exit 2; }
  java="$home/bin/java"
fi
major="$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p')"
[ -n "$major" ] && [ "$major" -ge 25 ] \
  || { echo "aot-cache: needs Java 25 or later; $java is Java ${major:-of no known version}" >&2; exit 2; }

portshare_service "$service" || exit 2
[ -z "$portshare_module" ] || portshare_need_jars "$portshare_module"
jar="$portshare_service_jar"
name="$(basename "$jar" .jar)"
name="${name#portshare-}"
[ -n "$out" ] || out="aot/$name.aot"
mkdir -p "$(dirname "$out")"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
work="$(mktemp -d)"
pid=""
cleanup() {
  [ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Starts the service with JVM flags $1 and its warm-up $3, and waits for ready on its admin port;
# its output in $2.
start() {
  # shellcheck disable=SC2086
  "$java" $1 -jar "$jar" --host 127.0.0.1 --port "$port" --admin-port $((port + 1)) --warmup "$3" \
    "${flags[@]}" >"$2" 2>&1 &
  pid=$!
  local ready=0
  portshare_await_ready $((port + 1)) "$pid" 120 || ready=$?
  case "$ready" in
    0) ;;
    1) echo "aot-cache: $name stopped before ready; its last lines:" >&2; tail -5 "$2" >&2; pid=""; exit 1 ;;
    *) echo "aot-cache: $name not ready in 120 s" >&2; exit 1 ;;
  esac
}

# Stops it with SIGTERM (the drain), waiting up to $1 seconds: the training JVM writes the cache here.
stop() {
  kill -TERM "$pid"
  for _ in $(seq 1 $(($1 * 10))); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "aot-cache: $name did not exit within $1 s of SIGTERM" >&2
    exit 1
  fi
  wait "$pid" || true
  pid=""
}

rm -f "$out"
echo "aot-cache: training $name with $java ($warmup warm-up on 127.0.0.1:$port)" >&2
start "-XX:AOTCacheOutput=$work/cache.aot" "$work/training.log" "$warmup"
grep -h "ready in" "$work/training.log" | sed 's/^.*ready in/aot-cache: training ready in/' >&2 || true
stop 180
if [ ! -s "$work/cache.aot" ]; then
  echo "aot-cache: the training JVM wrote no cache; its last lines:" >&2
  grep -v '^\[.*\]\[warning\]\[aot\]' "$work/training.log" | tail -5 >&2
  exit 1
fi
start "-XX:AOTCache=$work/cache.aot -XX:AOTMode=on" "$work/check.log" 0
grep -h "ready in" "$work/check.log" | sed 's/^.*ready in/aot-cache: with the cache, ready in/' >&2 || true
stop 60
mv "$work/cache.aot" "$out"
echo "$out"
