package io.portshare.rpc;

import io.portshare.rpc.netsocket.KnownClockEcho;
import io.portshare.runtime.NettyAccess;
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

  /**
   * The Vert.x engine's connection, on a clock that moves 5 ms as the echo is handed to the socket;
   * on the Buffer path the runtime would hand it in this run of the suite (PORTSHARE_CHANNEL=netty:
   * copies, the stock path).
   */
  @Override
  byte[] echoTakingFiveMillis(RpcMetrics metrics, byte[] frame) {
    NettyAccess.BufferBytes bufferBytes = "netty".equals(System.getenv("PORTSHARE_CHANNEL"))
        ? NettyAccess.BufferBytes.COPIES : NettyAccess.BufferBytes.VIEWS;
    return KnownClockEcho.oneRead(bufferBytes, metrics, frame, TimeUnit.MILLISECONDS.toNanos(5));
  }
}
