package io.portshare.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A drain's quiet tick: nothing read since the last tick, with reading on the whole tick. */
class QuietTicksTest {

  private final QuietTicks ticks = new QuietTicks();

  @Test
  void aTickWithNothingReadAndReadingOnIsQuiet() {
    ticks.start(100, false);
    assertThat(ticks.quiet(100, true)).isTrue();
  }

  @Test
  void bytesReadDuringTheTickMakeItNotQuietAndTheNextOneCanBe() {
    ticks.start(100, false);
    assertThat(ticks.quiet(164, true)).isFalse();
    assertThat(ticks.quiet(164, true)).isTrue();
  }

  @Test
  void readingOffAtTheStartOrAnyTimeInATickProvesNothing() {
    ticks.start(100, true);
    assertThat(ticks.quiet(100, true)).as("paused when the drain started").isFalse();
    assertThat(ticks.quiet(100, true)).isTrue();
    ticks.paused();
    assertThat(ticks.quiet(100, true)).as("paused and resumed within the tick").isFalse();
    assertThat(ticks.quiet(100, false)).as("still paused").isFalse();
    assertThat(ticks.quiet(100, true)).as("resumed during the tick").isFalse();
    assertThat(ticks.quiet(100, true)).isTrue();
  }
}
