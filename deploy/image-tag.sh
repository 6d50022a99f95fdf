#!/usr/bin/env bash
# The tag of every image this checkout builds, and the commit it was built from:
#   deploy/image-tag.sh            VERSION-COMMIT, plus -dirty when the tree differs from COMMIT
#   deploy/image-tag.sh revision   the full commit (the images' org.opencontainers.image.revision)
# VERSION is the parent pom's <version> (e.g. 0.1.0), COMMIT is HEAD abbreviated to 7 hex
# digits (more where 7 are ambiguous, as git abbreviates). The tree is dirty when a tracked file is
# changed, staged or deleted, or a file git does not ignore is untracked: any of them can be in the
# image, so two builds of one commit with different trees never share a tag. The images, the
# manifests' tags and their app.kubernetes.io/version labels all carry this one tag, so a pod never
# runs an older image of the same name (imagePullPolicy IfNotPresent keeps what a node has).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
me="deploy/image-tag.sh"
. "$root/deploy/lib.sh"
portshare_help "$@"

git -C "$root" rev-parse --verify -q HEAD >/dev/null 2>&1 \
  || { echo "$me: $root is not a git checkout with a commit; an image tag names a commit" >&2; exit 1; }

case "${1:-tag}" in
  revision) git -C "$root" rev-parse HEAD; exit 0 ;;
  tag) ;;
  *) echo "usage: $me [tag|revision]  (--help says more)" >&2; exit 2 ;;
esac

# The parent pom's own version: the first <version> outside <parent> (the pom has no parent).
version="$(sed -n '/<parent>/,/<\/parent>/d; s/^[[:space:]]*<version>\([^<]*\)<\/version>.*/\1/p' "$root/pom.xml" | head -1)"
[ -n "$version" ] || { echo "$me: no <version> in $root/pom.xml" >&2; exit 1; }
commit="$(git -C "$root" rev-parse --short=7 HEAD)"
dirty=""
[ -z "$(git -C "$root" status --porcelain --untracked-files=normal)" ] || dirty="-dirty"
echo "$version-$commit$dirty"
