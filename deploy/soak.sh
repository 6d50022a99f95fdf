#!/usr/bin/env bash
# Load and fault scenarios against the real service jars, one line each: what it did, connections,
# failures, server RSS. Minutes by default; --long for the big ones (1,000,000 short connections,
# 30,000 concurrent to each service, 4 processes, 5 rolling rounds). Exit 0 when every scenario held.
#
#   deploy/soak.sh [--long] [--scenarios short-connections,concurrent,concurrent-static,sigkill,
#                   rolling,sigterm-rpc,sigterm-static,slowloris,rpc-stalls,handover,handover-activate]
#                  [--port-base 59000]
#                  [--short-connections N] [--concurrent N] [--processes N] [--rounds N] [--netns auto|off]
#                  [--report NAME] [--rpc-jar SERVICE] [--static-jar SERVICE]
#
# SERVICE is any service jar, by path (path/to/my-service.jar) or by module name (rpc-server,
# static-server, a module deploy/new-service.sh wrote; NAME-server also as NAME): --rpc-jar is the
# jar the RPC scenarios start (short-connections, concurrent, sigkill, rolling, sigterm-rpc,
# rpc-stalls, handover, handover-activate; default rpc-server), --static-jar the one the HTTP
# scenarios start (concurrent-static, sigterm-static, slowloris; default static-server). Each
# scenario speaks its protocol (rpc-server's frames; HTTP/1.1, GET / and the files under root) and
# gives the shipped services' own settings (idle-timeout, header-timeout, root) through the
# environment (PORTSHARE_IDLE_TIMEOUT, ...), which a jar without such an option ignores: any service
# jar starts, and each scenario judges what it does.
# Ports: scenario k uses PORT_BASE+20k .. +19 (default base 59000; 0 picks free blocks below 32768,
# out of the way of other programs' ephemeral client ports, which may hold a port of 59000+). Load goes to
# loopback only; client processes also bind 127.0.0.2, 127.0.0.3, ... as source addresses.
# The rolling restart runs twice, each in a network namespace of its own (ip netns, needs root)
# with net.ipv4.tcp_migrate_req=0 and =1, and reports both failure counts; without root it runs
# once, with the host's setting. handover (SIGHUP replacements through the supervisor that holds
# the sockets, --processes x --rounds of them and at least --short-connections transactions) and
# handover-activate (the same, the supervisor started by systemd-socket-activate) run in a namespace
# with tcp_migrate_req=0 and must lose nothing. The namespaces are deleted afterwards.
# --report NAME also writes the run to bench/report/soak/NAME.txt: the command, commit, CPUs and load
# at start and end, the scenarios' lines and the exit status (the raw file a figure in docs quotes).
# Environment: JAVA (default: java on PATH), BUILD=0 to never build the jars.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
. "$root/deploy/lib.sh"
portshare_me=soak
portshare_help "$@"
java="${JAVA:-java}"
report=""
args=()
# The jars by path, for the soak runs from --root: a module's jar is built below when missing.
jars=()
modules=()
# The command as typed, for the report (a jar as it was given, not where it was found).
shown=()
jar_arg() { # OPTION SERVICE
  portshare_service "$2" || exit 2
  jars+=("$1" "$portshare_service_jar")
  shown+=("$1" "$2")
  [ -z "$portshare_module" ] || modules+=("$portshare_module")
}
rpc_given=no
static_given=no
while [ $# -gt 0 ]; do
  case "$1" in
    --report) [ $# -ge 2 ] || { echo "soak: --report needs a NAME" >&2; exit 2; }; report="$2"; shift 2 ;;
    --report=*) report="${1#--report=}"; shift ;;
    --rpc-jar|--static-jar)
      [ $# -ge 2 ] || { echo "soak: $1 needs a SERVICE (a jar's path or a module name)" >&2; exit 2; }
      jar_arg "$1" "$2"; [ "$1" = --rpc-jar ] && rpc_given=yes || static_given=yes; shift 2 ;;
    --rpc-jar=*) jar_arg --rpc-jar "${1#*=}"; rpc_given=yes; shift ;;
    --static-jar=*) jar_arg --static-jar "${1#*=}"; static_given=yes; shift ;;
    *) args+=("$1"); shown+=("$1"); shift ;;
  esac
done
[ "$rpc_given" = yes ] || modules+=(rpc-server)
[ "$static_given" = yes ] || modules+=(static-server)
portshare_need_jars "${modules[@]}" services/system-tests
# Each held connection is a descriptor: take the whole hard limit (the JVM does too, -XX:+MaxFDLimit).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
args+=("${jars[@]}")
soak=("$java" -Xmx512m -jar "$(portshare_jar services/system-tests)" --root "$root" "${args[@]}")
if [ -z "$report" ]; then
  exec "${soak[@]}"
fi
case "$report" in
  */*|.*|"") echo "soak: --report takes a plain NAME (written to bench/report/soak/NAME.txt), not '$report'" >&2; exit 2 ;;
esac
out="$root/bench/report/soak/$report.txt"
mkdir -p "$(dirname "$out")"
# The header the figures checker reads (command, commit, load average at start), as
# deploy/systemd-test.sh writes it; then uptime at start, the scenarios' lines, the exit status and
# uptime at end.
{
  echo "# command: deploy/soak.sh ${shown[*]}"
  echo "# commit: $(portshare_record_commit)"
  echo "# machine: $(nproc) CPUs, Linux $(uname -r), $(id -u | sed 's/^0$/as root/;s/^[1-9][0-9]*$/not as root/')"
  echo "# load average at start: $(portshare_load)"
  echo "# then uptime and date at start, the scenarios' lines, the exit status, uptime and date at end"
  uptime
  date -u
} > "$out"
set +e
"${soak[@]}" 2>&1 | tee -a "$out"
status=${PIPESTATUS[0]}
set -e
{ echo "exit $status"; uptime; date -u; } >> "$out"
echo "soak: written to bench/report/soak/$report.txt" >&2
exit "$status"
