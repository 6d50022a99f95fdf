#!/usr/bin/env bash
# The dev overlay's pods run for real, in podman, from the images a cluster would run
# (called by deploy/k8s.sh local | local-test | local-down):
#   deploy/k8s-local.sh local|local-test|local-down
#   1. a base image made from Debian's packages with mmdebstrap (OpenJDK 17), cached under
#      target/image-base/ (delete it to rebuild);
#   2. k8s/overlays/dev (and bench, for its Job) rendered by deploy/k8s.sh render, every image at
#      the checkout's tag VERSION-COMMIT[-dirty] (deploy/image-tag.sh);
#   3. the image of every service the dev overlay renders (each Deployment's, so a service that
#      deploy/new-service.sh added to k8s/base is one of them) and the bench Job's, built on that
#      base by Jib, offline, with that tag and the commit as labels, and loaded;
#   4. the dev overlay played with `podman kube play`;
#   local-test then checks the running pods (deploy/k8s-local-checks.sh): among the checks, the bench
#   Job's pod against rpc-server, and Debian's prometheus scraping the pods, asked every dashboard
#   query and alert expression.
# The images keep their names (portshare-SERVICE:VERSION-COMMIT resolve to the loaded localhost/
# images), so the manifests are played exactly as rendered; local-test checks that every container
# runs the image of this build (its tag and its labels). podman plays Pods and Deployments (one pod
# each) with their ConfigMaps; it ignores Services, the HPA, PodDisruptionBudgets and
# NetworkPolicies (see k8s/README.md for what this run proves and what only a cluster can).
# Needs: podman (runc), mmdebstrap (first run), kubectl 1.30+, yq (the jq wrapper), curl, nsenter;
# local-test also java and prometheus.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
. "$root/deploy/lib.sh"
portshare_help "$@"
work="$root/target/k8s-local"
base_dir="$root/target/image-base"
# Debian's OpenJDK 17 headless JRE on a minimal bookworm; the cache key is this recipe.
base_suite=bookworm
base_packages=openjdk-17-jre-headless,ca-certificates
# One tag for the renders and the images, taken once: the tree may change while the build runs.
IMAGE_TAG="$(portshare_image_tag)"
export IMAGE_TAG
revision="$("$root/deploy/image-tag.sh" revision)"

die() { echo "k8s local: $*" >&2; exit 1; }

need() {
  for c in "$@"; do
    command -v "$c" >/dev/null 2>&1 || die "$c not found; install it (Debian: apt-get install podman runc catatonit mmdebstrap yq curl util-linux prometheus; kubectl 1.30+)"
  done
}

# podman with runc and limits this machine allows, unless the caller brings a containers.conf.
podman_env() {
  mkdir -p "$work"
  if [ -z "${CONTAINERS_CONF:-}" ]; then
    local nofile
    nofile="$(ulimit -Hn)"; [ "$nofile" = unlimited ] && nofile=1048576
    # podman's defaults (1048576 files, as many processes as the host allows) fail where the
    # machine's own hard limits are lower; a pod needs some 100 threads and a file per connection.
    cat > "$work/containers.conf" <<EOF
# written by deploy/k8s-local.sh: runc (crun fails in some sandboxes); rlimits within this machine's hard limits
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=4096:4096"]
[engine]
runtime = "runc"
EOF
    export CONTAINERS_CONF="$work/containers.conf"
  fi
  podman info >/dev/null 2>"$work/podman-info.err" \
    || die "podman cannot run here: $(tail -1 "$work/podman-info.err")"
}

# The base image as a docker-archive tar (what Jib's tar:// base reads); built once.
base_image() {
  local key tag tar
  key="$(printf '%s %s minbase PATH=/usr/bin:/bin' "$base_suite" "$base_packages" | sha256sum | cut -c1-12)"
  tag="localhost/portshare-base:$key"
  tar="$base_dir/portshare-base-$key.tar"
  if [ ! -s "$tar" ]; then
    need mmdebstrap
    mkdir -p "$base_dir"
    echo "k8s local: building the base image (Debian $base_suite, $base_packages) into $tar" >&2
    mmdebstrap --quiet --variant=minbase --include="$base_packages" "$base_suite" "$base_dir/rootfs.tar" >&2
    podman import --quiet --change 'ENV PATH=/usr/bin:/bin' "$base_dir/rootfs.tar" "$tag" >/dev/null
    rm -f "$base_dir/rootfs.tar"
    podman save --quiet --format docker-archive -o "$tar.part" "$tag"
    mv "$tar.part" "$tar"
  fi
  echo "$tar"
}

arch() {
  case "$(uname -m)" in
    x86_64) echo amd64 ;;
    aarch64|arm64) echo arm64 ;;
    *) die "no image platform for $(uname -m)" ;;
  esac
}

# The services: the Deployments the dev overlay renders, in its order.
services() {
  yq -r 'select(.kind == "Deployment") | .metadata.name' "$work/dev.yaml"
}

# The modules whose images the rendered Deployments and the bench Job run, as the system tests
# read them: registry/portshare-MODULE:TAG is MODULE's image.
image_modules() {
  yq -r 'select(.kind == "Deployment" or .kind == "Job") | .spec.template.spec.containers[].image
      | sub("^.*/"; "") | sub(":.*$"; "") | sub("^portshare-"; "")' "$work/dev.yaml" "$work/bench.yaml" \
    | awk '!seen[$0]++'
}

# Every image the renders name, and the holder of local-test's connections (services/system-tests).
images() {
  local tar modules
  tar="$(base_image)"
  modules="$(image_modules | paste -sd, -)"
  echo "k8s local: building the images of ${modules//,/, } at $IMAGE_TAG (Jib, base tar://$tar)" >&2
  (cd "$root" && ./mvnw -B -q -Pimage package -DskipTests "-Dimage.base=tar://$tar" \
      "-Dimage.tag=$IMAGE_TAG" "-Dimage.revision=$revision" \
      "-Djib.from.platforms=linux/$(arch)" -pl "$modules,services/system-tests" -am) >&2
  for m in $(image_modules); do
    podman load --quiet -i "$root/$m/target/jib-image.tar" >&2
  done
}

render() {
  "$root/deploy/k8s.sh" render dev > "$work/dev.yaml"
  "$root/deploy/k8s.sh" render bench > "$work/bench.yaml"
}

# podman plays Pods, not Jobs: the bench Job's pod template becomes a Pod of the same spec. The
# names of the bench overlay's Services (all select the one rpc-server pod) resolve, as a cluster's
# DNS would, to the rpc-server pod (RPC_IP): the headless one the Job targets and reads /metrics at
# resolves so in a cluster too; podman has no kube-proxy for the other.
render_bench() {
  yq -y --arg ip "$1" --arg names "$(yq -r 'select(.kind == "Service") | .metadata.name' "$work/bench.yaml" | paste -sd ' ')" \
    'select(.kind == "Job") | {apiVersion: "v1", kind: "Pod",
        metadata: {name: .metadata.name, labels: .spec.template.metadata.labels},
        spec: (.spec.template.spec + {hostAliases: [{ip: $ip, hostnames: ($names | split(" "))}]})}' \
    "$work/bench.yaml" > "$work/bench-pod.yaml"
}

# Removes the pods the renders play (a Deployment's pod is NAME-pod-0, a Pod keeps its name), and
# the volumes podman made for their emptyDirs and ConfigMaps (named as in the pod specs), so that no
# run sees what an earlier one left.
down() {
  local f
  for f in "$work/dev.yaml" "$work/bench-pod.yaml"; do
    [ -f "$f" ] || continue
    yq -r 'if .kind == "Deployment" then "\(.metadata.name)-pod-0" elif .kind == "Pod" then .metadata.name else empty end' "$f"
  done | sort -u | while read -r p; do podman pod rm --force --ignore "$p" >/dev/null 2>&1 || true; done
  for f in "$work/dev.yaml" "$work/bench-pod.yaml"; do
    [ -f "$f" ] || continue
    yq -r 'select(.kind == "Deployment" or .kind == "Pod") | (.spec.template.spec // .spec).volumes[]
        | .configMap.name // .name' "$f"
  done | sort -u | while read -r v; do podman volume rm --force "$v" >/dev/null 2>&1 || true; done
}

pod_ip() {
  podman inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$1-pod-0-$1"
}

up() {
  need podman kubectl yq curl
  podman_env
  # What the last run played, then what this one will: its pods and volumes go first.
  down
  render
  down
  images
  # podman without systemd cannot schedule healthchecks; the probes are checked by local-test.
  podman kube play --quiet "$work/dev.yaml" > "$work/play.log" 2>&1 \
    || { cat "$work/play.log" >&2; die "podman kube play failed"; }
  for s in $(services); do
    wait_ready "$s"
  done
  render_bench "$(pod_ip rpc-server)"
}

# Ready as the readinessProbe sees it: GET its path on its port of the pod's address.
wait_ready() {
  local ip path port
  ip="$(pod_ip "$1")"
  path="$(probe "$1" readinessProbe path)"; port="$(probe "$1" readinessProbe port)"
  for _ in $(seq 1 360); do
    curl -fsS -o /dev/null --max-time 1 "http://$ip:$port$path" 2>/dev/null && return 0
    [ "$(podman inspect --format '{{.State.Running}}' "$1-pod-0-$1")" = true ] \
      || { podman logs "$1-pod-0-$1" >&2; die "$1 exited while starting"; }
    sleep 0.5
  done
  die "$1 not ready after 180 s at http://$ip:$port$path"
}

# probe SERVICE PROBE FIELD: the rendered Deployment's httpGet path or port of that probe.
probe() {
  yq -r --arg d "$1" --arg p "$2" --arg f "$3" \
    'select(.kind == "Deployment" and .metadata.name == $d) | .spec.template.spec.containers[0][$p].httpGet[$f]' \
    "$work/dev.yaml"
}

print_addresses() {
  for s in $(services); do
    local ip; ip="$(pod_ip "$s")"
    echo "$s: pod $s-pod-0 at $ip; ports $(yq -r --arg d "$s" \
      'select(.kind == "Deployment" and .metadata.name == $d) | .spec.template.spec.containers[0].ports | map("\(.name) \(.containerPort)") | join(", ")' \
      "$work/dev.yaml") (also published on this host)"
  done
  echo "bench: podman kube play $work/bench-pod.yaml   (the bench Job's pod against rpc-server)"
  echo "stop: deploy/k8s.sh local-down"
}

case "${1:-}" in
  local) up; print_addresses ;;
  local-test)
    need java prometheus
    trap 'down' EXIT
    up
    WORK="$work" SERVICES="$(services)" IMAGE_REVISION="$revision" bash "$root/deploy/k8s-local-checks.sh"
    ;;
  # The pods of the last render; with none left (a clean target/), the tree's own.
  local-down) need podman yq; podman_env; [ -f "$work/dev.yaml" ] || { need kubectl; render; }; down ;;
  *) echo "usage: deploy/k8s-local.sh local|local-test|local-down" >&2; exit 2 ;;
esac
