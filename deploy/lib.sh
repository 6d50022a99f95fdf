# Sourced by the deploy scripts: where each module's runnable jar is, building it when missing, and
# whether the arguments give a flag.
#   portshare_jar MODULE        prints MODULE's runnable jar: rpc-server, static-server, bench,
#                               services/system-tests (the soak)
#   portshare_need_jars MODULE...
#                               builds those modules (and what they need) when any of their jars is
#                               missing; with BUILD=0 it says which is missing and fails instead
#   portshare_given FLAG ARG... succeeds when the ARGs give FLAG (as FLAG or FLAG=VALUE): a default
#                               from the environment goes in only for a flag the caller left out
portshare_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

portshare_jar() {
  case "$1" in
    services/system-tests) echo "$portshare_root/services/system-tests/target/portshare-soak.jar" ;;
    *) echo "$portshare_root/$1/target/portshare-${1##*/}.jar" ;;
  esac
}

portshare_need_jars() {
  local m missing=""
  for m in "$@"; do
    [ -f "$(portshare_jar "$m")" ] || missing=$m
  done
  [ -z "$missing" ] && return 0
  local modules
  modules=$(IFS=,; echo "$*")
  if [ "${BUILD:-1}" = 0 ]; then
    echo "$(basename "$0"): $(portshare_jar "$missing") is missing (build: ./mvnw -q -B -pl $modules -am package -DskipTests)" >&2
    return 1
  fi
  echo "$(basename "$0"): building $modules (./mvnw -q -B -pl $modules -am package -DskipTests)" >&2
  (cd "$portshare_root" && ./mvnw -q -B -pl "$modules" -am package -DskipTests)
}

portshare_given() {
  local flag=$1 a
  shift
  for a in "$@"; do
    case "$a" in "$flag"|"$flag"=*) return 0 ;; esac
  done
  return 1
}

# portshare_bench_exec COMMAND...
#   runs a loopback benchmark in a network namespace of its own, when root and `ip` allow it.
#   Where any NAT rule is loaded (podman's netavark loads some), the kernel tracks every loopback
#   connection and keeps each for 120 s after it closes; at the close path's ~20,000 connections/s
#   the table (262,144 entries here) fills within seconds and SYNs are dropped: runs stall at a few
#   hundred req/s. A fresh namespace has no rules, so nothing is tracked. PORTSHARE_BENCH_NETNS=off
#   runs in this namespace instead (the report's "network" line says which).
portshare_bench_exec() {
  if [ "${PORTSHARE_BENCH_NETNS:-auto}" = off ] || [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null; then
    export PORTSHARE_BENCH_NETNS=
    exec "$@"
  fi
  local ns="portshare-bench-$$" rc=0
  if ! ip netns add "$ns" 2>/dev/null; then
    echo "$(basename "$0"): could not make a network namespace; the benchmark runs in this one" >&2
    export PORTSHARE_BENCH_NETNS=
    exec "$@"
  fi
  # shellcheck disable=SC2064
  trap "ip netns del $ns 2>/dev/null" EXIT INT TERM
  ip netns exec "$ns" ip link set lo up
  PORTSHARE_BENCH_NETNS=$ns ip netns exec "$ns" "$@" || rc=$?
  exit "$rc"
}
