package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.runtime.config.ScalingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The demo site's index page, as {@link DemoSite} unpacks it: the first page a newcomer sees, and the
 * page the benchmark's index workloads serve.
 */
class DemoSiteTest {

  /**
   * The bounds of the index page's size in bytes. The benchmark's static workloads (DESIGN, from seed
   * 004: "4.1K index page and 1500 MTU") ask for "a 4.1 KB index page", and the bench's {@code Site}
   * (like deploy/bench-coldstart.sh) serves this very page, the jar's
   * {@code io/portshare/statics/demo/index.html}, from static-server and from nginx. 4.1 KB is 4100
   * bytes, 4.1 KiB about 4198 (the content size the raw results in bench/report/coldstart.txt record);
   * up to 4300 the page stays a 4.1 KB page by either reading and its figures stay comparable with
   * the published ones and with earlier runs. {@code StaticProcessTest} checks the same bounds on the
   * wire.
   */
  static final int INDEX_MIN_BYTES = 4100;
  static final int INDEX_MAX_BYTES = 4300;

  private static final Pattern BLOCK = Pattern.compile("<(p|li|tr|pre)\\b[^>]*>(.*?)</\\1>", Pattern.DOTALL);
  private static final Pattern MODES_TABLE =
      Pattern.compile("<h2>Scaling modes</h2>\\s*<table>(.*?)</table>", Pattern.DOTALL);
  private static final Pattern ROW = Pattern.compile("<tr>(.*?)</tr>", Pattern.DOTALL);
  private static final Pattern FIRST_CELL = Pattern.compile("^\\s*<td>(.*?)</td>", Pattern.DOTALL);

  private static byte[] index() throws Exception {
    return Files.readAllBytes(DemoSite.unpacked().resolve("index.html"));
  }

  private static String page() throws Exception {
    return new String(index(), StandardCharsets.UTF_8);
  }

  /** The text a reader sees of an element's content: tags dropped, entities read, spaces folded. */
  private static String text(String html) {
    return html.replaceAll("<[^>]*>", "").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
        .replaceAll("\\s+", " ").trim();
  }

  private static List<String> blocks(String html) {
    return BLOCK.matcher(html).results().map(m -> text(m.group(2))).filter(t -> !t.isEmpty()).toList();
  }

  @Test
  void noParagraphListItemOrTableRowRepeats() throws Exception {
    List<String> blocks = blocks(page());
    assertThat(blocks).hasSizeGreaterThan(10).doesNotHaveDuplicates();
  }

  @Test
  void theIndexStaysTheSizeTheBenchmarkMeasures() throws Exception {
    assertThat(index().length).isBetween(INDEX_MIN_BYTES, INDEX_MAX_BYTES);
  }

  @Test
  void theModesTableNamesEveryMode() throws Exception {
    Matcher table = MODES_TABLE.matcher(page());
    assertThat(table.find()).as("a table under <h2>Scaling modes</h2>").isTrue();
    List<String> firstCells = ROW.matcher(table.group(1)).results()
        .map(r -> FIRST_CELL.matcher(r.group(1)))
        .filter(Matcher::find)
        .map(c -> text(c.group(1)).split(" ")[0])
        .toList();
    assertThat(firstCells).contains("shared", "reuseport", "pinned", "processes");
    assertThat(firstCells).containsAll(Arrays.stream(ScalingMode.values()).map(ScalingMode::label).toList());
  }

  @Test
  void theIndexNeedsNothingFromElsewhere() throws Exception {
    String page = page();
    assertThat(page).doesNotContain("<script", "<link", " src=", "http://", "https://", "@import");
    assertThat(page).contains("<style>", "<title>portshare static-server</title>");
  }
}
