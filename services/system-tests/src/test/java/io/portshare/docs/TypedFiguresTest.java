package io.portshare.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which table cells type a measured figure by hand ({@link TypedFigures}), one cell at a time. */
class TypedFiguresTest {

  @ParameterizedTest(name = "typed: {0}")
  @ValueSource(strings = {"49.9 µs", "**1.15x** nginx", "20,275 req/s", "0.922 CPU-s/GB", "3.6 KiB per held connection",
      "21,458 trans/s", "40% busy", "<!--fig a ; b ; c ; d-->1.02x<!--/fig--> against 1.13x"})
  void aMeasuredNumberOutsideMarkersIsTyped(String cell) {
    assertThat(TypedFigures.typesAFigure(cell, false, List.of())).isTrue();
  }

  @ParameterizedTest(name = "not typed: {0}")
  @ValueSource(strings = {"<!--fig a ; b ; c ; d ; x-->1.02x<!--/fig--> (<!--fig a ; b ; c ; d ; range-->0.99-1.32<!--/fig-->)",
      "after/before requests/s (published: 0.33-0.34x)", "request line over `--max-uri` (4 KiB)",
      "kept until `--idle-timeout` (75 s); 10,000 are held (test)", "sendfile at least 3x the copying sender",
      "`64B|1x` in `1.5x`", "[ledger/vertx-path](bench/report/ledger/vertx-path/README.md)", "1 `EPOLL_CTL_ADD`, 0 MOD",
      "one request per connection, 1/8/16/24 KB objects"})
  void optionValuesThresholdsAndPublishedFiguresAreNot(String cell) {
    assertThat(TypedFigures.typesAFigure(cell, false, List.of())).isFalse();
  }

  @Test
  void besideMarkersAnyNumberIsTyped() {
    assertThat(TypedFigures.typesAFigure("2468.7", true, List.of())).isTrue();
    assertThat(TypedFigures.typesAFigure("2468.7", false, List.of())).isFalse();
    assertThat(TypedFigures.typesAFigure("not measured (no JVM heap)", true, List.of())).isFalse();
  }

  @Test
  void aPagesConstantIsAllowedByName() {
    String cell = "bytes read and dropped until a 10 ms tick passes";
    assertThat(TypedFigures.typesAFigure(cell, false, List.of())).isTrue();
    assertThat(TypedFigures.typesAFigure(cell, false, List.of("a 10 ms tick"))).isFalse();
  }

  @Test
  void theFirstColumnAndTheColumnNamesAreNotCheckedAndAFigureColumnTakesNoTypedNumber() {
    String page = "| what | 2 figures, 1 µs |\n|---|---|\n| 64B\\|1x at 50% | 3.14 ms |\n"
        + "| 1 KB close | <!--fig a ; b-->2.1<!--/fig--> ms |\n| 8 KB close | 2.2 |\n";
    assertThat(TypedFigures.in(page, List.of())).containsExactly("3.14 ms", "2.2");
  }
}
