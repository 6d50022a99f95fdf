package io.portshare.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which {@code Accept-Encoding} values get the gzip sibling of a file (RFC 9110 12.5.3). */
class AcceptEncodingTest {

  @ParameterizedTest(name = "{0} allows gzip")
  @ValueSource(strings = {"gzip", "gzip, deflate, br", "br, gzip", "gzip;q=1", "gzip; q=0.5", "gzip;q=0.001",
      "deflate;q=0, gzip;q=0.1"})
  void gzipNamedWithAWeightAboveZero(String header) {
    assertThat(AcceptEncoding.allowsGzip(header)).isTrue();
  }

  @ParameterizedTest(name = "{0} does not")
  @ValueSource(strings = {"", "deflate, br", "identity", "gzip;q=0", "gzip; q=0", "gzip;q=0.0", "gzip;q=0.000, br"})
  void gzipAbsentOrRefused(String header) {
    assertThat(AcceptEncoding.allowsGzip(header)).isFalse();
  }

  @Test
  void noHeaderNoGzip() {
    assertThat(AcceptEncoding.allowsGzip(null)).isFalse();
  }
}
