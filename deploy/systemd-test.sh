#!/usr/bin/env bash
# deploy/systemd-test.sh (no arguments): the units of deploy/systemd under a real systemd: a
# minimal Debian with systemd as PID 1 in a podman container (no network but its own loopback), the
# rpc-server jar and the units installed as the comment in
# deploy/systemd/portshare-.service.d/portshare.conf says, then:
#   1. `systemctl start portshare-rpc@0` returns only once the service is ready, after its
#      warm-up (Type=notify, READY=1): /health/ready said 503 while the start was still waiting;
#   2. `systemctl restart portshare-rpc@0` under one-transaction-per-connection load (the C client
#      bench/peers/c-echo/rpcload, in the container's network namespace) loses no transaction:
#      the .socket unit keeps the socket; a `systemctl reload` during it is refused (the units have
#      no reload: settings are read at start) and changes nothing;
#   3. `systemctl stop` during a restart, while the new process starts its JVM and while it warms
#      up, exits cleanly: Result=success, and the exit status systemd recorded;
#   4. WatchdogSec: a service (deploy/systemd-test/StuckLoopService.java, an extension built here
#      and loaded through the runtime's extension point) runs through 1-3 unharmed, feeding the
#      watchdog; once its event loop is stuck (it blocks the loop on GET /block) it stops feeding
#      it, and systemd kills and restarts it;
#   5. STOPPING=1: a SIGTERM systemd did not send (systemctl kill) turns the unit to deactivating
#      while the process drains, and it ends inactive with Result=success.
# Prints one line per check; exit 0 only if every check held. The systemd journal of the run is
# kept in target/systemd-test/journal.txt, and the run's record (a header naming the command, the
# commit and the machine's load at start, then every line it printed) in target/systemd-test/run.txt:
# bench/report/systemd/run.txt is that file from a run, copied as it stands.
# Needs: podman (runc), mmdebstrap (first run; the image is kept in podman, named by its recipe),
# nsenter, curl, gcc, a JDK (javac, jar), and the rpc-server jar (built when missing).
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
. "$root/deploy/lib.sh"
portshare_help "$@"
[ $# -eq 0 ] || { echo "systemd test: takes no arguments (deploy/systemd-test.sh --help), not '$1'" >&2; exit 2; }
work="$root/target/systemd-test"
name="portshare-systemd-test-$$"
suite=bookworm
packages=systemd,openjdk-17-jre-headless
failures=0

die() { echo "systemd test: $*" >&2; exit 1; }
pass() { echo "ok    $*"; }
fail() { echo "FAIL  $*"; failures=$((failures + 1)); }
need() {
  for c in "$@"; do
    command -v "$c" >/dev/null 2>&1 || [ -x "/usr/sbin/$c" ] \
      || die "$c not found; install it (Debian: apt-get install podman runc mmdebstrap util-linux curl gcc default-jdk-headless)"
  done
}

need podman runc mmdebstrap nsenter curl gcc
# The JDK that compiles the test's extension: on PATH, else JAVA_HOME's (as the Maven wrapper finds it).
jdk_bin=""
command -v javac >/dev/null 2>&1 || jdk_bin="${JAVA_HOME:+$JAVA_HOME/bin/}"
[ -x "${jdk_bin}javac" ] || command -v "${jdk_bin}javac" >/dev/null 2>&1 \
  || die "javac not found on PATH or in JAVA_HOME; install a JDK 17 or later (Debian: default-jdk-headless)"
mkdir -p "$work"
rm -f "$work"/*.txt "$work"/*.out

# The record: what ran, on which commit, on how loaded a machine; then this script's own lines.
{
  echo "# command: deploy/systemd-test.sh"
  echo "# commit: $(portshare_record_commit)"
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# machine: $(nproc) CPUs, Linux $(uname -r)"
  echo "# load average at start: $(portshare_load)"
  echo "# every line below is the script's own output"
} > "$work/run.txt"
exec > >(tee -a "$work/run.txt")

# podman with runc (crun fails in some sandboxes) and rlimits within this machine's hard limits, as
# deploy/k8s-local.sh runs it, unless the caller brings a containers.conf; no core files (the
# watchdog kills with SIGABRT).
if [ -z "${CONTAINERS_CONF:-}" ]; then
  nofile="$(ulimit -Hn)"; [ "$nofile" = unlimited ] && nofile=1048576
  cat > "$work/containers.conf" <<EOF
# written by deploy/systemd-test.sh
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=4096:4096", "core=0:0"]
[engine]
runtime = "runc"
EOF
  export CONTAINERS_CONF="$work/containers.conf"
fi

# The image: Debian's systemd and OpenJDK 17 on a minimal bookworm, made once and kept in podman
# under a tag that is the recipe's hash (`podman rmi` it to rebuild).
key="$(printf '%s %s minbase' "$suite" "$packages" | sha256sum | cut -c1-12)"
image="localhost/portshare-systemd-test:$key"
if ! podman image exists "$image"; then
  echo "systemd test: building $image (Debian $suite, $packages) with mmdebstrap" >&2
  mmdebstrap --quiet --variant=minbase --include="$packages" "$suite" "$work/rootfs.tar" >&2 \
    || die "mmdebstrap failed"
  podman import --quiet "$work/rootfs.tar" "$image" >/dev/null || die "podman import failed"
  rm -f "$work/rootfs.tar"
fi

# What goes into the container: the rpc-server jar, the extension, the C load client.
portshare_need_jars rpc-server || die "no rpc-server jar"
rpc_jar="$(portshare_jar rpc-server)"
[ -x "$root/bench/peers/c-echo/rpcload" ] && [ "$root/bench/peers/c-echo/rpcload" -nt "$root/bench/peers/c-echo/rpcload.c" ] \
  || "$root/bench/peers/c-echo/build.sh" || die "cannot build bench/peers/c-echo/rpcload"
rpcload="$root/bench/peers/c-echo/rpcload"
# The extension is a jar of its own beside the service's: its manifest puts the rpc-server jar
# (and with it the runtime) on its class path and names its service, so the shared unit's
# `java -jar /opt/portshare/portshare-%j-server.jar` runs it as portshare-stuck@.service.
rm -rf "$work/ext" && mkdir -p "$work/ext/classes/META-INF/services"
"${jdk_bin}javac" --release 17 -cp "$rpc_jar" -d "$work/ext/classes" "$root/deploy/systemd-test/StuckLoopService.java" 2>&1 \
  || die "the test's extension does not compile against $(basename "$rpc_jar")"
echo io.portshare.systemdtest.StuckLoopService > "$work/ext/classes/META-INF/services/io.portshare.runtime.ServiceDescriptor"
printf 'Main-Class: io.portshare.runtime.launch.Launcher\nClass-Path: portshare-rpc-server.jar\nPortshare-Service: stuck\n' \
  > "$work/ext/manifest.txt"
"${jdk_bin}jar" --create --file "$work/ext/portshare-stuck-server.jar" --manifest "$work/ext/manifest.txt" -C "$work/ext/classes" . \
  || die "jar failed"

load=""; poller=""
cleanup() {
  for p in $load $poller; do kill "$p" 2>/dev/null; done
  podman exec "$name" journalctl --no-pager -o short-monotonic > "$work/journal.txt" 2>&1
  podman rm --force --time 0 "$name" >/dev/null 2>&1
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# systemd as PID 1. CAP_SYS_ADMIN lets it set up the units' sandboxing (DynamicUser, ProtectSystem,
# PrivateTmp: mount namespaces). LimitNOFILE above the container's hard limit gets that limit
# (systemd sets the closest it can), as the service's log line "open files limit" says.
podman run -d --name "$name" --systemd=always --network none --cap-add SYS_ADMIN \
    "$image" /lib/systemd/systemd >/dev/null || die "podman run failed"
ctr() { podman exec "$name" "$@"; }
pid1="$(podman inspect --format '{{.State.Pid}}' "$name")"
# In the container's network namespace, with this machine's tools.
in_net() { nsenter -t "$pid1" -n "$@"; }
# Until systemd listens, systemctl cannot reach it at all; then it waits for the boot to finish.
for _ in $(seq 1 240); do
  state="$(timeout 120 podman exec "$name" systemctl is-system-running --wait 2>/dev/null)"
  [ -n "$state" ] && [ "$state" != offline ] && break
  sleep 0.5
done
case "$state" in
  running) ;;
  degraded) echo "systemd test: the container's systemd is degraded: $(ctr systemctl --failed --plain --no-legend | awk '{print $1}' | paste -sd' ')" >&2 ;;
  *) die "systemd in the container did not come up (is-system-running: ${state:-no answer})" ;;
esac
echo "== systemd $(ctr systemctl --version | awk 'NR == 1 {print $2}') as PID 1 in $name ($image)"

# Installed as the unit's comment says (the test's own service beside rpc-server).
ctr mkdir -p /opt/portshare /etc/systemd/system
podman cp "$rpc_jar" "$name:/opt/portshare/portshare-rpc-server.jar"
podman cp "$work/ext/portshare-stuck-server.jar" "$name:/opt/portshare/portshare-stuck-server.jar"
ctr chmod 644 /opt/portshare/portshare-rpc-server.jar /opt/portshare/portshare-stuck-server.jar
for f in portshare-.service.d portshare-.socket.d portshare-rpc@.service portshare-rpc@.socket; do
  podman cp "$root/deploy/systemd/$f" "$name:/etc/systemd/system/$f"
done
sed 's/9090/7000/g; s/rpc-server/stuck (test)/' "$root/deploy/systemd/portshare-rpc@.service" > "$work/portshare-stuck@.service"
sed 's/9090/7000/g; s/rpc-server/stuck (test)/' "$root/deploy/systemd/portshare-rpc@.socket" > "$work/portshare-stuck@.socket"
podman cp "$work/portshare-stuck@.service" "$name:/etc/systemd/system/portshare-stuck@.service"
podman cp "$work/portshare-stuck@.socket" "$name:/etc/systemd/system/portshare-stuck@.socket"
# The stuck service needs no warm-up to be stuck.
ctr sh -c 'echo PORTSHARE_WARMUP=0 > /etc/default/portshare-stuck'
ctr systemctl daemon-reload
ctr systemctl enable --quiet --now portshare-rpc@0.socket portshare-stuck@0.socket \
  || die "the socket units did not start"

show() { ctr systemctl show -p "$2" --value "$1"; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
code() { in_net curl -s -o /dev/null -w '%{http_code}' --max-time "${2:-2}" "$1"; }
journal() { ctr journalctl --no-pager -o cat "$@"; }
# wait_for SECONDS COMMAND...: polls COMMAND every 0.2 s until it succeeds; fails after SECONDS.
wait_for() {
  local until=$(( $(date +%s) + $1 )); shift
  until "$@"; do
    [ "$(date +%s)" -lt "$until" ] || return 1
    sleep 0.2
  done
}
# new_main_pid UNIT PID: UNIT has a main process, not PID.
new_main_pid() { local p; p="$(show "$1" MainPID)"; [ "$p" != 0 ] && [ "$p" != "$2" ]; }
# The JSON log line of PID whose message contains TEXT: its "timestamp" (ms).
log_ms() { journal _PID="$1" | grep -F "$2" | head -1 | sed -n 's/.*"timestamp":\([0-9]*\).*/\1/p'; }

# The watchdog's control: portshare-stuck@0 runs, not stuck, through checks 1 to 3 (several times
# WatchdogSec) and must be neither killed nor restarted; systemd records each WATCHDOG=1 it gets.
ctr systemctl start portshare-stuck@0.service || fail "portshare-stuck@0 did not start"
stuck="$(show portshare-stuck@0 MainPID)"
stuck_since_ms="$(now_ms)"
stuck_first_ping="$(show portshare-stuck@0 WatchdogTimestampMonotonic)"

echo "== 1. systemctl start returns after the warm-up"
: > "$work/ready-polls.txt"
( while :; do echo "$(now_ms) $(code http://127.0.0.1:9091/health/ready)"; sleep 0.2; done >> "$work/ready-polls.txt" ) &
poller=$!
t0="$(now_ms)"
ctr systemctl start portshare-rpc@0.service; rc=$?
t1="$(now_ms)"
kill "$poller"; wait "$poller" 2>/dev/null; poller=""
after="$(code http://127.0.0.1:9091/health/ready)"
pid="$(show portshare-rpc@0 MainPID)"
banner="$(journal _PID="$pid" | grep -F ' ready in ' | head -1)"
ready_ms="$(log_ms "$pid" ' ready in ')"
warmup="$(sed -n 's/.*(warm-up \([0-9.]*\) s: \([0-9]*\) exchanges.*/\1 \2/p' <<< "$banner")"
exec_us="$(show portshare-rpc@0 ExecMainStartTimestampMonotonic)"; active_us="$(show portshare-rpc@0 ActiveEnterTimestampMonotonic)"
echo "      $(sed -n 's/.*"formattedMessage":"\([^"]*\)".*/\1/p' <<< "$banner")"
expect_start="systemctl start took $(( t1 - t0 )) ms, READY=1 came $(( (active_us - exec_us) / 1000 )) ms after the exec"
if [ "$rc" = 0 ] && [ "$(show portshare-rpc@0 ActiveState)" = active ]; then pass "systemctl start: exit 0, active"; else fail "systemctl start: exit $rc, $(show portshare-rpc@0 ActiveState)"; fi
if [ -n "$warmup" ] && [ "${warmup#* }" -gt 0 ]; then pass "warm-up before ready: ${warmup% *} s, ${warmup#* } exchanges"; else fail "no warm-up in the ready line: $banner"; fi
if [ -n "$ready_ms" ] && [ "$ready_ms" -le "$t1" ]; then
  pass "the ready line came $(( t1 - ready_ms )) ms before systemctl start returned; $expect_start"
else
  fail "systemctl start returned at $t1, the ready line says ${ready_ms:-nothing}; $expect_start"
fi
if awk -v t1="$t1" '$1 < t1 - 1000 && $2 == 503 {found = 1} END {exit !found}' "$work/ready-polls.txt"; then
  pass "while systemctl start waited, /health/ready answered 503 ($(awk '$2 == 503' "$work/ready-polls.txt" | wc -l) polls)"
else
  fail "/health/ready never answered 503 while systemctl start waited ($(wc -l < "$work/ready-polls.txt") polls)"
fi
[ "$after" = 200 ] && pass "/health/ready right after systemctl start: 200" || fail "/health/ready right after systemctl start: $after"
status_text="$(show portshare-rpc@0 StatusText)"
[[ "$status_text" == serving* ]] && pass "StatusText: $status_text" || fail "StatusText: $status_text"

echo "== 2. systemctl restart under one-transaction-per-connection load, a reload during it"
old="$pid"
# nsenter execs the client: $! is the client, which a SIGTERM ends early with its result line.
nsenter -t "$pid1" -n "$rpcload" -h 127.0.0.1 -p 9090 -c 16 -t 1 -s 64 -n 1 -d 600 -w 1 > "$work/load.out" 2>&1 &
load=$!
sleep 4
ctr systemctl restart --no-block portshare-rpc@0.service
wait_for 60 new_main_pid portshare-rpc@0 "$old" || fail "no new process 60 s after the restart"
new="$(show portshare-rpc@0 MainPID)"
wait_for 60 sh -c "podman exec $name journalctl --no-pager -o cat _PID=$new | grep -qF 'warm-up: '" \
  || fail "the new process (pid $new) did not begin its warm-up"
reload_out="$(ctr systemctl reload portshare-rpc@0.service 2>&1)"; reload_rc=$?
state_after_reload="$(show portshare-rpc@0 ActiveState) $(show portshare-rpc@0 MainPID)"
if [ "$reload_rc" != 0 ] && [ "$state_after_reload" = "activating $new" ]; then
  pass "systemctl reload while the new process warms up: refused (exit $reload_rc: ${reload_out##*: }), still activating pid $new"
else
  fail "systemctl reload during the restart: exit $reload_rc ($reload_out), then $state_after_reload (wanted activating $new)"
fi
active() { [ "$(show portshare-rpc@0 ActiveState)" = active ]; }
wait_for 120 active || fail "not active 120 s after the restart"
restart_ms=$(( ($(show portshare-rpc@0 ActiveEnterTimestampMonotonic) - $(show portshare-rpc@0 InactiveExitTimestampMonotonic)) / 1000 ))
sleep 4
in_net curl -s --max-time 10 http://127.0.0.1:9091/metrics > "$work/metrics-after-restart.txt"
served="$(awk '/^portshare_rpc_transactions_total/ {s += $2} END {printf "%.0f", s}' "$work/metrics-after-restart.txt")"
kill -TERM "$load"; wait "$load"; load_rc=$?; load=""
result="$(grep '^result ' "$work/load.out")"
errors="$(tr ' ' '\n' <<< "$result" | awk -F= '/^errors_/ {s += $2} END {print s + 0}')"
transactions="$(tr ' ' '\n' <<< "$result" | sed -n 's/^transactions=//p')"
echo "      $(tail -1 "$work/load.out")"
old_exit="$(journal _PID="$old" | grep -cF '"stopped"')"
if [ -n "$result" ] && [ "$errors" = 0 ] && [ "$load_rc" = 0 ] && [ "${transactions:-0}" -gt 0 ]; then
  pass "restart under load: $transactions transactions, 0 errors (connect refused, reset, closed, wrong payload)"
else
  fail "restart under load: exit $load_rc, ${result:-no result line}"
fi
[ "${served:-0}" -gt 0 ] && pass "the new process (pid $new) answered $served transactions in its first 4 s; the restart took $restart_ms ms" \
  || fail "the new process (pid $new) answered no transaction after the restart"
[ "$old_exit" -ge 1 ] && pass "the old process (pid $old) drained and stopped" || fail "the old process (pid $old) did not log its stop"
echo "      max latency $(tr ' ' '\n' <<< "$result" | sed -n 's/^latency_us_max=//p') us: connections waited in the socket's queue"

echo "== 3. systemctl stop during a restart"
# stop_during UNIT PHASE WAIT-COMMAND: restarts the running UNIT, waits for its new process to reach
# PHASE (WAIT-COMMAND PID succeeds), stops it, and checks systemd's record of the exit.
stop_during() {
  local unit="$1" phase="$2" before p rc r
  shift 2
  before="$(show "$unit" MainPID)"
  ctr systemctl restart --no-block "$unit.service"
  wait_for 60 new_main_pid "$unit" "$before" || { fail "$unit: stop while $phase: no new process"; return; }
  p="$(show "$unit" MainPID)"
  "$@" "$p" || { fail "$unit: stop while $phase: pid $p never got there"; return; }
  ctr systemctl stop "$unit.service" 2>/dev/null; rc=$?
  r="Result=$(show "$unit" Result) ExecMainPID=$(show "$unit" ExecMainPID) ExecMainCode=$(show "$unit" ExecMainCode) ExecMainStatus=$(show "$unit" ExecMainStatus)"
  # ExecMainCode 1: exited, ExecMainStatus its exit code; 2: killed by the signal ExecMainStatus.
  if [ "$rc" = 0 ] && [[ "$r" == "Result=success ExecMainPID=$p ExecMainCode=1 ExecMainStatus=0" \
       || "$r" == "Result=success ExecMainPID=$p ExecMainCode=1 ExecMainStatus=143" \
       || "$r" == "Result=success ExecMainPID=$p ExecMainCode=2 ExecMainStatus=15" ]]; then
    pass "$unit: stop while $phase (pid $p): $r$(journal _PID="$p" | sed -n 's/.*"formattedMessage":"\(stopped while [^"]*\)".*/; it logged "\1"/p' | head -1)"
  else
    fail "$unit: stop while $phase (pid $p): systemctl stop exit $rc, $r"
  fi
}
warming_up() { wait_for 60 sh -c "podman exec $name journalctl --no-pager -o cat _PID=$1 | grep -qF 'warm-up: '"; }
stop_during portshare-rpc@0 "the new process warms up" warming_up

echo "== 4. the watchdog restarts a process whose event loop is stuck"
watchdog_s="$(( $(show portshare-stuck@0 WatchdogUSec | sed 's/s$//; s/min/*60/') ))"
# The control means something only once the process has outlived WatchdogSec: on a fast machine
# checks 1 to 3 can end sooner, so wait out the rest.
while [ $(( ($(now_ms) - stuck_since_ms) / 1000 )) -le "$watchdog_s" ]; do sleep 1; done
healthy_s="$(( ($(now_ms) - stuck_since_ms) / 1000 ))"
last_ping="$(show portshare-stuck@0 WatchdogTimestampMonotonic)"
if [ "$(show portshare-stuck@0 MainPID)" = "$stuck" ] && [ "$(show portshare-stuck@0 NRestarts)" = 0 ] \
   && [ "$healthy_s" -gt "$watchdog_s" ] && [ "$last_ping" -gt "$stuck_first_ping" ]; then
  pass "portshare-stuck@0 (pid $stuck) ran ${healthy_s} s, WatchdogSec ${watchdog_s} s, not stuck: not restarted; its last WATCHDOG=1 came $(( (last_ping - stuck_first_ping) / 1000000 )) s after the first"
else
  fail "portshare-stuck@0 not stuck: pid $(show portshare-stuck@0 MainPID) (was $stuck), NRestarts=$(show portshare-stuck@0 NRestarts), ran ${healthy_s} s, watchdog timestamps $stuck_first_ping then $last_ping"
fi
# A fresh JVM's first answer can take seconds on a busy machine.
[ "$(code http://127.0.0.1:7000/ 10)" = 200 ] && pass "portshare-stuck@0 answers GET /" || fail "portshare-stuck@0 does not answer GET /"
blocked_ms="$(now_ms)"
code http://127.0.0.1:7000/block 1 >/dev/null
live_down() { [ "$(code http://127.0.0.1:7001/health/live)" = 503 ]; }
wait_for 30 live_down && pass "/health/live 503 after $(( $(now_ms) - blocked_ms )) ms with the loop stuck" \
  || fail "/health/live never answered 503 with the loop stuck"
restarted() { [ "$(show portshare-stuck@0 NRestarts)" -ge 1 ] && [ "$(show portshare-stuck@0 ActiveState)" = active ]; }
if wait_for 90 restarted; then
  killed="$(ctr journalctl --no-pager -o short-unix -u portshare-stuck@0 | grep -F 'Watchdog timeout' | head -1)"
  killed_ms="$(awk '{printf "%.0f", $1 * 1000}' <<< "$killed")"
  # The beats go stale after --liveness-timeout (10 s); the last WATCHDOG=1 came at most one interval
  # (WatchdogSec/2) before that, and systemd waits WatchdogSec after it.
  if [ -n "$killed" ] && [ $(( killed_ms - blocked_ms )) -ge $(( watchdog_s * 1000 / 2 )) ] \
     && [ $(( killed_ms - blocked_ms )) -le $(( (10 + watchdog_s + 15) * 1000 )) ]; then
    pass "systemd: '${killed#*: }' $(( killed_ms - blocked_ms )) ms after the loop stuck; $(journal -u portshare-stuck@0 | grep -F "Failed with result 'watchdog'" | head -1)"
  else
    fail "restarted, but not by the watchdog in time: ${killed:-no watchdog timeout} (loop stuck at $blocked_ms ms); $(journal -u portshare-stuck@0 | grep -F 'Failed with result' | head -1)"
  fi
  [ "$(show portshare-stuck@0 MainPID)" != "$stuck" ] && [ "$(code http://127.0.0.1:7000/ 10)" = 200 ] \
    && pass "restarted (NRestarts=$(show portshare-stuck@0 NRestarts)): pid $(show portshare-stuck@0 MainPID) answers GET /" \
    || fail "after the restart GET / does not answer"
else
  fail "portshare-stuck@0 was not restarted within 90 s (NRestarts=$(show portshare-stuck@0 NRestarts), $(show portshare-stuck@0 ActiveState))"
fi

echo "== 5. STOPPING=1: a drain systemd did not ask for is one it knows of"
# A SIGTERM from elsewhere (systemctl kill, not stop): the runtime sends STOPPING=1 as it begins to
# drain, and systemd turns the unit to deactivating (bounded by TimeoutStopSec) instead of finding
# a running service gone. Its states are read inside the container, every 20 ms.
p="$(show portshare-stuck@0 MainPID)"
states="$(ctr sh -c 'systemctl kill --kill-who=main -s TERM portshare-stuck@0.service
  for i in $(seq 1 150); do systemctl show -p ActiveState -p SubState --value portshare-stuck@0.service | paste -sd" "; sleep 0.02; done' \
  | uniq | paste -sd, -)"
r="Result=$(show portshare-stuck@0 Result) ExecMainCode=$(show portshare-stuck@0 ExecMainCode) ExecMainStatus=$(show portshare-stuck@0 ExecMainStatus)"
if [[ "$states" == *"deactivating stop-sigterm"* ]] && [[ "$states" == *"inactive dead" ]] \
   && [ "$r" = "Result=success ExecMainCode=1 ExecMainStatus=0" ]; then
  pass "SIGTERM to pid $p from outside systemd's jobs: states $states; $r"
else
  fail "SIGTERM to pid $p from outside systemd's jobs: states $states; $r"
fi

# The same shared unit, the restart's other phase: its new JVM has not yet installed its signal
# handlers. (portshare-stuck@0 starts without a warm-up, so this costs no full rpc-server start.)
ctr systemctl start portshare-stuck@0.service || fail "portshare-stuck@0 did not start again"
jvm_starting() { true; }
stop_during portshare-stuck@0 "the new JVM starts" jvm_starting

echo
if [ "$failures" -gt 0 ]; then
  echo "systemd test: $failures check(s) failed; the units' journal:" >&2
  journal -u 'portshare-*' | grep -v '"threadName":"vertx-blocked-thread-checker"' | cut -c1-400 | tail -40 >&2
  exit 1
fi
echo "systemd test: every check held"
