package io.portshare.bench.staticfiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class WrkResultTest {

  static final String KEEP_ALIVE = """
      Running 3s test @ http://127.0.0.7:18080/1k.bin
        2 threads and 64 connections
        Thread Stats   Avg      Stdev     Max   +/- Stdev
          Latency     1.26ms  850.00us  20.01ms   89.12%
          Req/Sec    27.01k     2.00k   30.50k    70.00%
        Latency Distribution
           50%    1.00ms
           75%    1.50ms
           90%    2.50ms
           99%    5.68ms
        161106 requests in 3.00s, 200.00MB read
      Requests/sec:  53702.00
      Transfer/sec:     66.67MB
      """;

  static final String CLOSE_WITH_ERRORS = """
      Running 2s test @ http://127.0.0.9:18090/index.html
        2 threads and 64 connections
        Thread Stats   Avg      Stdev     Max   +/- Stdev
          Latency   812.50us    1.10ms   1.02s    95.00%
          Req/Sec     5.00k   500.00     6.00k    70.00%
        Latency Distribution
           50%  500.00us
           75%  700.00us
           90%    1.00ms
           99%    1.01s
        20000 requests in 2.00s, 90.00MB read
        Socket errors: connect 1, read 20, write 300, timeout 4000
        Non-2xx or 3xx responses: 7
      Requests/sec:  10000.00
      Transfer/sec:     45.00MB
      """;

  @Test
  void readsRequestsWindowLatencyAndNoErrors() {
    WrkResult r = WrkResult.parse(KEEP_ALIVE);
    assertThat(r.requests()).isEqualTo(161_106);
    assertThat(r.seconds()).isEqualTo(3.0);
    assertThat(r.requestsPerSecond()).isCloseTo(53_702, within(0.5));
    assertThat(r.latencyAvgUs()).isCloseTo(1260, within(1e-6));
    assertThat(r.latencyP99Us()).isCloseTo(5680, within(1e-6));
    assertThat(r.errors()).isZero();
  }

  @Test
  void addsEverySocketErrorAndBadStatusAndReadsEachTimeUnit() {
    WrkResult r = WrkResult.parse(CLOSE_WITH_ERRORS);
    assertThat(r.socketErrors()).isEqualTo(1 + 20 + 300 + 4000);
    assertThat(List.of(r.connectErrors(), r.readErrors(), r.writeErrors(), r.timeouts()))
        .containsExactly(1L, 20L, 300L, 4000L);
    assertThat(r.badStatus()).isEqualTo(7);
    assertThat(r.errors()).isEqualTo(4328);
    assertThat(r.latencyAvgUs()).isCloseTo(812.5, within(1e-6));
    assertThat(r.latencyP99Us()).isCloseTo(1_010_000, within(1e-6));
    assertThat(WrkResult.micros("1.5", "m")).isEqualTo(90e6);
  }

  @Test
  void outputWithoutARequestCountIsAnErrorThatShowsTheOutput() {
    assertThatThrownBy(() -> WrkResult.parse("unable to connect to 127.0.0.2:1 Connection refused"))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("Connection refused");
  }
}
