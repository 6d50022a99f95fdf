#!/usr/bin/env bash
# The RPC table in one command: builds what is missing, then runs the default matrix
# (modes shared, reuseport, pinned when the server has it, N processes, and the C epoll peer
# when bench/peers/c-echo builds; workers 1..CPUs; columns 64B|1x 64B|1024x 1024B|1x 1024B|1024x)
# and writes table.txt, results.json, results.csv and report.html under
# bench-results/<timestamp>/. Closed-loop load comes from the C reference client
# (bench/peers/c-echo/rpcload) when gcc can build it, else from the Java generator; every cell
# records client and server CPU per transaction and is flagged when the client bound it.
# About 7 minutes on a 2-core machine with the defaults.
#
#   deploy/bench.sh                              # default matrix
#   ROUNDS=3 deploy/bench.sh                     # median and spread of 3 alternated rounds (~20 min on 2 cores)
#   deploy/bench.sh --calibrate                  # the Java generator against the C client, per cell (~6 min)
#   deploy/bench.sh --target 10.0.0.5:9090 --workers 4   # an existing server (another host, a Kubernetes
#                                                # Service, from a Job); --workers is its worker count
#   deploy/bench.sh --workers 1,2 --modes reuseport,processes --duration 10s
#   deploy/bench.sh static                       # the static-file table against nginx (portshare-bench static)
#   deploy/bench.sh coldstart                    # fresh servers stormed right after ready (deploy/bench-coldstart.sh)
#   deploy/bench.sh profile [ROUNDS SIZE PER_CONN]  # perf on the C echo server and rpc-server side by side: where
#                                                # a transaction's CPU goes (deploy/bench-profile.sh, ~1 min)
#   deploy/bench.sh seeds                        # the five source experiments beside their published tables (~20 min)
#   deploy/bench.sh seeds --seed 000             # one of them; --published for the published lengths
#   deploy/bench.sh seeds --seed 004 --published --rounds 3 --workers 1   # static-server epoll against io_uring
#                                                # past saturation: 3 alternated rounds of 10 s windows, one server
#                                                # worker beside the one-loop generator (~6 min; --overload-shares)
#   deploy/bench.sh charts DIR                   # a run's charts drawn by gnuplot from its results.csv and
#                                                # latency.csv (deploy/bench-charts.sh)
#   deploy/bench.sh figures [--check]            # the docs' figures written again from their raw files, each
#                                                # raw file's age (commits since, by module); then, as --check
#                                                # alone does, what is wrong: a page its raw files would change, a
#                                                # figure typed in prose, a raw file's header without its command,
#                                                # an existing commit or its load (io.portshare.kit.Figures)
#   deploy/bench.sh ledger                       # what one connection costs each server at the floor, one worker
#                                                # each side: C echo, plain Netty, rpc-server, stock Vert.x; nginx,
#                                                # plain Netty, static-server, the Router verticle, stock Vert.x
#                                                # (portshare-bench ledger; ~35 min with the defaults)
#   deploy/bench.sh runs --out DIR RUN RUN RUN   # three or more runs of one build (ledger, latency, or the storm
#                                                # of seeds --seed 000) as one table.txt: per cell the median over
#                                                # runs of each run's figure, min-max over runs, "disagree" where
#                                                # runs differ more than rounds do (ledger-runs: the same)
#   deploy/bench.sh latency                      # open-loop latency from the due time at 50/80/90/95% of the
#                                                # floor's closed-loop maximum and past it: nginx, static-server,
#                                                # C echo, rpc-server, one worker each side (portshare-bench latency;
#                                                # ~15 min with the defaults); --quick is a ~2 min smoke run
#   deploy/bench.sh latency --jvm 'g1=-XX:+UseG1GC' --jvm 'parallel=-XX:+UseParallelGC'
#                                                # the JVM servers once per --jvm NAME=FLAGS (rows SERVER[NAME]),
#                                                # GC pauses per cell; --server-java JAVA for their java
#
# Environment: DURATION (measured per cell, default 5s), WARMUP (default 2s), CONNECTIONS
# (default 32), ROUNDS (default 1), PORT (servers' port, admin ports PORT+1.., default 19090),
# JAVA_OPTS (JVM flags of the load generator). Any other arguments go to the bench CLI
# (java -jar bench/target/portshare-bench.jar rpc-matrix --help). With --target nothing but the
# bench jar is needed: the script builds no server and starts none.
# As root, local runs go in a network namespace of their own (deploy/lib.sh portshare_bench_exec:
# no connection tracking to fill up and stall the close path); PORTSHARE_BENCH_NETNS=off opts out.
set -euo pipefail

cd "$(dirname "$0")/.."
. deploy/lib.sh
portshare_help "$@"
if [ "${1:-}" = "profile" ]; then
  shift
  exec deploy/bench-profile.sh "$@"
fi
if [ "${1:-}" = "charts" ]; then
  shift
  exec deploy/bench-charts.sh "$@"
fi
if [ "${1:-}" = "coldstart" ]; then
  shift
  portshare_bench_exec deploy/bench-coldstart.sh "$@"
fi
BENCH_JAR=$(portshare_jar bench)
if [ "${1:-}" = "figures" ]; then
  shift
  exec java -cp "$BENCH_JAR" io.portshare.kit.Figures . "$@"
fi

sub=rpc-matrix
case "${1:-}" in
  static|seeds|rpc|rpc-matrix|rpc-calibrate|ledger|runs|ledger-runs|latency) sub=$1; shift ;;
  --calibrate) sub=rpc-calibrate; shift ;;
esac
remote=no
portshare_given --target "$@" && remote=yes

needed=(bench)
[ "$remote" = no ] && needed+=(rpc-server)
[ "$sub" = static ] && needed+=(static-server)
[ "$sub" = ledger ] && needed+=(static-server)
[ "$sub" = latency ] && needed+=(static-server)
[ "$sub" = seeds ] && needed+=(static-server)
portshare_need_jars "${needed[@]}"
if { [ ! -x bench/peers/c-echo/echo ] || [ ! -x bench/peers/c-echo/rpcload ]; } && command -v gcc >/dev/null; then
  bench/peers/c-echo/build.sh >&2 || echo "bench: could not build the C peers; the Java generator makes the load, no c-epoll row" >&2
fi

JAVA_OPTS=${JAVA_OPTS:--Xms256m -Xmx512m}
if [ "$sub" = "rpc-matrix" ] || [ "$sub" = "rpc-calibrate" ]; then
  # The environment's defaults, for each option the arguments do not give themselves.
  pairs=("--duration=${DURATION:-5s}" "--warmup=${WARMUP:-2s}" "--connections=${CONNECTIONS:-32}")
  if [ "$sub" = "rpc-matrix" ]; then
    pairs+=("--rounds=${ROUNDS:-1}" "--port=${PORT:-19090}")
  fi
  defaults=()
  for pair in "${pairs[@]}"; do
    portshare_given "${pair%%=*}" "$@" || defaults+=("$pair")
  done
  set -- "${defaults[@]}" "$@"
fi
# The reports quote the command that made them.
export PORTSHARE_BENCH_COMMAND="${PORTSHARE_BENCH_COMMAND:-$(env | grep -E '^(ROUNDS|DURATION|WARMUP|CONNECTIONS|PORT)=' | sort | tr '\n' ' ')deploy/bench.sh ${sub} $*}"
if [ "$remote" = yes ]; then
  # shellcheck disable=SC2086
  exec java $JAVA_OPTS -jar "$BENCH_JAR" "$sub" "$@"
fi
# shellcheck disable=SC2086
portshare_bench_exec java $JAVA_OPTS -jar "$BENCH_JAR" "$sub" "$@"
