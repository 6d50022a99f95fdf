package io.portshare.kit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How old a raw file's figures are against the code a reader runs: the commit the file names, and
 * which of the modules it measured have changed their main code since ({@code git rev-list
 * COMMIT..HEAD -- MODULE/src/main}). The modules are read from the file: the servers its rows and
 * command name (static-server, rpc-server; the Router rows and {@code -vertx} rows run
 * portshare-web), each on the runtime. The text names the set of changed modules only, so that it
 * changes when that set does, not at every commit; the counts go to {@link #counts()}.
 */
public final class RawAge {

  /** A module a raw file may have measured: how the page names it, its main code, what in a file says so. */
  private record Module(String name, String path, Pattern named) {}

  private static final List<Module> MODULES = List.of(
      new Module("static-server", "static-server/src/main", Pattern.compile("static-server|portshare[ -]static\\b")),
      new Module("rpc-server", "rpc-server/src/main", Pattern.compile("rpc-server|portshare[ -]rpc\\b")),
      new Module("portshare-web", "services/web/src/main",
          Pattern.compile("router-|-vertx\\b|--engine[ =]vertx|engine=vertx")),
      new Module("the runtime", "services/runtime/src/main",
          Pattern.compile("static-server|rpc-server|router-|portshare-(rpc|static)")));

  private final String path;
  private final String commit;
  private final boolean uncommitted;
  private final Map<Module, Integer> since = new LinkedHashMap<>();

  private RawAge(String path, String commit, boolean uncommitted) {
    this.path = path;
    this.commit = commit;
    this.uncommitted = uncommitted;
  }

  /** The age of the raw file {@code path}, whose text is {@code text}; no commit, or one git lacks, throws. */
  public static RawAge of(String path, String text, Git git) {
    RawHeader header = RawHeader.of(text);
    String commit = header.commit().orElseThrow(() -> new IllegalArgumentException(path
        + " has no \"commit:\" line: its age cannot be told"));
    if (!git.exists(commit)) {
      throw new IllegalArgumentException(path + ": its commit " + commit + " does not exist in this repository");
    }
    RawAge age = new RawAge(path, git.shortName(commit), header.uncommitted());
    for (Module m : MODULES) {
      if (m.named().matcher(text).find()) {
        age.since.put(m, git.commitsSince(commit, List.of(m.path())));
      }
    }
    return age;
  }

  /** E.g. "measured at d4d44ad; rpc-server and the runtime changed since". */
  public String text() {
    String at = "measured at " + commit + (uncommitted ? " with uncommitted changes" : "");
    if (since.isEmpty()) {
      return at + "; no portshare module in it";
    }
    List<String> changed = new ArrayList<>();
    List<String> unchanged = new ArrayList<>();
    since.forEach((m, n) -> (n > 0 ? changed : unchanged).add(m.name()));
    return changed.isEmpty() ? at + "; " + and(unchanged) + " unchanged since"
        : at + "; " + and(changed) + " changed since";
  }

  /** E.g. "bench/report/x/table.txt at d4d44ad: commits since, by module: rpc-server 6, the runtime 31". */
  public String counts() {
    List<String> each = new ArrayList<>();
    since.forEach((m, n) -> each.add(m.name() + " " + n));
    return path + " at " + commit + ": commits since, by module: " + (each.isEmpty() ? "none measured"
        : String.join(", ", each));
  }

  private static String and(List<String> names) {
    if (names.size() == 1) {
      return names.get(0);
    }
    return String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
  }
}
