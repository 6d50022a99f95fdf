package io.portshare.docs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which cells of a column of figures type a number by hand ({@link TypedFigures}). */
class TypedFiguresTest {

  @ParameterizedTest(name = "typed: {0}")
  @ValueSource(strings = {"2468.7", "<!--fig a ; b ; c ; d-->1.02x<!--/fig--> against 1.13", "52 errors"})
  void aNumberOutsideMarkersIsTyped(String cell) {
    assertThat(TypedFigures.typesANumber(cell)).isTrue();
  }

  @ParameterizedTest(name = "not typed: {0}")
  @ValueSource(strings = {"<!--fig a ; b ; c ; d ; x-->1.02x<!--/fig--> (<!--fig a ; b ; c ; d ; range-->0.99-1.32<!--/fig-->)",
      "not measured (no JVM heap)", "`64B|1x` in `1.5x`", "[ledger/vertx-path](bench/report/ledger/vertx-path/README.md)"})
  void markersCodeSpansAndLinksAreNot(String cell) {
    assertThat(TypedFigures.typesANumber(cell)).isFalse();
  }

  @Test
  void theFirstColumnTheColumnNamesAndColumnsWithoutFiguresAreNotChecked() {
    String page = "| what | 2 figures | notes |\n|---|---|---|\n| 64B\\|1x at 50% | 3.14 | from 2 runs |\n"
        + "| 1 KB close | <!--fig a ; b-->2.1<!--/fig--> ms | one run |\n| 8 KB close | 2.2 | - |\n";
    assertThat(TypedFigures.in(page)).containsExactly("3.14", "2.2");
  }
}
