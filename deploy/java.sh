# Sourced by the deploy scripts: which java runs the services.
#   portshare_java        prints the java binary: $JAVA if set, else the newest JDK of release
#                         $PORTSHARE_JAVA_PREFERRED (default 25) or later found under the system's
#                         JVM directory, else java on PATH. README "Java runtime" says why 25.
#   portshare_java_home_of MAJOR
#                         prints the home of the newest installed JDK of that major release or later
#                         (nothing when there is none).
# Looks, never assumes a path: a JDK home is a directory with bin/java and a release file.

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

portshare_java() {
  if [ -n "${JAVA:-}" ]; then
    echo "$JAVA"
    return
  fi
  local home
  home=$(portshare_java_home_of "${PORTSHARE_JAVA_PREFERRED:-25}")
  if [ -n "$home" ]; then
    echo "$home/bin/java"
  else
    echo java
  fi
}
