package io.portshare.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code deploy/bench.sh figures --check} finds, each on a case planted in a real git
 * repository: a raw file's age against the code, a commit that does not exist, a header without its
 * facts, a hand edit a page hides, and a figure typed in a page's prose.
 */
class FiguresCheckTest {

  @TempDir
  Path root;
  String measured;

  @BeforeEach
  void repository() throws Exception {
    git("init", "-q", "-b", "main");
    git("config", "user.email", "t@example.org");
    git("config", "user.name", "t");
    write("rpc-server/src/main/Echo.java", "class Echo {}");
    write("static-server/src/main/Files.java", "class Files {}");
    write("services/runtime/src/main/Loop.java", "class Loop {}");
    commit("the code as measured");
    measured = git("rev-parse", "HEAD").strip();
  }

  private String raw(String commit, String extra) {
    return "command: deploy/bench.sh ledger --rows c-echo,rpc-server\n"
        + "commit: " + commit + "\n" + extra
        + "load average at start: 0.60 1.51 1.43\n\nRPC echo\n            64B|1x\nrpc-server  1.14\n";
  }

  @Test
  void theAgeNamesTheModulesMeasuredThatChangedSinceTheRawFilesCommit() throws Exception {
    write("bench/report/x/table.txt", raw(measured, ""));
    write("README.md", "<!--fig bench/report/x/table.txt ; header ; age-->?<!--/fig-->\n");
    String at = measured.substring(0, 7);
    assertThat(render()).contains("measured at " + at + "; rpc-server and the runtime unchanged since");

    write("static-server/src/main/Files.java", "class Files { int changed; }");
    commit("static-server's code, which this raw file did not measure");
    assertThat(render()).contains("measured at " + at + "; rpc-server and the runtime unchanged since");

    write("rpc-server/src/main/Echo.java", "class Echo { int changed; }");
    commit("rpc-server's code");
    write("rpc-server/src/test/EchoTest.java", "class EchoTest {}");
    commit("a test: not the main code");
    assertThat(render()).contains("measured at " + at + "; rpc-server changed since");
  }

  @Test
  void aMarkerWhoseRawFilesCommitDoesNotExistFailsInOneLine() throws Exception {
    write("bench/report/x/table.txt", raw("0123456789abcdef0123456789abcdef01234567", ""));
    write("README.md", "<!--fig bench/report/x/table.txt ; header ; age-->?<!--/fig-->\n"
        + "<!--fig bench/report/x/table.txt ; RPC echo ; rpc-server ; 64B\\|1x-->1.14<!--/fig-->\n");
    assertThatThrownBy(this::render).hasMessage("bench/report/x/table.txt: its commit"
        + " 0123456789abcdef0123456789abcdef01234567 does not exist in this repository");
    assertThat(new FiguresCheck(new Figures(root)).rawHeaders()).containsExactly("bench/report/x/table.txt: its commit"
        + " 0123456789abcdef0123456789abcdef01234567 does not exist in this repository");
  }

  @Test
  void aRawFileAMarkerNamesNeedsItsCommandCommitAndLoadOrSaysWhyNot() throws Exception {
    write("bench/report/a.txt", "command: x\ncommit: " + measured + "\nload average at start: 1 1 1\n");
    write("bench/report/b.txt", "# cell server round\n64B|1x c 1 9323\n");
    write("bench/report/c.txt", "# command: x\n# commit: " + measured + "\n# edited by hand: the load was not recorded\n");
    write("bench/report/d.txt", "command: x\ncommit: " + measured + "\n");
    write("docs/a.md", "<!--fig bench/report/a.txt ; header ; command-->x<!--/fig-->\n"
        + "<!--fig bench/report/b.txt ; header ; x-->x<!--/fig--> <!--fig bench/report/c.txt ; header ; x-->x<!--/fig-->\n"
        + "<!--fig bench/report/d.txt ; header ; x-->x<!--/fig-->\n");
    assertThat(new FiguresCheck(new Figures(root)).rawHeaders()).containsExactly(
        "bench/report/b.txt: no \"command:\" line in its header",
        "bench/report/b.txt: no \"commit:\" line in its header",
        "bench/report/b.txt: no \"load average at start:\" line in its header, and no \"edited by hand:\" line saying why",
        "bench/report/d.txt: no \"load average at start:\" line in its header, and no \"edited by hand:\" line saying why");
  }

  @Test
  void aPageQuotingARawFileEditedByHandShowsItsEditedByHandLine() throws Exception {
    write("bench/report/x/table.txt", raw(measured, "edited by hand: a path shortened to JAVA25\n"));
    String quote = "<!--fig bench/report/x/table.txt ; RPC echo ; rpc-server ; 64B\\|1x-->1.14<!--/fig-->\n";
    write("docs/a.md", quote);
    Figures figures = new Figures(root);
    assertThat(new FiguresCheck(figures).handEditsNotShown()).containsExactly("docs/a.md quotes"
        + " bench/report/x/table.txt, edited by hand, without a <!--fig bench/report/x/table.txt ; header ; edited by"
        + " hand--> marker");
    write("docs/a.md", quote + "<!--fig bench/report/x/table.txt ; header ; edited by hand-->?<!--/fig-->\n");
    assertThat(new FiguresCheck(figures).handEditsNotShown()).isEmpty();
    assertThat(render("docs/a.md")).contains("edited by hand-->a path shortened to JAVA25<!--/fig-->");
  }

  @Test
  void everyPageIsScannedForFiguresTypedInItsProse() throws Exception {
    for (String page : List.of("README.md", "docs/reliability.md", "docs/shutdown.md", "docs/deploy.md",
        "docs/warm-start.md", "k8s/README.md", "services/web/README.md", "bench/report/x/README.md")) {
      write(page, "A sentence.\nThe drain took 31 ms here.\n");
    }
    List<String> typed = new FiguresCheck(new Figures(root)).proseFigures();
    assertThat(typed).hasSize(8).contains("docs/reliability.md:2: \"31 ms\" typed by hand in: The drain took 31 ms"
        + " here.", "k8s/README.md:2: \"31 ms\" typed by hand in: The drain took 31 ms here.");
  }

  private String render() throws IOException {
    return render("README.md");
  }

  private String render(String page) throws IOException {
    return new Figures(root).render(Files.readString(root.resolve(page), StandardCharsets.UTF_8));
  }

  private void write(String path, String text) throws IOException {
    Files.createDirectories(root.resolve(path).getParent() == null ? root : root.resolve(path).getParent());
    Files.writeString(root.resolve(path), text, StandardCharsets.UTF_8);
  }

  private void commit(String message) throws Exception {
    git("add", "-A");
    git("commit", "-q", "-m", message);
  }

  private String git(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("git", "-C", root.toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as("git %s: %s", String.join(" ", args), out).isZero();
    return out;
  }
}
