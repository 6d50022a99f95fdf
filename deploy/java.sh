# Sourced by the deploy scripts (. deploy/java.sh), not run: which Java runtimes are installed.
#   portshare_java_home_of MAJOR
#       prints the home of the newest installed JDK of that major release or later, found by
#       looking under the system's JVM directory (PORTSHARE_JVM_DIR, default /usr/lib/jvm);
#       nothing when there is none. A JDK home is a directory with bin/java and a release file.
# The services run on java from PATH (or $JAVA); docs/warm-start.md, "The Java runtime", says why.

portshare_java_home_of() {
  local want=$1 best="" best_major=0 release major dir
  for release in "${PORTSHARE_JVM_DIR:-/usr/lib/jvm}"/*/release; do
    [ -f "$release" ] || continue
    dir=${release%/release}
    [ -x "$dir/bin/java" ] || continue
    major=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release")
    [ -n "$major" ] || continue
    if [ "$major" -ge "$want" ] && [ "$major" -gt "$best_major" ]; then
      best=$dir
      best_major=$major
    fi
  done
  [ -n "$best" ] && echo "$best"
}

# Run rather than sourced: say so (or, for --help, what it defines).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  . "$(dirname "$0")/lib.sh"
  portshare_help "$@"
  echo "java.sh: sourced by the deploy scripts (. deploy/java.sh), not run; deploy/java.sh --help says what it defines" >&2
  exit 2
fi
