#!/usr/bin/env bash
# Static files: static-server against nginx on the same files, in one run on one machine. A thin
# wrapper over `portshare-bench static` (through deploy/bench.sh static; its --help lists every flag).
#
#   deploy/bench-static.sh                                  # about 6 minutes on 2 CPUs
#   DURATION=2s ROUNDS=1 WARMUP=10 deploy/bench-static.sh   # quick look
#   deploy/bench-static.sh --paths 1k.bin --connection close  # any flag of portshare-bench static
#   deploy/bench.sh static --help                           # every flag, with its default
#
# Environment, each the flag of the same meaning unless the arguments give it: DURATION (--duration,
# 3s), ROUNDS (--rounds, 3), CONNS (--connections, 64), THREADS (--threads, 2), WORKERS (--workers,
# CPUs), PORT (--port, 18080), NGINX_PORT (--nginx-port, 18090), BIG_ROUNDS (--big-rounds, 3),
# BIG_FETCHES (--big-fetches, 10), MODE (--mode, reuseport), WARMUP (--warmup, seconds, 30),
# SERVER_JAVA_OPTS (--server-jvm-options). Needs wrk and nginx (Debian: apt-get install wrk nginx-light).
set -euo pipefail
cd "$(dirname "$0")/.."
. deploy/lib.sh
portshare_help "$@"

invoked=()
flags=()
for pair in DURATION=--duration ROUNDS=--rounds CONNS=--connections THREADS=--threads WORKERS=--workers \
            PORT=--port NGINX_PORT=--nginx-port BIG_ROUNDS=--big-rounds BIG_FETCHES=--big-fetches MODE=--mode \
            WARMUP=--warmup SERVER_JAVA_OPTS=--server-jvm-options; do
  var=${pair%%=*}
  flag=${pair#*=}
  [ -n "${!var:-}" ] || continue
  invoked+=("$var=$(printf '%q' "${!var}")")
  value=${!var}
  [ "$var" = WARMUP ] && [[ "$value" =~ ^[0-9]+$ ]] && value=${value}s
  portshare_given "$flag" "$@" || flags+=("$flag=$value")
done
# The reports quote the command as typed (quoted so that it can be pasted back).
line="${invoked[*]:+${invoked[*]} }deploy/bench-static.sh"
[ $# -gt 0 ] && line+=" $(printf '%q ' "$@")"
export PORTSHARE_BENCH_COMMAND="${line% }"
exec deploy/bench.sh static "${flags[@]}" "$@"
