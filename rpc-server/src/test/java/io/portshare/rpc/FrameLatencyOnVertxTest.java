package io.portshare.rpc;

import io.portshare.rpc.netsocket.KnownClockEcho;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@link FrameLatencyTest} again with {@code --engine vertx}: its frames are timed into the same
 * histogram, from the read to the echoes handed to the socket (Vert.x flushes as the read's handling ends).
 */
class FrameLatencyOnVertxTest extends FrameLatencyTest {

  @Override
  List<String> engineFlags() {
    return List.of("--engine", "vertx");
  }

  /** The Vert.x engine's connection, on a clock that moves 5 ms as the echo is handed to the socket. */
  @Override
  byte[] echoTakingFiveMillis(RpcMetrics metrics, byte[] frame) {
    return KnownClockEcho.oneRead(metrics, frame, TimeUnit.MILLISECONDS.toNanos(5));
  }
}
