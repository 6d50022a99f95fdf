#!/usr/bin/env bash
# deploy/k8s-local-checks.sh (no arguments): the checks of `deploy/k8s.sh local-test`, made against the running containers (their processes,
# cgroups, sockets and answers), each compared with what the rendered manifest asks for.
# Run by deploy/k8s-local.sh with WORK (its dev.yaml, bench-pod.yaml), SERVICES (the Deployments
# dev.yaml renders), IMAGE_TAG (the tag it built and rendered) and IMAGE_REVISION (the commit) set,
# the pods of k8s/overlays/dev playing. Every service gets the container and
# stop checks; static-server, rpc-server and the bench Job also get their own answers checked; a
# Prometheus scrapes every pod from before the bench until the stops, then is asked every query of
# the dashboard and every alert expression (MonitoringCheck, as MonitoringTest does), and the latency
# histograms' p99 of each pod.
# Prints one line per check; exit 0 only if every check held.
# CONNECTIONS (default 10000) keep-alive connections are held against static-server.
set -uo pipefail

. "$(dirname "$0")/lib.sh"
portshare_help "$@"
[ $# -eq 0 ] || { echo "k8s local checks: take no arguments, only the environment (deploy/k8s-local-checks.sh --help), not '$1'" >&2; exit 2; }
root="$portshare_root"
work="$WORK"
services="$SERVICES"
image_tag="$IMAGE_TAG"
image_revision="$IMAGE_REVISION"
connections="${CONNECTIONS:-10000}"
failures=0

pass() { echo "ok    $*"; }
fail() { echo "FAIL  $*"; failures=$((failures + 1)); }
# expect WHAT EXPECTED ACTUAL
expect() {
  if [ "$2" = "$3" ]; then pass "$1: $3"; else fail "$1: expected $2, found ${3:-nothing}"; fi
}

ctr() { echo "$1-pod-0-$1"; }
pid_of() { podman inspect --format '{{.State.Pid}}' "$(ctr "$1")"; }
ip_of() { podman inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$(ctr "$1")"; }
# spec DEPLOYMENT JQ-PATH: a field of the rendered Deployment's pod spec
spec() {
  yq -r --arg d "$1" "select(.kind == \"Deployment\" and .metadata.name == \$d) | .spec.template.spec$2" "$work/dev.yaml"
}

# Kubernetes quantities: memory to bytes, CPU to millicores.
bytes() {
  local q="$1"
  case "$q" in
    *Gi) echo $(( ${q%Gi} * 1024 * 1024 * 1024 )) ;;
    *Mi) echo $(( ${q%Mi} * 1024 * 1024 )) ;;
    *Ki) echo $(( ${q%Ki} * 1024 )) ;;
    *G) echo $(( ${q%G} * 1000000000 )) ;;
    *M) echo $(( ${q%M} * 1000000 )) ;;
    *) echo "$q" ;;
  esac
}
millicores() { case "$1" in *m) echo "${1%m}" ;; *) echo $(( $1 * 1000 )) ;; esac; }

# cgroup FILE-V1 FILE-V2 PID CONTROLLER: a file of the process's cgroup (v1 or v2).
cgroup() {
  local v1="$1" v2="$2" pid="$3" controller="$4" path
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    path="$(awk -F: '$1 == "0" {print $3}' "/proc/$pid/cgroup")"
    cat "/sys/fs/cgroup$path/$v2"
  else
    path="$(awk -F: -v c="$controller" '{n = split($2, a, ","); for (i = 1; i <= n; i++) if (a[i] == c) print $3}' "/proc/$pid/cgroup")"
    cat "/sys/fs/cgroup/$controller$path/$v1"
  fi
}
memory_limit() { cgroup memory.limit_in_bytes memory.max "$1" memory; }
memory_usage() { cgroup memory.usage_in_bytes memory.current "$1" memory; }
cpu_millicores() {
  local pid="$1" quota period
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    read -r quota period < <(cgroup - cpu.max "$pid" cpu)
  else
    quota="$(cgroup cpu.cfs_quota_us - "$pid" cpu)"; period="$(cgroup cpu.cfs_period_us - "$pid" cpu)"
  fi
  [ "$quota" = max ] || [ "$quota" = -1 ] && { echo unlimited; return; }
  echo $(( quota * 1000 / period ))
}

# listeners PID PORT: sockets listening on PORT in the process's network namespace.
listeners() {
  local hex; hex="$(printf '%04X' "$2")"
  cat "/proc/$1/net/tcp" "/proc/$1/net/tcp6" 2>/dev/null \
    | awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p' | wc -l
}

status_field() { awk -v f="$2:" '$1 == f {print $2, $3, $4, $5}' "/proc/$1/status"; }

check_container() {
  local s="$1" pid ip want_uid caps mem cpu instances port
  pid="$(pid_of "$s")"; ip="$(ip_of "$s")"
  echo "== $s (pid $pid, $ip)"
  want_uid="$(spec "$s" .securityContext.runAsUser)"
  expect "$s uid (real, effective, saved, fs)" "$want_uid $want_uid $want_uid $want_uid" "$(status_field "$pid" Uid)"
  expect "$s root filesystem" "ro" "$(awk '$2 == "/" {split($4, o, ","); print o[1]}' "/proc/$pid/mounts" | tail -1)"
  [ "$(spec "$s" '.containers[0].securityContext.capabilities.drop[0]')" = ALL ] && caps=0000000000000000
  expect "$s capabilities (permitted, effective, bounding, ambient)" "$caps $caps $caps $caps" \
    "$(for c in CapPrm CapEff CapBnd CapAmb; do awk -v f="$c:" '$1 == f {printf "%s ", $2}' "/proc/$pid/status"; done | sed 's/ $//')"
  expect "$s no_new_privs" 1 "$(awk '$1 == "NoNewPrivs:" {print $2}' "/proc/$pid/status")"
  mem="$(bytes "$(spec "$s" .containers[0].resources.limits.memory)")"
  expect "$s memory limit (cgroup, bytes)" "$mem" "$(memory_limit "$pid")"
  cpu="$(millicores "$(spec "$s" .containers[0].resources.limits.cpu)")"
  expect "$s CPU limit (cgroup quota/period, millicores)" "$cpu" "$(cpu_millicores "$pid")"
  instances="$(tr '\0' '\n' < "/proc/$pid/environ" | sed -n 's/^PORTSHARE_INSTANCES=//p')"
  expect "$s PORTSHARE_INSTANCES = the CPU limit" "$(( cpu / 1000 ))" "$instances"
  port="$(spec "$s" '.containers[0].ports[0].containerPort')"
  expect "$s listeners on port $port" "$instances" "$(listeners "$pid" "$port")"
  for probe in startupProbe readinessProbe livenessProbe; do
    local path pport
    path="$(spec "$s" ".containers[0].$probe.httpGet.path")"; pport="$(spec "$s" ".containers[0].$probe.httpGet.port")"
    expect "$s $probe GET :$pport$path" 200 \
      "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://$ip:$pport$path")"
  done
}

# The container runs the image of this build, not an older one of the same name: the manifest's
# image and version label, the image podman started and that image's OCI labels all say IMAGE_TAG,
# and its revision label is this commit. KIND and NAME find the manifest (a Deployment of dev.yaml,
# the bench Pod), CONTAINER is podman's.
check_image() {
  local kind="$1" name="$2" c="$3" file=dev.yaml image id label
  [ "$kind" = Pod ] && file=bench-pod.yaml
  image="$(yq -r --arg k "$kind" --arg n "$name" 'select(.kind == $k and .metadata.name == $n)
      | (.spec.template.spec // .spec).containers[0].image' "$work/$file")"
  expect "$name manifest image tag" "$image_tag" "${image##*:}"
  expect "$name manifest app.kubernetes.io/version" "$image_tag" "$(yq -r --arg k "$kind" --arg n "$name" \
      'select(.kind == $k and .metadata.name == $n) | (.spec.template.metadata // .metadata).labels["app.kubernetes.io/version"]' \
      "$work/$file")"
  image="$(podman inspect --format '{{.ImageName}}' "$c")"
  expect "$name running image tag" "$image_tag" "${image##*:}"
  id="$(podman inspect --format '{{.Image}}' "$c")"
  for label in version revision; do
    expect "$name image label org.opencontainers.image.$label" \
      "$([ "$label" = version ] && echo "$image_tag" || echo "$image_revision")" \
      "$(podman image inspect --format "{{index .Labels \"org.opencontainers.image.$label\"}}" "$id")"
  done
}

check_static_site() {
  local ip cm name
  ip="$(ip_of static-server)"
  cm="$(spec static-server '.volumes[] | select(.name == "site") | .configMap.name')"
  for name in $(yq -r --arg n "$cm" 'select(.kind == "ConfigMap" and .metadata.name == $n) | .data | keys[]' "$work/dev.yaml"); do
    if curl -fsS --max-time 5 "http://$ip:8080/$name" -o "$work/served-$name" \
       && cmp -s "$work/served-$name" <(yq -j --arg n "$cm" --arg k "$name" \
            'select(.kind == "ConfigMap" and .metadata.name == $n) | .data[$k]' "$work/dev.yaml"); then
      pass "static-server serves $name of ConfigMap $cm byte for byte"
    else
      fail "static-server GET /$name differs from ConfigMap $cm"
    fi
  done
}

check_rpc_echo() {
  local ip answer
  ip="$(ip_of rpc-server)"
  # One frame: 4-byte big-endian length, then the payload; the answer is the same frame.
  answer="$(exec 3<>"/dev/tcp/$ip/9090" && printf '\000\000\000\014hello portsh' >&3 \
            && timeout 5 head -c 16 <&3 | od -An -c | tr -s ' ')"
  expect "rpc-server echoes a frame" " \\0 \\0 \\0 \\f h e l l o p o r t s h" "$answer"
}

check_bench() {
  local c=bench-rpc-bench code
  echo "== bench Job's pod against rpc-server"
  podman pod rm --force --ignore bench-rpc >/dev/null 2>&1
  if ! podman kube play --quiet "$work/bench-pod.yaml" > "$work/bench-play.log" 2>&1; then
    fail "bench pod did not start: $(tail -1 "$work/bench-play.log")"; return
  fi
  check_image Pod bench-rpc "$c"
  code="$(timeout 300 podman wait "$c" 2>/dev/null || echo timeout)"
  podman logs "$c" > "$work/bench.log" 2>&1
  expect "bench pod exit code" 0 "$code"
  if grep -q '64B|1x' "$work/bench.log"; then
    pass "bench table on stdout:"; sed -n '/64B|1x/,/^$/p' "$work/bench.log" | sed 's/^/      /'
  else
    fail "bench printed no table (log: $work/bench.log)"
  fi
  # The volume mounted at /results, read from outside the pod as a cluster's volume would be.
  local volume dir results
  volume="$(yq -r '.spec.containers[0].volumeMounts[] | select(.mountPath == "/results") | .name' "$work/bench-pod.yaml")"
  dir="$(podman volume inspect --format '{{.Mountpoint}}' "$volume" 2>/dev/null)"
  if [ -n "$dir" ] && [ -s "$(find "$dir" -name table.txt | head -1)" ]; then
    pass "bench report readable from its volume $volume: $(cd "$dir" && find . -type f | sort | tr '\n' ' ')"
  else
    fail "no bench report in the pod's volume mounted at /results"
  fi
  # The server's CPU per transaction, read from the rpc-server pod's /metrics: in every round of every cell.
  results="$(find "${dir:-/nonexistent}" -name results.json 2>/dev/null | head -1)"
  if [ -n "$results" ] && yq -e '[.tables[].rows[].cells[].rounds[] | .values.server_cpu_us // 0]
        | length > 0 and all(. > 0)' "$results" >/dev/null; then
    pass "bench server CPU us/transaction in every cell ($(yq -r '.meta.CPU' "$results")):" \
      "$(yq -r '[.tables[].rows[].cells[] | "\(.column) \(.summary.server_cpu_us.median * 10 | round / 10)"] | join(", ")' "$results")"
  else
    fail "bench server CPU column not filled (results: ${results:-none}; log: $work/bench.log)"
  fi
}

# Debian's prometheus scraping every pod's metrics as the pod's prometheus.io annotations say, one
# job per Deployment (as the ServiceMonitor names jobs after Services), with the alert rules loaded.
prometheus_port=""
start_prometheus() {
  local s p
  for p in $(seq 19190 19290); do
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { prometheus_port=$p; break; }
  done
  mkdir -p "$work/prometheus"
  rm -rf "$work/prometheus/data"
  {
    printf 'global:\n  scrape_interval: 2s\n  scrape_timeout: 2s\n  evaluation_interval: 2s\n'
    printf 'rule_files:\n  - %s\n' "$root/deploy/prometheus/portshare-rules.yml"
    printf 'scrape_configs:\n'
    for s in $services; do
      printf '  - job_name: %s\n    metrics_path: %s\n    static_configs:\n      - targets: ["%s:%s"]\n' "$s" \
        "$(spec_annotation "$s" prometheus.io/path)" "$(ip_of "$s")" "$(spec_annotation "$s" prometheus.io/port)"
    done
  } > "$work/prometheus/prometheus.yml"
  prometheus --config.file="$work/prometheus/prometheus.yml" --storage.tsdb.path="$work/prometheus/data" \
    --web.listen-address="127.0.0.1:$prometheus_port" > "$work/prometheus/prometheus.log" 2>&1 &
  prometheus_pid=$!
  for _ in $(seq 1 60); do
    curl -fsS -o /dev/null --max-time 1 "http://127.0.0.1:$prometheus_port/-/ready" 2>/dev/null && {
      echo "      prometheus on 127.0.0.1:$prometheus_port scrapes $(echo $services | tr ' ' ',')"; return 0; }
    sleep 0.5
  done
  fail "prometheus did not start (log: $work/prometheus/prometheus.log)"
}
stop_prometheus() {
  [ -n "${prometheus_pid:-}" ] && kill "$prometheus_pid" 2>/dev/null && wait "$prometheus_pid" 2>/dev/null
  prometheus_pid=""
}
trap stop_prometheus EXIT
spec_annotation() {
  yq -r --arg d "$1" --arg a "$2" \
    'select(.kind == "Deployment" and .metadata.name == $d) | .spec.template.metadata.annotations[$a]' "$work/dev.yaml"
}

# The latency histograms: scraped from static-server's and rpc-server's pods, and the dashboard's p99
# query over them answers a number for each. Asked over the whole run ([30m] for the panel's [1m]):
# the checks' traffic may have ended more than a minute before.
promql() { curl -fsS --max-time 10 -G "http://127.0.0.1:$prometheus_port/api/v1/query" --data-urlencode "query=$1"; }
check_latency() {
  local s metric expr series p99
  echo "== latency: the histograms scraped, the dashboard's p99 query answers"
  if [ -z "${prometheus_pid:-}" ]; then
    fail "no prometheus"; return
  fi
  for s in static-server rpc-server; do
    case " $services " in *" $s "*) ;; *) continue ;; esac
    case "$s" in static-server) metric=portshare_static_answer_seconds ;; *) metric=portshare_rpc_frame_seconds ;; esac
    expr="$(yq -r --arg m "${metric}_bucket" \
      '.panels[].targets[] | select((.legendFormat | endswith("p99")) and (.expr | contains($m))) | .expr' \
      "$root/deploy/grafana/portshare.json")"
    if [ -z "$expr" ]; then
      fail "$s: no p99 panel of $metric in the dashboard"; continue
    fi
    expr="${expr//\$job/$s}"
    expr="${expr//\$instance/.*}"
    expr="${expr//\[1m\]/[30m]}"
    series="$(promql "count(${metric}_bucket{job=\"$s\"})" | yq -r '.data.result[0].value[1] // "0"')"
    p99="$(promql "$expr" | yq -r '[.data.result[].value[1]] | join(" ")')"
    if [ "${series:-0}" -gt 0 ] && [[ "$p99" =~ ^[0-9][0-9.e+-]*( [0-9][0-9.e+-]*)*$ ]]; then
      pass "$s $metric: $series bucket series scraped, p99 by pod ${p99}s"
    else
      fail "$s $metric: ${series:-0} bucket series scraped, p99 '${p99}' (query: $expr)"
    fi
  done
}

# Every panel's query and every alert expression, asked of that Prometheus after the bench's and the
# connections' traffic: each query returns data, each rule parses, reads series that exist and
# evaluates with health ok.
check_monitoring() {
  echo "== monitoring: prometheus asked every dashboard query and alert rule"
  if [ -z "${prometheus_pid:-}" ]; then
    fail "no prometheus"; return
  fi
  if java -cp "$(portshare_jar services/system-tests)" io.portshare.monitoring.MonitoringCheck \
       "http://127.0.0.1:$prometheus_port" "$root" $services > "$work/monitoring.log" 2>&1; then
    sed 's/^/      /' "$work/monitoring.log"
    pass "every dashboard query returns data, every alert rule evaluates (prometheus $(prometheus --version 2>&1 | awk 'NR == 1 {print $3}'))"
  else
    sed 's/^/      /' "$work/monitoring.log"
    fail "dashboard queries or alert rules against the pods (log: $work/monitoring.log)"
  fi
  stop_prometheus
}

# Many keep-alive connections against the static-server container from several 127.0.0.x sources
# inside its network namespace (clients outside its cgroup): no OOM kill, every connection answers.
check_connections() {
  local s=static-server pid infra before after held=0 checked=0 per=2500 n i jar holders=""
  jar="$(portshare_jar services/system-tests)"
  pid="$(pid_of $s)"
  infra="$(podman pod inspect --format '{{.InfraContainerID}}' "$s-pod-0")"
  infra="$(podman inspect --format '{{.State.Pid}}' "$infra")"
  echo "== $connections keep-alive connections to $s"
  before="$(memory_usage "$pid")"
  n=$(( (connections + per - 1) / per ))
  mkdir -p "$work/holders"
  for i in $(seq 1 "$n"); do
    rm -f "$work/holders/in-$i"; mkfifo "$work/holders/in-$i"
    # Holder: opens COUNT connections from SOURCE to 127.0.0.1:PORT, a GET on each, prints
    # "held OK FAILED"; each line on stdin repeats the GET on all ("checked OK FAILED").
    nsenter -t "$infra" -n java -Xmx128m -cp "$jar" io.portshare.soak.Holder 8080 "127.0.0.$((i + 1))" \
      "$(( i < n ? per : connections - per * (n - 1) ))" http /hello.txt \
      < "$work/holders/in-$i" > "$work/holders/out-$i" 2>&1 &
    holders="$holders $!"
    exec {fd}>"$work/holders/in-$i"; eval "holder_fd_$i=$fd"
  done
  for i in $(seq 1 "$n"); do
    timeout 300 bash -c "until grep -q '^held' '$work/holders/out-$i'; do sleep 0.5; done"
    held=$(( held + $(awk '/^held/ {print $2}' "$work/holders/out-$i") ))
  done
  for i in $(seq 1 "$n"); do eval "echo check >&\$holder_fd_$i"; done
  for i in $(seq 1 "$n"); do
    timeout 300 bash -c "until grep -q '^checked' '$work/holders/out-$i'; do sleep 0.5; done"
    checked=$(( checked + $(awk '/^checked/ {print $2}' "$work/holders/out-$i") ))
  done
  after="$(memory_usage "$pid")"
  local open
  open="$(curl -s --max-time 5 "http://$(ip_of $s):8081/metrics" | awk '/^portshare_connections_open/ {print int($2)}')"
  for i in $(seq 1 "$n"); do eval "exec {holder_fd_$i}>&-"; done
  # The holders only: prometheus runs in the background until the monitoring check.
  wait $holders
  expect "$s connections held, then answered again" "$connections $connections" "$held $checked"
  expect "$s open connections per /metrics" "$connections" "$open"
  expect "$s still running, not OOM-killed" "true false" \
    "$(podman inspect --format '{{.State.Running}} {{.State.OOMKilled}}' "$(ctr $s)")"
  local limit; limit="$(memory_limit "$pid")"
  local grown=$(( after - before > 0 ? after - before : 1 ))
  echo "      memory (cgroup): $((before / 1048576)) MiB idle -> $((after / 1048576)) MiB with $connections connections" \
       "(limit $((limit / 1048576)) MiB): $(( connections * 1048576 / grown )) connections per MiB," \
       "$(( grown / connections )) bytes per connection"
  [ "$after" -lt "$limit" ] && pass "$s memory with $connections connections below the limit" \
    || fail "$s memory $after at the limit $limit"
}

# podman stop as the kubelet stops a pod: SIGTERM, SIGKILL after the grace period.
check_stop() {
  local s="$1" grace t0 t1 code
  grace="$(spec "$s" .terminationGracePeriodSeconds)"
  # An idle connection is open while it drains.
  exec {conn}<>"/dev/tcp/$(ip_of "$s")/$(spec "$s" '.containers[0].ports[0].containerPort')"
  t0="$(date +%s%N)"
  podman stop --time "$grace" "$(ctr "$s")" >/dev/null
  t1="$(date +%s%N)"
  exec {conn}>&-
  code="$(podman inspect --format '{{.State.ExitCode}}' "$(ctr "$s")")"
  expect "$s exit code after SIGTERM" 0 "$code"
  local ms=$(( (t1 - t0) / 1000000 ))
  podman logs "$(ctr "$s")" > "$work/$s.log" 2>&1
  if [ "$ms" -lt $(( grace * 1000 )) ] && grep -q '"drained: 0 connections were cut' "$work/$s.log"; then
    pass "$s drained and stopped in $ms ms (grace period ${grace} s)"
  else
    fail "$s stop took $ms ms of ${grace} s, or its drain cut connections (log: $work/$s.log)"
  fi
}

for s in $services; do check_container "$s"; check_image Deployment "$s" "$(ctr "$s")"; done
echo "== answers"
start_prometheus
check_static_site
check_rpc_echo
check_bench
check_connections
check_latency
check_monitoring
echo "== stop"
for s in $services; do check_stop "$s"; done

if [ "$failures" -eq 0 ]; then
  echo "local-test: every check held"
else
  echo "local-test: $failures check(s) failed"
  exit 1
fi
