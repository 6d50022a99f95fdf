package io.portshare.bench.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RunsCellTest {

  @ParameterizedTest(name = "[{index}] {0} | {1} | {2} -> {3}")
  @CsvSource(delimiter = '|', textBlock = """
      # three runs' cells                                           | combined
      1.05 (1.02-1.10)  | 1.08 (1.04-1.12)  | 1.06 (1.01-1.09)  | 1.06 (1.05-1.08)
      36.4 (35.1-38.0)  | 37.0 (36.2-39.3)  | 35.9 (35.0-36.4)  | 36.4 (35.9-37.0)
      1.05 (1.04-1.06)  | 1.30 (1.29-1.31)  | 1.10 (1.09-1.12)  | disagree (1.05-1.30)
      1.02 (1.00-1.04)  | 1.10 (1.02-1.12)  | 1.04 (1.00-1.05)  | disagree (1.02-1.10)
      1.02 (0.95-1.08)  | 1.10 (1.02-1.14)  | 1.04 (0.98-1.10)  | 1.04 (1.02-1.10)
      -                 | 1.10 (1.02-1.12)  | 1.04 (1.00-1.05)  | -
      9.6 (8.4-9.7) *   | 9.4 (9.4-9.4)     | 9.5 (9.0-9.9)     | 9.5 (9.4-9.6) *
      8.4               | 8.3               | 9.1               | 8.4 (8.3-9.1)
      2468.7            | 2510.2            | 2470.0            | 2470.0 (2468.7-2510.2)
      """)
  void theMedianOfTheRunsAndTheirSpreadUnlessTheyDisagree(String a, String b, String c, String combined) {
    assertThat(RunsCell.of(List.of(a, b, c))).isEqualTo(combined);
  }
}
