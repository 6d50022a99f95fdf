#!/usr/bin/env bash
# Deploy on Kubernetes with kustomize (kubectl apply -k):
#   deploy/k8s.sh apply  dev|prod|bench   create or update the overlay's objects
#   deploy/k8s.sh delete dev|prod|bench   remove them
#   deploy/k8s.sh render dev|prod|bench   print the manifests, touch nothing
#   deploy/k8s.sh bench  [bench]          run the bench Job against rpc-server and print its log
# KUBECTL picks the kubectl binary; extra arguments go to kubectl (e.g. --context NAME).
# Every portshare image is deployed at one tag, VERSION-COMMIT[-dirty]: the checkout's own
# (deploy/image-tag.sh), or IMAGE_TAG=0.1.0-1a2b3c4 for a release built elsewhere. The overlay is
# rendered through a kustomization that sets it (images: newTag) and labels every object
# app.kubernetes.io/version with it; a tag that names no commit (0.1.0-SNAPSHOT) exits 2.
# Without a cluster, the dev overlay's pods run in podman (deploy/k8s-local.sh):
#   deploy/k8s.sh local                   build the images, play the pods, print their addresses
#   deploy/k8s.sh local-test              the same, check the running containers, tear down
#   deploy/k8s.sh local-down              remove the pods
set -euo pipefail

. "$(dirname "$0")/lib.sh"
portshare_help "$@"
root="$portshare_root"
kubectl="${KUBECTL:-kubectl}"

usage() {
  echo "usage: deploy/k8s.sh apply|delete|render|bench OVERLAY [kubectl args...] | local | local-test | local-down;" \
    "overlays: $(ls "$root/k8s/overlays" | tr '\n' ' ')" >&2
  exit 2
}

[ $# -ge 1 ] || usage
action="$1"; shift
case "$action" in
  local|local-test|local-down) exec "$root/deploy/k8s-local.sh" "$action" ;;
esac
overlay="${1:-}"
if [ "$action" = bench ] && { [ -z "$overlay" ] || [[ "$overlay" == -* ]]; }; then
  overlay=bench
else
  [ $# -ge 1 ] && shift
fi
[ -n "$overlay" ] || usage
dir="$root/k8s/overlays/$overlay"
[ -f "$dir/kustomization.yaml" ] || { echo "k8s: no overlay \"$overlay\" (k8s/overlays/)" >&2; usage; }
command -v "$kubectl" >/dev/null || { echo "k8s: $kubectl not found; install kubectl 1.30 or newer" >&2; exit 1; }
tag="$(portshare_image_tag)"
dir="$(portshare_tagged "$overlay" "$tag")"
trap 'rm -rf "$dir"' EXIT

case "$action" in
  render) "$kubectl" kustomize "$dir" ;;
  apply)
    "$kubectl" apply -k "$dir" "$@"
    ns="$("$kubectl" kustomize "$dir" | sed -n 's/^  namespace: //p' | head -1)"
    for d in $("$kubectl" kustomize "$dir" | awk '/^kind: Deployment/{d=1} d&&/^  name: /{print $2; d=0}'); do
      "$kubectl" -n "$ns" rollout status "deployment/$d" --timeout=180s "$@"
    done
    ;;
  delete) "$kubectl" delete -k "$dir" --ignore-not-found "$@" ;;
  bench)
    ns="$("$kubectl" kustomize "$dir" | sed -n 's/^  namespace: //p' | head -1)"
    # A Job's pod template cannot be changed: delete the last run before starting a new one.
    "$kubectl" -n "$ns" delete job bench-rpc --ignore-not-found "$@"
    "$kubectl" apply -k "$dir" "$@"
    "$kubectl" -n "$ns" rollout status deployment/rpc-server --timeout=180s "$@"
    "$kubectl" -n "$ns" wait --for=condition=Ready pod -l job-name=bench-rpc --timeout=300s "$@" || true
    "$kubectl" -n "$ns" logs -f job/bench-rpc "$@"
    "$kubectl" -n "$ns" wait --for=condition=Complete job/bench-rpc --timeout=60s "$@"
    ;;
  *) usage ;;
esac
