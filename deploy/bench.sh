#!/usr/bin/env bash
# The RPC table in one command: builds what is missing, then runs the default matrix
# (modes shared, reuseport, pinned when the server has it, N processes, and the C epoll peer
# when bench/peers/c-echo/echo builds; workers 1..CPUs; columns 64B|1x 64B|1024x 1024B|1x 1024B|1024x)
# and writes table.txt, results.json, results.csv, report.html and rpc-matrix.png under
# bench-results/<timestamp>/. About 5 minutes on a 2-core machine with the defaults.
#
#   deploy/bench.sh                              # default matrix
#   ROUNDS=3 deploy/bench.sh                     # median and spread of 3 alternated rounds (~15 min on 2 cores)
#   deploy/bench.sh --target 10.0.0.5:9090       # an existing server, e.g. a Kubernetes Service
#   deploy/bench.sh --workers 1,2 --modes reuseport,processes --duration 10s
#   deploy/bench.sh static                       # the static-file table against nginx (portshare-bench static)
#   deploy/bench.sh coldstart                    # fresh servers stormed right after ready (deploy/bench-coldstart.sh)
#
# Environment: DURATION (measured per cell, default 5s), WARMUP (default 2s), CONNECTIONS
# (default 32), ROUNDS (default 1), PORT (servers' port, admin ports PORT+1.., default 19090),
# JAVA_OPTS (JVM flags of the load generator). Any other arguments go to the bench CLI
# (java -jar bench/target/portshare-bench.jar rpc-matrix --help).
set -euo pipefail

cd "$(dirname "$0")/.."
if [ "${1:-}" = "coldstart" ]; then
  shift
  exec deploy/bench-coldstart.sh "$@"
fi
BENCH_JAR=bench/target/portshare-bench.jar
RPC_JAR=rpc-server/target/portshare-rpc-server.jar
STATIC_JAR=static-server/target/portshare-static-server.jar

if [ ! -f "$BENCH_JAR" ] || [ ! -f "$RPC_JAR" ] || { [ "${1:-}" = static ] && [ ! -f "$STATIC_JAR" ]; }; then
  echo "bench: building the services and bench" >&2
  ./mvnw -q -B -pl rpc-server,static-server,bench -am package -DskipTests
fi
if [ ! -x bench/peers/c-echo/echo ] && command -v gcc >/dev/null; then
  bench/peers/c-echo/build.sh >&2 || echo "bench: could not build the C echo peer; its row is skipped" >&2
fi

JAVA_OPTS=${JAVA_OPTS:--Xms256m -Xmx512m}
sub=rpc-matrix
if [ "${1:-}" = "static" ] || [ "${1:-}" = "rpc" ] || [ "${1:-}" = "rpc-matrix" ]; then
  sub=$1
  shift
fi
if [ "$sub" = "rpc-matrix" ]; then
  # The environment's defaults, for each option the arguments do not give themselves.
  defaults=()
  for pair in "--duration=${DURATION:-5s}" "--warmup=${WARMUP:-2s}" "--connections=${CONNECTIONS:-32}" \
              "--rounds=${ROUNDS:-1}" "--port=${PORT:-19090}"; do
    flag=${pair%%=*}
    given=no
    for a in "$@"; do
      case "$a" in "$flag"|"$flag"=*) given=yes ;; esac
    done
    [ "$given" = yes ] || defaults+=("$pair")
  done
  set -- "${defaults[@]}" "$@"
fi
# shellcheck disable=SC2086
exec java $JAVA_OPTS -jar "$BENCH_JAR" "$sub" "$@"
