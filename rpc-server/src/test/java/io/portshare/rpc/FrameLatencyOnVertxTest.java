package io.portshare.rpc;

import java.util.List;

/** {@link FrameLatencyTest} again with {@code --engine vertx}: its frames are timed into the same histogram. */
class FrameLatencyOnVertxTest extends FrameLatencyTest {

  @Override
  List<String> engineFlags() {
    return List.of("--engine", "vertx");
  }
}
