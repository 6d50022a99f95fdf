package io.portshare.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** HTTP dates as RFC 9110 section 5.6.7 has them: written as IMF-fixdate, read in all three forms. */
class HttpDatesTest {

  private static final long DAY_ONE = Instant.parse("2026-12-01T04:05:06Z").getEpochSecond();

  @Test
  void writesImfFixdateWithATwoDigitDay() {
    assertThat(HttpDates.format(DAY_ONE * 1000)).isEqualTo("Tue, 01 Dec 2026 04:05:06 GMT");
    assertThat(HttpDates.format(Instant.parse("2025-03-07T23:59:59.999Z").toEpochMilli()))
        .isEqualTo("Fri, 07 Mar 2025 23:59:59 GMT");
    assertThat(HttpDates.format(Instant.parse("2026-11-30T00:00:00Z").toEpochMilli()))
        .isEqualTo("Mon, 30 Nov 2026 00:00:00 GMT");
  }

  @ParameterizedTest
  @ValueSource(strings = {"Tue, 01 Dec 2026 04:05:06 GMT", "Tuesday, 01-Dec-26 04:05:06 GMT",
      "Tue Dec  1 04:05:06 2026", " Tue, 01 Dec 2026 04:05:06 GMT "})
  void readsEachOfTheThreeForms(String value) {
    assertThat(HttpDates.parseSeconds(value)).isEqualTo(DAY_ONE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"yesterday", "", "Tue, 01 Dec", "1733025906", "Tue, 32 Dec 2026 04:05:06 GMT"})
  void anythingElseIsNotADate(String value) {
    assertThat(HttpDates.parseSeconds(value)).isEqualTo(-1);
  }
}
