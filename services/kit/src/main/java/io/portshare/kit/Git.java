package io.portshare.kit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The repository's history, as the {@code git} command tells it: whether a commit exists, and how
 * many commits since it changed some paths. The answers are kept: a page asks the same ones often.
 */
public final class Git {

  private static final Pattern SHA = Pattern.compile("[0-9a-f]{7,40}");

  private final Path root;
  private final Map<List<String>, String> answers = new HashMap<>();

  public Git(Path root) {
    this.root = root;
  }

  /** Whether {@code commit} names a commit of this repository (a shallow clone may not have it). */
  public boolean exists(String commit) {
    return SHA.matcher(commit).matches() && run("cat-file", "-e", commit + "^{commit}") != null;
  }

  /** The commits after {@code commit} up to HEAD that change anything under {@code paths}. */
  public int commitsSince(String commit, List<String> paths) {
    if (!exists(commit)) {
      throw new IllegalArgumentException("commit " + commit + " does not exist in this repository");
    }
    List<String> args = new ArrayList<>(List.of("rev-list", "--count", commit + "..HEAD", "--"));
    args.addAll(paths);
    String out = run(args.toArray(String[]::new));
    if (out == null) {
      throw new IllegalArgumentException("git rev-list " + commit + "..HEAD failed in " + root);
    }
    return Integer.parseInt(out.strip());
  }

  /** The abbreviated name git gives {@code commit}. */
  public String shortName(String commit) {
    String out = exists(commit) ? run("rev-parse", "--short=7", commit) : null;
    return out == null ? commit : out.strip();
  }

  /** What {@code git ARGS} printed, or null if it failed. */
  private String run(String... args) {
    List<String> key = List.of(args);
    return answers.computeIfAbsent(key, k -> {
      List<String> command = new ArrayList<>(List.of("git", "-C", root.toString()));
      command.addAll(k);
      try {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return p.waitFor() == 0 ? out : null;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot run git: " + e.getMessage(), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted running git", e);
      }
    });
  }
}
