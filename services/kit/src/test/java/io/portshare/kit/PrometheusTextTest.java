package io.portshare.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PrometheusTextTest {

  private static String histogram(String b1, String b2, String inf, String count) {
    return """
        # TYPE h_seconds histogram
        h_seconds_bucket{loop="0",le="0.001"} %s
        h_seconds_bucket{loop="0",le="0.01"} %s
        h_seconds_bucket{loop="0",le="+Inf"} %s
        h_seconds_count{loop="0"} %s
        h_seconds_sum{loop="0"} 0.02
        h_seconds_bucket{loop="1",le="0.001"} 0
        h_seconds_bucket{loop="1",le="+Inf"} 9
        h_seconds_count{loop="1"} 9
        h_seconds_sum{loop="1"} 1
        """.formatted(b1, b2, inf, count);
  }

  @ParameterizedTest(name = "{0} {1} {2} count {3}: {4}")
  @CsvSource({
      "1, 2, 3, 3, ok",
      "0, 0, 0, 0, ok",
      "2, 1, 3, 3, out of order",
      "1, 2, 3, 4, not _count",
      "1, 4, 3, 3, out of order",
  })
  void aHistogramIsReadOnlyWhenItsBucketsAreCumulativeAndEndAtItsCount(String b1, String b2, String inf,
      String count, String outcome) {
    PrometheusText text = PrometheusText.parse(histogram(b1, b2, inf, count));
    if (outcome.equals("ok")) {
      PrometheusText.Histogram h = text.histogram("h_seconds", "loop", "0");
      assertThat(h.bounds()).containsExactly(0.001, 0.01, Double.POSITIVE_INFINITY);
      assertThat(h.buckets()).containsExactly(Double.parseDouble(b1), Double.parseDouble(b2), Double.parseDouble(inf));
      assertThat(h.count()).isEqualTo(Double.parseDouble(count));
      assertThat(h.sum()).isEqualTo(0.02);
      assertThat(text.histogram("h_seconds", "loop", "1").count()).isEqualTo(9);
    } else {
      assertThatThrownBy(() -> text.histogram("h_seconds", "loop", "0")).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(outcome);
    }
  }

  @ParameterizedTest
  @CsvSource({"loop, 2", "service, x"})
  void aSeriesThatIsNotThereIsRefused(String label, String value) {
    PrometheusText text = PrometheusText.parse(histogram("1", "2", "3", "3"));

    assertThatThrownBy(() -> text.histogram("h_seconds", label, value)).isInstanceOf(IllegalStateException.class);
  }
}
