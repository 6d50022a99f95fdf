# Sourced by the deploy scripts (. deploy/lib.sh), not run: where each module's runnable jar is,
# building it when missing, which jar a service argument names, a script's --help, and whether the
# arguments give a flag.
#   portshare_jar MODULE        prints MODULE's runnable jar: rpc-server, static-server, bench,
#                               services/system-tests (the soak)
#   portshare_need_jars MODULE...
#                               builds those modules (and what they need) when any of their jars is
#                               missing; with BUILD=0 it says which is missing and fails instead
#   portshare_service SERVICE   sets portshare_service_jar (absolute) and portshare_module for a
#                               service given by path (a jar: it holds a slash or ends in .jar;
#                               portshare_module is then empty) or by name (a service module of this
#                               repository, NAME/target/portshare-NAME.jar, NAME-server also by NAME:
#                               rpc-server or rpc, static-server, greeter-server or greeter as
#                               deploy/new-service.sh lays one out); a name's jar may still need a
#                               build (portshare_need_jars). A name that is no service module or a
#                               path that is no file: one line on stderr, status 2
#   portshare_help ARG...       when ARG is -h or --help: the calling script's header (its comment
#                               lines under the first) on standard output, and exit 0
#   portshare_given FLAG ARG... succeeds when the ARGs give FLAG (as FLAG or FLAG=VALUE): a default
#                               from the environment goes in only for a flag the caller left out
#   portshare_record_commit     prints the commit a raw file records: this checkout's full hash,
#                               "(with uncommitted changes)" after it when tracked files differ
#   portshare_load              prints the load averages (1, 5, 15 min), for "# load average at start:"
#   portshare_await_ready PORT PID SECONDS
#                               waits until the admin port on 127.0.0.1 (or $portshare_admin_host)
#                               says ready: status 0; 1 when PID ended first, 2 when SECONDS passed
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

# The service modules of this repository: a top-level NAME/pom.xml that names the descriptor its
# jar runs (<portshare.service>), the shipped ones and those deploy/new-service.sh wrote.
portshare_service_modules() {
  local pom
  for pom in "$portshare_root"/*/pom.xml; do
    grep -q '<portshare.service>' "$pom" 2>/dev/null && basename "$(dirname "$pom")"
  done
}

portshare_service() {
  local given="$1" me="${portshare_me:-$(basename "$0" .sh)}" m
  portshare_module=""
  portshare_service_jar=""
  case "$given" in
    */*|*.jar)
      if [ ! -f "$given" ]; then
        echo "$me: no service jar at $given" >&2
        return 2
      fi
      portshare_service_jar="$(cd "$(dirname "$given")" && pwd)/$(basename "$given")"
      return 0 ;;
  esac
  if [[ "$given" =~ ^[a-z0-9][a-z0-9._-]*$ ]]; then
    for m in "$given" "$given-server"; do
      if [ -f "$portshare_root/$m/pom.xml" ] && grep -q '<portshare.service>' "$portshare_root/$m/pom.xml"; then
        portshare_module=$m
        portshare_service_jar="$(portshare_jar "$m")"
        return 0
      fi
    done
  fi
  echo "$me: unknown service \"$given\"; expected a service jar (path/to/my-service.jar) or a service module:" \
    "$(portshare_service_modules | paste -sd' ' - | sed 's/ /, /g')" >&2
  return 2
}

portshare_help() {
  case "${1:-}" in
    -h|--help) ;;
    *) return 0 ;;
  esac
  # The script's first comment block (under its #! line), up to the first line that is not a comment.
  awk 'NR == 1 && /^#!/ { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"
  exit 0
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

# The tag of the images this checkout builds (deploy/image-tag.sh), or IMAGE_TAG when the caller
# names a release: VERSION-COMMIT with an optional -dirty, anything else (0.1.0-SNAPSHOT, latest)
# exits 2, as a tag that names no commit lets a node run an older image of the same tag.
portshare_image_tag() {
  local tag="${IMAGE_TAG:-}"
  [ -n "$tag" ] || tag="$("$portshare_root/deploy/image-tag.sh")" || return 1
  if ! [[ "$tag" =~ ^[0-9A-Za-z._-]+-[0-9a-f]{7,40}(-dirty)?$ ]] || [ "${#tag}" -gt 128 ]; then
    echo "$(basename "$0"): IMAGE_TAG=$tag: an image tag is VERSION-COMMIT[-dirty] as deploy/image-tag.sh prints it (e.g. 0.1.0-1a2b3c4)" >&2
    exit 2
  fi
  echo "$tag"
}

# portshare_tagged OVERLAY TAG
#   prints a kustomization (under target/) that is k8s/overlays/OVERLAY with every portshare image
#   at TAG (kustomize's images: newTag, after any newName the overlay gives) and every object labelled
#   app.kubernetes.io/version: TAG, pod templates included. deploy/k8s.sh renders and applies it,
#   then removes it; a directory of its own per call, so runs at different tags do not mix.
portshare_tagged() {
  local overlay="$1" tag="$2" dir names
  mkdir -p "$portshare_root/target/k8s-tagged"
  dir="$(mktemp -d "$portshare_root/target/k8s-tagged/$overlay.XXXXXX")"
  # The images as the overlay names them (a registry of its newName included), without their tags.
  names="$("${KUBECTL:-kubectl}" kustomize "$portshare_root/k8s/overlays/$overlay" \
    | sed -n 's/^[[:space:]]*\(- \)\{0,1\}image: *//p' | sed 's/:[^:/]*$//' \
    | awk -F/ '$NF ~ /^portshare-/ && !seen[$0]++')"
  {
    echo "# written by deploy/k8s.sh: k8s/overlays/$overlay at image tag $tag"
    echo "apiVersion: kustomize.config.k8s.io/v1beta1"
    echo "kind: Kustomization"
    echo "resources:"
    echo "  - ../../../k8s/overlays/$overlay"
    echo "images:"
    for n in $names; do printf '  - name: %s\n    newTag: %s\n' "$n" "$tag"; done
    echo "labels:"
    echo "  - pairs:"
    echo "      app.kubernetes.io/version: $tag"
    echo "    includeSelectors: false"
    echo "    includeTemplates: true"
  } > "$dir/kustomization.yaml"
  echo "$dir"
}

# Run rather than sourced: say so (or, for --help, what it defines).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  portshare_help "$@"
  echo "lib.sh: sourced by the deploy scripts (. deploy/lib.sh), not run; deploy/lib.sh --help says what it defines" >&2
  exit 2
fi

portshare_record_commit() {
  local commit
  commit="$(git -C "$portshare_root" rev-parse HEAD 2>/dev/null)" || { echo "unknown (not a git checkout)"; return 0; }
  [ -z "$(git -C "$portshare_root" status --porcelain --untracked-files=no 2>/dev/null)" ] \
    || commit="$commit (with uncommitted changes)"
  echo "$commit"
}

portshare_load() {
  cut -d' ' -f1-3 /proc/loadavg
}

portshare_await_ready() {
  local deadline=$((SECONDS + $3))
  while [ "$SECONDS" -lt "$deadline" ]; do
    curl -fs -o /dev/null "http://${portshare_admin_host:-127.0.0.1}:$1/health/ready" && return 0
    kill -0 "$2" 2>/dev/null || return 1
    sleep 0.05
  done
  return 2
}
