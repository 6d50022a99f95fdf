package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.portshare.kit.PrometheusText;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LatencyHistogramTest {

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  private PrometheusText scrape() {
    return PrometheusText.parse(registry.scrape());
  }

  private static double bucket(PrometheusText text, String name, String loop, String le) {
    return text.named(name + "_bucket").stream()
        .filter(s -> s.labels().get("loop").equals(loop) && s.labels().get("le").equals(le))
        .findFirst().orElseThrow(() -> new AssertionError("no bucket le=" + le + " of loop " + loop)).value();
  }

  private static double single(PrometheusText text, String name, String loop) {
    return text.named(name).stream().filter(s -> s.labels().get("loop").equals(loop))
        .findFirst().orElseThrow(() -> new AssertionError("no " + name + " of loop " + loop)).value();
  }

  /** A value lands in the first bucket whose bound is not below it: le means less or equal. */
  @ParameterizedTest(name = "{0} ns -> le={1}")
  @CsvSource({
      "0, 2.5E-5",
      "25000, 2.5E-5",
      "25001, 5.0E-5",
      "999999, 0.001",
      "1000000, 0.001",
      "5000000000, 5.0",
      "5000000001, +Inf",
      "86400000000000, +Inf",
  })
  void aValueCountsInTheFirstBucketAtOrAboveIt(long nanos, String le) {
    LatencyHistogram h = LatencyHistogram.register(registry, "t_seconds", "test", "loop", "0");
    h.record(nanos);

    PrometheusText text = scrape();
    List<PrometheusText.Sample> buckets = text.named("t_seconds_bucket");
    assertThat(buckets).hasSize(LatencyHistogram.BOUNDS_SECONDS.length + 1);
    for (PrometheusText.Sample b : buckets) {
      double bound = b.labels().get("le").equals("+Inf") ? Double.POSITIVE_INFINITY
          : Double.parseDouble(b.labels().get("le"));
      double expected = bound >= parse(le) ? 1 : 0;
      assertThat(b.value()).as("le=%s", b.labels().get("le")).isEqualTo(expected);
    }
    assertThat(single(text, "t_seconds_count", "0")).isEqualTo(1);
    assertThat(single(text, "t_seconds_sum", "0")).isEqualTo(nanos / 1e9);
  }

  private static double parse(String le) {
    return le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
  }

  @Test
  void eachLoopIsOneSeriesOfOneFamilyAndBucketsAreCumulative() {
    LatencyHistogram loop0 = LatencyHistogram.register(registry, "t_seconds", "test", "service", "t", "loop", "0");
    LatencyHistogram loop1 = LatencyHistogram.register(registry, "t_seconds", "test", "service", "t", "loop", "1");
    loop0.record(30_000, 3); // 30 µs, three frames answered together
    loop0.record(2_000_000); // 2 ms
    loop1.record(7_000_000_000L); // 7 s

    PrometheusText text = scrape();
    assertThat(registry.scrape()).containsOnlyOnce("# TYPE t_seconds histogram");
    assertThat(bucket(text, "t_seconds", "0", "2.5E-5")).isEqualTo(0);
    assertThat(bucket(text, "t_seconds", "0", "5.0E-5")).isEqualTo(3);
    assertThat(bucket(text, "t_seconds", "0", "0.001")).isEqualTo(3);
    assertThat(bucket(text, "t_seconds", "0", "0.0025")).isEqualTo(4);
    assertThat(bucket(text, "t_seconds", "0", "+Inf")).isEqualTo(4);
    assertThat(single(text, "t_seconds_count", "0")).isEqualTo(4);
    assertThat(single(text, "t_seconds_sum", "0")).isCloseTo(0.00209, offset(1e-12));
    assertThat(bucket(text, "t_seconds", "1", "5.0")).isEqualTo(0);
    assertThat(bucket(text, "t_seconds", "1", "+Inf")).isEqualTo(1);
    assertThat(text.named("t_seconds_count")).allSatisfy(s -> assertThat(s.labels()).containsEntry("service", "t"));
    assertThat(loop0.count()).isEqualTo(4);
  }

  @Test
  void aLoopRegisteredAgainReplacesItsSeries() {
    LatencyHistogram.register(registry, "t_seconds", "test", "loop", "0").record(1);
    LatencyHistogram.register(registry, "t_seconds", "test", "loop", "0");

    assertThat(single(scrape(), "t_seconds_count", "0")).isEqualTo(0);
    assertThat(scrape().named("t_seconds_count")).hasSize(1);
  }

  @Test
  void aHistogramInNoRegistryOrAnotherRegistryIsNotRendered() {
    new LatencyHistogram().record(1);
    LatencyHistogram.register(new SimpleMeterRegistry(), "t_seconds", "test", "loop", "0").record(1);

    assertThat(registry.scrape()).doesNotContain("t_seconds");
  }

  /** Recording allocates nothing: 100,000 values after warm-up, by the thread's allocation counter. */
  @Test
  void recordingAllocatesNothing() {
    LatencyHistogram h = LatencyHistogram.register(registry, "t_seconds", "test", "loop", "0");

    long allocated = ThreadAllocation.over(i -> h.record(i * 50_021L, 1 + (i & 3)));

    assertThat(allocated).as(ThreadAllocation.BOUND).isLessThan(ThreadAllocation.ROUNDS);
    assertThat(h.count()).isGreaterThan(3L * ThreadAllocation.ROUNDS);
  }

  @Test
  void theBoundsRiseFromTensOfMicrosecondsToSeconds() {
    assertThat(LatencyHistogram.BOUNDS_SECONDS).isSorted().hasSizeBetween(16, 20);
    assertThat(LatencyHistogram.BOUNDS_SECONDS[0]).isLessThanOrEqualTo(0.00005);
    assertThat(LatencyHistogram.BOUNDS_SECONDS[LatencyHistogram.BOUNDS_SECONDS.length - 1]).isEqualTo(5);
  }
}
