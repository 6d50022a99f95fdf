package io.portshare.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Whole frames next to each other leave as one write; a frame that does not follow starts a new run. */
class FrameRunTest {

  private final List<String> writes = new ArrayList<>();
  private final FrameRun run = new FrameRun((from, to) -> writes.add(from + ".." + to));

  @Test
  void framesNextToEachOtherLeaveAsOneWriteWhenTheReadEnds() {
    run.begin(3);
    run.add(3, 4);
    run.add(7, 10);
    run.add(17, 4);
    assertThat(writes).as("before the read ends").isEmpty();
    run.write();
    run.write();
    assertThat(writes).containsExactly("3..21");
  }

  @Test
  void aFrameThatDoesNotFollowTheRunWritesItFirst() {
    run.begin(0);
    run.add(0, 4);
    run.add(10, 6);
    assertThat(writes).containsExactly("0..4");
    run.write();
    assertThat(writes).containsExactly("0..4", "10..16");
  }

  @Test
  void anEmptyRunIsNeverWritten() {
    run.begin(5);
    run.add(9, 4);
    assertThat(writes).as("the empty run before a frame past the read's start").isEmpty();
    run.write();
    assertThat(writes).containsExactly("9..13");
    run.begin(13);
    run.write();
    assertThat(writes).as("a read with no whole frame").containsExactly("9..13");
  }
}
