package io.portshare.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The --listing page: names escaped in text, encoded in links, hidden ones left out, nothing outside the root. */
class DirectoryListingTest {

  @TempDir
  Path tmp;

  @Test
  void listsTheEntriesSortedWithDirectoriesMarked() throws IOException {
    Path root = Files.createDirectories(tmp.resolve("root")).toRealPath();
    Files.createDirectories(root.resolve("d/sub"));
    Files.writeString(root.resolve("d/b.txt"), "");
    Files.writeString(root.resolve("d/a \"q\" é.txt"), "");
    Files.writeString(root.resolve("d/.env"), "");

    String page = new String(new DirectoryListing(root).page("/d/"), StandardCharsets.UTF_8);

    assertThat(page).contains("<title>Index of /d/</title>", "<a href=\"../\">../</a>")
        .contains("<a href=\"a%20%22q%22%20%C3%A9.txt\">a &quot;q&quot; é.txt</a>")
        .doesNotContain(".env");
    assertThat(page.indexOf("a%20")).isLessThan(page.indexOf("b.txt"));
    assertThat(page.indexOf("b.txt")).isLessThan(page.indexOf("sub/"));
  }

  @Test
  void nothingOutsideTheRootNorAPathRefused() throws IOException {
    Path root = Files.createDirectories(tmp.resolve("root")).toRealPath();
    Files.createDirectories(tmp.resolve("outside"));
    Files.createSymbolicLink(root.resolve("out"), tmp.resolve("outside"));

    assertThat(new DirectoryListing(root).page("/out/")).isNull();
    assertThat(new DirectoryListing(root).page("/../")).isNull();
    assertThat(new DirectoryListing(root).page("/missing/")).isNull();
  }
}
