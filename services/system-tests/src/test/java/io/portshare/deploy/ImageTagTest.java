package io.portshare.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.Repository;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * deploy/image-tag.sh, the one tag of every image the build makes and every manifest deploys, in a
 * git repository of its own: the parent pom's version, the commit, and -dirty for every way a tree
 * can differ from its commit (a file git ignores is not one).
 */
class ImageTagTest {

  @TempDir
  Path repo;

  /** A change to the committed tree, and whether it makes the tree dirty. */
  interface Change {
    void apply(Path repo) throws Exception;
  }

  static Stream<Arguments> changes() {
    return Stream.of(
        Arguments.of("nothing", (Change) r -> { }, false),
        Arguments.of("a tracked file edited", (Change) r -> Files.writeString(r.resolve("README.md"), "edited\n"), true),
        Arguments.of("an edit staged", (Change) r -> {
          Files.writeString(r.resolve("README.md"), "staged\n");
          git(r, "add", "README.md");
        }, true),
        Arguments.of("a tracked file deleted", (Change) r -> Files.delete(r.resolve("README.md")), true),
        Arguments.of("a new file, untracked", (Change) r -> Files.writeString(r.resolve("New.java"), "class New {}\n"), true),
        Arguments.of("a file git ignores", (Change) r -> {
          Files.createDirectories(r.resolve("target"));
          Files.writeString(r.resolve("target/app.jar"), "built\n");
        }, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("changes")
  void tagIsVersionDashCommitAndDirtyWhenTheTreeDiffers(String what, Change change, boolean dirty) throws Exception {
    String commit = commitRepository();
    change.apply(repo);
    String tag = tag(repo, 0);
    assertThat(tag).as("after %s", what).isEqualTo("1.2.3-SNAPSHOT-" + commit.substring(0, 7) + (dirty ? "-dirty" : ""));
    assertThat(tag).matches(ManifestTagTest.TAG);
  }

  @Test
  void revisionIsTheFullCommit() throws Exception {
    String commit = commitRepository();
    assertThat(run(repo, 0, "bash", "deploy/image-tag.sh", "revision")).isEqualTo(commit);
    assertThat(commit).matches("[0-9a-f]{40}");
  }

  @Test
  void outsideAGitCheckoutThereIsNoTag() throws Exception {
    writeTree();
    assertThat(run(repo, 1, "bash", "deploy/image-tag.sh"))
        .contains("is not a git checkout with a commit; an image tag names a commit");
  }

  @Test
  void theRepositorysOwnTagNamesItsPomVersionAndHead() throws Exception {
    Path root = Repository.root();
    String head = run(root, 0, "git", "rev-parse", "HEAD");
    assertThat(tag(root, 0)).startsWith(pomVersion(root) + "-" + head.substring(0, 7)).matches(ManifestTagTest.TAG);
  }

  /** The parent pom's own version, as the tag script reads it. */
  static String pomVersion(Path root) throws IOException {
    String pom = Files.readString(root.resolve("pom.xml"));
    int from = pom.indexOf("<artifactId>portshare-parent</artifactId>");
    int start = pom.indexOf("<version>", from) + "<version>".length();
    return pom.substring(start, pom.indexOf("</version>", start));
  }

  /** The tag script, a pom whose <parent> has a version of its own, a README, a .gitignore; committed. */
  private String commitRepository() throws Exception {
    writeTree();
    git(repo, "init", "-q");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "first");
    return run(repo, 0, "git", "rev-parse", "HEAD");
  }

  private void writeTree() throws IOException {
    Files.createDirectories(repo.resolve("deploy"));
    // The script and what it sources (its --help and the scripts' shared helpers).
    for (String script : new String[] {"deploy/image-tag.sh", "deploy/lib.sh"}) {
      Files.copy(Repository.root().resolve(script), repo.resolve(script), StandardCopyOption.REPLACE_EXISTING);
    }
    Files.writeString(repo.resolve("pom.xml"), String.join("\n",
        "<project>",
        "  <parent>",
        "    <groupId>org.example</groupId>",
        "    <artifactId>base</artifactId>",
        "    <version>9.9.9</version>",
        "  </parent>",
        "  <artifactId>portshare-parent</artifactId>",
        "  <version>1.2.3-SNAPSHOT</version>",
        "  <dependencies><dependency><version>4.5.6</version></dependency></dependencies>",
        "</project>", ""));
    Files.writeString(repo.resolve("README.md"), "first\n");
    Files.writeString(repo.resolve(".gitignore"), "target/\n");
  }

  private static String tag(Path root, int exit) throws Exception {
    return run(root, exit, "bash", "deploy/image-tag.sh");
  }

  private static void git(Path repo, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("git", "-c", "user.name=portshare", "-c",
        "user.email=portshare@example.com", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"));
    command.addAll(List.of(args));
    run(repo, 0, command.toArray(String[]::new));
  }

  /** Runs a command in {@code dir}, expects its exit code, returns its output (stdout and stderr) stripped. */
  static String run(Path dir, int exit, String... command) throws Exception {
    Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("%s: %s", String.join(" ", command), out).isEqualTo(exit);
    return out.strip();
  }
}
